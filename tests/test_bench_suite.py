"""The suite benchmark's bookkeeping (the benchmark itself runs the whole suite: minutes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.bench_suite import SuiteTimes, per_file, report
from benchmarks.suite_cpu import ENV

ROOT = Path(__file__).resolve().parents[1]


def test_tests_are_summed_per_file_and_the_costliest_files_come_first() -> None:
    lines = [
        json.dumps({"test": "tests/a.py::test_one", "cpu": 1.0, "wall": 2.0}),
        json.dumps({"test": "tests/b.py::test_two[x]", "cpu": 4.0, "wall": 5.0}),
        json.dumps({"test": "tests/a.py::test_three@tests/a.py", "cpu": 0.5, "wall": 0.5}),
    ]
    files = per_file(lines)
    assert files == {"tests/a.py": (2, 1.5, 2.5), "tests/b.py": (1, 4.0, 5.0)}
    out: list[str] = []
    report("run", SuiteTimes(60.0, 90.0, (1.0, 2.5), 1, files), out.append)
    assert out[0] == "run: wall 60 s, CPU 90 s (exit status 1; load average 1.0 before, 2.5 after)"
    assert [line.split()[-1] for line in out[1:]] == ["tests/b.py", "tests/a.py"]


def test_the_plugin_writes_each_tests_cpu_and_wall(tmp_path: Path) -> None:
    (tmp_path / "test_busy.py").write_text(
        "import time\n"
        "def test_busy():\n"
        "    end = time.process_time() + 0.3\n"
        "    while time.process_time() < end:\n"
        "        pass\n"
        "def test_idle():\n"
        "    time.sleep(0.3)\n"
    )
    log = tmp_path / "tests.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{ENV: str(log)})
    args = [sys.executable, "-m", "pytest", "-p", "benchmarks.suite_cpu", "-q", "-o", "addopts="]
    done = subprocess.run([*args, str(tmp_path)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {r["test"].split("::")[1]: r for r in map(json.loads, log.read_text().splitlines())}
    assert rows["test_busy"]["cpu"] >= 0.3 and rows["test_busy"]["wall"] >= 0.3
    assert rows["test_idle"]["wall"] >= 0.3 and rows["test_idle"]["cpu"] < 0.2
