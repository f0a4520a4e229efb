"""A CLI fuzz harness over every command that reads or writes files: hostile
inputs (FIFO, device, directory, symlink loop, dangling link, NUL in a path,
empty, bad UTF-8, truncated, NaN, lone surrogate) and hostile outputs
(device, FIFO, directory, links).  It counts the outcomes per command and fails
on any exit code other than 0 and 2, any traceback or "internal error", and
any invocation that hangs (a FIFO read without a writer).

The harness runs the commands in-process (Typer's runner), so several
hundred invocations stay within seconds on two cores; the subprocess tests of
each command live next to the command's own tests.
"""

from __future__ import annotations

import json
import os
import threading
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

import optimize.root as cli

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SUITE = FIXTURES / "penalty_suite.jsonl"
HANG_S = 60.0
runner = CliRunner()


class CliFuzz:
    """Run CLI invocations, count ``exit code`` per command, collect every failure.

    A failure is an exit code other than 0 or 2, a traceback or an internal
    error in the output, or an invocation still running after ``HANG_S``
    seconds (it is then unblocked by opening the FIFOs for writing).
    """

    def __init__(self, fifos=()):
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self.failures: list[str] = []
        self.fifos = tuple(fifos)

    def __call__(self, *args) -> object:
        args = [str(a) for a in args]
        box = {}
        worker = threading.Thread(target=lambda: box.setdefault("r", runner.invoke(cli.app, args)), daemon=True)
        worker.start()
        worker.join(HANG_S)
        if worker.is_alive():
            for fifo in self.fifos:  # give a blocked reader its end of file
                try:
                    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:
                    pass
            worker.join(HANG_S)
            self.counts[args[0]]["hang"] += 1
            self.failures.append(f"hung: {args!r}")
            return None
        result = box["r"]
        output = result.output + (result.stderr or "")
        self.counts[args[0]][result.exit_code] += 1
        if result.exit_code not in (0, 2) or "Traceback" in output or "internal error" in output:
            self.failures.append(f"exit {result.exit_code}: {args!r}: {output.strip()[-400:]}")
        return result

    def table(self) -> dict[str, dict[str, int]]:
        """``command -> {outcome: count}``, for the report."""
        return {cmd: {str(k): v for k, v in sorted(c.items(), key=str)} for cmd, c in sorted(self.counts.items())}


def _outputs_file(path: Path) -> Path:
    from scorer.contract import OutputRecord
    from symbolic.suites.io import load_suite

    path.write_text("".join(OutputRecord(case_id=s.id, configuration="direct", model="m",
                                         common={"final_status": "accepted"}).to_json() + "\n"
                            for s in load_suite(SUITE)), encoding="utf-8")
    return path


@pytest.fixture()
def world(tmp_path):
    """Hostile and valid inputs and outputs in ``tmp_path``."""
    valid_line = SUITE.read_text(encoding="utf-8").splitlines()[0]
    w = {"fifo": tmp_path / "fifo", "dir": tmp_path / "adir", "loop": tmp_path / "loop-a",
         "dangling": tmp_path / "dangling", "missing": tmp_path / "missing.jsonl", "empty": tmp_path / "empty.jsonl",
         "badutf8": tmp_path / "bad.jsonl", "truncated": tmp_path / "trunc.jsonl", "nan": tmp_path / "nan.jsonl",
         "surrogate": tmp_path / "surr.jsonl", "nul": "a\x00b.jsonl", "device": Path("/dev/null")}
    os.mkfifo(w["fifo"])
    w["dir"].mkdir()
    os.symlink(tmp_path / "loop-b", w["loop"])
    os.symlink(w["loop"], tmp_path / "loop-b")
    os.symlink(tmp_path / "nowhere", w["dangling"])
    w["empty"].write_bytes(b"")
    w["badutf8"].write_bytes(b'\xff\xfe{"id": 1}\n')
    w["truncated"].write_text(valid_line[: len(valid_line) // 2], encoding="utf-8")
    w["nan"].write_text(valid_line.replace('"query":', '"x": NaN, "query":'), encoding="utf-8")
    w["surrogate"].write_text(valid_line.replace('"query":"', '"query":"\\ud800'), encoding="utf-8")
    valid = {"suite": SUITE, "outputs": _outputs_file(tmp_path / "outputs.jsonl"),
             "package": tmp_path / "pkg.json", "dup_package": tmp_path / "dup.json", "spec": tmp_path / "s.toml"}
    evidence = [{"id": "E-01", "text": "The supplier pays a penalty for late delivery.", "source": "Contract"}]
    valid["package"].write_text(json.dumps({"query": "Is a penalty due?", "evidence": evidence}), encoding="utf-8")
    valid["dup_package"].write_text(json.dumps({"query": "Penalty?", "evidence": evidence * 2}), encoding="utf-8")
    valid["spec"].write_text(f'name = "fz"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\nlimit = 1\n'
                             '[[backbones]]\nmodel = "scripted/null"\n', encoding="utf-8")
    target = tmp_path / "target.json"
    target.write_text("{}", encoding="utf-8")
    os.symlink(target, tmp_path / "link-to-file")
    os.symlink("/dev/null", tmp_path / "link-to-device")
    outs = {"device": Path("/dev/null"), "fifo": w["fifo"], "dir": w["dir"], "loop": w["loop"],
            "link-to-device": tmp_path / "link-to-device", "no-parent": tmp_path / "no" / "such" / "x.json",
            "nul": "o\x00.json", "link-to-file": tmp_path / "link-to-file", "dangling": w["dangling"],
            "new": tmp_path / "new.json"}
    return tmp_path, w, valid, outs


def test_every_command_gives_exit_0_or_2_on_hostile_paths(world):
    tmp_path, bad, valid, outs = world
    fuzz = CliFuzz(fifos=[bad["fifo"]])
    report = tmp_path / "report"
    quick = ["--resamples", "20", "--no-audit", "--no-ncr"]
    for name, path in [*bad.items(), ("valid", SUITE)]:
        fuzz("validate", path)
        fuzz("validate", "--check-gold", path)
        fuzz("status", path)
        fuzz("status", path, "-f", "json")
        fuzz("import-peer", path, "-o", tmp_path / "peer.jsonl")
        fuzz("score", "--suite", path, "--outputs", valid["outputs"], "--report", report, *quick)
        fuzz("score", "--suite", valid["suite"], "--outputs", path, "--report", report, *quick)
        fuzz("score", "--suite", valid["suite"], "--outputs", valid["outputs"], "--report", path, *quick)
        fuzz("ask", "-e", path, "-q", "Is a penalty due?", "--model", "scripted/null", "--config", "b1")
        fuzz("run", path, "--workdir", tmp_path, "--dry-run")
        fuzz("run", "--suite", path, "--config", "b1", "--model", "scripted/null", "--workdir", tmp_path, "--dry-run")
        fuzz("suite", "build", "peer", "--from", path, "-o", tmp_path / "built.jsonl")
    for name, path in outs.items():
        fuzz("schema", "-o", path)
        fuzz("import-peer", SUITE, "-o", path)  # the suite is no peer corpus: a typed error either way
        fuzz("score", "--suite", valid["suite"], "--outputs", valid["outputs"], "--report", path, *quick)
    for name in ("../../x", "/abs", "..", "a\x00b", ""):
        fuzz("run", "--suite", SUITE, "--config", "b1", "--model", "scripted/null", "--name", name, "--workdir",
             tmp_path, "--dry-run")
    for target in ("Not a literal(((", "", "P(", "¬", "Penalty(x)"):
        fuzz("ask", "-e", valid["package"], "--target", target, "--model", "scripted/null", "--config", "b1")
    fuzz("ask", "-e", valid["dup_package"], "--model", "scripted/null", "--config", "b1")
    fuzz("run", valid["spec"], "--workdir", tmp_path, "--no-track")
    fuzz("run", valid["spec"], "--workdir", tmp_path, "--no-track")  # exists: refused
    fuzz("run", valid["spec"], "--workdir", tmp_path, "--no-track", "--resume")
    fuzz("status", SUITE, "--case", "no-such-case")
    for name, text in (("misspelled", '{"query": "Q?", "evidence": [{"id": "E-01", "txet": "t", "source": "s"}]}'),
                       ("extra", '{"query": "Q?", "evidence": [{"id": "E-01", "text": "t", "source": "s", "x": 1}]}'),
                       ("not-list", '{"query": "Q?", "evidence": [7]}')):
        package = tmp_path / f"{name}.json"
        package.write_text(text, encoding="utf-8")
        fuzz("ask", "-e", package, "--model", "scripted/null")
    for name, text in (("deep", "a = " + "[" * 5000 + "]" * 5000 + "\n"), ("long-int", "seed = " + "9" * 5000 + "\n")):
        spec = tmp_path / f"{name}.toml"
        spec.write_text(text, encoding="utf-8")
        fuzz("run", spec, "--workdir", tmp_path, "--dry-run")
    print("\nCLI fuzz outcomes per command:", json.dumps(fuzz.table(), sort_keys=True))
    assert fuzz.failures == []
    seen = fuzz.table()
    for command in ("validate", "status", "score", "import-peer", "ask", "run", "schema"):
        assert seen[command].get("2", 0) > 0, command  # the hostile cases were refused...
    for command in ("validate", "status", "score", "ask", "run", "schema"):
        assert seen[command].get("0", 0) > 0, command  # ...and the valid ones ran


def test_outputs_follow_links_to_files_and_refuse_everything_else(world):
    tmp_path, _, _, outs = world
    for name in ("device", "fifo", "dir", "loop", "link-to-device", "no-parent", "nul"):
        result = runner.invoke(cli.app, ["schema", "-o", str(outs[name])])
        assert result.exit_code == 2, (name, result.output)
        assert result.stderr.startswith("paratrace: error: ") and "Traceback" not in result.output
    assert os.path.islink(outs["link-to-device"]) and Path("/dev/null").is_char_device()
    for name in ("link-to-file", "dangling"):
        assert runner.invoke(cli.app, ["schema", "-o", str(outs[name])]).exit_code == 0
        assert os.path.islink(outs[name])  # the link is kept, its target written
        assert json.loads(Path(os.path.realpath(outs[name])).read_text())["title"] == "Scenario"


@pytest.mark.parametrize("name, words", [
    ("fifo", "is a named pipe (FIFO), expected a regular file"),
    ("loop", "is a symbolic link loop"),
    ("dangling", "is a dangling symbolic link"),
    ("device", "is a character device"),
    ("truncated", "Unterminated string starting at column"),
    ("surrogate", "lone surrogate \\ud800"),
])
def test_input_refusals_say_what_is_there(world, name, words):
    _, bad, _, _ = world
    result = runner.invoke(cli.app, ["validate", str(bad[name])])
    assert result.exit_code == 2 and words in result.stderr, result.stderr
    assert "at at" not in result.stderr


def test_a_gold_object_citing_a_missing_fragment_fails_validate(tmp_path):
    line = json.loads(SUITE.read_text(encoding="utf-8").splitlines()[0])
    line["gold"]["facts"][0]["evidence"] = ["E-99"]
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    result = runner.invoke(cli.app, ["validate", str(path)])
    assert result.exit_code == 2 and "gold.facts.0.evidence.0" in result.stderr and "'E-99'" in result.stderr
    status = runner.invoke(cli.app, ["status", str(path)])
    assert "dropped as ungrounded" in status.output
    assert runner.invoke(cli.app, ["validate", str(SUITE)]).exit_code == 0  # its ungrounded case is tagged


def test_ask_refuses_duplicate_fragment_ids_and_a_junk_target(world):
    _, _, valid, _ = world
    dup = runner.invoke(cli.app, ["ask", "-e", str(valid["dup_package"]), "--model", "scripted/null"])
    assert dup.exit_code == 2 and "duplicate fragment id 'E-01'" in dup.stderr and "evidence.1.id" in dup.stderr
    junk = runner.invoke(cli.app, ["ask", "-e", str(valid["package"]), "--model", "scripted/null",
                                   "--target", "Not a literal((("])
    assert junk.exit_code == 2 and "field target" in junk.stderr and "is not a literal" in junk.stderr


def test_score_refuses_a_lone_surrogate_and_writes_reports_with_one_mode(world):
    tmp_path, _, valid, _ = world
    outputs = tmp_path / "surrogate-outputs.jsonl"
    lines = valid["outputs"].read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace('"model": "m"', '"model": "m\\udc80"')
    outputs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad = runner.invoke(cli.app, ["score", "--suite", str(SUITE), "--outputs", str(outputs), "--report",
                                  str(tmp_path / "r1"), "--resamples", "20"])
    assert bad.exit_code == 2 and "surrogate-outputs.jsonl:1" in bad.stderr and "lone surrogate" in bad.stderr
    report = tmp_path / "r2"
    good = runner.invoke(cli.app, ["score", "--suite", str(SUITE), "--outputs", str(valid["outputs"]), "--report",
                                   str(report), "--resamples", "20"])
    assert good.exit_code == 0, good.output
    umask = os.umask(0)
    os.umask(umask)
    modes = {p.name: p.stat().st_mode & 0o777 for p in report.iterdir()}
    assert set(modes.values()) == {0o666 & ~umask}, modes
