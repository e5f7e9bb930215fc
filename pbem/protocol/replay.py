"""Re-execution of a game's files from its genesis: the one walk every look back takes.

The genesis and the join set the game up (:func:`pbem.protocol.machine.start`); every later file
is authenticated against the keys in force at its place (a side handed over signs with
its new key) and applied whatever its type, turn, claim, terms or hand-over
(:func:`pbem.protocol.advance.apply_file`).  A file is taken as it was read and parsed, once.

What a command wants from the walk it says with a :class:`Visitor`, told before and
after each file: ``pbem audit`` counts the commitments it saw (``audit``), ``pbem log``
and the play page make each file's report (``report.Reports``), the page's history
slider keeps a copy of the game every few files (:class:`Checkpoints`), ``pbem branch``
notes the files after which a branch may start (``branch.BranchPoints``).  ``pbem map``
and the history positions (``history``) take the game itself.

A file that arrives later is not replayed from the genesis: :func:`walk` goes on from a
game already at one of the files (``resume``).
"""

from __future__ import annotations

import collections
from collections.abc import Iterator, Sequence

from pbem.errors import PbemError
from pbem.protocol import advance, machine
from pbem.protocol.machine import Game, Watcher
from pbem.protocol.records import Record
from pbem.protocol.turnfile import TurnFile


class Visitor:
    """What a replay tells along the way; a visitor overrides what it needs."""

    def before(self, game: Game, tf: TurnFile) -> Watcher | None:
        """``tf``, a file after the join, is about to be applied to ``game``: a watcher of
        its records (:data:`pbem.protocol.machine.Watcher`), or None."""
        return None

    def after(self, game: Game, tf: TurnFile) -> None:
        """``tf`` (the join, or a later file) was applied: ``game`` is the live game, which
        the next file changes (a visitor that keeps it takes a copy)."""


class Visitors(Visitor):
    """Several visitors on one walk, told in the order given."""

    def __init__(self, *visitors: Visitor) -> None:
        self.visitors = visitors

    def before(self, game: Game, tf: TurnFile) -> Watcher | None:
        watchers = [w for v in self.visitors if (w := v.before(game, tf)) is not None]
        if not watchers:
            return None

        def watch(game: Game, rec: Record) -> None:
            for w in watchers:
                w(game, rec)

        return watch

    def after(self, game: Game, tf: TurnFile) -> None:
        for v in self.visitors:
            v.after(game, tf)


class Checkpoints(Visitor):
    """A copy of the game (its bytes) after every ``every``-th file: files 1, 1 + every, ..."""

    def __init__(self, kept: dict[int, bytes], every: int) -> None:
        self.kept, self.every = kept, every

    def after(self, game: Game, tf: TurnFile) -> None:
        if tf.seq % self.every == 1:
            self.kept[tf.seq] = game.to_bytes()


def walk(
    files: Sequence[TurnFile],
    *,
    base: bytes | None = None,
    upto: int | None = None,
    visitor: Visitor | None = None,
    resume: Game | None = None,
) -> Iterator[Game]:
    """Re-execute ``files`` (the game's from its genesis, in order) and yield the live game
    after each file from the join on, up to and including file ``upto`` (the last when
    None).  A branch starts from ``base``, its parent's position, verified by the caller
    (:func:`pbem.play.branch.verified_base`).  With ``resume``, a game after one of ``files``,
    the walk goes on from there (changing it) instead of from the genesis.

    Raises PbemError on the first file that is not genuine or does not follow."""
    if len(files) < 2:
        raise PbemError("the opponent has not joined this game yet: there is no position to show", "game")
    last = len(files) - 1 if upto is None else upto
    if not 1 <= last < len(files):
        raise PbemError(f"there is no file {upto}: the files run from 1 to {len(files) - 1}", "usage")
    v = visitor or Visitor()
    if resume is None:
        genesis = machine.Genesis(files[0].body)
        game = machine.start(files[0], machine.authenticate(genesis, files[1]), base)
        v.after(game, files[1])
        yield game
    else:
        game = resume
    for tf in files[game.seq + 1 : last + 1]:
        file = machine.authenticate(game.genesis, tf, game)
        advance.apply_file(game, file, v.before(game, tf))
        v.after(game, tf)
        yield game


def replay(
    files: Sequence[TurnFile],
    *,
    base: bytes | None = None,
    upto: int | None = None,
    visitor: Visitor | None = None,
    resume: Game | None = None,
) -> Game:
    """The game after file ``upto`` of ``files`` (the last when None): :func:`walk` to its end."""
    after = collections.deque(walk(files, base=base, upto=upto, visitor=visitor, resume=resume), maxlen=1)
    game = after[0] if after else resume
    assert game is not None  # nothing walked: the game resumed is already at file ``upto``
    return game
