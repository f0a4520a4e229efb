"""A long ``priorities`` list kept as columns (:mod:`symbolic.scenario.priority_list`) against per-entry validation.

On seeded random lists (spelling variants of ids, evidence and bases, notes given or not, ungrounded and
unknown rules, repeated pairs, cycles) the columnar list must behave as the tuple of objects that
per-entry validation gives: the same objects, dumps, grounding (kept objects and dropped reasons, in
order), priority order and engine result.
"""

from __future__ import annotations

import copy
import pickle
import random
import warnings

import pytest

from symbolic.traces.aliases import collapse_aliases
from symbolic.scenario.columns import MIN_ROWS
from symbolic.engine.grounding import ground
from symbolic.scenario.model import Analysis, Priority
from symbolic.engine.priorities import priority_order
from symbolic.scenario.priority_list import PriorityList, priority_list
from symbolic.engine.status import evaluate

RULES = [f"r{i}" for i in range(40)]


def rules(evidence=("E-01",)) -> list[dict]:
    return [{"id": r, "antecedents": [], "consequent": f"{'¬' if i % 2 else ''}P", "evidence": list(evidence)}
            for i, r in enumerate(RULES)]


def entries(rng: random.Random, n: int, *, layered=False, bad=0.0, note=False) -> list[dict]:
    """``n`` priority entries over :data:`RULES`; a share ``bad`` cite or name what does not ground."""
    out = []
    for _ in range(n):
        if layered:  # stronger rules r0..r9 over weaker r10..r39: a layered, transitive order
            stronger, weaker = rng.choice(RULES[:10]), rng.choice(RULES[10:])
        else:
            stronger, weaker = rng.sample(RULES, 2)
        row = {"stronger": stronger, "weaker": weaker, "basis": rng.choice(["hierarchy", "Hierarchy", "lex_specialis"])}
        if rng.random() < bad:
            choice = rng.randrange(3)
            if choice == 0:
                row["weaker"] = "unknown9"
            elif choice == 1:
                row["evidence"] = ["E-77"]
            else:
                row["stronger"] = "rx"
        row.setdefault("evidence", [rng.choice(["E-01", "E_01", "E-02"])])
        if note and rng.random() < 0.5:
            row["note"] = rng.choice(["as stated", None])
        out.append(row)
    return out


def analysis_pair(items) -> tuple[Analysis, Analysis]:
    """The analysis validated as usual (columns for a long list) and entry by entry (a tuple of objects)."""
    fast = Analysis.model_validate({"rules": rules() + [{"id": "rx", "consequent": "Q", "evidence": ["E-99"]}],
                                    "priorities": items})
    plain = fast.model_copy(update={"priorities": tuple(Priority.model_validate(item) for item in items)})
    return fast, plain


@pytest.mark.parametrize("seed", range(6))
def test_a_long_list_behaves_as_the_tuple_of_its_objects(seed):
    rng = random.Random(seed)
    items = entries(rng, MIN_ROWS + rng.randrange(300), bad=0.1 * (seed % 3), note=seed % 2 == 1)
    fast, plain = analysis_pair(items)
    assert isinstance(fast.priorities, PriorityList) and isinstance(plain.priorities, tuple)
    assert len(fast.priorities) == len(plain.priorities)
    assert fast.priorities == plain.priorities and plain.priorities == fast.priorities
    assert fast == plain and hash(fast.priorities) == hash(plain.priorities)
    assert [p.model_fields_set for p in fast.priorities] == [p.model_fields_set for p in plain.priorities]
    assert fast.model_dump_json() == plain.model_dump_json()
    assert fast.model_dump() == plain.model_dump()
    assert fast.priorities[5] is fast.priorities[5] and fast.priorities[-3:] == plain.priorities[-3:]
    assert fast.priorities + () == plain.priorities and () + fast.priorities == plain.priorities
    assert pickle.loads(pickle.dumps(fast)) == plain
    assert copy.deepcopy(fast.priorities) is fast.priorities
    assert Analysis(priorities=fast.priorities).priorities is fast.priorities


@pytest.mark.parametrize("seed", range(6))
def test_grounding_and_order_match_the_entry_by_entry_path(seed):
    rng = random.Random(100 + seed)
    items = entries(rng, MIN_ROWS + rng.randrange(500), layered=seed % 2 == 0, bad=0.05 * (seed % 3))
    fast, plain = analysis_pair(items)
    evidence = ["E-01", "E-02"]
    a, b = ground(evidence, fast), ground(evidence, plain)
    assert a.dropped == b.dropped
    assert tuple(a.priorities) == tuple(b.priorities)
    assert isinstance(a.priorities, PriorityList)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert priority_order(a) == priority_order(b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev_a, ev_b = evaluate(a, "P"), evaluate(b, "P")
    assert ev_a.status == ev_b.status and ev_a.labelling == ev_b.labelling and ev_a.attacks == ev_b.attacks


def test_grounded_list_without_problems_is_the_same_object():
    items = entries(random.Random(7), MIN_ROWS, layered=True)
    fast, _ = analysis_pair(items)
    assert ground(["E-01", "E-02"], fast).priorities is fast.priorities


def test_short_lists_and_bad_entries_take_the_entry_by_entry_path():
    items = entries(random.Random(8), MIN_ROWS - 1)
    assert priority_list(items, Priority) is None
    assert isinstance(analysis_pair(items)[0].priorities, tuple)
    items = entries(random.Random(9), MIN_ROWS)
    for change in ({"basis": "no-such-basis"}, {"extra": 1}, {"stronger": "two words"}):
        changed = items[:100] + [{**items[100], **change}] + items[101:]
        assert priority_list(changed, Priority) is None
        with pytest.raises(ValueError) as caught:
            Analysis.model_validate({"priorities": changed})
        assert "priorities.100" in str(caught.value)


# -- the alias collapse keeps a list it leaves unchanged (TNF step v) --------------------------------

def distinct_entries(n: int) -> list[dict]:
    """``n`` priority entries over :data:`RULES` (and rules ``s<i>``), no two with the same endpoints."""
    pairs = [(a, b) for a in RULES for b in RULES if a != b]
    return [{"stronger": s, "weaker": w, "basis": "hierarchy", "evidence": ["E-01"]} for s, w in pairs[:n]]


def collapsed_pair(items, extra_rules=()):
    """The grounded columnar analysis, its collapse, and the collapse of the entry-by-entry analysis;
    the rules of :data:`RULES` have distinct contents (none is an alias of another)."""
    own = [{"id": r, "antecedents": [f"A{i}"], "consequent": "P", "evidence": ["E-01"]} for i, r in enumerate(RULES)]
    fast = Analysis.model_validate({"rules": own + list(extra_rules), "priorities": items})
    plain = fast.model_copy(update={"priorities": tuple(Priority.model_validate(item) for item in items)})
    evidence = ["E-01", "E-02"]
    grounded = ground(evidence, fast)
    return grounded, collapse_aliases(grounded), collapse_aliases(ground(evidence, plain))


def test_collapse_without_aliases_keeps_the_list_unbuilt():
    grounded, (fast, fast_alias), (slow, slow_alias) = collapsed_pair(distinct_entries(MIN_ROWS + 17))
    assert isinstance(grounded.priorities, PriorityList)
    assert fast.priorities is grounded.priorities and fast.priorities._objects is None
    assert fast_alias == slow_alias == {}
    assert tuple(fast.priorities) == tuple(slow.priorities) and fast.dropped == slow.dropped


@pytest.mark.parametrize("change", ["repeat", "self", "alias"])
def test_collapse_of_a_list_it_changes_is_the_entry_by_entry_one(change):
    items = distinct_entries(MIN_ROWS + 40)
    extra = ()
    if change == "repeat":  # equal entries: the later ones dropped
        items += copy.deepcopy(items[3:9])
    elif change == "self":  # a rule over itself: kept, a cycle of length one (Definition 3)
        items[20] = {**items[20], "weaker": items[20]["stronger"]}
    else:  # r0 restated as r0b: priorities naming r0b redirected to r0
        extra = [{"id": "r0b", "antecedents": ["A0"], "consequent": "P", "evidence": ["E-01"]}]
        items[5] = {**items[5], "stronger": "r0b"}
    grounded, (fast, fast_alias), (slow, slow_alias) = collapsed_pair(items, extra)
    assert fast_alias == slow_alias
    assert tuple(fast.priorities) == tuple(slow.priorities) and fast.dropped == slow.dropped
    assert len(fast.priorities) < len(items) or change in ("alias", "self")
