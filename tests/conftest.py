"""Scheduling of the whole suite over pytest-xdist workers."""

from __future__ import annotations

import pytest

from pbem import durable


def pytest_configure(config: pytest.Config) -> None:
    # No test cuts the power, so no test needs the disk flushes; tests/protocol/test_durable.py
    # turns them back on to prove the writes are flushed, and processes the tests start
    # afresh (the mail daemons, run_cli.py) flush as players' do.
    durable.FSYNC = False


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of a module that share a module-scoped fixture form one xdist group.

    With ``--dist loadgroup`` (pyproject's default) a group runs on one worker, one test
    after the other, so the fixture (a replayed game, a game played to a phase, a
    server) is built once.  Spread over workers and interleaved with other modules, as
    plain load balancing does, it was built again for almost every test.
    """
    for item in items:
        defs = getattr(item, "_fixtureinfo", None)
        if defs is None:
            continue
        if any(d.scope == "module" for fixdefs in defs.name2fixturedefs.values() for d in fixdefs):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
