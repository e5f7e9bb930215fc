"""The shape of the house: imports point one way and never run in a circle.

``pbem`` -> ``scenarios`` -> ``engine``: the engine imports nothing of ours outside
itself, the scenario data and its tools only the engine, and ``pbem`` reaches the
engine only through its interface (``engine.api``) and the computer player
(``engine.ai``).  Imports inside functions count: a lazy import is still a
dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "scenarios", "pbem")
LAYER = {"engine": 0, "scenarios": 1, "pbem": 2}
#: What pbem may import of the engine: the interface and the computer player.
PBEM_MAY_IMPORT = ("engine.api", "engine.ai")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            found[_module_name(path)] = path
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ours that ``name`` imports, anywhere in its text."""
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """Every module of ours and the modules of ours it imports (parsed once for the three tests)."""
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def test_no_import_runs_up_the_stack(graph: dict[str, set[str]]) -> None:
    wrong = [
        f"{name} -> {target}"
        for name, targets in graph.items()
        for target in targets
        if LAYER[target.split(".")[0]] > LAYER[name.split(".")[0]]
    ]
    assert wrong == []


def test_pbem_reaches_the_engine_only_through_its_interface(graph: dict[str, set[str]]) -> None:
    wrong = [
        f"{name} -> {target}"
        for name, targets in graph.items()
        if name.startswith("pbem")
        for target in targets
        if target.startswith("engine") and not target.startswith(PBEM_MAY_IMPORT)
    ]
    assert wrong == []


def test_no_import_circle(graph: dict[str, set[str]]) -> None:
    # A package's __init__ re-exporting its modules is not a circle of the code's concepts.
    edges = {n: {t for t in ts if not n.startswith(t + ".")} for n, ts in graph.items()}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    assert cycles == []
