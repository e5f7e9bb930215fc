"""The protocol on the real rules engine and the 1939 scenario."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.play import audit
from pbem.play.memplay import MemoryMatch
from pbem.protocol import engine_link, turnfile


@pytest.fixture
def real_engine(fake_engine: None) -> Iterator[None]:
    engine_link.use(None)
    yield


def test_first_month_of_1939_verifies_and_a_forged_roll_is_caught(real_engine: None, tmp_path: Path) -> None:
    match = MemoryMatch("1939", seed=2)
    files = match.play(lambda g: g.k >= 2, max_files=200)
    for f in files:
        (tmp_path / f.name).write_bytes(f.raw)
    (report,) = audit.audit_dir(tmp_path)
    assert report.rolls >= 2 and report.files == len(files)
    # Change one dice value of a real file and re-sign it with the author's real key.
    victim = next(f for f in files if any(r[0] == "dice" for r in f.body.get("records", [])))
    records = [[r[0], r[1], bytes(32)] if r[0] == "dice" else r for r in victim.body["records"]]
    forged = turnfile.seal(dict(victim.body, records=records), match.ids[victim.side].sign)
    (tmp_path / victim.name).write_bytes(forged.raw)
    with pytest.raises(PbemError, match="chain"):
        audit.audit_dir(tmp_path)
