"""A pytest plugin for ``python -m benchmarks suite``: each test's CPU and wall time, as JSON lines.

Loaded with ``-p benchmarks.suite_cpu`` (xdist passes it on to every worker); the lines go to
the file named by ``PBEM_SUITE_CPU``, one per test, appended by whichever worker ran it.  The
CPU is that of the test's process (all its threads) and of the child processes it waited for;
daemons it leaves running (the mail servers) are not in it.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections.abc import Iterator

import pytest

ENV = "PBEM_SUITE_CPU"


def cpu_seconds() -> float:
    """User and system time of this process and of its waited-for children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    out = os.environ.get(ENV)
    cpu, wall = cpu_seconds(), time.monotonic()
    yield
    if out:
        line = {"test": item.nodeid, "cpu": cpu_seconds() - cpu, "wall": time.monotonic() - wall}
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
