"""A new game against the computer, played here with no file to carry: `pbem new
--against-bot` in the terminal, `pbem play --against-bot` in the page, where sending a
move gets the computer's answer at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.play import levels, solo, turn
from pbem.protocol import machine
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from pbem.web.desk import Desk
from tests.decision_spy import DecisionSpy


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
    assert desk.overview()["against"] == " against the computer at level 3"  # the page's title says whom I play
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


def test_the_computer_plays_at_the_level_the_game_was_started_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, root = tmp_path / "home", tmp_path / "ws"
    keys.keygen("alice", "alice@example.org", directory=home)
    run = CliRunner()
    new = ["-w", str(root), "--home", str(home), "new", "--scenario", "1939", "--me", "alice", "--side", "allies"]
    got = run.invoke(app, [*new, "--against-bot", "--level", "7"])
    assert got.exit_code != 0 and "Traceback" not in got.output
    assert got.output.strip().splitlines() == [
        "error: --level: there is no level 7: choose 1 (gentlest) to 4 (strongest); 3 is the everyday bot"
    ]
    assert Workspace(root).games() == []  # nothing written
    got = run.invoke(app, [*new, "--level", "2"])  # neither the computer here nor an opponent's key
    assert got.exit_code != 0 and "--opponent FILE, or play the computer with --against-bot" in got.output
    spy = DecisionSpy(monkeypatch)
    got = run.invoke(app, [*new, "--against-bot", "--level", "1"])
    assert got.exit_code == 0, got.output
    gid = got.stdout.strip().splitlines()[0]
    # The Axis leads: the computer's first lists (the Allies' is its forecast of mine).
    assert spy.players("axis") == {"gentle"}
    # Every later move, the bot mailbox's after a restart too, reads the level from the game on disk.
    computer_ws, computer_home = solo._computer(Workspace(root), gid)
    assert LocalGame(computer_ws, gid, computer_home).meta[levels.LEVEL] == 1
    assert levels.recorded_player(LocalGame(computer_ws, gid, computer_home)) == "gentle"
    assert levels.LEVEL not in LocalGame(Workspace(root), gid, home).meta  # mine is not the computer's
    # My status line says whom I play.
    got = run.invoke(app, ["-w", str(root), "--home", str(home), "status", gid])
    assert f"game {gid} (allies against the computer at level 1), file " in got.output, got.output


def test_pbem_bot_play_level_records_the_level_of_my_side_s_computer_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, ws = tmp_path / "home", Workspace(tmp_path / "ws")
    keys.keygen("alice", "alice@example.org", directory=home)
    gid, _ = solo.new(ws, "1939", "allies", "alice", home=home)
    run = CliRunner()
    base = ["-w", str(ws.root), "--home", str(home), "bot", "play", gid]
    got = run.invoke(app, [*base, "--level", "2", "--player", "bot"])
    assert got.exit_code != 0 and "not both" in got.output
    got = run.invoke(app, [*base, "--level", "0"])
    assert got.exit_code != 0 and "there is no level 0" in got.output and "Traceback" not in got.output
    assert levels.LEVEL not in LocalGame(ws, gid, home).meta
    spy = DecisionSpy(monkeypatch)
    got = run.invoke(app, [*base, "--level", "2"])
    assert got.exit_code == 0, got.output
    assert spy.players("allies") == {"v1"}
    assert LocalGame(ws, gid, home).meta[levels.LEVEL] == 2
