"""Bulk text rows and decimal columns (symbolic.traces.byte_rows) against plain Python formatting: the
per-row construction (object tables joined row by row)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from symbolic.traces import byte_rows
from symbolic.traces.byte_rows import Table, decimal_blocks, decimals, rows, table

ODD = ["", "a", "¬b", 'q"uote', "back\\slash", "c→d", "tab\tnew\nline\r", "\0nul", "\x01\x1f", "€𝄞", "x" * 300]


def _reference(columns, n):
    """The former construction: each row the pieces of its indices, looked up one by one."""
    return b"".join(b"".join(pieces[0 if index is None else int(index[i])] for pieces, index in columns)
                    for i in range(n))


@pytest.mark.parametrize("n", [0, 1, 7, 8, 15, 22])
def test_decimal_blocks_concatenate_to_decimals(monkeypatch, n):
    monkeypatch.setattr(byte_rows, "_BLOCK", 7)
    values = np.random.default_rng(n).integers(-5, 3000, n)
    pieces = list(decimal_blocks(values))
    assert b"".join(pieces) == ",".join(map(str, values.tolist())).encode()
    assert len(pieces) == max(0, 2 * -(-n // 7) - 1)  # one piece a block, a comma between blocks


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16, np.uint64, np.bool_])
def test_decimals_are_json_integers_for_every_integer_type(dtype):
    values = np.array([1, 0, 1], dtype=dtype) if dtype is np.bool_ else \
        np.array([np.iinfo(dtype).min, 0, 9, 10, np.iinfo(dtype).max], dtype=dtype)
    assert decimals(values) == ",".join(str(int(v)) for v in values.tolist()).encode()
    assert json.loads(b"[" + decimals(values) + b"]") == [int(v) for v in values.tolist()]


@pytest.mark.parametrize("chunk", [1, 3, 1 << 14])
def test_rows_concatenate_table_pieces(chunk):
    rng = np.random.default_rng(chunk)
    names = ["a", "¬b", "c→d", ""]
    first, second = rng.integers(0, 4, 50), rng.integers(0, 2, 50)
    expected = "".join(f"{names[i]}|{'xy'[j]}\n" for i, j in zip(first.tolist(), second.tolist())).encode()
    got = b"".join(rows([(table(names), first), (table(["|x\n", "|y\n"]), second)], 50, chunk=chunk))
    assert got == expected


@pytest.mark.parametrize("seed", range(6))
def test_rows_equal_the_per_row_construction_on_odd_strings(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 300))
    tables = [list(rng.permutation(ODD))[: int(rng.integers(1, len(ODD)))] for _ in range(4)]
    dtypes = [np.int8, np.int32, np.int64, np.uint16]
    columns = [(t, rng.integers(0, len(t), n).astype(d)) for t, d in zip(tables, dtypes)] + [(["|\n"], None)]
    expected = _reference([([p.encode("utf-8") for p in t], index) for t, index in columns], n)
    got = b"".join(rows([(table(t), index) for t, index in columns], n, chunk=int(rng.integers(1, 40))))
    assert got == expected


def test_rows_take_bool_columns_and_longer_indices():
    flags = np.array([True, False, True, True])
    got = b"".join(rows([(table(["no", "yes"]), flags), (table([","]), np.zeros(9, dtype=np.int64))], 4))
    assert got == b"yes,no,yes,yes,"


def test_rows_reject_indices_outside_their_table_and_short_columns():
    with pytest.raises(IndexError):
        b"".join(rows([(table(["a", "b"]), np.array([0, 2]))], 2))
    with pytest.raises(IndexError):
        b"".join(rows([(table(["a", "b"]), np.array([-1]))], 1))
    with pytest.raises(ValueError):
        b"".join(rows([(table(["a"]), np.array([0]))], 2))
    with pytest.raises(TypeError):
        b"".join(rows([(table(["a"]), np.array([0.0]))], 1))


@pytest.mark.parametrize("pieces", [ODD, ["plain", "ascii", ""], [], ["\0", "a\0b"], ["¬", "x"]])
def test_tables_of_text_hold_each_piece_encoded(pieces):
    expected = [p.encode("utf-8") for p in pieces]
    assert table(pieces).pieces() == expected
    assert Table.of_text(list(pieces)).pieces() == expected
    assert Table(expected).pieces() == expected
    assert len(table(pieces)) == len(pieces)


def test_tables_take_bytes_among_the_pieces():
    assert table(["a", b"\xc2\xac", "¬"]).pieces() == [b"a", b"\xc2\xac", "¬".encode()]
    with pytest.raises(TypeError):
        Table.of_text(["a", b"b"])
