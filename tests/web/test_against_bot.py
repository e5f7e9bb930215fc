"""A new game against the computer, played here with no file to carry: `pbem new
--against-bot` in the terminal, `pbem play --against-bot` in the page, where sending a
move gets the computer's answer at once."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.play import solo, turn
from pbem.protocol import machine
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from pbem.web.desk import Desk


def _awaits_me(ws: Workspace, gid: str, home: Path) -> machine.Expectation | None:
    return machine.expected(turn.my_turn(LocalGame(ws, gid, home)).work)


def test_the_page_s_send_is_answered_by_the_computer_at_once(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", Workspace(tmp_path / "ws")
    keys.keygen("alice", "alice@example.org", directory=home)
    gid, said = solo.new(ws, "1939", "allies", "alice", home=home)
    # The computer joined and, the Axis leading the war declarations, committed its list.
    assert said and solo.is_solo(ws, gid, home)
    assert _awaits_me(ws, gid, home) == machine.Expectation("allies", "sim")
    desk = Desk(ws, gid, home)
    desk.give(["pass"])
    said_after = desk.send()
    assert said_after.endswith("the computer has answered"), said_after
    mine = LocalGame(ws, gid, home).game()
    assert mine is not None and mine.seq >= 4  # my list, its opening, and its next commitment came back
    assert _awaits_me(ws, gid, home) == machine.Expectation("allies", "sim")  # the deployment now
    # The page opens the next decision with what the computer's answer did, as `pbem status` does.
    assert any("United Kingdom enters the war" in line for line in desk.overview()["since"])
    # Nothing waits to be carried by hand, on either side.
    computer_ws, _ = solo._computer(ws, gid)
    assert not list(ws.outbox.glob(f"{gid}-*")) and not list(computer_ws.outbox.glob(f"{gid}-*"))


def test_pbem_new_against_bot_starts_a_game_here_and_refuses_an_opponent(tmp_path: Path) -> None:
    home, root = tmp_path / "home", tmp_path / "ws"
    keys.keygen("alice", "alice@example.org", directory=home)
    run = CliRunner()
    base = ["-w", str(root), "--home", str(home), "new", "--scenario", "1939", "--me", "alice"]
    got = run.invoke(app, [*base, "--side", "axis", "--against-bot"])
    assert got.exit_code == 0, got.output
    gid = got.stdout.strip().splitlines()[0]
    assert solo.is_solo(Workspace(root), gid, home)
    assert "against the computer" in got.output
    got = run.invoke(app, [*base, "--side", "axis", "--against-bot", "--opponent", str(home / "alice.pub")])
    assert got.exit_code != 0 and "leave out --opponent" in got.output
    got = run.invoke(app, [*base, "--side", "axis"])
    assert got.exit_code != 0 and "--against-bot" in got.output and "Traceback" not in got.output
