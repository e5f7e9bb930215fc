"""The shape of the house: imports point one way and never run in a circle.

``pbem`` -> ``scenarios`` -> ``engine``: the engine imports nothing of ours outside
itself, the scenario data and its tools only the engine, and ``pbem`` reaches the
engine through one door, ``pbem.protocol.engine_link``, typed by the shapes of
``pbem.protocol.rules``.  Imports inside functions count: a lazy import is still a
dependency, and so does one made only for the type checker.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "scenarios", "pbem")
LAYER = {"engine": 0, "scenarios": 1, "pbem": 2}
#: The one module of pbem that reaches the engine (by name, so tests can swap in a stand-in).
SEAM = "pbem.protocol.engine_link"


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


#: pbem's rooms, lowest first: a module imports from its own room or lower ones only.
PBEM_ROOMS = {"errors": 0, "protocol": 1, "store": 2, "play": 3, "mail": 4, "web": 4, "cli": 5}
#: The modules at pbem's top level (besides its sub-packages): a newcomer reads the rooms.
PBEM_TOP_LEVEL_AT_MOST = 10


def test_pbem_is_grouped_in_rooms_that_import_downwards(graph: dict[str, set[str]]) -> None:
    top = sorted(p.name for p in (ROOT / "pbem").iterdir() if p.suffix == ".py" or (p / "__init__.py").exists())
    assert len(top) <= PBEM_TOP_LEVEL_AT_MOST, top
    rooms = {name: name.split(".")[1] for name in graph if name.startswith("pbem.")}
    assert set(rooms.values()) <= set(PBEM_ROOMS), sorted(set(rooms.values()) - set(PBEM_ROOMS))
    wrong = [
        f"{name} -> {target}"
        for name, room in rooms.items()
        for target in graph[name]
        if target in rooms and PBEM_ROOMS[rooms[target]] > PBEM_ROOMS[room]
    ]
    assert wrong == []


def test_the_reference_verifier_imports_nothing_of_pbem(graph: dict[str, set[str]]) -> None:
    assert {t for t in graph["pbem.protocol.spec_verify"] if t.startswith(("pbem", "engine"))} == set()


def test_pbem_reaches_the_engine_through_the_seam_only(graph: dict[str, set[str]]) -> None:
    wrong = sorted(
        f"{name} -> {target}"
        for name, targets in graph.items()
        if name.startswith("pbem") and name != SEAM
        for target in targets
        if target.split(".")[0] == "engine"
    )
    assert wrong == []


def _loads_by_name(path: Path) -> list[str]:
    """The module names ``path`` hands to ``importlib.import_module`` or ``__import__``
    (an f-string's text up to its first field)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if called not in ("import_module", "__import__"):
            continue
        first = node.args[0]
        if isinstance(first, ast.JoinedStr):
            first = first.values[0] if first.values else ast.Constant("")
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            found.append(first.value)
    return found


def test_only_the_seam_loads_the_engine_by_name() -> None:
    loads = {name: _loads_by_name(path) for name, path in _modules().items() if name.startswith("pbem")}
    assert any(n.startswith("engine") for n in loads[SEAM]), "the seam no longer loads the engine: update this test"
    wrong = sorted(f"{name}: {n}" for name, ns in loads.items() if name != SEAM for n in ns if n.startswith("engine"))
    assert wrong == []
