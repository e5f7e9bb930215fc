"""The record benchmark's rounds, on the short 1937 record of tests/data (the 1939 record
to 1940-06 takes minutes; see docs/performance.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bench_record import bench_record_verify, bench_state_hash, bench_warm_supply, record_snapshots

RECORD = Path(__file__).resolve().parent / "data" / "records" / "1937-seed3"


def test_every_file_is_timed_and_the_rows_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    files = record_snapshots(RECORD)
    # Every turn file after the genesis (0) and the join (1).
    assert [seq for seq, *_ in files] == list(range(2, len(list(RECORD.glob("*.pbem")))))
    rows: list[tuple[str, float, float]] = []

    def report(name: str, median: float, best: float, target_ms: float | None = None) -> None:
        rows.append((name, median, best))

    bench_record_verify(report, files[:6], rounds=1)
    bench_state_hash(report, files)
    bench_warm_supply(report, files)
    names = [name for name, _, _ in rows]
    assert names[0] == "verify+apply: median of the slowest file"
    assert any(name.startswith("state hash of the record's last state") for name in names)
    assert sum(name.startswith("warm supply map of the") for name in names) == 2
    assert all(0 < best <= median for _, median, best in rows)
    out = capsys.readouterr().out
    assert "6 files, 1 rounds; the ten slowest by median (CPU):" in out
    assert "largest single time of any file" in out
