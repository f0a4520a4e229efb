"""Bulk text rows and decimal columns (symbolic.byte_rows) against plain Python formatting."""

from __future__ import annotations

import numpy as np
import pytest

from symbolic import byte_rows
from symbolic.byte_rows import decimal_blocks, decimals, rows, table


@pytest.mark.parametrize("n", [0, 1, 6, 7, 8, 20, 101])
def test_decimals_equal_str_join_across_blocks(monkeypatch, n):
    monkeypatch.setattr(byte_rows, "_BLOCK", 7)
    values = np.random.default_rng(n).integers(-12, 10 ** 6, n)
    values[: n // 3] = 0
    assert decimals(values) == ",".join(map(str, values.tolist())).encode()


@pytest.mark.parametrize("values", [[0, 1, 1, 0, 1], [7], [10, 99, 42], [100, 999], [10, 9], [0, 10], [-3, -4]])
def test_decimals_of_one_width_columns(values):
    column = np.array(values)
    assert decimals(column) == ",".join(map(str, values)).encode()


@pytest.mark.parametrize("n", [0, 1, 7, 8, 15, 22])
def test_decimal_blocks_concatenate_to_decimals(monkeypatch, n):
    monkeypatch.setattr(byte_rows, "_BLOCK", 7)
    values = np.random.default_rng(n).integers(-5, 3000, n)
    pieces = list(decimal_blocks(values))
    assert b"".join(pieces) == ",".join(map(str, values.tolist())).encode()
    assert len(pieces) == max(0, 2 * -(-n // 7) - 1)  # one piece a block, a comma between blocks


def test_decimals_of_wide_values():
    values = np.array([0, 9, 10, 99, 100, 2 ** 31, -(2 ** 40), 10 ** 15], dtype=np.int64)
    assert decimals(values) == ",".join(map(str, values.tolist())).encode()


@pytest.mark.parametrize("chunk", [1, 3, 1 << 14])
def test_rows_concatenate_table_pieces(chunk):
    rng = np.random.default_rng(chunk)
    names = ["a", "¬b", "c→d", ""]
    first, second = rng.integers(0, 4, 50), rng.integers(0, 2, 50)
    expected = "".join(f"{names[i]}|{'xy'[j]}\n" for i, j in zip(first.tolist(), second.tolist())).encode()
    got = b"".join(rows([(table(names), first), (table(["|x\n", "|y\n"]), second)], 50, chunk=chunk))
    assert got == expected


@pytest.mark.parametrize("seed", range(8))
def test_lookup_and_digit_paths_agree_with_str_join(monkeypatch, seed):
    """Small ranges take the word lookup, wide ones the digit grid; both equal ``str`` joined by commas."""
    rng = np.random.default_rng(seed)
    monkeypatch.setattr(byte_rows, "_BLOCK", int(rng.integers(1, 50)))
    for low, high in [(-1, 2), (-1, 300), (0, 10 ** 6), (-999_999, 9_999_999), (5, 6), (-(10 ** 7), 10 ** 8)]:
        values = rng.integers(low, high, int(rng.integers(0, 400)))
        expected = ",".join(map(str, values.tolist())).encode()
        assert decimals(values) == expected
        assert b"".join(decimal_blocks(values)) == expected
        monkeypatch.setattr(byte_rows, "_lookup", lambda v: None)  # the digit grid alone
        assert decimals(values) == expected
        monkeypatch.undo()
        monkeypatch.setattr(byte_rows, "_BLOCK", 7)


def test_lookup_is_used_only_for_narrow_ranges():
    assert byte_rows._lookup(np.array([-1, 0, 4000] * 2000)) is not None
    assert byte_rows._lookup(np.array([0, 10 ** 6])) is None  # wider than the column
    assert byte_rows._lookup(np.array([10 ** 7] * 300)) is None  # eight digits do not fit a word with the comma
    assert byte_rows._lookup(np.array([], dtype=np.int64)) is None
