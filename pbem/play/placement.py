"""Where a received file goes in its game's history: the one decision that receiving a
file (:func:`pbem.play.exchange.receive`) and checking one (:func:`pbem.play.audit.verify_file`)
both make, after which each does its own part (store it, or only say what it is)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pbem.errors import PbemError
from pbem.play import games
from pbem.protocol import machine
from pbem.protocol.turnfile import TurnFile
from pbem.store.localgame import LocalGame


class Place(StrEnum):
    DUPLICATE = "duplicate"  # the history holds this very file already
    EQUIVOCATION = "equivocation"  # its side signed another file for the same position
    TAKEN = "taken"  # the other side's file holds that position
    EARLY = "early"  # a gap lies before it: it waits for the files before it
    NEXT = "next"  # it follows the history: re-execute it


@dataclass(frozen=True)
class Placement:
    place: Place
    file: machine.Authentic | None  # None only for the very bytes already accepted
    existing: TurnFile | None  # the file already at that position (duplicate, equivocation, taken)
    head: int  # the last position of the history
    genesis: TurnFile  # the game's genesis file


def place(lg: LocalGame, tf: TurnFile, game: machine.Game | None) -> Placement:
    """Authenticate ``tf`` and find its place in ``lg``'s history (``game``: the game
    after its last accepted file).  Raises PbemError for a file no history may take."""
    genesis_tf = lg.genesis()
    if tf.type == "genesis" and tf.hash != genesis_tf.hash:
        raise PbemError(games.reused_id(tf.name, tf.game), "game-id")
    head = 0 if game is None else game.seq
    if tf.seq <= head and (same := lg.history_file(tf.seq)) is not None and same.raw == tf.raw:
        # The very bytes accepted already: a duplicate, even if their key was handed over since.
        return Placement(Place.DUPLICATE, None, same, head, genesis_tf)
    file = machine.authenticate(machine.Genesis(genesis_tf.body), tf, game)
    # A declined game's history ends with the refusal, file 1.
    declined = lg.history_file(1) if game is None else None
    filled = head
    if declined is not None and declined.type == "decline":
        if tf.seq > 1:
            raise PbemError(
                f"{tf.name}: game {tf.game} ended when {declined.side} declined it; nothing may follow", "over"
            )
        filled = 1
    if tf.seq <= filled:
        existing = lg.history_file(tf.seq)
        if existing is not None and existing.hash == tf.hash:
            return Placement(Place.DUPLICATE, file, existing, head, genesis_tf)
        if existing is not None and existing.side == tf.side:
            return Placement(Place.EQUIVOCATION, file, existing, head, genesis_tf)
        return Placement(Place.TAKEN, file, existing, head, genesis_tf)
    return Placement(Place.EARLY if tf.seq > head + 1 else Place.NEXT, file, None, head, genesis_tf)
