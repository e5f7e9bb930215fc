"""The positions after each file of a game, kept as the page looks back through them.

Re-executing a long game takes a while (the 240 files of the recorded air war take
half a minute), and the history slider asks for one position after another.  So the
files are replayed once, when their reports are made, keeping a copy of the game every
``EVERY`` files; a position is then the nearest kept copy plus at most ``EVERY - 1``
files.  A file that arrives later is replayed on from the last position, not from the
start.  Files once accepted never change, so a copy stays good as long as the files up
to it are the same ones (compared by their hashes).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pbem.errors import PbemError
from pbem.play import report
from pbem.protocol import replay
from pbem.protocol.machine import Game
from pbem.protocol.turnfile import TurnFile

#: a copy of the game is kept after every EVERY-th file (a 1939 game is some 35 kB as
#: bytes; a file takes a tenth of a second or more to re-execute)
EVERY = 4


class Happened(NamedTuple):
    """What one file did: the engine's events of its report (as data) and the orders it
    gave that the events do not show by themselves (declarations, attacks...)."""

    seq: int
    side: str
    events: list[dict[str, Any]]
    orders: list[str]


@dataclass
class Timeline:
    """One game's files so far, their reports and the copies kept along them."""

    digests: list[bytes] = field(default_factory=list)
    reports: list[dict[str, Any]] = field(default_factory=list)
    #: what each file did, as data (drawn on the map)
    happened: list[Happened] = field(default_factory=list)
    kept: dict[int, bytes] = field(default_factory=dict)  # file number -> the game after it
    last: Game | None = None  # the game after the last file, replayed on when files arrive
    seen: tuple[int, bytes] | None = None  # the position last asked for: the slider's next step starts there

    def follow(self, files: list[TurnFile], base: bytes | None = None) -> None:
        """Catch up with ``files`` (the game from its genesis; a branch from ``base``):
        replay only the files not yet seen, or everything when an earlier file is not the
        one seen before."""
        new = [tf.hash for tf in files]
        if new[: len(self.digests)] != self.digests or self.last is None:
            self.digests, self.reports, self.happened, self.kept, self.last, self.seen = [], [], [], {}, None, None
        if len(files) < 2:
            return
        reporter = report.Reports()
        along = replay.Visitors(reporter, replay.Checkpoints(self.kept, EVERY))
        self.last = replay.replay(files, base=base, visitor=along, resume=self.last)
        self.reports += [{"seq": r.seq, "side": r.side, "text": r.text()} for r in reporter.made]
        self.happened += [
            Happened(r.seq, r.side, [d for e in r.entries for d in e.data], [o for e in r.entries for o in e.orders])
            for r in reporter.made
        ]
        self.digests = new

    def position(self, files: list[TurnFile], seq: int, base: bytes | None = None) -> Game:
        """The game right after file ``seq`` (the caller's to keep)."""
        self.follow(files, base)
        if not 1 <= seq < len(files):
            raise PbemError(f"there is no file {seq}: the files run from 1 to {len(files) - 1}", "usage")
        start = max(s for s in self.kept if s <= seq)
        data = self.kept[start]
        if self.seen is not None and start < self.seen[0] <= seq:
            data = self.seen[1]
        game = replay.replay(files, upto=seq, resume=Game.from_bytes(data))
        self.seen = (seq, game.to_bytes())
        return game
