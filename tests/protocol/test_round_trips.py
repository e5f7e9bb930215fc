"""A file holding only automatic records (a dice value, the opening of a commitment) goes
on its own only when the opponent needs it before its next decision: in a played game,
such a file is always followed by a file of the other side, never by one of its own."""

from __future__ import annotations

from pbem.protocol import turnfile
from pbem.protocol.records import Dice, Reveal
from tests.protocol.conftest import Duo


def test_automatic_files_are_sent_alone_only_when_the_opponent_acts_next(duo: Duo) -> None:
    for _ in range(60):
        if duo.to_move() is None:
            break
        duo.step()
    files = sorted(duo.out.glob("*.pbem"))
    sides = [f.name.split("-")[2].removesuffix(".pbem") for f in files]
    automatic = [
        i
        for i, f in enumerate(files)
        if (records := turnfile.read(f).records) and all(isinstance(r, (Dice, Reveal)) for r in records)
    ]
    assert automatic, "the stand-in game rolled no dice and revealed nothing"
    for i in automatic:
        assert i + 1 == len(files) or sides[i + 1] != sides[i], files[i].name
