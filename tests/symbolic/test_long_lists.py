"""Long lists of explicit attacks and priorities: errors and citations reported by position, as for
short ones (they are validated entry by entry)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from symbolic.errors import ScenarioError
from symbolic.suites.io import load_scenario_text

FIXTURES = Path(__file__).resolve().parent / "fixtures"
VALID = json.loads((FIXTURES / "penalty_suite.jsonl").read_text(encoding="utf-8").splitlines()[0])
E = ["E-01"]


def test_a_bad_entry_of_a_long_list_is_reported_by_position():
    record = copy.deepcopy(VALID)
    record["gold"]["attacks"] = [{"source": "r1", "target": "r2", "kind": "undercut", "evidence": E}] * 1500
    record["gold"]["attacks"][1234] = {"source": "r1", "target": "r2", "kind": "smash", "evidence": E}
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(json.dumps(record), file="s.jsonl", line=4)
    assert str(err.value).startswith("s.jsonl:4, field gold.attacks.1234.kind: input should be 'rebut', "
                                     "'undercut' or 'undermine'; got \"smash\"")


_LONG_LISTS = {  # field -> (row i, where the bad citation goes)
    "attacks": (lambda i: {"source": "r1", "target": f"x{i}", "kind": "undercut", "evidence": E}, 1),
    "priorities": (lambda i: {"stronger": f"s{i}", "weaker": f"w{i}", "basis": "exception", "evidence": E}, 0),
}


@pytest.mark.parametrize("field", sorted(_LONG_LISTS))
def test_validate_reports_a_bad_citation_in_a_long_list(tmp_path, field):
    row, at = _LONG_LISTS[field]
    record = copy.deepcopy(VALID)
    record["gold"][field] = [row(i) for i in range(1100)]
    record["gold"][field][1050]["evidence"] = ["E-01", "E-99"] if at else ["E-99"]
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", "from optimize.root import main; main()", "validate", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"paratrace: error: {path}:1: case {record['id']!r}, field gold.{field}.1050.evidence.{at}: cites fragment "
        "'E-99', which is not in the evidence package (the engine drops the object as ungrounded; tag the case "
        "'ungrounded-gold' if that is intended)"]
