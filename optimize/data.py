"""Scenarios as DSPy examples, held-out evaluation and demo provenance.

An example carries the module's inputs (query, evidence package, target),
the case id (for the objective) and the gold outputs of the configuration's
predictors (for labeled demos).  The gold analysis is never an input.
:func:`demo_cases` finds which scenario each demo of a program was taken from,
so a run can prove that no evaluated case appears in any demo.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from symbolic.scenario.model import Scenario

from .errors import OptimizeError
from .objectives import Objective

__all__ = ["Evaluation", "LMCallCounter", "check_demos", "demo_cases", "evaluate", "to_examples"]

_INPUTS = ("query", "evidence", "target")


def to_examples(scenarios: Iterable[Scenario], config: str = "b4") -> list:
    """One ``dspy.Example`` per scenario, inputs ``query``, ``evidence``, ``target``.

    The gold outputs of the configuration's predictors are attached as labels
    (``theory`` for B4, ``result``/``check``/``analysis`` for B1-B3).

    Parameters
    ----------
    scenarios : iterable of Scenario
    config : str, optional
        The configuration whose predictors' labels are attached.

    Returns
    -------
    list of dspy.Example

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> ex = to_examples([penalty_scenario()])[0]
    >>> sorted(ex.inputs().keys()), ex.case_id, type(ex.theory).__name__
    (['evidence', 'query', 'target'], 'penalty', 'Extraction')
    """
    import dspy

    from assistant.configs import build
    from assistant.variants import demo_fields

    predictors = dict(build(config).named_predictors())
    out = []
    for s in scenarios:
        fields = demo_fields(s)
        labels: dict = {}
        for name, predictor in predictors.items():
            wanted = set(predictor.signature.fields) - set(_INPUTS)
            labels.update({k: v for k, v in fields.get(name, {}).items() if k in wanted and k not in labels})
        base = {"query": s.query, "evidence": fields["extract"]["evidence"], "target": s.target}
        out.append(dspy.Example(**base, **labels, case_id=s.id).with_inputs(*_INPUTS))
    return out


def _evidence_text(value) -> str:
    if hasattr(value, "format"):
        try:
            return str(value.format())
        except TypeError:
            pass
    if isinstance(value, dict) and "fragments" in value:
        return " ".join(str(f.get("text", "")) for f in value["fragments"])
    return str(value)


def demo_cases(program, scenarios: Sequence[Scenario]) -> dict[str, set[str]]:
    """Predictor name -> ids of the scenarios its demos were taken from.

    A demo matches a scenario when it has the scenario's query and every
    fragment text of the scenario's evidence (an update case, with more
    fragments, is preferred to its base).

    Examples
    --------
    >>> from assistant.configs import build
    >>> from scorer.metrics._examples import penalty_scenario
    >>> p = build("b4")
    >>> p.extract.demos = to_examples([penalty_scenario()])
    >>> demo_cases(p, [penalty_scenario()])["extract"]
    {'penalty'}
    """
    ordered = sorted(scenarios, key=lambda s: (-len(s.evidence), s.id))
    found: dict[str, set[str]] = {}
    for name, predictor in program.named_predictors():
        ids: set[str] = set()
        for demo in predictor.demos:
            get = demo.get if hasattr(demo, "get") else (lambda k, d=None: getattr(demo, k, d))
            query, evidence = get("query"), _evidence_text(get("evidence", ""))
            for s in ordered:
                if s.query == query and all(f.text in evidence for f in s.evidence):
                    ids.add(s.id)
                    break
        found[name] = ids
    return found


def check_demos(program, held_out: Sequence[Scenario]) -> None:
    """Raise if any demo of ``program`` comes from a held-out (evaluated) scenario.

    Raises
    ------
    OptimizeError
        Naming the predictor and the case.
    """
    for name, ids in demo_cases(program, held_out).items():
        if ids:
            raise OptimizeError(f"predictor {name!r} holds a demo from evaluated case {sorted(ids)[0]!r}")


class LMCallCounter:
    """Counts LM calls made in a block (DSPy's global history, which every LM and the adapter append to).

    Exact below DSPy's history cap of 10,000 entries per block; a lower bound above it.
    """

    def __enter__(self) -> "LMCallCounter":
        from dspy.clients import base_lm

        self._history = base_lm.GLOBAL_HISTORY
        self._marker = self._history[-1] if self._history else None
        self.calls = 0
        return self

    def __exit__(self, *exc) -> None:
        history = self._history
        if self._marker is None:
            self.calls = len(history)
            return
        for i in range(len(history) - 1, -1, -1):
            if history[i] is self._marker:
                self.calls = len(history) - 1 - i
                return
        self.calls = len(history)


@dataclass(frozen=True)
class Evaluation:
    """Scores of a program on a split.

    Attributes
    ----------
    scores : dict
        Case id -> composite score.
    correct : dict
        Case id -> status correct (for McNemar).
    metrics : dict
        Metric name -> mean over the cases where it applies, plus ``objective``,
        ``scored_rate`` and ``tokens_per_case``.
    answered : dict
        Case id -> whether the program gave a scored answer (no validation
        failure, no hard failure).
    tokens : dict
        Case id -> prompt and completion tokens of the case's LM calls.
    """

    scores: dict[str, float]
    correct: dict[str, bool]
    metrics: dict[str, float]
    answered: dict[str, bool] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)


def evaluate(program, scenarios: Sequence[Scenario], objective: Objective, *,
             progress: Callable[[int, int, str], None] | None = None) -> Evaluation:
    """Run ``program`` on every scenario (current DSPy settings) and score it.

    A case whose output fails validation after the re-asks (or that DSPy cannot
    parse) counts as a hard failure; any other error propagates.

    Parameters
    ----------
    program : dspy.Module
        A configuration module (compiled or not).
    scenarios : sequence of Scenario
        The split to evaluate (the held-out test split for reported results).
    objective : Objective
        Scores each case.
    progress : callable, optional
        Called as ``progress(done, total, case_id)`` after each case.

    Returns
    -------
    Evaluation

    Raises
    ------
    OptimizeError
        If ``scenarios`` is empty.
    """
    from dspy.utils.exceptions import AdapterParseError

    from assistant.adapter import recording
    from assistant.errors import ValidationFailure
    from assistant.evidence import EvidencePackage

    scores: dict[str, float] = {}
    correct: dict[str, bool] = {}
    answered: dict[str, bool] = {}
    tokens: dict[str, int] = {}
    sums: dict[str, list[float]] = {}
    ordered = sorted(scenarios, key=lambda s: s.id)
    for done, s in enumerate(ordered, 1):
        with recording() as log:
            try:
                pred = program(query=s.query, evidence=EvidencePackage.of(s.evidence), target=s.target)
            except (ValidationFailure, AdapterParseError):
                pred = None
        scored = objective.score(s.id, pred)
        scores[s.id] = scored.score
        correct[s.id] = scored.result.correct
        answered[s.id] = pred is not None and not scored.result.hard_failure
        tokens[s.id] = log.prompt_tokens + log.completion_tokens
        for name, rec in scored.result.metrics.items():
            if rec.value is not None:
                sums.setdefault(name, []).append(rec.value)
        if progress is not None:
            progress(done, len(ordered), s.id)
    if not scores:
        raise OptimizeError("cannot evaluate on an empty split")
    metrics = {name: sum(v) / len(v) for name, v in sorted(sums.items())}
    metrics["objective"] = sum(scores.values()) / len(scores)
    metrics["scored_rate"] = sum(answered.values()) / len(answered)
    metrics["tokens_per_case"] = sum(tokens.values()) / len(tokens)
    return Evaluation(scores, correct, metrics, answered, tokens)
