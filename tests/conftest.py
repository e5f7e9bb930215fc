"""Scheduling of the whole suite over pytest-xdist workers."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator

import pytest

from pbem.store import durable


def pytest_configure(config: pytest.Config) -> None:
    # Bytecode caches are written even where the environment turns them off
    # (PYTHONDONTWRITEBYTECODE, common in container images): otherwise every xdist worker
    # and every fresh interpreter the tests start (the CLI, the mail daemons) compiles
    # each module again, pytest's rewritten test modules included.  Workers start after
    # this hook and inherit the environment.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    # No test cuts the power, so no test needs the disk flushes; tests/protocol/test_durable.py
    # turns them back on to prove the writes are flushed, and processes the tests start
    # afresh (the mail daemons, run_cli.py) flush as players' do.
    durable.FSYNC = False
    # Answers kept between runs (pbem/store/usercache.py) go to a folder of the run's own,
    # never to the user's: a test sees only what the tests before it kept.
    os.environ["XDG_CACHE_HOME"] = cache = tempfile.mkdtemp(prefix="pbem-test-cache-")
    config.add_cleanup(lambda: shutil.rmtree(cache, ignore_errors=True))


#: Module fixtures cheap enough to build again on each worker: they tie no tests together.
UNGROUPED = frozenset({"browser"})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of a module that share a module-scoped fixture form one xdist group.

    With ``--dist loadgroup`` (pyproject's default) a group runs on one worker, one test
    after the other, so the fixture (a replayed game, a game played to a phase, a
    server) is built once.  Spread over workers and interleaved with other modules, as
    plain load balancing does, it was built again for almost every test.  Tests of one
    module that share no such fixture (directly or through another test) are groups of
    their own, free to run on other workers.
    """
    shared: dict[str, list[tuple[pytest.Item, set[str]]]] = {}
    for item in items:
        defs = getattr(item, "_fixtureinfo", None)
        if defs is None:
            continue
        names = {
            name
            for name, fixdefs in defs.name2fixturedefs.items()
            if name not in UNGROUPED and any(d.scope == "module" for d in fixdefs)
        }
        if names:
            shared.setdefault(item.nodeid.split("::")[0], []).append((item, names))
    grouped = set()
    for module, tests in shared.items():
        for item, group in _joined(tests):
            item.add_marker(pytest.mark.xdist_group(f"{module}::{group}"))
            grouped.add(item.nodeid)
    # Longest first, then the groups, then the single short tests that fill the gaps at the
    # end: two cores need about two and a half minutes for the suite's CPU, and a long test
    # started late (it was one of the last, after every group) kept the last worker busy a
    # minute after the others.  pyproject turns off xdist's own reordering (by group size).
    items.sort(key=lambda item: 0 if item.get_closest_marker("slow") else 1 if item.nodeid in grouped else 2)


def _joined(tests: list[tuple[pytest.Item, set[str]]]) -> list[tuple[pytest.Item, str]]:
    """Each test with the name of its group: the first (sorted) fixture name of the set of
    module fixtures linked to its own through the tests that use them together."""
    leader: dict[str, str] = {}

    def find(name: str) -> str:
        while leader.setdefault(name, name) != name:
            name = leader[name]
        return name

    for _, names in tests:
        first, *rest = sorted(names)
        for name in rest:
            a, b = sorted((find(first), find(name)))
            leader[b] = a
    return [(item, find(min(names))) for item, names in tests]


@pytest.fixture
def fast_switching() -> Iterator[None]:
    """Threads switch every microsecond instead of every 5 ms, so that a thread-safety test
    meets a window of a few instructions between one thread's lookup and its use."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)
