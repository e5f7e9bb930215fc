"""Hand-over: a side passes from its key to another (a new player, or the bot).

Three steps, one file in the chain.  The old holder offers the side to a new key
(:func:`offer`); the new holder checks the game and countersigns (:func:`accept`),
binding its key, its fresh dice-chain anchor and the exact position; the old holder
seals the ``handover`` file with that countersignature (:func:`seal`).  The opponent
verifies both signatures; from the next file on, only the new key signs for the side.

Secrets: a hand-over is allowed only where the side is to play an ``act``, ``sim`` or
``commit`` record.  Then the side owes no reveal (every list it committed is open, so
nothing hidden is lost with the old key) and no roll is in progress (no dice value of
the old chain is still owed); the new holder starts a chain of its own, whose anchor
the hand-over fixes before any roll it will take part in, so nothing is revealed early.
The new holder derives that chain and its salts bound to the hand-over's position
(:func:`pbem.protocol.gamesecrets.handover_binding`), so a key that takes a side back gets
a chain of its own again; the receiver refuses an anchor the game has seen before.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.errors import PbemError
from pbem.protocol import endings, machine, turnfile, wire
from pbem.protocol.hashing import D_HANDOVER
from pbem.protocol.identity import PublicKey
from pbem.protocol.machine import Authentic, Game
from pbem.protocol.turnfile import Sign, TurnFile

#: The records a side may be about to write when it hands itself over.
OPEN_KINDS = ("act", "sim", "commit")


def accept_message(b: Mapping[str, object]) -> bytes:
    """What the new key signs: the side, the position, the new key and chain, and its
    address when the hand-over names one (signed last; without it, the bytes of old)."""
    extra = [b["email"]] if "email" in b else []
    return D_HANDOVER + wire.pack(
        [b["game"], b["seq"], b["prev"], b["side"], b["key"], b["anchor"], b["chain"], *extra]
    )


def check_open(game: Game, side: str, where: str) -> None:
    """Refuse a hand-over of ``side`` at this point of ``game`` (see the module's note on secrets)."""
    exp = machine.expected(game)
    if exp is None:
        raise endings.over(where, machine.outcome(game))
    if exp.side != side or exp.kind not in OPEN_KINDS:
        raise PbemError(
            f"{where}: a side is handed over only when it is to play a decision "
            f"(the game awaits '{exp.kind}' from {exp.side})",
            "handover",
        )


def apply_handover(game: Game, file: Authentic) -> None:
    """Check a hand-over as the next file of ``game`` (signed by the old key: the caller
    authenticated it with the keys in force) and pass the side to the new key."""
    tf = file.tf
    b = tf.body
    machine.check_link(game, tf, "handover")
    check_open(game, tf.side, tf.name)
    if b["key"] in game.keys.values():
        raise PbemError(f"{tf.name}: the new key already plays in this game", "handover")
    if not PublicKey("x", "", b["key"]).verify(b["accept"], accept_message(b)):
        raise PbemError(f"{tf.name}: the new key has not countersigned this hand-over", "signature")
    if b["anchor"] in game.seen:
        # A chain met before would reveal values that are known already, or that its
        # holder could have learnt: the opponent would know the rolls in advance.
        raise PbemError(f"{tf.name}: the new dice chain starts at a value this game has seen before", "handover")
    side = tf.side
    game.keys[side] = b["key"]
    game.chain[side] = b["anchor"]
    game.seen.append(b["anchor"])
    game.chain_len[side] = b["chain"]
    game.chain_base[side] = game.k
    machine.append(game, tf)


def offer(game: Game, side: str, new_key: bytes, email: str = "") -> dict[str, object]:
    """The hand-over body the old holder proposes, without the countersignature; ``email``
    is the new holder's address, where the opponent's files go from then on."""
    check_open(game, side, "hand-over")
    if new_key in game.keys.values():
        raise PbemError("the new key already plays in this game", "usage")
    body: dict[str, object] = {"v": turnfile.VERSION, "type": "handover", "game": game.gid, "seq": game.seq + 1}
    body |= {"prev": game.hashes[-1], "side": side, "key": new_key}
    return body | ({"email": email} if email else {})


def accept(body: Mapping[str, object], anchor: bytes, chain: int, sign: Sign) -> dict[str, object]:
    """The new holder's countersignature over an offer, with its dice chain."""
    done = dict(body) | {"anchor": anchor, "chain": chain}
    done["accept"] = sign(accept_message(done))
    return done


def seal(game: Game, body: Mapping[str, object], sign: Sign) -> TurnFile:
    """The old holder seals the accepted hand-over as the next file of ``game`` (applied to it)."""
    trial = game.clone()
    tf = machine.seal_next(trial, dict(body), sign)
    apply_handover(game, Authentic(tf))
    return tf
