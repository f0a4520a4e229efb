"""Per-case output grammars: the JSON schema a constrained decoder receives for one call.

The pydantic models of :mod:`assistant.schemas` and :mod:`assistant.extraction`
validate every reply, whatever the backbone.  A backbone with constrained
decoding (llama.cpp, vLLM) can do more: when the schema it decodes against is
built from the case, a whole class of invalid replies cannot be generated at all.
:func:`case_schema` builds that schema from the call's inputs:

* fragment ids are an ``enum`` of the evidence package's ids, and every object
  and every answer cites one to three of them;
* literals follow the predicate syntax the validator accepts,
  ``¬?Name(args)``, with the arguments of the target literal, so that a fact and
  a rule's antecedent name the same proposition when they name the same predicate;
* a fact can never assert the target or its complement (that would be the
  answer, not an analysis: :func:`assistant.shortcuts.shortcut_facts`);
* B4's extraction is asked fragment by fragment (:mod:`assistant.by_fragment`): the
  model says for every fragment, in order, whether it states a rule (a condition
  name, yes or no, the rule fragments it prevails over), reports a fact (the rule
  fragments whose condition it meets) or nothing relevant; every link names a
  fragment of the package, never its own, and a condition is never the target's
  predicate, so no reference can dangle and facts always match a rule's condition;
* an audit (the controlled suites' cases) names its defect class from the enum and its location
  from the places the candidate has (:func:`audit_locations`), or null;
* every list and free text is bounded, so a looping model stops early.

The schema only narrows what the pydantic model accepts; the model still
validates the reply.  Docs: docs/local-models.md.
"""

from __future__ import annotations

import re
import string
from typing import Any, Callable, Mapping, Sequence

from symbolic.scenario.labels import AttackKind, RuleKind, Status, normalize_evidence_id
from symbolic.scenario.literals import NEG, complement, normalize_literal
from symbolic.scenario.model import DefectClass

from .by_fragment import fragment_entry_schema

__all__ = ["LIMITS", "audit_locations", "case_schema", "literal_pattern", "name_except", "output_example"]

#: Bounds of a constrained reply: list lengths and free-text characters.
LIMITS: Mapping[str, int] = {"facts": 6, "rules": 5, "antecedents": 3, "over": 2, "meets": 2,
                             "cited": 3, "answer_chars": 240, "note_chars": 160, "notes": 3, "name_chars": 32,
                             "condition_chars": 24}

_FIRST = string.ascii_uppercase
_REST = string.ascii_letters + string.digits
_STATUS = [s.value for s in Status]
_KINDS = [k.value for k in RuleKind]


def _char_class(chars: str) -> str:
    """A regex character class of ``chars``, with runs written as ranges."""
    ordered = sorted(set(chars))
    parts, i = [], 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ord(ordered[j + 1]) == ord(ordered[j]) + 1:
            j += 1
        parts.append(ordered[i] if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return "[" + "".join(parts) + "]"


def name_except(word: str | None, longest: int = LIMITS["name_chars"]) -> str:
    """A regex (no anchors) of predicate names ``[A-Z][A-Za-z0-9]*`` other than ``word``, bounded in length.

    Parameters
    ----------
    word : str or None
        The excluded name; ``None`` excludes nothing.
    longest : int, optional
        The longest name without ``word``; with one, a name has at most
        ``len(word) + longest - 1`` characters (the bound that a looping model runs into).

    Examples
    --------
    >>> rx = re.compile("^(?:" + name_except("Pay", longest=6) + ")$")
    >>> [bool(rx.match(s)) for s in ("Pay", "Pa", "Pays", "Pax", "Delay", "P", "Payssss", "Paysssss9")]
    [False, True, True, True, True, False, True, False]
    """
    rest = _char_class(_REST)
    if not word:
        return f"{_char_class(_FIRST)}{rest}{{1,{longest - 1}}}"
    # A name differs from word first at position i (then any tail) or extends it, or is a proper prefix of it;
    # the heads share one bounded tail, so the grammar holds the repetition once.  Names within the bound only.
    heads = [re.escape(word[:i]) + _char_class((_FIRST if i == 0 else _REST).replace(ch, ""))
             for i, ch in enumerate(word[:longest])]
    if len(word) < longest:
        heads.append(re.escape(word) + rest)
    prefixes = [re.escape(word[:k]) for k in range(2, min(len(word), longest + 1))]
    tail = f"{rest}{{0,{max(0, longest - 2)}}}"
    return "|".join([f"({'|'.join(heads)}){tail}", *prefixes])


def _arguments(target: str | None) -> str:
    """The argument list of every literal: the target's, or one short constant."""
    if target and "(" in target and target.endswith(")"):
        return re.escape(target[target.index("("):])
    return r"\([a-z0-9_]{1,16}\)"


def _predicate(target: str | None) -> str | None:
    if not target:
        return None
    positive = target[1:] if target.startswith(NEG) else target
    return positive.split("(", 1)[0]


def literal_pattern(target: str | None = None, *, exclude_target: bool = False) -> str:
    """The anchored regex of a literal, ``¬?Name(args)`` with the target's arguments.

    Parameters
    ----------
    target : str, optional
        The target literal; without one, a literal has one short lower-case argument.
    exclude_target : bool, optional
        Refuse the target's predicate (the pattern of a fact).

    Examples
    --------
    >>> rx = re.compile(literal_pattern("Penalty(x)", exclude_target=True))
    >>> [bool(rx.match(s)) for s in ("Delay(x)", "¬Delay(x)", "Penalty(x)", "¬Penalty(x)", "Delay(y)")]
    [True, True, False, False, False]
    """
    name = name_except(_predicate(target) if exclude_target else None)
    return f"^{NEG}?({name}){_arguments(target)}$"


def _ids(ids: Sequence[str], least: int = 1) -> dict[str, Any]:
    return {"$ref": "#/$defs/cited" if least else "#/$defs/cited_or_none"}


_LITERAL = {"$ref": "#/$defs/literal"}
_FACT_LITERAL = {"$ref": "#/$defs/fact_literal"}
_FREE_LITERAL = {"$ref": "#/$defs/free_literal"}


def _definitions(ids: Sequence[str], target: str | None) -> dict[str, Any]:
    """The shared pieces, referenced by ``$ref`` so that the grammar holds each once."""
    def cited(least: int) -> dict[str, Any]:
        return {"type": "array", "items": {"enum": list(ids)}, "minItems": least, "maxItems": LIMITS["cited"]}

    return {"cited": cited(1), "cited_or_none": cited(0),
            "literal": {"type": "string", "pattern": literal_pattern(target)},
            "fact_literal": {"type": "string", "pattern": literal_pattern(target, exclude_target=bool(target))},
            "free_literal": {"type": "string", "pattern": literal_pattern(None)},
            "condition": {"type": "string",
                          "pattern": f"^({name_except(_predicate(target), LIMITS['condition_chars'])})$"}}


def _text(chars: int) -> dict[str, Any]:
    """Free text of 1 to ``chars`` characters that does not open with ``<``.

    The prompt shows the reply's shape with ``<...>`` placeholders, and Gemma 3 270M
    copied "<one sentence naming the decisive clauses>" as its answer; a leading ``<``
    is refused so that no answer page echoes the prompt's placeholder (the base model
    then writes other filler, such as "{answer_text}": it does not follow instructions,
    and its pages say it is below the quality level).  The bound lies inside the
    pattern (llama.cpp's schema converter ignores ``maxLength`` beside a ``pattern``),
    and quotes, backslashes and control characters are left out, so the text needs
    no JSON escapes.

    >>> import re
    >>> rx = re.compile(_text(5)["pattern"])
    >>> [bool(rx.match(t)) for t in ("Yes.", "<one sentence>", "", "too long")]
    [True, False, False, False]
    """
    first, rest = r'[^<"\\\x00-\x1f]', r'[^"\\\x00-\x1f]'
    return {"type": "string", "pattern": f"^{first}{rest}{{0,{chars - 1}}}$"}


def _object(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties)}


def _cited_answer(ids: Sequence[str]) -> dict[str, Any]:
    return _object(answer=_text(LIMITS["answer_chars"]), cited=_ids(ids), conflict={"type": "boolean"},
                   priority_applied={"type": "boolean"}, status={"enum": _STATUS})


def _facts(ids: Sequence[str], target: str | None) -> dict[str, Any]:
    fact = _object(id={"type": "string", "pattern": f"^f[1-{LIMITS['facts']}]$"}, evidence=_ids(ids),
                   literal=_FACT_LITERAL)
    return {"type": "array", "items": fact, "maxItems": LIMITS["facts"]}


def _fragments(ids: Sequence[str], target: str | None) -> dict[str, Any]:
    condition = {"$ref": "#/$defs/condition"}
    return {i: fragment_entry_schema(i, ids, condition, LIMITS) for i in ids}


def _extraction(ids: Sequence[str], target: str | None) -> dict[str, Any]:
    """B4's extraction in the by-fragment form (:mod:`assistant.by_fragment`)."""
    return _object(**_fragments(ids, target))


def _targeted_extraction(ids: Sequence[str], target: str | None) -> dict[str, Any]:
    return _object(target=_FREE_LITERAL, **_fragments(ids, target))


def _structured_answer(ids: Sequence[str], target: str | None) -> dict[str, Any]:
    rule = _object(id={"type": "string", "pattern": f"^r[1-{LIMITS['rules']}]$"}, evidence=_ids(ids),
                   antecedents={"type": "array", "items": _LITERAL, "maxItems": LIMITS["antecedents"]},
                   consequent=_LITERAL, kind={"enum": _KINDS})
    return _object(facts=_facts(ids, target), rules={"type": "array", "items": rule, "maxItems": LIMITS["rules"]},
                   result=_cited_answer(ids))


def _self_check(ids: Sequence[str], target: str | None) -> dict[str, Any]:
    notes = {"type": "array", "items": _text(LIMITS["note_chars"]), "maxItems": LIMITS["notes"]}
    return _object(missing_exceptions=notes, contradictions=notes, unresolved=notes, uncovered=_ids(ids, least=0),
                   final=_cited_answer(ids))


def audit_locations(ids: Sequence[str], target: str | None, analysis: Any) -> tuple[list[str], str]:
    """The locations an audit of ``analysis`` can name: an enum of the whole ones, and a pattern of attacks.

    A location is a fragment of the package or one the candidate cites (``evidence:E-03``), a
    fact or rule of the candidate (``fact:f2``, ``rule:r3``), two of its rules in either order (``priority:r3>r2``), the target
    (``target:Penalty(x)``), or an attack from one of its facts or rules, of a kind, on one of its
    rules or on a literal it names (``attack:r2-rebut->Penalty(x)``): a missing attack can only be
    located between things the candidate has.

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis
    >>> a = Analysis(facts=[{"id": "f1", "literal": "Delay(x)", "evidence": ["E-01"]}],
    ...              rules=[{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)", "evidence": ["E-02"]}])
    >>> whole, attack = audit_locations(["E-01", "E-02"], "Penalty(x)", a)
    >>> whole
    ['evidence:E-01', 'evidence:E-02', 'fact:f1', 'rule:r1', 'target:Penalty(x)']
    >>> bool(re.match(attack, "attack:f1-rebut->¬Penalty(x)")), bool(re.match(attack, "attack:r9-rebut->r1"))
    (True, False)
    """
    fact_objs, rule_objs = tuple(getattr(analysis, "facts", ())), tuple(getattr(analysis, "rules", ()))
    facts, rules = [f.id for f in fact_objs], [r.id for r in rule_objs]
    literals = {normalize_literal(f.literal) for f in fact_objs}
    for rule in rule_objs:
        literals |= {normalize_literal(x) for x in (*rule.antecedents, rule.consequent)}
    if target:
        literals.add(target)
    literals |= {complement(x) for x in literals}
    objects = (*fact_objs, *rule_objs, *getattr(analysis, "priorities", ()), *getattr(analysis, "attacks", ()))
    cited = [normalize_evidence_id(e) for obj in objects for e in obj.evidence]  # may be missing from the package
    whole = ([f"evidence:{i}" for i in dict.fromkeys([*ids, *cited])] + [f"fact:{f}" for f in facts]
             + [f"rule:{r}" for r in rules] + [f"priority:{a}>{b}" for a in rules for b in rules if a != b]
             + ([f"target:{target}"] if target else []))

    def one_of(names):
        return "(" + "|".join(re.escape(n) for n in names) + ")"

    sources, targets = [*facts, *rules], [*rules, *sorted(literals)]
    kinds = one_of([k.value for k in AttackKind])
    attack = (f"^attack:{one_of(sources)}-{kinds}->{one_of(targets)}$" if sources and targets
              else "^attack:$.")  # nothing to attack from: a pattern no string matches
    return whole, attack


def _audit_verdict(ids: Sequence[str], target: str | None, candidate: Any) -> dict[str, Any]:
    whole, attack = audit_locations(ids, target, getattr(candidate, "analysis", candidate))
    location = {"anyOf": [{"enum": whole}, {"type": "string", "pattern": attack}, {"type": "null"}]}
    return _object(defect_class={"enum": [d.value for d in DefectClass]}, location=location,
                   explanation=_text(LIMITS["note_chars"]), corrected=_cited_answer(ids))


def _builders(inputs: Mapping[str, Any]) -> dict[type, Callable[[Sequence[str], str | None], dict[str, Any]]]:
    from .extraction import Extraction, StructuredAnswer, TargetedExtraction
    from .schemas import AuditVerdict, CitedAnswer, SelfCheck

    builders = {CitedAnswer: lambda ids, target: _cited_answer(ids), Extraction: _extraction,
                TargetedExtraction: _targeted_extraction, StructuredAnswer: _structured_answer,
                SelfCheck: _self_check}
    if inputs.get("candidate") is not None:
        builders[AuditVerdict] = lambda ids, target: _audit_verdict(ids, target, inputs["candidate"])
    return builders


def case_schema(output_fields: Mapping[str, Any], inputs: Mapping[str, Any]) -> dict[str, Any] | None:
    """The constrained JSON schema of a call's reply, or ``None`` when it has no per-case form.

    Parameters
    ----------
    output_fields : mapping
        Output field name -> annotation (a signature's ``output_fields`` annotations).
    inputs : mapping
        The call's inputs; ``evidence`` (an :class:`~assistant.evidence.EvidencePackage`) and, where
        given, ``target`` (a literal) shape the schema.

    Returns
    -------
    dict or None
        ``None`` when an output type has no per-case schema, or the inputs hold no evidence package.

    Examples
    --------
    >>> from assistant.evidence import EvidencePackage
    >>> from assistant.schemas import CitedAnswer
    >>> pkg = EvidencePackage.of([{"id": "E-01", "text": "A penalty applies.", "source": "contract"}])
    >>> schema = case_schema({"result": CitedAnswer}, {"evidence": pkg, "query": "Is a penalty due?"})
    >>> schema["properties"]["result"]["properties"]["cited"], schema["$defs"]["cited"]["items"]
    ({'$ref': '#/$defs/cited'}, {'enum': ['E-01']})
    """
    package = inputs.get("evidence")
    ids = [normalize_evidence_id(f.id) for f in getattr(package, "fragments", ()) or ()]
    if not ids:
        return None
    builders = _builders(inputs)
    target = inputs.get("target")
    try:
        target = normalize_literal(target) if isinstance(target, str) and target.strip() else None
    except ValueError:
        target = None
    properties = {}
    for name, annotation in output_fields.items():
        build = builders.get(annotation)
        if build is None:
            return None
        properties[name] = build(ids, target)
    return {**_object(**properties), "$defs": _definitions(ids, target)}


# One shape per output type, shown instead of the JSON schema when the decoder enforces the grammar: a small
# model follows a shape far better than it reads a schema.  Placeholders only: a small model copies concrete
# example values verbatim into its answer.
_BY_FRAGMENT_EXAMPLE = {
    "<id of a fragment that states a rule deciding the question>": {
        "role": "rule", "condition": "<what the rule requires, in one to three CamelCase words>",
        "concludes": "<yes|no: the answer to the question when the condition holds>",
        "over": ["<id of an earlier rule fragment this rule overrides: it is an exception to it, amends it or ranks above it>"],
        "basis": "<exception|hierarchy|specificity|temporal|authority>"},
    "<id of a fragment that reports what happened>": {
        "role": "fact", "meets": ["<id of the rule fragment whose condition this fragment shows is met>"]},
    "<id of a fragment irrelevant to the question>": {"role": "none"},
}
_LITERALS = {"facts": [{"id": "<f1>", "evidence": ["<fragment id>"], "literal": "<condition>"}],
             "rules": [{"id": "<r1>", "evidence": ["<fragment id>"], "antecedents": ["<condition>"],
                        "consequent": "<literal>", "kind": "<defeasible|strict|defeater>"}]}
_ANSWER_EXAMPLE = {"answer": "<one sentence naming the decisive clauses>", "cited": ["<fragment id>"],
                   "conflict": "<true|false>", "priority_applied": "<true|false>",
                   "status": "<accepted|rejected|both|undecidable>"}


_AUDIT_EXAMPLE = {"defect_class": "<" + "|".join(d.value for d in DefectClass) + ">",
                  "location": "<where the defect is, as kind:id (rule:r3, fact:f2, priority:r3>r2, evidence:E-03, "
                              "attack:r2-rebut->Penalty(x), target:Penalty(x)), or null when there is none>",
                  "explanation": "<one sentence on the defect>", "corrected": _ANSWER_EXAMPLE}


def _examples() -> dict[type, Any]:
    from .extraction import Extraction, StructuredAnswer, TargetedExtraction
    from .schemas import AuditVerdict, CitedAnswer, SelfCheck

    return {CitedAnswer: _ANSWER_EXAMPLE, AuditVerdict: _AUDIT_EXAMPLE, Extraction: _BY_FRAGMENT_EXAMPLE,
            TargetedExtraction: {"target": "Penalty(x)", **_BY_FRAGMENT_EXAMPLE},
            StructuredAnswer: {**_LITERALS, "result": _ANSWER_EXAMPLE},
            SelfCheck: {"missing_exceptions": ["<an exception the draft overlooked>"], "contradictions": [],
                        "unresolved": [], "uncovered": ["<fragment id>"], "final": _ANSWER_EXAMPLE}}


def output_example(output_fields: Mapping[str, Any]) -> str | None:
    """A compact JSON example of a reply with these output fields, or ``None`` if a type has none.

    Examples
    --------
    >>> from assistant.schemas import CitedAnswer
    >>> output_example({"result": CitedAnswer})[:40]
    '{"result":{"answer":"<one sentence namin'
    """
    import json

    examples = _examples()
    if any(annotation not in examples for annotation in output_fields.values()):
        return None
    return json.dumps({name: examples[a] for name, a in output_fields.items()}, ensure_ascii=False,
                      separators=(",", ":"))
