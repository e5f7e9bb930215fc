"""The one walk of re-execution (pbem/protocol/replay.py) over the recorded games: after each file the
replayed game holds that file's hash and the state hash the file records; visitors on one
walk each see every file and every record once; a game resumed from a kept copy goes on
to the same bytes as the walk from the genesis."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.play import history, report
from pbem.protocol import engine_link, replay
from pbem.protocol.machine import Game, Watcher
from pbem.protocol.records import Record
from pbem.protocol.turnfile import TurnFile

RECORDS = Path(__file__).resolve().parent / "data" / "records"


class _Hashes(replay.Visitor):
    """The file hash and state hash of the game after each file, as the walk hands it over."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, bytes, bytes]] = []

    def after(self, game: Game, tf: TurnFile) -> None:
        self.seen.append((game.seq, game.hashes[-1], engine_link.api().state_hash(game.state)))


# The air record (252 files) is audited through the same walk by tests/test_air_war_record.py.
@pytest.mark.parametrize("name", ["1937-seed3", "1939-seed7"])
def test_every_recorded_game_replays_to_the_hashes_its_files_record(name: str) -> None:
    files = history.record_files(RECORDS / name)
    hashes = _Hashes()
    game = replay.replay(files, visitor=hashes)
    assert hashes.seen == [(tf.seq, tf.hash, tf.body["state"]) for tf in files[1:]]
    assert game.hashes == [tf.hash for tf in files]


class _Records(replay.Visitor):
    """Every record watched, by file."""

    def __init__(self) -> None:
        self.watched: dict[int, list[Record]] = {}

    def before(self, game: Game, tf: TurnFile) -> Watcher:
        self.watched[tf.seq] = []
        return lambda game, rec: self.watched[tf.seq].append(rec)


def test_visitors_on_one_walk_and_a_walk_resumed_from_a_kept_copy() -> None:
    files = history.record_files(RECORDS / "1937-seed3")[:14]
    records, reports = _Records(), report.Reports()
    kept: dict[int, bytes] = {}
    walked = [g.seq for g in replay.walk(files, visitor=replay.Visitors(records, reports, replay.Checkpoints(kept, 4)))]
    assert walked == list(range(1, 14))
    assert records.watched == {tf.seq: list(tf.records) for tf in files[2:]}
    assert [r.text() for r in reports.made] == [r.text() for r in report.reports(files)]
    assert sorted(kept) == [1, 5, 9, 13]
    end = Game.from_bytes(kept[13])
    resumed = replay.replay(files, resume=Game.from_bytes(kept[5]))
    assert resumed.to_bytes() == end.to_bytes()
    # Nothing left to walk: the game resumed is the answer, unchanged.
    assert replay.replay(files, resume=end) is end
