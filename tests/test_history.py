"""Positions of a game after each of its files, from a record folder (pbem/play/history.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.play import history
from pbem.protocol import engine_link

RECORD = Path(__file__).resolve().parent / "data" / "records" / "1937-seed3"


def test_each_step_is_the_position_its_file_recorded() -> None:
    files = history.record_files(RECORD)
    assert [tf.seq for tf in files] == list(range(len(files)))
    api = engine_link.api()
    seen = 0
    for step in history.steps(files):
        # Every file carries the hash of the state it leaves; the replayed game agrees.
        assert step.game.seq == step.seq
        assert step.file.body["state"] == api.state_hash(step.game.state)
        seen += 1
    assert seen == len(files) - 1


def test_position_at_a_file_is_earlier_than_the_last() -> None:
    files = history.record_files(RECORD)
    api = engine_link.api()
    early = history.position(files, 5)
    last = history.position(files)
    assert early.seq == 5
    assert api.state_hash(early.state) != api.state_hash(last.state)
    with pytest.raises(PbemError, match="there is no file 999"):
        history.position(files, 999)


def test_a_tampered_record_is_refused(tmp_path: Path) -> None:
    for path in RECORD.iterdir():
        shutil.copy(path, tmp_path / path.name)
    victim = sorted(tmp_path.iterdir())[10]
    data = bytearray(victim.read_bytes())
    data[-5] ^= 1
    victim.write_bytes(bytes(data))
    with pytest.raises(PbemError):
        history.record_files(tmp_path)
