"""Hand-authored scenario sources of the ``normative-en`` corpus.

This docstring is the **authoring format**: every source module follows it, and
:mod:`experiments.suites.builders` and :mod:`experiments.suites.checks` enforce it.

Modules
-------
``normative_en_cbc``
    contracts (``cont-NNN``), banking guarantees (``bank-NNN``), compliance (``comp-NNN``).
``normative_en_pr``
    internal policies (``pol-NNN``), regulatory/legal (``reg-NNN``).

Each module defines ``SCENARIOS: list[dict]`` and nothing else is read from it
(helper functions are fine; the list must hold plain JSON-compatible dicts:
str, int, bool, None, list, dict).  The build concatenates every module's list,
sorts the records by ``id``, fills ``gold.trace`` with the engine's trace normal
form, validates, and writes ``experiments/suites/normative-en.jsonl``.

One scenario dict (the :class:`symbolic.scenario.model.Scenario` schema, minus ``gold.trace``)
------------------------------------------------------------------------------------
``id``
    ``<prefix>-NNN`` with prefix ``cont``, ``bank``, ``comp``, ``pol`` or ``reg``,
    three digits, unique across the corpus (each module owns its prefixes).
``query``
    The question an assistant is asked, in plain English ("Is Halvorsen Logistics
    liable for the late-delivery penalty for the March shipment?").
``target``
    The literal the query asks about: ``PredicateName(constant)`` or
    ``PredicateName(a,b)``.  Predicates are CamelCase English words taken from the
    wording of the fragments (``LatePenaltyDue(halvorsen)``); constants are short
    lower-case names of the parties or items of the scenario.  Negation is ``¬``
    (``not``/``~`` are accepted and normalized).
``evidence``
    3 to 8 fragments, ids ``E-01``, ``E-02``... in order (an update keeps the
    base's ids: a removed fragment leaves a gap, an amended one keeps its id, an
    added one takes the next free number).  Each fragment::

        {"id": "E-01", "text": "...", "source": "Master Supply Agreement (2024)",
         "clause": "cl. 14.2", "tags": []}

    ``text`` reads like a real clause, notice, e-mail, log line, register
    extract or policy section, written by us in plain professional English
    (never copied from a real contract or statute).  Use clause numbering, dates,
    reference numbers, log timestamps.  ``clause`` may be ``None`` for logs and
    letters.  A fragment no gold object cites MUST carry ``"tags": ["distractor"]``
    and a distractor must not be cited by any gold object.
``gold``
    ``{"facts": [...], "rules": [...], "attacks": [...], "priorities": [...],
    "status": "accepted|rejected|both|undecidable"}``; no ``trace`` key.

    - fact: ``{"id": "f1", "literal": "Delay(shipment)", "evidence": ["E-02"]}``
    - rule: ``{"id": "r1", "antecedents": ["Delay(shipment)"], "consequent":
      "Penalty(supplier)", "kind": "defeasible", "evidence": ["E-01"]}``;
      ``kind`` is ``strict``, ``defeasible`` or ``defeater``.  An exception to
      ``rK`` concludes ``¬applicable(rK)``.
    - priority: ``{"stronger": "r2", "weaker": "r1", "basis": "exception",
      "evidence": ["E-01"], "note": "cl. 14.3 'notwithstanding 14.2'"}``; basis
      is ``exception``, ``hierarchy``, ``specificity``, ``temporal`` or ``authority``.
    - attack (explicit edge, only for an attack the literals do not already
      produce): ``{"source": "r4", "target": "f2", "kind": "undermine",
      "evidence": ["E-05"]}``.  Rebuts, undercuts (``¬applicable(rK)``) and
      undermines (a conclusion equal to the complement of a premise fact) are
      derived by the engine; do not restate them as edges.

    Every gold object cites at least one fragment and every cited fragment is in
    the package (the gold analysis is fully grounded).  Fact and rule ids are
    ``f1``, ``f2``... and ``r1``, ``r2``...; ids are unique within a scenario.
    ``status`` is the annotator's reasoned answer under docs/semantics.md; the build
    recomputes it with :func:`symbolic.engine.status.evaluate_analysis` and fails on
    disagreement (fix the reasoning, never copy the engine's answer blindly).
``metadata``
    ``{"domain": "contracts", "contradiction": true, "priority": true,
    "pair": "cbc-p03", "role": "update", "tags": ["undercut", "update:add"]}``

    - ``domain``: ``contracts``, ``banking_guarantees``, ``compliance``,
      ``internal_policies`` or ``regulatory`` (must match the id prefix).
    - ``contradiction``: true iff the gold analysis yields at least one attack
      (rebut, undercut or undermine, active or defeated) or arguments for some
      literal and for its complement (two strict arguments for ``p`` and ``¬p``
      do not attack each other, yet they are a contradiction).  Checked.
    - ``priority``: true iff the gold analysis has at least one priority.  Checked.
    - ``pair`` / ``role``: update pairs for belief revision.  Two scenarios share
      a pair id (``cbc-pNN`` in normative_en_cbc, ``pr-pNN`` in normative_en_pr);
      one has role ``base``, the other ``update``.  The update has the same
      query, target and domain; its package is the base package with fragments
      added, removed or amended (an addendum, a post-fact approval, a withdrawn
      notice).  Tag the update ``update:add``, ``update:remove`` or
      ``update:amend`` (one or more).  Both are omitted for unpaired scenarios.
    - ``tags``: feature tags from this vocabulary, checked against the engine's
      evaluation of the gold analysis.  Tags marked (=) must be present exactly
      when the property holds; the others must not be claimed without it:

      ``rebut`` (=)             a rebuttal whose attacker is a rule-based argument
      ``undercut`` (=)          an undercut: an applicable exception ``¬applicable(rK)``
      ``undermine`` (=)         an attack on a premise fact (a log contradicting a notice)
      ``priority_cycle`` (=)    the grounded priorities contain a cycle (unresolved)
      ``defeater`` (=)          a rule of kind defeater
      ``distractor`` (=)        the package holds a fragment tagged distractor
      ``strict_conflict`` (=)   status both from strict arguments for p and ¬p
      ``absence_of_proof`` (=)  status undecidable: nothing stands on either side
      ``nested_exception``      an exception to an exception or to a rule used by an
                                attacking argument, or a priority chain a > b > c
      ``multi_step``            an argument of at least two rules that concludes the
                                target (or its complement) or attacks one that does
      ``appendix_b``            one of the paper's Appendix B walkthroughs
      ``update:add`` / ``update:remove`` / ``update:amend``
                                exactly the package changes of an update against its base

Annotation smells (:func:`experiments.suites.checks.smells`)
-----------------------------------------------------------
- a fact whose cited fragments mention none of its predicate's content words,
  or a rule whose cited fragments mention none of its consequent's content
  words (an exception ``¬applicable(rK)`` is checked on its antecedents).  Words
  are the CamelCase parts of the predicate, compared case-insensitively on
  their first five letters, stop-words ignored; so write predicates from the
  fragment's own vocabulary (``NoticeReceived`` for "...the notice was received...");
- a fragment no gold object cites that is not tagged ``distractor``.

Coverage goals for the whole corpus: >= 60 scenarios, >= 10 per domain, each
status >= 10 times, >= 60 % contradiction, >= 35 % priority, >= 15 update pairs
of which >= 10 change the gold status.
"""

__all__: list[str] = []
