"""Claim files changed at random, field by field: the receiver and the engine-free verifier
refuse them with a reason (PbemError with a slug, a verdict), never with another exception."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play.memplay import MemoryMatch
from pbem.protocol import advance, machine, spec_verify, turnfile, wire
from pbem.protocol.hashing import D_SIGN
from pbem.protocol.machine import Game
from pbem.protocol.turnfile import TurnFile
from tests.deadlines.helpers import HOUR, T0, match, play_to


@dataclass
class Place:
    """A game just before a genuine claim: the files before it, the game, the claim."""

    files: list[TurnFile]
    game: Game
    claim: TurnFile
    match: MemoryMatch


def _before_claim(m: MemoryMatch, claimant: str, when: int) -> Place:
    os.environ["PBEM_NOW"] = str(when)
    files, game = list(m.files), m.game.clone()
    return Place(files, game, m.claim(claimant), m)


def _places() -> list[Place]:
    out = []
    m = match()  # allies to commit: a reminder, then the final claim under the bot rule
    out.append(_before_claim(m, "axis", T0 + HOUR))
    out.append(_before_claim(m, "axis", T0 + 2 * HOUR))
    exp = machine.expected(m.game)  # after the bot's play, the claimant's own list is due
    assert exp is not None
    out.append(_before_claim(m, "allies" if exp.side == "axis" else "axis", T0 + 3 * HOUR))
    m = match()  # a roll in progress: axis owes the first dice value
    play_to(m, 10)
    out.append(_before_claim(m, "allies", m.game.clock + HOUR))
    out.append(_before_claim(m, "allies", m.game.clock + HOUR))
    m = match(silence="forfeit")  # a commitment waits for its reveal
    play_to(m, 3)
    out.append(_before_claim(m, "axis", m.game.clock + HOUR))
    out.append(_before_claim(m, "axis", m.game.clock + HOUR))
    return out


@pytest.fixture(scope="module")
def places() -> Iterator[list[Place]]:
    prior = os.environ.get("PBEM_NOW")
    try:
        yield _places()
    finally:
        os.environ.pop("PBEM_NOW", None) if prior is None else os.environ.__setitem__("PBEM_NOW", prior)


FIELDS = ["v", "type", "game", "seq", "prev", "side", "time", "due", "state", "dice", "extra"]
VALUES = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.sampled_from([0, 1, 2, 3, 9, 10, 11, T0, T0 + HOUR, 2**40]),
    st.booleans(),
    st.sampled_from(["claim", "turn", "act", "sim", "commit", "reveal", "dice", "axis", "allies", "", "resign"]),
    st.text(max_size=20),
    st.binary(max_size=40),
    st.sampled_from([bytes(32), b"\xff" * 32, bytes(31), bytes(33)]),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(0, 3), max_size=2),
)


def _resign(body: dict[str, Any], m: MemoryMatch, side: str) -> bytes:
    data = wire.pack(body)
    return turnfile.MAGIC + len(data).to_bytes(4, "big") + data + m.ids[side].sign(D_SIGN + data)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    where=st.integers(0, 6),
    changes=st.lists(st.tuples(st.sampled_from(FIELDS), st.one_of(st.none(), VALUES)), min_size=1, max_size=3),
    signer=st.sampled_from(["claimant", "other"]),
)
def test_changed_claims_are_refused_with_a_reason(
    places: list[Place], where: int, changes: list[tuple[str, Any]], signer: str
) -> None:
    place = places[where]
    body = dict(place.claim.body)
    for name, value in changes:
        if value is None:
            body.pop(name, None)  # the field left out
        else:
            body[name] = value
    side = place.claim.side if signer == "claimant" else turnfile.other(place.claim.side)
    try:
        raw = _resign(body, place.match, side)
    except (PbemError, ValueError, TypeError, OverflowError):
        return  # not even encodable as a file: nothing to receive
    os.environ["PBEM_NOW"] = str(T0 + 10 * HOUR)
    game = place.game.clone()
    try:
        tf = turnfile.parse(raw)
        advance.apply_file(game, machine.authenticate(game.genesis, tf, game))
    except PbemError as exc:
        assert exc.code, exc
    verdict = spec_verify.verify([f.raw for f in place.files] + [raw])
    assert verdict.valid or verdict.reason, verdict.lines


def test_the_genuine_claims_pass_both(places: list[Place]) -> None:
    """The fuzzed files start from claims both receivers accept."""
    os.environ["PBEM_NOW"] = str(T0 + 10 * HOUR)
    for place in places:
        game = place.game.clone()
        advance.apply_file(game, machine.authenticate(game.genesis, place.claim, game))
        verdict = spec_verify.verify([f.raw for f in place.files] + [place.claim.raw])
        assert verdict.valid, verdict.lines


def test_the_command_line_verifies_claims_during_a_roll_and_after_a_bot_claim(
    places: list[Place], tmp_path: Path
) -> None:
    """Both once ended the engine-free verifier with a KeyError (exit 2)."""
    for i in (2, 4):
        folder = tmp_path / f"place-{i}"
        folder.mkdir()
        for tf in [*places[i].files, places[i].claim]:
            (folder / f"{tf.seq:05d}.pbem").write_bytes(tf.raw)
        res = CliRunner().invoke(app, ["verify", "--no-engine", str(folder)])
        assert res.exit_code == 0 and "valid as far as" in res.output, res.output
