"""The in-memory match (used by the benchmark) writes files that a stranger's audit accepts."""

from __future__ import annotations

from pathlib import Path

from pbem.play import audit
from pbem.play.memplay import MemoryMatch


def test_memory_match_files_pass_audit(tmp_path: Path) -> None:
    match = MemoryMatch("long", seed=4, creator="allies")
    files = match.play(lambda g: g.state.date >= 1939 * 12 + 11)
    for f in files:
        (tmp_path / f.name).write_bytes(f.raw)
    (report,) = audit.audit_dir(tmp_path)
    assert report.files == len(files) and report.rolls == match.game.k > 0
    assert report.commitments > 0
