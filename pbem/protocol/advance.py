"""The next file of a game in progress, whatever its type: the one way a file after the join
is re-executed (a whole game's files walk through :mod:`pbem.protocol.replay`, which comes here).

A ``turn`` file is re-executed by :mod:`pbem.protocol.machine`; a ``claim`` or ``terms`` file by
:mod:`pbem.protocol.deadlines`; a ``handover`` by :mod:`pbem.protocol.handover`.  The file's signed time
is checked here, the same way for every type.
"""

from __future__ import annotations

from pbem.errors import PbemError
from pbem.protocol import clock, deadlines, handover, machine
from pbem.protocol.machine import Authentic, Game, Watcher


def apply_file(game: Game, file: Authentic, watch: Watcher | None = None) -> None:
    """Verify ``file`` as the next file of ``game`` and apply it; on error ``game`` is left
    half-applied (callers work on a copy)."""
    tf = file.tf
    # The link to the file before first, then the time: the order of docs/turn-file-format.md, 7.1.
    machine.check_link(game, tf, tf.type if tf.type in ("claim", "terms", "handover") else "turn")
    if tf.type == "claim" and not game.deadline:
        raise PbemError(f"{tf.name}: this game has no deadline, so nothing can be claimed", "claim")
    if tf.type == "terms" and not game.deadline:
        raise PbemError(f"{tf.name}: this game has no deadline to change", "terms")
    machine.check_time_field(game.deadline != 0, tf)
    if "time" in tf.body:
        if tf.body["time"] < game.clock:
            raise PbemError(f"{tf.name}: its time is earlier than the time of the file before it", "time")
        clock.check_not_future(tf.body["time"], tf.name)
    if tf.type == "claim":
        deadlines.apply_claim(game, file)
    elif tf.type == "terms":
        deadlines.apply_terms(game, file)
    elif tf.type == "handover":
        handover.apply_handover(game, file)
    else:
        machine.apply_turn(game, file, watch)
