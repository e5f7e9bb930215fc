"""Reaction orders (pbem/play/reactions.py): the interceptions and landings of the other
side's turn answered by a side's program, with no sitting of the person, marked in the
file as its standing orders' and counted so by the log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.play import reactions, report, turn
from pbem.protocol import engine_link, machine, turnfile
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


def test_reaction_orders_answer_the_other_sides_turn_without_a_sitting(real_engine: None, tmp_path: Path) -> None:
    duo = make_duo(tmp_path, "1939")
    for side in ("axis", "allies"):
        p = duo.player(side)
        given, written = turn.react(p.ws, duo.gid, home=p.home, intercept="bot", land="bot")
        assert (given.intercept, given.land) == ("bot", "bot") and written == []
    asked = _play(duo, "1939-10")
    # Nobody was asked to intercept or land: their programs did.
    assert [a for a in asked if a[1] in STEPS] == []
    files = _files(duo)
    marked = [tf for tf in files if "standing" in tf.body]
    assert marked, "no file carries records of standing orders"
    logged = [e for r in report.reports(files) for e in r.to_json()["entries"]]
    standing = [e for e in logged if e["by"] == "standing"]
    assert {e["phase"].rsplit(".", 1)[-1] for e in standing} == set(STEPS)
    # Each side's standing entries fall in the other side's main phase or answer its interceptors.
    for e in standing:
        mover, step = e["phase"].split(".")
        assert e["side"] != mover or step == "interception", e
    # The marks name exactly the records the reaction steps hold.
    for tf in marked:
        assert all(tf.body["records"][i][0] == "act" for i in tf.body["standing"])


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
    assert reactions.answer(lg, game, 0) == []  # "ask": the person decides
    lg.meta["reactions"] = reactions.Reactions("bot", "ask").to_json()
    everyone = reactions.answer(lg, game, 0)
    assert everyone and everyone[-1].to_wire()[1][0] == "pass"
    interceptors = {int(r.to_wire()[1][1]) for r in everyone if r.to_wire()[1][0] == "intercept"}
    lg.meta["reactions"] = reactions.Reactions("bot", "ask", (999_999,)).to_json()
    none_named = reactions.answer(lg, game, 0)
    assert [r.to_wire()[1][0] for r in none_named] == ["pass"]
    assert interceptors, "the bot found nothing to intercept: the test needs another position"
    lg.meta["reactions"] = reactions.Reactions("bot", "ask", (min(interceptors),)).to_json()
    one = reactions.answer(lg, game, 0)
    assert {int(r.to_wire()[1][1]) for r in one if r.to_wire()[1][0] == "intercept"} == {min(interceptors)}
    # Nothing was applied by asking: the game still awaits the person.
    assert machine.expected(game) == machine.Expectation("allies", "act")
    # Given now, the orders answer the decision at once and the file goes out.
    given, written = turn.react(p.ws, duo.gid, home=p.home, intercept="pass")
    assert given.intercept == "pass" and len(written) == 1
    sent = turnfile.parse(written[0].read_bytes())
    assert sent.body["standing"] == list(range(len(sent.body["records"])))
    assert sent.body["records"][-1][1][0] == "pass"


def test_reaction_orders_stay_in_the_workspace(real_engine: None, tmp_path: Path) -> None:
    duo = make_duo(tmp_path, "1939")
    p = duo.player("allies")
    turn.react(p.ws, duo.gid, home=p.home, intercept="bot", land="bot", only=(12345,))
    _play(duo, "1939-10")
    for f in duo.out.glob("*.pbem"):
        tf = turnfile.parse(f.read_bytes())
        # Only the documented fields travel; the orders' own words never do.
        allowed = turnfile.FIELDS[tf.type] | {"time", turnfile.OPTIONAL.get(tf.type, "")} | {"parent"}
        assert set(tf.body) <= allowed
        assert (12345).to_bytes(2, "big") not in f.read_bytes() or tf.type == "genesis"
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
