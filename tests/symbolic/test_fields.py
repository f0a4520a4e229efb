"""The id normalization of :mod:`symbolic.scenario.fields` against its definition (one whitespace-free token)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from symbolic.scenario.fields import object_id


def reference(value):
    """The definition: a string of exactly one token after splitting on whitespace, that token."""
    parts = value.split() if isinstance(value, str) else ()
    if len(parts) != 1:
        raise ValueError(value)
    return parts[0]


@given(st.one_of(st.text(), st.text(alphabet=st.sampled_from("ab_1\u00e4\u65e5 \t\n\x1c\x1f\u2003\u180e")),
                 st.from_regex(r"[A-Za-z_][A-Za-z0-9_]*", fullmatch=True)))
def test_object_id_is_the_one_token(value):
    try:
        expected = reference(value)
    except ValueError:
        with pytest.raises(ValueError, match="an id must be a non-empty string without spaces"):
            object_id(value)
    else:
        assert object_id(value) == expected


@pytest.mark.parametrize("value", [None, 3, b"r1", ["r1"]])
def test_object_id_refuses_what_is_not_a_string(value):
    with pytest.raises(ValueError):
        object_id(value)
