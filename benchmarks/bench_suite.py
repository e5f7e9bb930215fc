"""The test suite's time: ``python -m benchmarks suite`` runs the README's ``python3 -m pytest``
(pyproject's default options) and then the map regeneration kept apart (``-m mapgen``), and
prints for each the wall time, the CPU time and the load average, and the files that took
the most CPU.

Wall time says how long CI waits, but only on an otherwise idle machine; the CPU time (user
and system of pytest, its workers and every process they waited for) is the figure that
holds on a shared one.  The mail servers run as daemons and are not in it.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.suite_cpu import ENV

ROOT = Path(__file__).resolve().parents[1]
#: The two runs: the README's command, and the map regeneration as .ci/run runs it.
RUNS: tuple[tuple[str, list[str]], ...] = (
    ("README's python3 -m pytest", []),
    ("map regeneration, -m mapgen -n 0", ["-m", "mapgen", "-n", "0"]),
)


@dataclass
class SuiteTimes:
    """One pytest run: its wall and CPU seconds, the load average around it, and CPU per file."""

    wall: float
    cpu: float
    load: tuple[float, float]
    exit_code: int
    files: dict[str, tuple[int, float, float]] = field(default_factory=dict)  # file -> tests, CPU, wall


def per_file(lines: Iterable[str]) -> dict[str, tuple[int, float, float]]:
    """Tests, CPU and wall seconds of each test file, from the plugin's JSON lines."""
    out: dict[str, tuple[int, float, float]] = {}
    for line in lines:
        row = json.loads(line)
        name = row["test"].split("::")[0]
        tests, cpu, wall = out.get(name, (0, 0.0, 0.0))
        out[name] = (tests + 1, cpu + row["cpu"], wall + row["wall"])
    return out


def run(args: list[str]) -> SuiteTimes:
    with tempfile.TemporaryDirectory(prefix="pbem-suite-") as tmp:
        log = Path(tmp) / "tests.jsonl"
        env = dict(os.environ, **{ENV: str(log)})
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load = os.getloadavg()[0]
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "benchmarks.suite_cpu", *args], cwd=ROOT, env=env, check=False
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        files = per_file(log.read_text(encoding="utf-8").splitlines()) if log.exists() else {}
    return SuiteTimes(wall, cpu, (load, os.getloadavg()[0]), done.returncode, files)


def report(name: str, times: SuiteTimes, out: Callable[[str], None], top: int = 12) -> None:
    outcome = "passed" if times.exit_code == 0 else f"exit status {times.exit_code}"
    out(
        f"{name}: wall {times.wall:.0f} s, CPU {times.cpu:.0f} s ({outcome}; "
        f"load average {times.load[0]:.1f} before, {times.load[1]:.1f} after)"
    )
    ranked = sorted(times.files.items(), key=lambda kv: -kv[1][1])
    for file, (tests, cpu, wall) in ranked[:top]:
        out(f"  {cpu:7.1f} s CPU {wall:8.1f} s wall {tests:5d} tests  {file}")


def bench_suite() -> None:
    for name, args in RUNS:
        report(name, run(args), print)
