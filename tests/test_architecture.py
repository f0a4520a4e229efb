"""The package stack and import hygiene (docs/architecture.md).

Counting function-level imports, relative imports and module names held in
strings, the packages form the stack symbolic < scorer < assistant <
experiments < optimize, no two modules import each other, and importing a
package changes neither the environment nor another package's tables.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STACK = ("symbolic", "scorer", "assistant", "experiments", "optimize")
RANK = {name: i for i, name in enumerate(STACK)}
DOTTED = re.compile(r"(%s)(\.\w+)+" % "|".join(STACK))


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _imports(path: Path, module: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.ImportFrom):
            parts = module.split(".")
            keep = len(parts) - node.level + (1 if path.name == "__init__.py" else 0)
            names.add(".".join(parts[:keep] + ([node.module] if node.module else [])))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and DOTTED.fullmatch(node.value):
            names.add(node.value)
    return names


def _graph() -> dict[str, set[str]]:
    return {_module(path): _imports(path, _module(path)) for package in STACK for path in sorted((ROOT / package).rglob("*.py"))}


def test_packages_form_a_strict_stack():
    upward = sorted(f"{module} -> {name}" for module, names in _graph().items() for name in names
                    if name.split(".")[0] in RANK and RANK[name.split(".")[0]] > RANK[module.split(".")[0]])
    assert upward == []


def test_no_two_modules_import_each_other():
    graph = _graph()
    pairs = sorted({tuple(sorted((a, b))) for a, names in graph.items() for b in names
                    if b in graph and a != b and a in graph[b]})
    assert pairs == []


def test_the_checker_sees_function_level_relative_and_string_imports(tmp_path):
    fake = tmp_path / "mod.py"
    fake.write_text("def f():\n    from optimize.run import x\n    return 'experiments.runner.cli'\n"
                    "from . import io\nfrom ..scorer import score\n", encoding="utf-8")
    assert _imports(fake, "symbolic.sub.mod") == {"optimize.run", "experiments.runner.cli", "symbolic.sub",
                                                  "symbolic.scorer"}


PROBE = """
import json, os, sys
before = dict(os.environ)
import symbolic, scorer, assistant, experiments, optimize
import assistant.variants as variants
tables = json.dumps(variants.INSTRUCTIONS, sort_keys=True)
import assistant.baselines, assistant.configs, experiments.runner, optimize.serve, optimize.root
print(json.dumps({"env": sorted(set(os.environ.items()) ^ set(before.items())),
                  "tables": tables == json.dumps(variants.INSTRUCTIONS, sort_keys=True)}))
"""


def test_importing_the_packages_changes_neither_the_environment_nor_another_package_tables():
    env = {"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, env=env,
                          check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"env": [], "tables": True}


def _package_exports(path: Path) -> tuple[list[str] | None, bool]:
    """``(__all__ as a literal list or None, whether the module defines __getattr__)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names, lazy = None, False
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if isinstance(target, ast.Name) and target.id == "__all__" and isinstance(node.value, ast.List):
            names = [ast.literal_eval(e) for e in node.value.elts]
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            lazy = True
    return names, lazy


def test_package_exports_are_plain_sorted_lists():
    inits = sorted(p for name in STACK for p in (ROOT / name).rglob("__init__.py"))
    assert len(inits) >= 10
    for path in inits:
        names, lazy = _package_exports(path)
        assert not lazy, f"{path}: a lazy __getattr__ export map"
        assert names is not None, f"{path}: __all__ is not a literal list"
        assert names == sorted(names), f"{path}: __all__ is not sorted"


def test_the_export_check_sees_lazy_maps_and_unsorted_lists(tmp_path):
    lazy = tmp_path / "lazy.py"
    lazy.write_text('__all__ = ["b", "a"]\n\ndef __getattr__(name):\n    raise AttributeError(name)\n')
    assert _package_exports(lazy) == (["b", "a"], True)
    computed = tmp_path / "computed.py"
    computed.write_text('__all__ = sorted(["b", "a"])\n')
    assert _package_exports(computed) == (None, False)
