"""Orders given ahead (pbem/play/ahead.py): the month's hidden steps of the 1939 scenario
given in one sitting on the command line, sealed by each side's program as the other
side's files arrive; what happens to orders the real position no longer allows; and that
nothing given ahead can be chosen after the other side's list is seen."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import ahead, ahead_entry, turn
from pbem.protocol import engine_link, machine, turnfile
from pbem.protocol.turnfile import other
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction
from tests.protocol.conftest import Duo, make_duo

#: Orders of the first deployment of the 1939 scenario, legal when the Axis has passed its
#: war declarations (the Allies') or brought Italy in (the Italian one).
CHINESE = "place_land China infantry 3 3 240,70"
GERMAN = "place_land Germany armor 5 10 161,52"
ITALIAN = "place_land Italy infantry 3 5 161,68"


@pytest.fixture
def duo(fake_engine: None, tmp_path: Path) -> Iterator[Duo]:
    engine_link.use(None)  # the real engine: the fake's month has no two hidden steps in a row
    yield make_duo(tmp_path, "1939")


def pbem(duo: Duo, side: str, *args: str, ok: bool = True) -> str:
    p = duo.player(side)
    got = CliRunner().invoke(app, ["-w", str(p.ws.root), "--home", str(p.home), *args])
    assert (got.exit_code == 0) == ok, got.output
    return got.output


def orders_file(duo: Duo, name: str, *lines: str) -> str:
    path = duo.out.parent / name
    path.write_text("".join(f"{line}\n" for line in lines))
    return str(path)


def carry(duo: Duo, to: str) -> str:
    """`pbem import` on ``to``'s side of the files the other side wrote since the last call."""
    files = duo.outbox(other(to))
    return pbem(duo, to, "import", *map(str, files)) if files else ""


def phase(duo: Duo, side: str) -> str:
    """The step ``side``'s game is at, its own records still unsent included."""
    p = duo.player(side)
    return engine_link.api().decision(turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).work.state).phase


def one_sitting(duo: Duo, side: str, fallback: str = "ask", deployment: tuple[str, ...] = ()) -> None:
    """``side`` passes its war declarations and gives its deployment and builds ahead."""
    pbem(duo, side, "orders", duo.gid, orders_file(duo, f"{side}-war", "pass"))
    dep = orders_file(duo, f"{side}-dep", *deployment)
    out = pbem(duo, side, "orders", duo.gid, "--ahead", "deployment", dep, "--fallback", fallback)
    assert f"{len(deployment)} order(s) kept for the deployment of 1939-09" in out
    out = pbem(duo, side, "orders", duo.gid, "--ahead", "build", orders_file(duo, f"{side}-build", "pass"))
    assert "nothing is sent before" in out
    pbem(duo, side, "send", duo.gid)


def shuttle(duo: Duo, first: str, rounds: int = 8) -> str:
    """Carry the files back and forth, nobody deciding anything; everything imports said."""
    said = ""
    for i in range(rounds):
        said += carry(duo, first if i % 2 == 0 else other(first))
    return said


def test_the_month_start_is_given_in_one_sitting_and_sealed_as_files_arrive(duo: Duo) -> None:
    axis_to_act = machine.Expectation("axis", "act")
    one_sitting(duo, "allies", deployment=(CHINESE,))
    first = duo.allies.ws.outbox / turnfile.filename(duo.gid, 2, "allies")
    # Nothing of the orders given ahead travels before its step: the file holds the commitment alone.
    assert [r.KIND for r in turnfile.read(first).records] == ["commit"]
    carry(duo, "axis")
    one_sitting(duo, "axis", deployment=(GERMAN,))
    said = shuttle(duo, "allies")
    for side in ("axis", "allies"):
        assert "given in advance, was sealed" in said or "given in advance, was handed in openly" in said
        # The month's main phase: a person's decision again.
        assert phase(duo, side).startswith("axis.") and machine.expected(duo.game(side)) == axis_to_act
    assert duo.game("axis").hashes == duo.game("allies").hashes
    assert "your deployment of 1939-09, given in advance, was sealed (1 order(s))" in pbem(duo, "allies", "status")
    # The placements were carried out, and the log counts the Allies' lists as standing orders.
    log = pbem(duo, "allies", "log", duo.gid)
    assert "China infantry 3-3 placed at 240,70" in log and "Germany armor 10-5 placed at 161,52" in log
    months = json.loads(pbem(duo, "allies", "log", duo.gid, "--sittings", "--json"))["months"]
    assert months[0]["sittings"]["allies"] == 1  # the declarations' sitting; deployment and builds were given ahead
    # Each side's files mark its lists given ahead as standing: the other side's log says so too.
    for side in ("axis", "allies"):
        assert given_ahead(duo, side) == {"axis": ["deployment", "build"], "allies": ["deployment", "build"]}
    lg = LocalGame(duo.allies.ws, duo.gid, duo.allies.home)
    assert not stat.S_IMODE((lg.paths.path(lg.paths.ahead)).stat().st_mode) & 0o077


def given_ahead(duo: Duo, side: str) -> dict[str, list[str]]:
    """The steps of each side's lists that ``side``'s log counts as standing orders."""
    log = json.loads(pbem(duo, side, "log", duo.gid, "--json"))
    found: dict[str, list[str]] = {"axis": [], "allies": []}
    for f in log:
        for e in f["entries"]:
            if e["by"] == "standing" and e["record"] in ("commit", "sim"):
                found[e["side"]].append(e["phase"])
    return found


def _axis_takes_italy_back(duo: Duo, fallback: str) -> str:
    """The Axis gives its deployment ahead while Italy is to enter, then takes the entry
    back: the Italian placement no longer fits when the step comes.  The imports' output."""
    one_sitting(duo, "allies", deployment=(CHINESE,))
    carry(duo, "axis")
    pbem(duo, "axis", "orders", duo.gid, orders_file(duo, "axis-war", "enter Italy"))
    dep = orders_file(duo, "axis-dep", ITALIAN, GERMAN)
    pbem(duo, "axis", "orders", duo.gid, "--ahead", "deployment", dep, "--fallback", fallback)
    pbem(duo, "axis", "undo", duo.gid)
    pbem(duo, "axis", "orders", duo.gid, orders_file(duo, "axis-war2", "pass"))
    pbem(duo, "axis", "send", duo.gid)
    return shuttle(duo, "allies")


def test_an_order_that_no_longer_fits_stops_and_asks_by_default(duo: Duo) -> None:
    said = _axis_takes_italy_back(duo, "ask")
    assert "your deployment of 1939-09, given in advance, was not sealed: 1 order(s) no longer fitted" in said
    assert "place_land Italy infantry 3 5 161,68" in said and "(fallback: ask)" in said
    # Nothing was sealed for the Axis: the person decides the deployment, told why.
    assert machine.expected(duo.game("axis")) == machine.Expectation("axis", "sim")
    status = pbem(duo, "axis", "status")
    assert "your move" in status and "no longer fitted" in status


@pytest.mark.parametrize("fallback", ["none", "bot"])
def test_the_fallback_given_with_the_orders_is_applied(duo: Duo, fallback: str) -> None:
    said = _axis_takes_italy_back(duo, fallback)
    assert "was handed in openly; 1 order(s) no longer fitted the position the step came with" in said
    assert f"(fallback: {fallback}" in said
    # The German placement went in either way; the Italian one did not.
    assert phase(duo, "axis") == "build"  # the Axis gave no builds ahead: the person decides them
    log = pbem(duo, "axis", "log", duo.gid)
    assert "Germany armor 10-5 placed at 161,52" in log and "Italy infantry 3-5 placed" not in log


def test_orders_given_ahead_are_refused_line_by_line_at_their_forecast_position(duo: Duo) -> None:
    dep = orders_file(duo, "bad", ITALIAN, CHINESE, "place_land Germany armor 5 10 nowhere")
    out = pbem(duo, "axis", "orders", duo.gid, "--ahead", "deployment", dep, ok=False)
    assert "3 wrong lines, nothing added" in out and "line 1" in out and "line 2" in out and "line 3" in out
    assert "Traceback" not in out
    assert LocalGame(duo.axis.ws, duo.gid, duo.axis.home).ahead() == {}
    out = pbem(duo, "axis", "orders", duo.gid, "--ahead", "axis.overrun", dep, ok=False)
    assert "not among your coming simultaneous steps" in out and "Deployment, Build" in out
    out = pbem(duo, "axis", "orders", duo.gid, "--ahead", "war_declaration", dep, ok=False)
    assert "is the decision now" in out
    out = pbem(duo, "axis", "orders", duo.gid, dep, "--fallback", "bot", ok=False)
    assert "--fallback goes with --ahead" in out


def test_an_empty_file_takes_the_orders_given_ahead_back(duo: Duo) -> None:
    pbem(duo, "allies", "orders", duo.gid, "--ahead", "deployment", orders_file(duo, "d", CHINESE))
    assert "orders given ahead" in pbem(duo, "allies", "status")
    out = pbem(duo, "allies", "orders", duo.gid, "--ahead", "deployment", orders_file(duo, "e"))
    assert "taken back" in out
    assert LocalGame(duo.allies.ws, duo.gid, duo.allies.home).ahead()["given"] == []


def test_a_list_given_ahead_is_bound_by_its_commitment_once_sealed(duo: Duo) -> None:
    """Attack: once the program has sealed my list given ahead, nothing I do after seeing
    the other side's list changes what is opened: the order cannot be given again, and a
    list changed in my store is refused by the opponent at the opening."""
    one_sitting(duo, "allies", deployment=(CHINESE,))
    carry(duo, "axis")
    one_sitting(duo, "axis", deployment=(GERMAN,))
    carry(duo, "allies")  # the Allies open their declarations and seal their deployment
    lg = LocalGame(duo.allies.ws, duo.gid, duo.allies.home)
    p = duo.game("allies").pending
    assert isinstance(p, machine.SimStep) and p.commit is not None and phase(duo, "allies") == "deployment"
    # The deployment is the decision now: it cannot be given ahead again, nor its fallback changed.
    with pytest.raises(PbemError, match="is the decision now"):
        ahead_entry.give(duo.allies.ws, duo.gid, "deployment", [GERMAN], "bot", duo.allies.home)
    carry(duo, "axis")  # the Axis hands in its deployment openly, as given ahead
    # My program opens only what it committed: a list changed in my store after the Axis
    # list is known is refused by my own import, before anything leaves.
    secrets = lg.secrets()
    committed = secrets[str(p.commit_seq)]
    tx = Transaction()
    lg.stage_secrets(tx, secrets | {str(p.commit_seq): [["pass"]]})
    duo.allies.ws.commit(tx)
    answer = duo.outbox("axis")
    refused = pbem(duo, "allies", "import", *map(str, answer), ok=False)
    assert "do not match the Allies' commitment" in refused
    # A file opening another list, signed with the Allies' own key, is refused by the Axis.
    salt = lg.derived().salt(p.commit_seq)
    forged = duo.forge("allies", duo.next_body("allies", [["reveal", [["pass"]], salt]]))
    path = duo.out / forged.name
    path.write_bytes(forged.raw)
    out = pbem(duo, "axis", "import", str(path), ok=False)
    assert "do not match the Allies' commitment" in out
    # The list committed is opened as it was.
    tx = Transaction()
    lg.stage_secrets(tx, secrets | {str(p.commit_seq): committed})
    duo.allies.ws.commit(tx)
    pbem(duo, "allies", "import", *map(str, answer))
    shuttle(duo, "axis")
    assert duo.game("axis").hashes == duo.game("allies").hashes


def test_the_bot_fallback_is_the_side_s_own_seeded_choice(duo: Duo) -> None:
    """The computer player's choice in a fallback comes from the side's secret-derived seed
    for that file: the same for the same position, so it cannot be picked afterwards."""
    pbem(duo, "allies", "orders", duo.gid, orders_file(duo, "allies-war", "pass"))
    pbem(duo, "allies", "send", duo.gid)
    carry(duo, "axis")
    lg = LocalGame(duo.axis.ws, duo.gid, duo.axis.home)
    api = engine_link.api()
    game = duo.game("axis")
    state = next(s for d, s in ahead.coming(game.state, "axis", [], {}, "1939") if d.phase == "deployment")
    listed = [api.parse_order(state, "axis", ITALIAN)]
    seed = lg.derived().bot_seed(game.seq, ahead.FALLBACK_ROUND)
    a = ahead.fit(state, "axis", listed, "bot", seed)
    b = ahead.fit(state, "axis", listed, "bot", seed)
    assert a.misfits and [x.to_wire() for x in a.actions] == [x.to_wire() for x in b.actions]
    # A list's pass closes it after whatever the fallback adds.
    closed = [*listed, api.parse_order(state, "axis", GERMAN), api.parse_order(state, "axis", "pass")]
    # (given knowing that the rest of the army waits: the forecast showed it, so that is no misfit)
    c = ahead.fit(state, "axis", closed, "none", seed, warned=ahead.costs(state, "axis", closed[1:]))
    assert len(c.misfits) == 1 and [x.kind for x in c.actions] == ["place_land", "pass"]


def test_the_computer_player_gives_the_month_start_ahead(duo: Duo) -> None:
    """`pbem bot play --ahead` at the war declarations gives the deployment and builds ahead too:
    the imports seal them, and the next decision the bots are asked for is the main phase's."""
    asked = []
    for _ in range(12):
        side = duo.to_move()
        assert side is not None
        if phase(duo, side) == "axis.overrun":
            break
        me = duo.player(side)
        exp = machine.expected(turn.my_turn(LocalGame(me.ws, duo.gid, me.home)).work)
        if exp is not None and exp.side == side:
            asked.append((side, phase(duo, side)))
            turn.bot_play(me.ws, duo.gid, home=me.home, ahead=True)
        for res in duo.deliver(other(side)) + duo.deliver(side):
            assert res.status in ("applied", "duplicate"), res.message
    # The forecast plays the other side's war declarations as the computer player would make
    # them, so a step a war brings is foreseen and given ahead too: the war declarations are
    # the only steps asked for. 1939-09 has no build (nor, here, an Allied income): the
    # deployment places every unit, supply units too, and a step nobody has anything to
    # decide in is not asked.
    assert asked == [("allies", "war_declaration"), ("axis", "war_declaration")]
    assert given_ahead(duo, "axis") == {"axis": ["deployment"], "allies": ["deployment"]}


def test_the_computers_proposal_for_a_step_ahead_is_given_back_as_it_stands(duo: Duo) -> None:
    """`pbem suggest --ahead deployment` at the war declaration: the bot's deployment on
    the position the step will most likely have, which `pbem orders --ahead` takes whole."""
    side = duo.to_move()
    assert side is not None
    pbem(duo, side, "orders", duo.gid, orders_file(duo, "war", "pass"))
    text = pbem(duo, side, "suggest", duo.gid, "--ahead", "deployment")
    header, orders = text.splitlines()[:4], [x for x in text.splitlines() if x and not x.startswith("#")]
    assert f"pbem orders {duo.gid} --ahead deployment FILE" in header[-1]
    assert len(orders) > 20 and orders[-1] == "pass"
    out = pbem(duo, side, "orders", duo.gid, "--ahead", "deployment", orders_file(duo, "dep", *text.splitlines()))
    assert f"{len(orders)} order(s) kept for the deployment of 1939-09" in out
    # Nothing was given for the step by asking, and a step that is not coming is refused in one line.
    wrong = pbem(duo, side, "suggest", duo.gid, "--ahead", "landing", ok=False)
    assert "not among your coming simultaneous steps" in wrong and "Traceback" not in wrong


def test_a_cost_of_passing_the_forecast_did_not_show_is_not_sealed_silently(duo: Duo) -> None:
    """A build given ahead as `pass` where the forecast left nothing to buy: if the real
    position has money to spend (a war the other side declared, say), the pass is a misfit.
    The first build is 1939-10's (1939-09 has nothing to buy once the supply units are placed)."""
    for _ in range(80):
        side = duo.to_move()
        assert side is not None
        if phase(duo, side) == "build":
            break
        p = duo.player(side)
        exp = machine.expected(turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).work)
        if exp is not None and exp.side == side:  # an automatic file to carry is no decision
            turn.bot_play(p.ws, duo.gid, home=p.home)
        carry(duo, other(side))
        carry(duo, side)
    else:
        raise AssertionError("no build step")
    p = duo.player(side)
    state = turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).work.state
    api = engine_link.api()
    passing = [api.Action("pass", ())]
    found = ahead.costs(state, side, passing)
    assert any(c.startswith("pass.money-unspent:") for c in found), found
    seed = bytes(32)
    # Shown by the forecast: the person chose to keep the money.
    assert ahead.fit(state, side, passing, "ask", seed, warned=found).misfits == []
    # Not shown by it: named, so that `ask` stops and `bot` buys.
    unseen = ahead.fit(state, side, passing, "ask", seed)
    assert unseen.misfits and all("passing now would cost" in m for m in unseen.misfits)
    # With `bot`, the computer player's orders for the step are offered (here it may keep the
    # money too: then it adds nothing, and says so).
    bought = ahead.fit(state, side, passing, "bot", seed)
    proposal = [a for a in engine_link.ai().decide(state, side, seed) if a.kind != "pass"]
    assert bought.added == len(proposal) and bought.actions[-1].kind == "pass"


@pytest.mark.slow
def test_the_last_sitting_before_a_month_gives_its_start_ahead(duo: Duo) -> None:
    """The month's last mover (the Allies, who move second) gives the next month's hidden
    lists in its turn's sitting: a person by `pbem orders --ahead` from inside the turn, the
    computer player at the turn's end.  The Axis, whose month start comes just before its own
    turn, is asked for it then, in that same sitting."""
    asked: list[tuple[str, str, str]] = []
    given_by_person = False
    api = engine_link.api()
    for _ in range(80):
        side = duo.to_move()
        assert side is not None
        me = duo.player(side)
        work = turn.my_turn(LocalGame(me.ws, duo.gid, me.home)).work
        d = api.decision(work.state)
        if d.when == "1939-10" and d.phase.startswith("axis."):
            break
        exp = machine.expected(work)
        if exp is not None and exp.side == side:
            asked.append((d.when, side, d.phase))
            if (d.when, d.phase) == ("1939-09", "allies.first_movement") and not given_by_person:
                # From inside the turn: the forecast passes the rest of the month.
                out = pbem(duo, side, "orders", duo.gid, "--ahead", "war_declaration", orders_file(duo, "w", "pass"))
                assert "1 order(s) kept for the war declaration of 1939-10" in out
                given_by_person = True
            turn.bot_play(me.ws, duo.gid, home=me.home, ahead=True)
        for res in duo.deliver(other(side)) + duo.deliver(side):
            assert res.status in ("applied", "duplicate"), res.message
    else:
        pytest.fail(f"1939-10's Axis turn was not reached: {asked}")
    october = [(side, step) for when, side, step in asked if when == "1939-10"]
    assert october == [("axis", "war_declaration")], october  # the Allies gave theirs in September
    # The person's war declarations were kept as given; the bot gave the steps after them.
    log = json.loads(pbem(duo, "axis", "log", duo.gid, "--json"))
    entries = [e for f in log for e in f["entries"] if e["when"] == "1939-10"]
    standing = [(e["side"], e["phase"]) for e in entries if e["by"] == "standing"]
    assert ("allies", "war_declaration") in standing and ("allies", "deployment") in standing
    months = json.loads(pbem(duo, "allies", "log", duo.gid, "--sittings", "--json"))["months"]
    # The Allies have no sitting before their October turn (the Axis's declarations join the
    # sitting of its September landing answer, a person's here: no reaction orders are given).
    assert [m["sittings"]["allies"] for m in months if m["month"] == "1939-10"] == [0]


def test_giving_the_next_month_ahead_is_worth_it_only_in_a_side_s_last_sitting_before_it(duo: Duo) -> None:
    """Read on the recorded 1939 game: at the end of the Allies' turn the next month's steps
    are theirs to give ahead; the Axis, or the Allies in mid-turn, would give them on a worse
    forecast than the one a sitting they have anyway brings."""
    from pbem.protocol import replay

    record = sorted((Path(__file__).parents[1] / "data" / "records" / "1939-seed7").glob("*.pbem"))
    api = engine_link.api()
    found: dict[str, Any] = {}
    for game in replay.walk([turnfile.read(p) for p in record]):
        d = api.decision(game.state)
        if d.when != "1939-09":
            break
        # The Allies' landing reaction ends the Axis turn, the Axis's ends the Allies'.
        at = {"axis.landing": "axis-end", "allies.interception_roll": "mid", "allies.landing": "end"}.get(d.phase)
        if at and at not in found:
            found[at] = api.deserialize(api.serialize(game.state), None, "1939")
    assert set(found) == {"axis-end", "mid", "end"}
    assert ahead.worth_giving_ahead(found["end"], "allies", "1939")
    assert not ahead.worth_giving_ahead(found["axis-end"], "axis", "1939")
    assert not ahead.worth_giving_ahead(found["mid"], "allies", "1939")
    steps = [(d.when, d.phase) for d, _ in ahead.coming(found["end"], "allies", [], {}, "1939")]
    assert steps[0] == ("1939-10", "war_declaration") and ("1939-10", "deployment") in steps


def test_a_war_the_forecast_did_not_show_leaves_no_army_silently_unplaced(duo: Duo) -> None:
    """The Allies' first deployment given ahead on the forecast where the Axis passes its war
    declarations holds China's placements only (nobody else is at war there).  When the Axis
    has in fact declared war on Poland, Britain's and France's armies wait to be placed: the
    list is a misfit, not a list that fits, and the bot fallback places them."""
    api, ai = engine_link.api(), engine_link.ai()

    def deployment(axis_declares: bool) -> Any:
        s = api.new_game("1939")
        axis = ai.decide(s, "axis", b"\x01" * 32) if axis_declares else []
        api.apply_simultaneous(s, {"axis": axis, "allies": []})
        while api.decision(s).kind == "chance":
            api.apply_chance(s, b"\x02" * 32)
        assert api.decision(s).phase == "deployment"
        return s

    forecast, real = deployment(False), deployment(True)
    given = ai.decide(forecast, "allies", b"\x03" * 32)
    assert {str(a.args[0]) for a in given if a.kind == "place_land"} == {"China"}
    warned = ahead.costs(forecast, "allies", given)
    assert "units-waiting:France" not in warned and "units-waiting:United Kingdom" not in warned
    found = ahead.fit(real, "allies", given, "none", b"\x04" * 32, warned=warned)
    assert any("units-waiting:France" in m for m in found.misfits)
    assert any("units-waiting:United Kingdom" in m for m in found.misfits)
    assert len(found.actions) == len(given)  # `none`: sealed as given, and said so
    found = ahead.fit(real, "allies", given, "bot", b"\x04" * 32, warned=warned)
    placed = {str(a.args[0]) for a in found.actions if a.kind == "place_land"}
    assert {"France", "United Kingdom", "China"} <= placed and found.added > 0


def test_the_forecast_plays_the_wars_the_other_side_would_declare(
    fake_engine: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the first war declarations of 1939 the Allies' income exists only once Germany is at
    war with Poland (France and Britain come in): the forecast, playing the Axis' declarations as
    the computer player would, shows it; a forecast in which the Axis passed did not."""
    engine_link.use(None)  # the real engine (the fixture puts the fake back afterwards)
    state = engine_link.api().new_game("1939", {})
    steps = [d.phase for d, _ in ahead.coming(state, "allies", [], {}, "1939")]
    assert steps == ["deployment", "income", "build"]
    monkeypatch.setattr(ahead, "_forecast_list", lambda s, d, them: [])
    assert [d.phase for d, _ in ahead.coming(state, "allies", [], {}, "1939")] == ["deployment", "build"]
