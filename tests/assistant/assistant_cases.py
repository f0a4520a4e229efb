"""The paper's penalty example (Section 6.7) as an evidence package, with the
scripted replies the assistant tests play.  Module name kept unique because
the test directories have no ``__init__.py``."""

from __future__ import annotations

from symbolic.scenario.examples import penalty_analysis
from symbolic.scenario.model import EvidenceFragment, Fact, Gold, Rule

FRAGMENTS = (
    EvidenceFragment(id="E-01", text="The delivery was made 12 days after the agreed date.", source="Delivery log"),
    EvidenceFragment(id="E-02", text="A storm closed the port for 9 days; force majeure was declared.",
                     source="Port notice"),
    EvidenceFragment(id="E-03", text="The carrier ignored two storm warnings, which is gross negligence.",
                     source="Inspection report"),
    EvidenceFragment(id="E-04", text="Clause 7.2: late delivery incurs a penalty.", source="Supply Agreement",
                     clause="7.2"),
    EvidenceFragment(id="E-05", text="Clause 9.1: no penalty is due for delays caused by force majeure.",
                     source="Supply Agreement", clause="9.1"),
    EvidenceFragment(id="E-06", text="Clause 9.3: force majeure does not excuse gross negligence; the penalty "
                     "applies.", source="Supply Agreement", clause="9.3"),
)
QUERY = "Is the supplier liable for the late-delivery penalty?"
TARGET = "Penalty(x)"

#: The scripted extraction reply: the penalty objects, facts numbered first (:mod:`symbolic.scenario.examples`),
#: as the LM writes them, with a quote on f1.
THEORY = penalty_analysis(facts_first=True).model_dump(mode="json", exclude_none=True)
THEORY["facts"][0]["quote"] = "delivery was made 12 days after"

ANSWER = {"answer": "The penalty is due: gross negligence overrides force majeure (cl. 9.3).",
          "cited": ["E-01", "E-04", "E-06"], "conflict": True, "priority_applied": True, "status": "accepted"}


def gold() -> Gold:
    return Gold(status="accepted",
                facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"])],
                rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-04"])])
