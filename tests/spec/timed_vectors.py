"""The conformance vectors of games with a deadline: claims, hand-over, new terms (section 12).

Two games between the vectors' keys: ``timed/`` (the bot plays for a silent side; allies
hand their side to a third key on the way) and ``forfeit/`` (a silent side forfeits).
Every time is fixed, so the files are the same on every rebuild.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.protocol import commit, deadlines, dice, engine_link, gamesecrets, handover, machine, turnfile
from pbem.protocol.records import Commit, Record, Reveal, Sim
from pbem.protocol.turnfile import SIDES, other
from pbem.store import keys

T0 = 1_794_000_000  # 2026-11-06 21:20 UTC
HOUR = 3600
TIMED_GAME, FORFEIT_GAME, REVEAL_GAME = "7133d0000001", "7133d0000002", "7133d0000003"
NEW_SEED = hashlib.sha256(b"pbem/vectors/new-holder").digest()


def _ident(side: str, private: Callable[[str], Ed25519PrivateKey]) -> keys.Identity:
    return keys.Identity(f"{side}-bot", "", private(side))


NEW = keys.Identity("new-holder", "", Ed25519PrivateKey.from_private_bytes(NEW_SEED))


def _secret(ident: keys.Identity, gid: str) -> bytes:
    # Any fixed secret does: a verifier never derives it, it only checks the chain.
    return gamesecrets.GameSecrets(ident, gid, None).dice()


def _values(secret: bytes) -> Callable[[int], bytes]:
    return lambda i: dice.value(secret, dice.DEFAULT_LENGTH, i)


def _at(t: int) -> None:
    os.environ["PBEM_NOW"] = str(t)


def _start(gid: str, silence: str, ids: dict[str, keys.Identity]) -> tuple[list[turnfile.TurnFile], machine.Game]:
    api = engine_link.api()
    n = dice.DEFAULT_LENGTH
    g = {"v": 1, "type": "genesis", "game": gid, "seq": 0, "prev": bytes(32), "side": "axis", "scenario": "1937"}
    g |= {"digest": api.scenario_digest("1937"), "engine": api.ENGINE_VERSION}
    g |= {"options": {"deadline": HOUR, "silence": silence}}
    g |= {"keys": {s: ids[s].public.raw for s in SIDES}, "names": {s: ids[s].name for s in SIDES}}
    g |= {"emails": {s: "" for s in SIDES}, "anchor": dice.anchor(_secret(ids["axis"], gid), n), "chain": n}
    genesis = turnfile.seal(g, ids["axis"].sign)
    state = machine.new_state(machine.Genesis(genesis.body))
    j = {"v": 1, "type": "join", "game": gid, "seq": 1, "prev": genesis.hash, "side": "allies"}
    j |= {"anchor": dice.anchor(_secret(ids["allies"], gid), n), "chain": n, "state": api.state_hash(state)}
    join = turnfile.seal(j | {"time": T0}, ids["allies"].sign)
    game = machine.start(genesis, machine.authenticate(machine.Genesis(genesis.body), join))
    return [genesis, join], game


def _list(game: machine.Game, side: str, i: int) -> list[Any]:
    seed = hashlib.sha256(b"v%d" % i).digest()
    return [a.to_wire() for a in engine_link.ai().decide(game.state, side, seed, player="v1")]


def timed(private: Callable[[str], Ed25519PrivateKey]) -> tuple[list[bytes], dict[str, Any]]:
    """The genuine files of the timed game, and what the variants need to know of it."""
    prior = os.environ.get("PBEM_NOW")
    ids = {s: _ident(s, private) for s in SIDES}
    files, game = _start(TIMED_GAME, "bot", ids)
    facts: dict[str, Any] = {}
    # 2: allies, to commit and owing nothing, hand their side over to a third key.
    assert machine.expected(game) == machine.Expectation("allies", "commit")
    _at(T0 + 60)
    offer = handover.offer(game, "allies", NEW.public.raw)
    facts["offer"] = dict(offer)
    accepted = handover.accept(offer, dice.anchor(NEW_SEED, dice.DEFAULT_LENGTH), dice.DEFAULT_LENGTH, NEW.sign)
    files.append(handover.seal(game, accepted, ids["allies"].sign))
    signer = {"axis": ids["axis"], "allies": NEW}
    # 3-5: the new holder commits, axis answers in the clear, the new holder reveals.
    salt = hashlib.sha256(b"pbem/vectors/salt").digest()
    committed = _list(game, "allies", 3)
    records: list[Record] = [Commit(commit.commitment(TIMED_GAME, 3, "allies", committed, salt))]
    for t, side, recs in (
        (T0 + 120, "allies", records),
        (T0 + 180, "axis", [Sim(_list(game, "axis", 4))]),
        (T0 + 240, "allies", [Reveal(committed, salt)]),
    ):
        _at(t)
        files.append(machine.build_turn(game, side, recs, signer[side].sign))
    exp = machine.expected(game)
    assert exp == machine.Expectation("allies", "commit"), exp
    facts["silent"], facts["clock5"] = exp.side, game.clock
    # The silent side's commitment, dated a minute after file 5: in time, whatever a claim says.
    _at(game.clock + 60)
    digest = commit.commitment(TIMED_GAME, 6, "allies", _list(game, "allies", 6), salt)
    answer = machine.build_turn(game.clone(), "allies", [Commit(digest)], signer["allies"].sign)
    facts["in_time6"] = answer.raw
    claimant = other(exp.side)
    secret = {"axis": _secret(ids["axis"], TIMED_GAME), "allies": NEW_SEED}[claimant]
    facts["claimant_chain"] = secret
    # 6-7: the waiting side claims twice; the bot plays the silent side's decision, seeded by the
    # claimant's next dice value, which the final claim carries.
    for t in (game.clock + HOUR, game.clock + 2 * HOUR):
        _at(t)
        files.append(deadlines.seal_claim(game, claimant, signer[claimant].sign, _values(secret)))
    facts["after7"] = machine.expected(game)
    facts["game"] = game
    if prior is None:
        os.environ.pop("PBEM_NOW", None)
    else:
        os.environ["PBEM_NOW"] = prior
    return [tf.raw for tf in files], facts


def reveal_reminders(private: Callable[[str], Ed25519PrivateKey]) -> list[bytes]:
    """A game under the forfeit rule whose committer stays silent: three claims for its reveal,
    each a reminder (a reveal is its program's, so none is final), then the reveal."""
    prior = os.environ.get("PBEM_NOW")
    ids = {s: _ident(s, private) for s in SIDES}
    files, game = _start(REVEAL_GAME, "forfeit", ids)
    salt = hashlib.sha256(b"pbem/vectors/reveal-salt").digest()
    hidden = _list(game, "allies", 2)
    _at(T0 + 60)
    files.append(
        machine.build_turn(
            game, "allies", [Commit(commit.commitment(REVEAL_GAME, 2, "allies", hidden, salt))], ids["allies"].sign
        )
    )
    _at(T0 + 120)
    files.append(machine.build_turn(game, "axis", [Sim(_list(game, "axis", 3))], ids["axis"].sign))
    for i in (1, 2, 3):
        _at(T0 + 120 + i * HOUR)
        files.append(deadlines.seal_claim(game, "axis", ids["axis"].sign, _values(_secret(ids["axis"], REVEAL_GAME))))
    assert not game.forfeited and machine.expected(game) == machine.Expectation("allies", "reveal")
    _at(T0 + 120 + 3 * HOUR + 60)
    files.append(machine.build_turn(game, "allies", [Reveal(hidden, salt)], ids["allies"].sign))
    if prior is None:
        os.environ.pop("PBEM_NOW", None)
    else:
        os.environ["PBEM_NOW"] = prior
    return [tf.raw for tf in files]


def forfeit(private: Callable[[str], Ed25519PrivateKey]) -> list[bytes]:
    """Genesis and join of a game whose silent side forfeits, two claims, and a late file."""
    prior = os.environ.get("PBEM_NOW")
    ids = {s: _ident(s, private) for s in SIDES}
    files, game = _start(FORFEIT_GAME, "forfeit", ids)
    late = game.clone()
    for t in (T0 + HOUR, T0 + 2 * HOUR):
        _at(t)
        files.append(deadlines.seal_claim(game, "axis", ids["axis"].sign, _values(_secret(ids["axis"], FORFEIT_GAME))))
    assert game.forfeited == "allies"
    # Allies' commitment, written as if the game went on (file 4).
    _at(T0 + 2 * HOUR + 60)
    salt = hashlib.sha256(b"pbem/vectors/late").digest()
    body = {"v": 1, "type": "turn", "game": FORFEIT_GAME, "seq": 4, "prev": files[-1].hash, "side": "allies"}
    body |= {"records": [["commit", commit.commitment(FORFEIT_GAME, 4, "allies", [["pass"]], salt)]]}
    body |= {"state": engine_link.api().state_hash(late.state), "time": T0 + 2 * HOUR + 60}
    files.append(turnfile.seal(body, ids["allies"].sign))
    if prior is None:
        os.environ.pop("PBEM_NOW", None)
    else:
        os.environ["PBEM_NOW"] = prior
    return [tf.raw for tf in files]
