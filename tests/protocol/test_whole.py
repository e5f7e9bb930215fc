"""A hidden list given again a month later (`pbem orders GAME --as-last-month`), on the
protocol tests' stand-in engine, whose month ends with a build both sides decide hidden
(its builds are paid from money that grows by one at each roll)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import turn, whole
from pbem.protocol import engine_link
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo


def at_axis_build(duo: Duo, when: str) -> None:
    def there(d: Duo) -> bool:
        state = turn.my_turn(LocalGame(d.axis.ws, d.gid, d.axis.home)).work.state
        found = engine_link.api().decision(state)
        return (found.when, found.phase) == (when, "build") and d.to_move() == "axis"

    duo.play_until(there, limit=60)


def money(duo: Duo) -> int:
    state = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home)).work.state
    return int(state.d["money"]["axis"])


def listed(duo: Duo) -> list[list[object]]:
    return list(turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home)).pending.sim or [])


def test_last_months_list_is_given_again_and_a_misfit_named(duo: Duo) -> None:
    p = duo.axis
    at_axis_build(duo, "1939-09")
    spend = money(duo)
    turn.orders(p.ws, duo.gid, ["build 1", f"build {spend - 1}"], p.home)
    turn.send(p.ws, duo.gid, p.home)
    at_axis_build(duo, "1939-10")
    left = money(duo)
    assert 1 <= left < spend - 1  # the second build no longer fits: it costs more than the money now
    out = whole.as_last_month(p.ws, duo.gid, p.home)
    assert out.startswith(f"1 of the 2 order(s) of your build of 1939-09 added to game {duo.gid}")
    assert f"1 no longer fitted and were left out: build {spend - 1} (" in out
    assert listed(duo) == [["build", 1]]


def test_the_command_line_form_and_a_month_with_no_list(duo: Duo, monkeypatch: pytest.MonkeyPatch) -> None:
    p = duo.axis
    at_axis_build(duo, "1939-09")
    monkeypatch.setenv("PBEM_HOME", str(p.home))
    got = CliRunner().invoke(app, ["-w", str(p.ws.root), "orders", duo.gid, "--as-last-month"])
    assert got.exit_code == 1
    assert got.output.strip() == (
        f"error: game {duo.gid} holds no list of yours for the build of 1939-08: "
        "give this month's orders with `pbem orders GAME FILE` or `--suggested`"
    )
    got = CliRunner().invoke(app, ["-w", str(p.ws.root), "orders", duo.gid, "x.txt", "--as-last-month"])
    assert got.exit_code == 1 and "--as-last-month takes no FILE" in got.output


def test_outside_a_hidden_step_it_is_refused_with_what_to_run(duo: Duo, tmp_path: Path) -> None:
    p = duo.axis
    duo.play_until(lambda d: d.to_move() == "axis" and _phase(d) == "axis.move", limit=20)
    with pytest.raises(PbemError, match=r"a step both sides decide at once .* `pbem suggest "):
        whole.as_last_month(p.ws, duo.gid, p.home)
    with pytest.raises(PbemError, match="a step both sides decide at once"):
        whole.suggested(p.ws, duo.gid, [], p.home)


def _phase(duo: Duo) -> str:
    state = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home)).work.state
    return str(engine_link.api().decision(state).phase)


def test_as_suggested_without_changes_lists_the_proposal_and_sends(duo: Duo) -> None:
    p = duo.axis
    at_axis_build(duo, "1939-09")
    t = turn.my_turn(LocalGame(p.ws, duo.gid, p.home))
    proposal = [a.to_wire() for a in turn.bot_decides(t, 0, "bot") if a.kind != "pass"]
    out = whole.suggested(p.ws, duo.gid, [], p.home)
    assert out.startswith(f"{len(proposal)} order(s) added to game {duo.gid}: your 0, then {len(proposal)} of")
    assert listed(duo) == proposal
    assert turn.send(p.ws, duo.gid, p.home).exists()


def test_when_nothing_of_last_month_fits_my_list_is_not_started(duo: Duo) -> None:
    p = duo.axis
    at_axis_build(duo, "1939-09")
    spend = money(duo)
    turn.orders(p.ws, duo.gid, [f"build {spend}"], p.home)
    turn.send(p.ws, duo.gid, p.home)
    at_axis_build(duo, "1939-10")
    assert money(duo) < spend
    out = whole.as_last_month(p.ws, duo.gid, p.home)
    assert out.startswith("0 of the 1 order(s) of your build of 1939-09 added") and f"build {spend} (" in out
    assert turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).pending.sim is None
