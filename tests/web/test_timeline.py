"""The history slider's positions (pbem/web/timeline.py): the same games as a replay from
the start gives, from copies kept along one replay, and files that arrive later are
replayed on from where the game stood."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.play import history, report
from pbem.web.timeline import EVERY, Timeline

RECORD = Path(__file__).resolve().parents[1] / "data" / "records" / "1937-seed3"


def test_each_position_is_the_one_a_replay_from_the_start_gives() -> None:
    files = history.record_files(RECORD)
    tl = Timeline()
    tl.follow(files[:20])
    assert len(tl.reports) == 19 and tl.last is not None
    # the files that arrived later are applied to the game as it stood, not from the start
    before = tl.last
    tl.follow(files)
    assert tl.last is before
    assert [r["text"] for r in tl.reports] == [r.text() for r in report.reports(files)]
    assert sorted(tl.kept) == list(range(1, len(files), EVERY))
    # back and forth as a slider goes: each position is exactly the replayed one
    for seq in (len(files) - 1, len(files) - 2, 7, 8, 9, 1, 30):
        assert tl.position(files, seq).to_bytes() == history.position(files, seq).to_bytes(), seq
    with pytest.raises(PbemError, match="no file 0"):
        tl.position(files, 0)


def test_other_files_than_those_seen_start_the_replay_again() -> None:
    files = history.record_files(RECORD)
    tl = Timeline()
    tl.follow(files[:10])
    other = history.record_files(Path(__file__).resolve().parents[1] / "data" / "records" / "1939-seed7")[:6]
    tl.follow(other)
    assert [r["seq"] for r in tl.reports] == [1, 2, 3, 4, 5]
    assert tl.position(other, 5).to_bytes() == history.position(other, 5).to_bytes()
