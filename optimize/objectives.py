"""Benchmark metrics as DSPy optimization objectives.

One adapter turns the scorer's per-case metrics into DSPy metrics:

* :meth:`Objective.metric` has DSPy's shape ``metric(example, pred, trace=None)``
  and returns the weighted composite in ``[0, 1]`` (while bootstrapping, when
  ``trace`` is given, a bool: the composite reaches ``threshold``);
* :meth:`Objective.gepa_metric` has GEPA's five-argument shape and returns
  ``dspy.Prediction(score=..., feedback=...)`` with the alignment feedback of
  :func:`optimize.feedback.feedback_text`.

The composite averages the applicable metrics with their weights (a metric
that does not apply to a case, e.g. CLA on a case without a gold
contradiction, drops out of that case's average); UUCR, a rate of bad
conclusions, enters as ``1 - UUCR``.  Examples carry only the case id; the
objective holds the scenarios and their gold views (computed once).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from scorer.contract import OutputRecord
from scorer.metrics import HIGHER_IS_BETTER, METRICS, build_context, gold_view
from scorer.records import CaseResult
from symbolic.scenario.model import Scenario

from .errors import OptimizeError
from .feedback import feedback_text

__all__ = ["DEFAULT_WEIGHTS", "OBJECTIVE_METRICS", "Objective", "Scored", "output_record"]

#: Metrics usable in the composite (per-case and cheap: no NCR search, no update-pair completion).
OBJECTIVE_METRICS = ("ASA", "CLA", "DLA", "NER", "PHA", "TGC", "UUCR")
#: Status accuracy plus conflict localization, priority handling and trace grounding.
DEFAULT_WEIGHTS: Mapping[str, float] = {"ASA": 0.4, "CLA": 0.2, "PHA": 0.2, "TGC": 0.2}


def output_record(pred: Any, case_id: str, *, configuration: str = "optimize",
                  model: str = "optimize") -> OutputRecord:
    """The :class:`~scorer.contract.OutputRecord` of a module prediction (a hard failure when it has no answer).

    Examples
    --------
    >>> output_record(None, "c1").meta.hard_failure
    True
    """
    common = getattr(pred, "common", None) if pred is not None else None
    if common is None:
        return OutputRecord.failure(case_id=case_id, configuration=configuration, model=model, raw_text="",
                                    reason="the module returned no answer")
    trace = pred.get("trace") if hasattr(pred, "get") else getattr(pred, "trace", None)
    return OutputRecord(case_id=case_id, configuration=configuration, model=model, common=common, trace=trace)


@dataclass(frozen=True)
class Scored:
    """One prediction scored: composite, the scorer's case result, the output and the feedback text."""

    score: float
    result: CaseResult
    output: OutputRecord

    @property
    def feedback(self) -> str:
        """:func:`optimize.feedback.feedback_text` of this case."""
        return feedback_text(self.result, self.output)


class Objective:
    """A weighted composite of per-case benchmark metrics over known scenarios.

    Parameters
    ----------
    scenarios : iterable of Scenario
        Every scenario an example may name (train, validation and test).
    weights : mapping, optional
        Metric name -> non-negative weight (:data:`DEFAULT_WEIGHTS`).
    threshold : float, optional
        Composite a bootstrapped demo must reach (``trace`` given), default 1.

    Raises
    ------
    OptimizeError
        On an unknown metric, a negative weight or all weights zero.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_output, penalty_scenario
    >>> import dspy
    >>> obj = Objective([penalty_scenario(priority=True)], {"ASA": 1, "TGC": 1})
    >>> ex = dspy.Example(case_id="penalty")
    >>> gold, wrong = penalty_output("accepted", "gold"), penalty_output("both", "no-r3>r2")
    >>> obj.metric(ex, dspy.Prediction(common=gold.common, trace=gold.trace))
    1.0
    >>> round(obj.metric(ex, dspy.Prediction(common=wrong.common, trace=wrong.trace)), 3)
    0.4
    """

    def __init__(self, scenarios: Iterable[Scenario], weights: Mapping[str, float] | None = None, *,
                 threshold: float = 1.0):
        weights = dict(DEFAULT_WEIGHTS if weights is None else weights)
        for name, w in weights.items():
            if name not in OBJECTIVE_METRICS:
                raise OptimizeError(f"objective weight names unknown metric {name!r}; expected one of "
                                    + ", ".join(OBJECTIVE_METRICS))
            if not isinstance(w, (int, float)) or isinstance(w, bool) or w < 0:
                raise OptimizeError(f"objective weight of {name} must be a non-negative number, got {w!r}")
        if not any(weights.values()):
            raise OptimizeError("objective weights are all zero")
        self.weights = {k: float(v) for k, v in sorted(weights.items()) if v}
        self.threshold = float(threshold)
        self.scenarios = {s.id: s for s in scenarios}
        self._gold: dict[str, Any] = {}
        self._lock = threading.Lock()
        #: Called with the case id and the composite after each case is scored (a progress display).
        self.on_score: Callable[[str, float], None] | None = None

    @staticmethod
    def parse_weights(text: str) -> dict[str, float]:
        """Parse ``"ASA=0.4,TGC=0.2"``.

        Raises
        ------
        OptimizeError
            Naming the malformed item.

        Examples
        --------
        >>> Objective.parse_weights("ASA=0.5, PHA=0.5")
        {'ASA': 0.5, 'PHA': 0.5}
        """
        out: dict[str, float] = {}
        for item in filter(None, (x.strip() for x in text.split(","))):
            name, sep, value = item.partition("=")
            try:
                if not sep:
                    raise ValueError
                out[name.strip().upper()] = float(value)
            except ValueError:
                raise OptimizeError(f"objective weight {item!r} is not NAME=NUMBER") from None
        if not out:
            raise OptimizeError(f"objective weights {text!r} name no metric")
        return out

    def _gold_view(self, case_id: str):
        with self._lock:
            view = self._gold.get(case_id)
            if view is None:
                scenario = self.scenarios.get(case_id)
                if scenario is None:
                    raise OptimizeError(f"example names case {case_id!r}, which the objective does not know")
                view = self._gold[case_id] = gold_view(scenario, ncr=False)
            return view

    def composite(self, metrics: Mapping[str, Any]) -> float:
        """Weighted mean of the applicable metrics (0 when none applies)."""
        total = weight = 0.0
        for name, w in self.weights.items():
            rec = metrics.get(name)
            if rec is None or rec.value is None:
                continue
            value = rec.value if HIGHER_IS_BETTER.get(name, True) else 1.0 - rec.value
            total += w * value
            weight += w
        return total / weight if weight else 0.0

    def score(self, case_id: str, pred: Any) -> Scored:
        """Score one prediction of case ``case_id``."""
        gold = self._gold_view(case_id)
        output = output_record(pred, case_id)
        ctx = build_context(gold, output, expects_trace=output.trace is not None)
        metrics = {name: METRICS[name](ctx) for name in OBJECTIVE_METRICS}
        result = CaseResult(case_id=case_id, configuration=output.configuration, model=output.model,
                            variant=None, repeat=0, status_gold=gold.status.value,
                            status_pred=None if ctx.pred is None else ctx.pred.value, correct=ctx.correct,
                            hard_failure=ctx.hard_failure, metrics=metrics, alignment=ctx.alignment)
        scored = Scored(self.composite(metrics), result, output)
        if self.on_score is not None:
            self.on_score(case_id, scored.score)
        return scored

    @staticmethod
    def _case_id(example) -> str:
        case_id = example.get("case_id") if hasattr(example, "get") else getattr(example, "case_id", None)
        if not case_id:
            raise OptimizeError("example has no case_id (build examples with optimize.data.to_examples)")
        return case_id

    def metric(self, example, pred, trace=None):
        """DSPy metric: the composite, or (bootstrapping) whether it reaches ``threshold``."""
        value = self.score(self._case_id(example), pred).score
        if trace is not None:
            return value >= self.threshold - 1e-9
        return value

    def gepa_metric(self, gold, pred, trace=None, pred_name=None, pred_trace=None):
        """GEPA metric: ``dspy.Prediction(score=composite, feedback=alignment feedback)``."""
        import dspy

        scored = self.score(self._case_id(gold), pred)
        return dspy.Prediction(score=scored.score, feedback=scored.feedback)
