"""Thin, seeded wrappers over DSPy's own optimizers.

Every wrapper keeps DSPy's contract, ``compile(student, *, trainset,
valset=None) -> Module`` (the student is not modified), takes the metric from
an :class:`~optimize.objectives.Objective` (GEPA gets its five-argument
score-and-feedback variant) and a ``seed``, and reads one ``budget``:

===============  ===========================================  =========================
name             DSPy optimizer                               budget (default)
===============  ===========================================  =========================
``labeled``      ``LabeledFewShot``                           demos per predictor (4)
``bootstrap``    ``BootstrapFewShot``                         bootstrapped demos (3)
``random-search`` ``BootstrapFewShotWithRandomSearch``        candidate programs (3)
``mipro``        ``MIPROv2``                                  trials, or light/medium/heavy (4)
``gepa``         ``GEPA``                                     metric calls, or light/medium/heavy (40)
``simba``        ``SIMBA``                                    steps (2)
===============  ===========================================  =========================

DSPy's few-shot optimizers draw with a fixed ``Random(0)``; the wrappers
shuffle the training set with ``seed`` first, so the seed decides the draw.
Demos only ever come from ``trainset``; ``valset`` is used for selection.
The LM and adapter are DSPy's current settings (``dspy.context``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Sequence

from dspy.teleprompt.teleprompt import Teleprompter

from symbolic.support.registry import Entry, Registry

from .errors import OptimizeError
from .objectives import Objective

__all__ = [
    "BootstrapOptimizer",
    "GEPAOptimizer",
    "LabeledOptimizer",
    "MIPROOptimizer",
    "OPTIMIZERS",
    "Optimizer",
    "RandomSearchOptimizer",
    "SIMBAOptimizer",
    "make_optimizer",
]

_LEVELS = ("light", "medium", "heavy")


class Optimizer(Teleprompter):
    """Base of the wrappers (a DSPy ``Teleprompter``): metric source, budget, seed and the compile contract.

    Parameters
    ----------
    objective : Objective
        Supplies the metric (and GEPA's feedback metric).
    budget : int or str, optional
        See the module table; ``None`` for the default.
    seed : int, optional
    num_threads : int, optional
        Threads for DSPy's evaluations (1: serial and deterministic).
    reflection_lm : dspy.LM, optional
        GEPA's reflection LM and MIPROv2's prompt model (default: the current LM).

    Raises
    ------
    OptimizeError
        On a budget the optimizer does not accept.
    """

    name: ClassVar[str] = ""
    teacher: Any = None
    default_budget: ClassVar[int | str] = 1
    levels: ClassVar[tuple[str, ...]] = ()

    def __init__(self, objective: Objective, *, budget: int | str | None = None, seed: int = 0,
                 num_threads: int = 1, reflection_lm: Any = None):
        super().__init__()
        self.objective = objective
        self.budget = self.parse_budget(budget)
        self.seed = int(seed)
        self.num_threads = int(num_threads)
        self.reflection_lm = reflection_lm

    @classmethod
    def parse_budget(cls, budget: int | str | None) -> int | str:
        """A positive integer, or one of the optimizer's levels (``light``...).

        Examples
        --------
        >>> GEPAOptimizer.parse_budget("60"), GEPAOptimizer.parse_budget("light")
        (60, 'light')
        """
        if budget is None:
            return cls.default_budget
        text = str(budget).strip().lower()
        if text in cls.levels:
            return text
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value < 1:
            accepted = "a positive integer" + (" or " + "/".join(cls.levels) if cls.levels else "")
            raise OptimizeError(f"budget {budget!r} is not valid for optimizer {cls.name!r}; expected {accepted}")
        return value

    def _shuffled(self, trainset: Sequence) -> list:
        items = list(trainset)
        random.Random(self.seed).shuffle(items)
        return items

    def compile(self, student, *, trainset: Sequence, teacher=None, valset: Sequence | None = None, **kwargs):
        """Optimize a copy of ``student`` on ``trainset`` (selecting on ``valset``) and return it.

        ``teacher`` is passed to the bootstrapping optimizers (``bootstrap``,
        ``random-search``) and ignored by the others; DSPy's own extra keyword
        arguments are not accepted (the wrapper fixes them from the budget).

        Raises
        ------
        OptimizeError
            If ``trainset`` is empty or an unknown keyword argument is given.
        """
        if kwargs:
            raise OptimizeError(f"optimizer {self.name!r}: unexpected compile argument {sorted(kwargs)[0]!r}")
        if not trainset:
            raise OptimizeError(f"optimizer {self.name!r} needs a non-empty training set")
        valset = list(valset) if valset else None
        self.teacher = teacher
        return self._compile(student.deepcopy(), list(trainset), valset)

    def _compile(self, student, trainset: list, valset: list | None):
        raise OptimizeError(f"optimizer {type(self).__name__} does not define _compile")

    def describe(self) -> str:
        """``name(budget=..., seed=...)``.

        >>> LabeledOptimizer(Objective([]), budget=2, seed=5).describe()
        'labeled(budget=2, seed=5)'
        """
        return f"{self.name}(budget={self.budget}, seed={self.seed})"


class LabeledOptimizer(Optimizer):
    """``LabeledFewShot(k=budget)``: gold demos drawn from the training set."""

    name = "labeled"
    default_budget = 4

    def _compile(self, student, trainset, valset):
        from dspy.teleprompt import LabeledFewShot

        return LabeledFewShot(k=self.budget).compile(student, trainset=self._shuffled(trainset))


class BootstrapOptimizer(Optimizer):
    """``BootstrapFewShot``: demos from the student's own traces that reach the objective's threshold."""

    name = "bootstrap"
    default_budget = 3

    def _compile(self, student, trainset, valset):
        from dspy.teleprompt import BootstrapFewShot

        opt = BootstrapFewShot(metric=self.objective.metric, max_bootstrapped_demos=self.budget,
                               max_labeled_demos=0, max_rounds=1)
        return opt.compile(student, teacher=self.teacher, trainset=self._shuffled(trainset))


class RandomSearchOptimizer(Optimizer):
    """``BootstrapFewShotWithRandomSearch``: several bootstrapped candidates, the best on ``valset``."""

    name = "random-search"
    default_budget = 3

    def _compile(self, student, trainset, valset):
        from dspy.teleprompt import BootstrapFewShotWithRandomSearch

        opt = BootstrapFewShotWithRandomSearch(metric=self.objective.metric, max_bootstrapped_demos=2,
                                               max_labeled_demos=2, num_candidate_programs=self.budget,
                                               num_threads=self.num_threads)
        return opt.compile(student, teacher=self.teacher, trainset=self._shuffled(trainset), valset=valset)


class MIPROOptimizer(Optimizer):
    """``MIPROv2``: proposed instructions and bootstrapped demos, searched with optuna (needs ``optuna``)."""

    name = "mipro"
    default_budget = 4
    levels = _LEVELS

    def _compile(self, student, trainset, valset):
        from dspy.teleprompt import MIPROv2

        kwargs: dict[str, Any] = dict(metric=self.objective.metric, seed=self.seed, num_threads=self.num_threads,
                                      max_bootstrapped_demos=2, max_labeled_demos=2, verbose=False,
                                      prompt_model=self.reflection_lm)
        if isinstance(self.budget, str):
            opt = MIPROv2(auto=self.budget, **kwargs)
            compile_kwargs: dict[str, Any] = {}
        else:
            opt = MIPROv2(auto=None, num_candidates=3, **kwargs)
            compile_kwargs = dict(num_trials=self.budget, minibatch=False)
        try:
            return opt.compile(student, trainset=trainset, valset=valset, **compile_kwargs)
        except ModuleNotFoundError as exc:
            raise OptimizeError(f"optimizer 'mipro' needs the package {exc.name!r} "
                                f"(pip install {exc.name})") from None


class GEPAOptimizer(Optimizer):
    """``GEPA``: reflective instruction evolution driven by the alignment feedback."""

    name = "gepa"
    default_budget = 40
    levels = _LEVELS

    def _compile(self, student, trainset, valset):
        import dspy
        from dspy.teleprompt import GEPA

        reflection = self.reflection_lm or dspy.settings.lm
        budget = {"auto": self.budget} if isinstance(self.budget, str) else {"max_metric_calls": self.budget}
        opt = GEPA(metric=self.objective.gepa_metric, reflection_lm=reflection, num_threads=self.num_threads,
                   seed=self.seed, track_stats=False, **budget)
        return opt.compile(student, trainset=trainset, valset=valset)


class SIMBAOptimizer(Optimizer):
    """``SIMBA``: stochastic mini-batch ascent appending demos and rules."""

    name = "simba"
    default_budget = 2

    def _compile(self, student, trainset, valset):
        from dspy.teleprompt import SIMBA

        bsize = min(4, len(trainset))
        opt = SIMBA(metric=self.objective.metric, bsize=bsize, num_candidates=2, max_steps=self.budget,
                    num_threads=self.num_threads, prompt_model=self.reflection_lm)
        return opt.compile(student, trainset=trainset, seed=self.seed)


#: Optimizer name -> wrapper class.
OPTIMIZERS: Registry[Optimizer] = Registry("optimizer", (Entry.of_class(cls.name, cls) for cls in (
    LabeledOptimizer, BootstrapOptimizer, RandomSearchOptimizer, MIPROOptimizer, GEPAOptimizer, SIMBAOptimizer)))


def make_optimizer(name: str, objective: Objective, **kwargs) -> Optimizer:
    """The wrapper registered as ``name``.

    Raises
    ------
    OptimizeError
        For an unknown name or a bad budget.

    Examples
    --------
    >>> make_optimizer("gepa", Objective([]), budget="light").describe()
    'gepa(budget=light, seed=0)'
    >>> make_optimizer("copro", Objective([]))
    Traceback (most recent call last):
    ...
    optimize.errors.OptimizeError: unknown optimizer 'copro'; expected one of bootstrap, gepa, labeled, mipro, random-search, simba
    """
    cls = OPTIMIZERS.get(name.strip().lower())
    if cls is None:
        raise OptimizeError(f"unknown optimizer {name!r}; expected one of " + ", ".join(sorted(OPTIMIZERS)))
    return cls(objective, **kwargs)
