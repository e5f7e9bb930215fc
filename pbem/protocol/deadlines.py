"""Deadlines and claims: what happens when a side does not answer in time.

A game whose genesis options set ``deadline`` (seconds per decision) and ``silence``
("bot" or "forfeit") stamps every later file with its author's signed time.  Once the
deadline has passed since the last file, the side that waits may write a ``claim``
file at the next position: the first one is a reminder (the silent side still
decides, and the deadline runs again from the claim), the second in a row applies
``silence``.  A ``terms`` file changes the deadline with both players' signatures.
The rules, and why they are fair, are in docs/turn-file-format.md, section 12.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from pbem.errors import PbemError
from pbem.protocol import clock, endings, engine_link, machine, turnfile, wire
from pbem.protocol.hashing import D_BOT, D_TERMS, h
from pbem.protocol.identity import PublicKey
from pbem.protocol.machine import Authentic, Game, SimStep
from pbem.protocol.records import Act, Sim
from pbem.protocol.turnfile import TurnFile, other
from pbem.protocol.words import sides_of

#: A bot playing a sequential decision gives up after this many actions (a rules bug, not a game).
MAX_BOT_ACTIONS = 10_000


def when(t: int) -> str:
    """A time for people: ``2026-11-25 10:41 UTC``."""
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")


def due_at(game: Game) -> int:
    """When the decision now awaited becomes claimable (0: the game has no deadline)."""
    return game.clock + game.deadline if game.deadline else 0


def apply_claim(game: Game, file: Authentic) -> None:
    """Check a claim as the next file of ``game`` and apply what it does; mutates ``game``."""
    tf = file.tf
    machine.check_link(game, tf, "claim")
    terms = clock.terms(game.genesis.body["options"])
    if terms is None:
        raise PbemError(f"{tf.name}: this game has no deadline, so nothing can be claimed", "claim")
    exp = machine.expected(game)
    if exp is None:
        raise endings.over(tf.name, machine.outcome(game))
    silent = other(tf.side)
    if exp.side != silent:
        raise PbemError(f"{tf.name}: {tf.side} claims a missed deadline, but the game waits for {tf.side}", "claim")
    if exp.kind != tf.body["due"]:
        due = tf.body["due"]
        raise PbemError(f"{tf.name}: the claim names a '{due}' record, the game awaits '{exp.kind}'", "claim")
    if tf.body["time"] < due_at(game):
        raise PbemError(
            f"{tf.name}: claimed too early: {sides_of(silent)} deadline passes at {when(due_at(game))}, "
            f"the claim is dated {when(tf.body['time'])}",
            "early",
        )
    final = game.reminded
    if final:
        _silence(game, game.silence or terms.silence, exp, tf.seq, tf.name)
    api = engine_link.api()
    if api.state_hash(game.state) != tf.body["state"]:
        raise PbemError(f"{tf.name}: after the claim the game state differs from the claimant's", "state")
    machine.append(game, tf)
    game.reminded = not final


def _silence(game: Game, mode: str, exp: machine.Expectation, seq: int, name: str) -> None:
    """What a final claim does: the silent side forfeits, or the bot plays its decision.  A
    dice value forfeits in either mode: nobody else holds the silent side's chain, and a
    substitute value would let the side that reveals last choose the roll by staying silent."""
    if mode == "forfeit" or exp.kind == "dice":
        game.forfeited = exp.side
    else:
        _bot_plays(game, exp.side, exp.kind, seq, name)


def bot_seed(gid: str, seq: int, i: int) -> bytes:
    """The seed of the bot's ``i``-th decision for a silent side in claim file ``seq``: fixed by
    the position alone, so neither side can steer the bot by what it writes."""
    return h(D_BOT, gid, seq, i)


def _bot_plays(game: Game, silent: str, kind: str, seq: int, name: str) -> None:
    """The bot's decision for the silent side, the same wherever the claim is re-executed."""
    ai = engine_link.ai()
    where = f"{name}: the bot's decision for {silent}"

    def decide(i: int) -> list[Any]:
        return list(ai.decide(game.state, silent, bot_seed(game.gid, seq, i)))

    p = game.pending
    if kind == "act":
        i = 0
        while machine.expected(game) == machine.Expectation(silent, "act"):
            actions = decide(i)
            if not actions or i >= MAX_BOT_ACTIONS:
                raise PbemError(f"{where}: the bot gave no action", "engine")
            for a in actions:
                machine.apply_record(game, silent, seq, Act(a.to_wire()), where, [a])
                if machine.expected(game) != machine.Expectation(silent, "act"):
                    break
            i += 1
        return
    actions = decide(0)
    wires = [a.to_wire() for a in actions]
    if kind == "sim":
        machine.apply_record(game, silent, seq, Sim(wires), where, actions)
        return
    assert isinstance(p, SimStep)
    if kind == "commit":
        # The silent committer's list is played in the clear; the other side's list, handed
        # in the clear as well, resolves the decision.
        game.pending = replace(p, played=wires)
    else:  # "reveal": the silent side's commitment is never opened; the bot's list replaces it
        assert p.clear is not None
        machine.resolve_sim(game, where, {silent: actions, other(silent): machine.actions_of(p.clear, where)})
    game.last_author, game.last_seq = silent, seq
    machine.settle(game)


# -- a new deadline, signed by both ----------------------------------------------------


def terms_message(game: str, seq: int, prev: bytes, deadline: int, silence: str = "") -> bytes:
    """What the consenting side signs: the new deadline, and the new silence rule when the
    terms set one, at one position of one game (without a rule: the bytes of old)."""
    return D_TERMS + wire.pack([game, seq, prev, deadline, *([silence] if silence else [])])


def apply_terms(game: Game, file: Authentic) -> None:
    tf = file.tf
    machine.check_link(game, tf, "terms")
    if not game.deadline:
        raise PbemError(f"{tf.name}: this game has no deadline to change", "terms")
    if machine.expected(game) is None:
        raise endings.over(tf.name, machine.outcome(game))
    b = tf.body
    if not PublicKey("x", "", game.keys[other(tf.side)]).verify(
        b["consent"], terms_message(b["game"], b["seq"], b["prev"], b["deadline"], b.get("silence", ""))
    ):
        raise PbemError(f"{tf.name}: the new terms are not signed by the {other(tf.side)} player", "signature")
    game.deadline = b["deadline"]
    game.silence = b.get("silence", game.silence)
    machine.append(game, tf)
    game.reminded = False


def seal_claim(game: Game, side: str, sign: Any) -> TurnFile:
    """My claim as the next file of ``game`` (checked and applied to it)."""
    exp = machine.expected(game)
    if exp is None:
        raise endings.over("claim", machine.outcome(game))
    if exp.side == side:
        raise PbemError("the game waits for you, not for your opponent: there is nothing to claim", "claim")
    if not game.deadline:
        raise PbemError("this game has no deadline, so nothing can be claimed", "claim")
    t = clock.stamp(game.clock)
    if t < due_at(game):
        raise PbemError(f"too early: {sides_of(exp.side)} deadline passes at {when(due_at(game))}", "early")
    seq = game.seq + 1
    trial = game.clone()  # the state the claim seals is what applying it does
    terms = clock.terms(game.genesis.body["options"])
    if trial.reminded and terms is not None:
        _silence(trial, trial.silence or terms.silence, exp, seq, "my claim")
    body = {"v": turnfile.VERSION, "type": "claim", "game": game.gid, "seq": seq, "prev": game.hashes[-1]}
    body |= {"side": side, "time": t, "due": exp.kind, "state": engine_link.api().state_hash(trial.state)}
    tf = turnfile.seal(body, sign)
    apply_claim(game, Authentic(tf))
    return tf
