"""Deadlines and claims: what happens when a side does not answer in time.

A game whose genesis options set ``deadline`` (seconds per decision) and ``silence``
("bot" or "forfeit") stamps every later file with its author's signed time.  Once the
deadline has passed since the last file, the side that waits may write a ``claim``
file at the next position: the first one is a reminder (the silent side still
decides, and the deadline runs again from the claim), the second in a row applies
``silence`` (never for a dice value or a reveal, which the silent side's program writes:
a claim for one is always a reminder).  A ``terms`` file changes the deadline with both players' signatures.
The rules, and why they are fair, are in docs/turn-file-format.md, section 12.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from pbem.errors import PbemError
from pbem.protocol import clock, dice, endings, engine_link, machine, turnfile, wire
from pbem.protocol.hashing import D_BOT, D_TERMS, h
from pbem.protocol.identity import PublicKey
from pbem.protocol.machine import Authentic, Game, SimStep
from pbem.protocol.records import Act, Sim
from pbem.protocol.rules import PINNED_PLAYER, Action
from pbem.protocol.turnfile import Sign, TurnFile, other
from pbem.protocol.words import sides_of

#: A bot playing a sequential decision gives up after this many actions (a rules bug, not a game).
MAX_BOT_ACTIONS = 10_000

#: What a program writes without its player: a claim for one is a reminder, never final, so a
#: person never loses, and never has a decision replaced, for its program's silence.
AUTOMATIC = ("dice", "reveal")


def when(t: int) -> str:
    """A time for people: ``2026-11-25 10:41 UTC``."""
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")


def due_at(game: Game) -> int:
    """When the decision now awaited becomes claimable (0: the game has no deadline)."""
    return game.clock + game.deadline if game.deadline else 0


def in_time(before: Game, tf: TurnFile) -> bool:
    """``tf``, the next file after ``before``, is dated before the deadline of its position: a
    claim for that position crossed it and is void (section 12.3)."""
    return bool(before.deadline) and tf.body.get("time", due_at(before)) < due_at(before)


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
    final = game.reminded and exp.kind not in AUTOMATIC
    mode = game.silence or terms.silence
    value = _claimant_value(game, tf, final and mode == "bot")
    if final:
        _silence(game, mode, exp, tf.seq, tf.name, value)
    api = engine_link.api()
    if api.state_hash(game.state) != tf.body["state"]:
        raise PbemError(f"{tf.name}: after the claim the game state differs from the claimant's", "state")
    machine.append(game, tf)
    game.reminded = not final


def automatic_note(kind: str) -> str:
    """Why a claim for an automatic record is a reminder again, for people."""
    what = "dice value" if kind == "dice" else "opening of its commitment"
    return f"the {what} is written by the program, not the player: the game waits for it and nobody loses"


def next_chain_index(game: Game, side: str) -> int:
    """The index in ``side``'s dice chain of the next value it reveals (a roll's, or a final
    claim's under the bot rule)."""
    return game.k + 1 - game.chain_base.get(side, 0)


def _claimant_value(game: Game, tf: TurnFile, needed: bool) -> bytes:
    """The claimant's next dice-chain value, which a final claim under the bot rule carries (and
    spends) to seed the bot; no other claim carries one.  b"" when not needed."""
    if ("dice" in tf.body) != needed:
        what = "needs the claimant's next dice value" if needed else "carries a dice value it must not"
        raise PbemError(f"{tf.name}: the claim {what} (only a final claim under the bot rule carries one)", "claim")
    if not needed:
        return b""
    value: bytes = tf.body["dice"]
    if not dice.check_reveal(game.chain[tf.side], value):
        raise PbemError(
            f"{tf.name}: {sides_of(tf.side)} dice value does not hash to its previous chain value (protocol violation)",
            "chain",
        )
    # The value is spent: the claimant's next roll reveals the one after it.
    game.chain[tf.side] = value
    game.chain_base[tf.side] = game.chain_base.get(tf.side, 0) - 1
    return value


def _silence(game: Game, mode: str, exp: machine.Expectation, seq: int, name: str, value: bytes) -> None:
    """What a final claim does (never for an automatic record): the silent side forfeits, or
    the bot plays its decision, seeded by the claimant's dice value ``value``."""
    if mode == "forfeit":
        game.forfeited = exp.side
    else:
        _bot_plays(game, exp.side, exp.kind, seq, name, value)


def bot_seed(gid: str, seq: int, i: int, value: bytes) -> bytes:
    """The seed of the bot's ``i``-th decision for a silent side in claim file ``seq``: mixed with
    the claimant's next dice-chain ``value``, fixed by its anchor (so the claimant cannot choose
    it) and unknown to the silent side until the claim arrives (so it cannot foresee the bot)."""
    return h(D_BOT, gid, seq, i, value)


def _bot_plays(game: Game, silent: str, kind: str, seq: int, name: str, value: bytes) -> None:
    """The bot's decision for the silent side, the same wherever the claim is re-executed."""
    ai = engine_link.ai()
    where = f"{name}: the bot's decision for {silent}"

    def decide(i: int) -> list[Action]:
        return list(ai.decide(game.state, silent, bot_seed(game.gid, seq, i, value), player=PINNED_PLAYER))

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
    # "commit": the silent committer's list is played in the clear; the other side's list,
    # handed in the clear as well, resolves the decision.
    assert isinstance(p, SimStep) and kind == "commit"
    game.pending = replace(p, played=wires)
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


def seal_claim(game: Game, side: str, sign: Sign, chain_value: Callable[[int], bytes]) -> TurnFile:
    """My claim as the next file of ``game`` (checked and applied to it); ``chain_value(i)`` is
    my dice-chain value ``v[i]``, which a final claim under the bot rule carries."""
    exp = machine.expected(game)
    if exp is None:
        raise endings.over("claim", machine.outcome(game))
    if exp.side == side:
        raise PbemError("the game waits for you, not for your opponent: there is nothing to claim", "claim")
    terms = clock.terms(game.genesis.body["options"])
    if not game.deadline or terms is None:
        raise PbemError("this game has no deadline, so nothing can be claimed", "claim")
    t = clock.stamp(game.clock)
    if t < due_at(game):
        raise PbemError(f"too early: {sides_of(exp.side)} deadline passes at {when(due_at(game))}", "early")
    seq = game.seq + 1
    body = {"v": turnfile.VERSION, "type": "claim", "game": game.gid, "seq": seq, "prev": game.hashes[-1]}
    body |= {"side": side, "time": t, "due": exp.kind}
    trial = game.clone()  # the state the claim seals is what applying it does
    if trial.reminded and exp.kind not in AUTOMATIC:
        mode = trial.silence or terms.silence
        value = b""
        if mode == "bot":
            value = body["dice"] = chain_value(next_chain_index(game, side))
        _silence(trial, mode, exp, seq, "my claim", value)
    body["state"] = engine_link.api().state_hash(trial.state)
    tf = turnfile.seal(body, sign)
    apply_claim(game, Authentic(tf))
    return tf
