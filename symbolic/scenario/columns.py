"""Validating a long list of flat records column by column (the fast path of the scenario loader).

A theory of tens of thousands of priorities, or of a million explicit
attacks, is a long JSON list of small objects whose fields repeat the same
few strings.  Validating one pydantic model per object costs microseconds
each; :func:`validate_rows` instead checks the keys of every row at C speed,
and validates each *distinct* value of a column once, with the field's own
pydantic validator (so normalizations such as ``E_01`` -> ``E-01`` are the
same).  :func:`build_models` then makes the model objects without running
validation again, and :class:`symbolic.scenario.attack_list.AttackList` keeps attack
columns without making objects at all.

The fast path accepts exactly what per-row validation accepts and gives
equal objects (same field values and ``model_fields_set``), for models whose
fields take strings, ``None``, enums and tuples of strings and that have no
model validator.  Whenever a row is not a plain object of known keys with
valid values, it declines (returns ``None``) and the caller validates row by
row, so every error is the usual one.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from itertools import repeat
from operator import itemgetter
from typing import Annotated, get_origin

from pydantic import ConfigDict, TypeAdapter, ValidationError

__all__ = ["MIN_ROWS", "Rows", "build_models", "validate_rows"]

#: Lists shorter than this are validated row by row.
MIN_ROWS = 1024

_ADAPTERS: dict[tuple[type, str], TypeAdapter] = {}


@dataclass(frozen=True, slots=True)
class Rows:
    """Validated columns of ``n`` rows.

    A column (and ``fields``) of length 1 holds the value of every row.

    Attributes
    ----------
    n : int
        The number of rows.
    columns : dict of str to tuple
        The validated values of each field, in the model's field order.
    fields : tuple of frozenset
        The keys each row gave (its ``model_fields_set``).
    """

    n: int
    columns: dict
    fields: tuple

    def column(self, name: str) -> tuple:
        """The values of field ``name``, one per row."""
        values = self.columns[name]
        return values if len(values) == self.n else values * self.n


def _adapter(model, name: str) -> TypeAdapter:
    """A validator of a tuple of values of field ``name`` of ``model``, with the field's own checks."""
    key = (model, name)
    if key not in _ADAPTERS:
        field = model.model_fields[name]
        annotation = Annotated[(field.annotation, *field.metadata)] if field.metadata else field.annotation
        config = {k: v for k, v in model.model_config.items() if k.startswith("str_")}
        _ADAPTERS[key] = TypeAdapter(tuple[annotation, ...], config=ConfigDict(**config))
    return _ADAPTERS[key]


def _is_sequence(model, name: str) -> bool:
    return get_origin(model.model_fields[name].annotation) is tuple


def _validated(model, name: str, values: list) -> tuple | None:
    """``values`` validated as field ``name``, each distinct value once; ``None`` if any is invalid."""
    first = values[0]
    if (type(first) in (str, list, type(None)) and values[-1] == first and values[len(values) // 2] == first
            and values.count(first) == len(values)):
        distinct = (first,)  # the common case: one value for every row
    else:
        if _is_sequence(model, name):
            if set(map(type, values)) != {list}:
                return None
            values = list(map(tuple, values))
        try:
            distinct = tuple(set(values))
        except TypeError:  # an unhashable value: row-by-row validation reports it
            return None
        if not set(map(type, distinct)) <= {str, tuple, type(None)}:
            return None
    try:
        valid = _adapter(model, name).validate_python(distinct)
    except ValidationError:
        return None
    if len(distinct) == 1:
        return valid
    if distinct == valid and list(map(type, distinct)) == list(map(type, valid)):
        return tuple(values)  # nothing to normalize (an enum member equals its value: the types tell)
    mapping = dict(zip(distinct, valid))
    return tuple(map(mapping.__getitem__, values))


def validate_rows(items, model, min_rows: int | None = None) -> Rows | None:
    """Validate a list of records of ``model`` column by column.

    Parameters
    ----------
    items : object
        The list as decoded from JSON.
    model : type
        A pydantic model of flat records (see the module docstring).
    min_rows : int, optional
        Decline shorter lists (default :data:`MIN_ROWS`).

    Returns
    -------
    Rows or None
        ``None`` when ``items`` is not a long enough list of plain objects
        with only the model's keys and valid values: validate row by row then.

    Examples
    --------
    >>> from symbolic.scenario.model import Priority
    >>> rows = validate_rows([{"stronger": "r2", "weaker": "r1", "basis": "Hierarchy"}], Priority, 1)
    >>> rows.column("basis"), rows.fields == (frozenset({"stronger", "weaker", "basis"}),)
    ((<Basis.HIERARCHY: 'hierarchy'>,), True)
    """
    if type(items) is not list or not items or len(items) < (MIN_ROWS if min_rows is None else min_rows):
        return None
    n = len(items)
    names = list(model.model_fields)
    required = [name for name in names if model.model_fields[name].is_required()]
    try:  # anything but a dict fails here (a mapping of another type is validated row by row)
        given = {name: tuple(map(itemgetter(name), items)) for name in required}
        counts = {name: n for name in required}
        total = sum(map(len, items))
        for name in names:
            if name in counts:
                continue
            if total == sum(counts.values()):  # every key is accounted for: no row has this one
                counts[name] = 0
                continue
            try:  # an optional key that every row gives: its values at once
                given[name] = tuple(map(itemgetter(name), items))
                counts[name] = n
            except KeyError:
                counts[name] = sum(map(dict.__contains__, items, repeat(name)))
    except (KeyError, TypeError):  # a missing key, or not a dict
        return None
    if total != sum(counts.values()):
        return None  # an unknown key
    columns = {}
    for name in names:
        if not counts[name]:
            columns[name] = (model.model_fields[name].get_default(call_default_factory=True),)
            continue
        if name not in given:
            given[name] = tuple(map(itemgetter(name), items)) if counts[name] == n else \
                [d[name] for d in items if name in d]
        valid = _validated(model, name, given.pop(name))
        if valid is None:
            return None
        if counts[name] < n:  # rows without the key get the default
            default = model.model_fields[name].get_default(call_default_factory=True)
            values = iter(valid) if len(valid) > 1 else repeat(valid[0])
            valid = tuple(next(values) if name in d else default for d in items)
        columns[name] = valid
    partial = [name for name in names if 0 < counts[name] < n]
    if not partial:
        fields = (frozenset(name for name in names if counts[name]),)
    else:
        whole = frozenset(name for name in names if counts[name] == n)
        shapes: dict = {}
        flags = zip(*(map(dict.__contains__, items, repeat(name)) for name in partial))
        fields = tuple(shapes.setdefault(key, whole | {p for p, flag in zip(partial, key) if flag}) for key in flags)
    return Rows(n, columns, fields)


_MAKERS: dict[tuple, object] = {}


def _dict_maker(names: tuple):
    """A function of one value per name returning ``{name: value, ...}`` (a dict display, the fastest way to
    build a small dict; ``dict(zip(names, values))`` costs about three times as much)."""
    if names not in _MAKERS:
        if not all(name.isidentifier() for name in names):
            _MAKERS[names] = lambda *values: dict(zip(names, values))
        else:
            params = ", ".join(f"_{i}" for i in range(len(names)))
            body = ", ".join(f"{name!r}: _{i}" for i, name in enumerate(names))
            _MAKERS[names] = eval(f"lambda {params}: {{{body}}}", {})  # noqa: S307 - names are field identifiers
    return _MAKERS[names]


def _setter(model, slot: str):
    """The C-level setter of ``slot`` on instances of ``model`` (its descriptor's ``__set__``)."""
    for klass in model.__mro__:
        if slot in vars(klass) and hasattr(vars(klass)[slot], "__set__"):
            return vars(klass)[slot].__set__
    return lambda obj, value: object.__setattr__(obj, slot, value)


def build_models(model, rows: Rows) -> tuple:
    """The model objects of validated ``rows``, made without validating again.

    Each object gets what validation would give it: its field values as
    ``__dict__``, its own ``model_fields_set`` and no extra or private values.
    The work is done column-wise by C-level ``map`` calls: one call per object
    and slot, no Python loop.
    """
    names = tuple(model.model_fields)
    n = rows.n
    objects = list(map(object.__new__, repeat(model, n)))
    fields = rows.fields if len(rows.fields) == n else rows.fields * n
    values = {"__dict__": map(_dict_maker(names), *(rows.column(name) for name in names)),
              "__pydantic_fields_set__": map(set, fields),
              "__pydantic_extra__": repeat(None, n), "__pydantic_private__": repeat(None, n)}
    for slot, per_object in values.items():
        deque(map(_setter(model, slot), objects, per_object), 0)
    return tuple(objects)
