"""`pbem arena` on the command line."""

from __future__ import annotations

import typer
from typer.testing import CliRunner

from pbem.cli import arena_cmd


def _app() -> typer.Typer:
    app = typer.Typer()
    arena_cmd.register(app)

    @app.command("noop")
    def noop() -> None:  # a second command keeps typer from collapsing the app into one command
        """Nothing."""

    return app


def test_arena_command_is_registered_with_its_options() -> None:
    result = CliRunner().invoke(_app(), ["arena", "--help"])
    assert result.exit_code == 0
    for option in ("--scenario", "--until", "--games", "--axis", "--allies", "--seed"):
        assert option in result.output


def test_unknown_player_is_one_line_error() -> None:
    result = CliRunner().invoke(_app(), ["arena", "--axis", "genius", "--games", "1"])
    assert result.exit_code == 1
    assert "unknown player 'genius'" in result.output


def test_json_prints_the_summary_with_every_game_and_its_events() -> None:
    import json

    result = CliRunner().invoke(_app(), ["arena", "--until", "1939-10", "--games", "1", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["games"] == 1 and len(doc["games_played"]) == 1
    game = doc["games_played"][0]
    for key in ("fallen", "liberated", "surrendered", "vichy", "vichy_failed", "soviet_war"):
        assert key in game
    assert "vichy" in doc and "surrendered" in doc
