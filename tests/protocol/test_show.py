"""`pbem show` on the real engine: my countries, units and the orders allowed now."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem import engine_link
from pbem.cli.main import app


@pytest.fixture
def players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    engine_link.use(None)
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
    # the global --workspace option sets this variable: let monkeypatch undo it afterwards
    monkeypatch.setenv("PBEM_WORKSPACE", str(tmp_path))
    return tmp_path / "alice", tmp_path / "bot"


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_show_lists_money_units_and_legal_orders(players: tuple[Path, Path], tmp_path: Path) -> None:
    alice, bot = players
    run("keygen", "alice")
    run("keygen", "bot")
    run("key", "export", "bot", "-o", str(tmp_path / "bot.pub"))
    gid = run("--workspace", str(alice), "new", "--scenario", "1939", "--side", "allies", "--me", "alice",
              "--opponent", str(tmp_path / "bot.pub")).split()[0]  # fmt: skip
    (bot / "inbox").mkdir(parents=True)
    invitation = next((alice / "outbox").glob("*.pbem"))
    (bot / "inbox" / invitation.name).write_bytes(invitation.read_bytes())
    run("--workspace", str(bot), "join", str(bot / "inbox" / invitation.name), "--me", "bot")

    out = run("--workspace", str(bot), "show", gid, "--legal", "3")
    assert "war_declaration" in out
    assert "Germany" in out and "1000B" in out  # the scenario's starting money
    assert "orders you may give now" in out and "declare Poland" in run("--workspace", str(bot), "show", gid,
                                                                          "--legal", "0", "--no-units")  # fmt: skip

    # after listing an order, show previews the list: the order is shown as listed
    orders = tmp_path / "orders.txt"
    orders.write_text("declare Poland\n")
    run("--workspace", str(bot), "orders", gid, str(orders))
    assert "listed so far (1): declare Poland" in run("--workspace", str(bot), "show", gid, "--no-units")


def test_show_of_an_unknown_game_is_one_line_and_non_zero(players: tuple[Path, Path]) -> None:
    alice, _ = players
    alice.mkdir()
    result = CliRunner().invoke(app, ["--workspace", str(alice), "show", "0123456789ab"])
    assert result.exit_code != 0
    assert result.output.strip().count("\n") == 0 and "no game 0123456789ab" in result.output
