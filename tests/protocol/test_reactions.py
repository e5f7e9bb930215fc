"""Reaction orders (pbem/play/reactions.py): the interceptions and landings of the other
side's turn answered by a side's program, with no sitting of the person, marked in the
file as its standing orders' and counted so by the log."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import reactions, report, turn
from pbem.protocol import commit, engine_link, machine, turnfile
from pbem.protocol.records import React, Record, Seal
from pbem.protocol.turnfile import other
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo, make_duo

STEPS = ("interception", "landing")


@pytest.fixture
def real_engine(fake_engine: None) -> Iterator[None]:
    engine_link.use(None)
    yield


def _play(duo: Duo, until: str, stop_at_mine: str = "") -> list[tuple[str, str]]:
    """Bots play each decision a person is asked for until month ``until`` begins (or, with
    ``stop_at_mine``, until that side is asked in one of the reaction steps); returns the
    decisions asked for, as (side, step)."""
    api = engine_link.api()
    asked: list[tuple[str, str]] = []
    for _ in range(400):
        side = duo.to_move()
        assert side is not None
        me = duo.player(side)
        work = turn.my_turn(LocalGame(me.ws, duo.gid, me.home)).work
        exp = machine.expected(work)
        d = api.decision(work.state)
        if d.when >= until:
            return asked
        if exp is not None and exp.side == side:
            step = d.phase.rsplit(".", 1)[-1]
            asked.append((side, step))
            if side == stop_at_mine and step in STEPS:
                return asked
            turn.bot_play(me.ws, duo.gid, home=me.home)
        duo.deliver(other(side))
        duo.deliver(side)
    raise AssertionError("the game did not reach the month")


def _files(duo: Duo) -> list[turnfile.TurnFile]:
    by_seq = {}
    for f in duo.out.glob("*.pbem"):
        tf = turnfile.parse(f.read_bytes())
        by_seq[tf.seq] = tf
    return [by_seq[s] for s in sorted(by_seq)]


@pytest.fixture(scope="module")
def reacted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Duo, list[str]]]:
    """A 1939 game to October 1939 by bots, both sides with reaction orders from the start."""
    engine_link.use(None)
    duo = make_duo(tmp_path_factory.mktemp("reacted"), "1939")
    for side in ("axis", "allies"):
        p = duo.player(side)
        given, written = turn.react(p.ws, duo.gid, home=p.home, intercept="bot", land="bot")
        assert (given.intercept, given.land) == ("bot", "bot") and written == []
    asked = _play(duo, "1939-10")
    yield duo, [step for _, step in asked]
    engine_link.use(None)


def test_reaction_orders_answer_the_other_sides_turn_without_a_sitting(
    real_engine: None, reacted: tuple[Duo, list[str]]
) -> None:
    duo, asked = reacted
    # Nobody was asked to intercept or land: their programs did, by opening sealed orders.
    assert "interception" not in asked and "landing" not in asked
    files = _files(duo)
    seals: dict[str, int] = {}
    opened = 0
    for tf in files:
        for rec in tf.body.get("records", []):
            if rec[0] == "seal":
                seals[tf.side] = tf.seq
            if rec[0] == "react":
                assert seals.get(tf.side, tf.seq) < tf.seq  # sealed in an earlier file
                assert rec[1] == ["bot", "bot", []]
                del seals[tf.side]
                opened += 1
    assert opened >= 4
    logged = [e for r in report.reports(files) for e in r.to_json()["entries"]]
    standing = [e for e in logged if e["by"] == "standing"]
    assert {e["phase"].rsplit(".", 1)[-1] for e in standing} == set(STEPS)
    assert all(e["record"] == "react" for e in standing)
    # The log says what they decided: the interceptions in full, or a pass.
    text = "\n".join(r.text() for r in report.reports(files))
    assert "open their reaction orders (interceptions by the computer, landings by the computer)" in text
    assert re.search(r"which decide:\n +intercept #\d+ #\d+ \d+,\d+", text)
    # The whole game re-executes from its files alone (anyone can check the openings).
    assert audit_ok(files)


def audit_ok(files: list[turnfile.TurnFile]) -> bool:
    from pbem.protocol import replay

    game = replay.replay(files)
    return game.seq == files[-1].seq


def _before_first_react(files: list[turnfile.TurnFile]) -> tuple[machine.Game, turnfile.TurnFile, int]:
    from pbem.protocol import replay

    for tf in files:
        for i, rec in enumerate(tf.body.get("records", [])):
            if rec[0] == "react":
                game = replay.replay(files, upto=tf.seq - 1)
                for earlier in tf.body["records"][:i]:
                    machine.apply_record(game, tf.side, tf.seq, records_from(earlier))
                return game, tf, i
    raise AssertionError("no react record")


def records_from(wire: list[object]) -> Record:
    from pbem.protocol import records

    return records.from_wire(wire)


@pytest.mark.parametrize(
    "change, slug",
    [
        ("orders", "react-mismatch"),  # other orders than the sealed ones: the moving side saw them
        ("salt", "react-mismatch"),  # another salt: another seed for the computer's choice
        ("ask", "react-mismatch"),
    ],
)
def test_an_opening_that_is_not_the_seal_is_refused(
    real_engine: None, reacted: tuple[Duo, list[str]], change: str, slug: str
) -> None:
    duo, _ = reacted
    game, tf, i = _before_first_react(_files(duo))
    orders, salt = tf.body["records"][i][1], tf.body["records"][i][2]
    forged = {
        "orders": React(["pass", "bot", []], salt),
        "salt": React(orders, bytes(32)),
        "ask": React(["ask", "ask", []], salt),
    }[change]
    with pytest.raises(PbemError) as refused:
        machine.apply_record(game, tf.side, tf.seq, forged)
    assert refused.value.code == slug
    # The genuine opening still applies.
    machine.apply_record(game, tf.side, tf.seq, React(orders, salt))


def test_orders_sealed_in_the_same_file_or_never_cannot_be_opened(
    real_engine: None, reacted: tuple[Duo, list[str]]
) -> None:
    duo, _ = reacted
    game, tf, i = _before_first_react(_files(duo))
    orders, salt = tf.body["records"][i][1], tf.body["records"][i][2]
    late = game.clone()
    # A seal made now, in the file that would open it (after seeing the other side move).
    machine.apply_record(late, tf.side, tf.seq, Seal(commit.seal(game.gid, tf.seq, tf.side, orders, salt)))
    with pytest.raises(PbemError) as refused:
        machine.apply_record(late, tf.side, tf.seq, React(orders, salt))
    assert refused.value.code == "react-not-sealed"
    never = game.clone()
    never.seals.pop(tf.side)
    with pytest.raises(PbemError) as refused:
        machine.apply_record(never, tf.side, tf.seq, React(orders, salt))
    assert refused.value.code == "react-not-sealed"


def test_the_seal_hides_the_orders_from_public_guesses(real_engine: None, reacted: tuple[Duo, list[str]]) -> None:
    """The moving side sees the seal before it moves: no guess of the orders with a salt it
    could compute (zeros, the game id, any file hash) gives the seal."""
    from pbem.protocol.hashing import h

    duo, _ = reacted
    files = _files(duo)
    game, tf, _ = _before_first_react(files)
    digest, seq = game.seals[tf.side]
    salts = [bytes(32), h("pbem/seal/v1", game.gid)] + [f.hash for f in files]
    guesses = [[i, land, []] for i in ("ask", "bot", "pass") for land in ("ask", "bot")]
    for salt in salts:
        for orders in guesses:
            assert not commit.seal_matches(digest, game.gid, seq, tf.side, orders, salt)


def test_without_reaction_orders_the_person_is_asked_and_only_named_aircraft_intercept(
    real_engine: None, tmp_path: Path
) -> None:
    duo = make_duo(tmp_path, "1939")
    asked = _play(duo, "1939-10", stop_at_mine="allies")
    assert asked[-1] == ("allies", "interception")
    p = duo.player("allies")
    lg = LocalGame(p.ws, duo.gid, p.home)
    game = lg.game()
    assert game is not None
    assert reactions.answer(lg, game, 0) == ([], False)  # "ask": the person decides
    lg.meta["reactions"] = reactions.Reactions("bot", "ask").to_json()
    everyone, marked = reactions.answer(lg, game, 0)  # nothing sealed yet: acts, marked standing
    assert marked and everyone and everyone[-1].to_wire()[1][0] == "pass"
    interceptors = {int(r.to_wire()[1][1]) for r in everyone if r.to_wire()[1][0] == "intercept"}
    lg.meta["reactions"] = reactions.Reactions("bot", "ask", (999_999,)).to_json()
    none_named, _ = reactions.answer(lg, game, 0)
    assert [r.to_wire()[1][0] for r in none_named] == ["pass"]
    assert interceptors, "the bot found nothing to intercept: the test needs another position"
    lg.meta["reactions"] = reactions.Reactions("bot", "ask", (min(interceptors),)).to_json()
    one, _ = reactions.answer(lg, game, 0)
    assert {int(r.to_wire()[1][1]) for r in one if r.to_wire()[1][0] == "intercept"} == {min(interceptors)}
    # Nothing was applied by asking: the game still awaits the person.
    assert machine.expected(game) == machine.Expectation("allies", "act")
    # Given now, the orders answer the decision at once (marked standing, on the side's word)
    # and ride sealed with the file, for the next time.
    given, written = turn.react(p.ws, duo.gid, home=p.home, intercept="pass")
    assert given.intercept == "pass" and len(written) == 1
    sent = turnfile.parse(written[0].read_bytes())
    kinds = [r[0] for r in sent.body["records"]]
    assert kinds[-1] == "seal" and sent.body["records"][-2] == ["act", ["pass"]]
    assert sent.body["standing"] == list(range(len(kinds) - 1))


def test_reaction_orders_travel_only_sealed_until_they_act(real_engine: None, tmp_path: Path) -> None:
    from pbem.protocol import wire

    duo = make_duo(tmp_path, "1939")
    p = duo.player("allies")
    turn.react(p.ws, duo.gid, home=p.home, intercept="bot", land="bot", only=(12345,))
    _play(duo, "1939-10")
    clear = wire.pack(["bot", "bot", [12345]])
    files = sorted(duo.out.glob("*.pbem"))
    first = next(i for i, f in enumerate(files) if clear in f.read_bytes())
    opening = turnfile.parse(files[first].read_bytes())
    # The first file that shows the orders is the one that opens them, in the Axis turn,
    # after the Axis moved: every file before holds at most the seal.
    assert any(r[0] == "react" for r in opening.body["records"])
    before = [turnfile.parse(f.read_bytes()) for f in files[:first]]
    assert any(r[0] == "seal" for tf in before if tf.side == "allies" for r in tf.body.get("records", []))
    assert any(tf.side == "axis" and tf.type == "turn" for tf in before[-3:])  # the Axis just moved
    assert LocalGame(p.ws, duo.gid, p.home).meta["reactions"]["only"] == [12345]


def test_the_react_command_says_what_it_set_and_refuses_a_wrong_mode(tmp_path: Path, duo: Duo) -> None:
    runner = CliRunner()
    ws = str(duo.allies.ws.root)
    env = {"PBEM_HOME": str(duo.allies.home)}
    out = runner.invoke(app, ["-w", ws, "react", duo.gid, "--intercept", "bot", "--only", "#7,#31"], env=env)
    assert out.exit_code == 0, out.output
    assert "interception: the computer decides with #7, #31 only" in out.output
    assert "landing of your aircraft: you decide" in out.output
    bad = runner.invoke(app, ["-w", ws, "react", duo.gid, "--land", "pass"], env=env)
    assert bad.exit_code != 0
    assert "landing: 'pass' is not one of ask, bot" in bad.output
    assert "Traceback" not in bad.output
    worse = runner.invoke(app, ["-w", ws, "react", duo.gid, "--only", "seven"], env=env)
    assert worse.exit_code != 0 and "not a unit number" in worse.output


def test_a_standing_mark_outside_the_file_is_refused_by_both_verifiers() -> None:
    from pbem.errors import PbemError
    from pbem.protocol import spec_verify

    body = {
        "v": 1,
        "type": "turn",
        "game": "0123456789ab",
        "seq": 5,
        "prev": bytes(32),
        "side": "axis",
        "records": [["act", ["pass"]], ["act", ["pass"]]],
        "state": bytes(32),
    }
    for good in ([0], [1], [0, 1]):
        turnfile.validate({**body, "standing": good})
        spec_verify.schema({**body, "standing": good})
    for bad in ([], [2], [-1], [1, 0], [0, 0], ["0"], [True], "0", None):
        with pytest.raises(PbemError):
            turnfile.validate({**body, "standing": bad})
        with pytest.raises(spec_verify.Refused):
            spec_verify.schema({**body, "standing": bad})
