"""Bulk text rows and decimal columns (symbolic.byte_rows and its C kernel symbolic._byterows) against
plain Python formatting: the former per-row construction (object tables joined row by row)."""

from __future__ import annotations

import numpy as np
import pytest

from symbolic import _byterows, byte_rows
from symbolic.byte_rows import Table, decimal_blocks, decimals, rows, table

ODD = ["", "a", "¬b", 'q"uote', "back\\slash", "c→d", "tab\tnew\nline\r", "\0nul", "\x01\x1f", "€𝄞", "x" * 300]


def _reference(columns, n):
    """The former construction: each row the pieces of its indices, looked up one by one."""
    return b"".join(b"".join(pieces[0 if index is None else int(index[i])] for pieces, index in columns)
                    for i in range(n))


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


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                                   np.bool_])
def test_decimals_of_every_integer_type_and_its_extremes(dtype):
    if dtype is np.bool_:
        values = np.array([True, False, True])
    else:
        info = np.iinfo(dtype)
        around = [0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 10001, 99999]
        values = np.array([info.min, info.max] + [v for v in around if v <= info.max]
                          + [-v for v in around if -v >= info.min], dtype=dtype)
    assert decimals(values) == ",".join(str(int(v)) for v in values.tolist()).encode()


@pytest.mark.parametrize("seed", range(6))
def test_decimals_of_random_ranges_equal_str_join(seed):
    rng = np.random.default_rng(seed)
    for low, high in [(-1, 2), (-1, 300), (0, 10 ** 6), (-999_999, 9_999_999), (5, 6), (-(10 ** 7), 10 ** 8),
                      (-(2 ** 62), 2 ** 62)]:
        values = rng.integers(low, high, int(rng.integers(0, 400)))
        expected = ",".join(map(str, values.tolist())).encode()
        assert decimals(values) == expected
        assert decimals(values.astype(np.int32 if high < 2 ** 31 and low >= -(2 ** 31) else np.int64)) == expected


def test_decimals_kernel_takes_a_range_and_checks_it():
    values = np.arange(-3, 12)
    assert _byterows.decimals(values, 2, 6) == b"-1,0,1,2"
    assert _byterows.decimals(values, 4, 4) == b""
    with pytest.raises(ValueError):
        _byterows.decimals(values, 3, 16)
    with pytest.raises(TypeError):
        _byterows.decimals(np.zeros(3), 0, 3)


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


def test_rows_kernel_rejects_offsets_outside_the_data():
    index = np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError):
        _byterows.rows([(b"ab", np.array([0, 5], dtype=np.int64), index)], 0, 1)
    with pytest.raises(ValueError):
        _byterows.rows([(b"ab", np.array([2, 1], dtype=np.int64), index)], 0, 1)
    with pytest.raises(TypeError):
        _byterows.rows([(b"ab", np.array([0, 1], dtype=np.int32), index)], 0, 1)
    assert _byterows.rows([], 0, 5) == b""


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
