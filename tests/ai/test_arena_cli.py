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


def test_json_reports_games_and_summary_with_entries() -> None:
    import json

    result = CliRunner().invoke(_app(), ["arena", "--until", "1939-10", "--games", "1", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    (game,) = doc["games"]
    # Germany is at war from the scenario's start; Poland and its guarantors enter when it is attacked.
    assert "Germany" not in game["entered"]
    assert game["entered"]["Poland"] == ["1939-09", "allies"]
    assert doc["summary"]["entered"]["Poland (allies)"] == ["1939-09"]


def test_json_gives_the_summary_and_each_game_with_air_events() -> None:
    import json

    result = CliRunner().invoke(
        _app(), ["arena", "--json", "--until", "1939-09", "--axis", "random", "--allies", "random"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    (game,) = doc["games"]
    assert set(doc["summary"]["air"]["axis"]) == {"air combats", "interceptions", "bombing raids", "atomic bombs"}
    assert game["air"]["allies"]["atomic bombs"] == 0
    for key in ("fallen", "liberated", "surrendered", "vichy", "vichy_failed", "soviet_war"):
        assert key in game
    assert "vichy" in doc["summary"] and "surrendered" in doc["summary"]
    assert doc["summary"]["landings"]["axis"]["paradrops tried"] == game["landings"]["axis"]["paradrops tried"]


def test_json_gives_sittings_and_file_hops_per_month() -> None:
    """Each game's months as today's files would cost them, and the summary over the games."""
    import json

    from pbem.play import sittings

    result = CliRunner().invoke(
        _app(),
        [
            "arena",
            "--json",
            "--until",
            "1939-10",
            "--games",
            "2",
            "--axis",
            "random",
            "--allies",
            "random",
            "--no-ahead",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert "ahead" not in doc["summary"]
    months = []
    for game in doc["games"]:
        (september,) = game["sittings"]["months"]
        assert september["month"] == "1939-09" and september["finished"]
        # Both sides sit at least for the declarations, the deployment and their own turn; a
        # roll's first dice value makes a hop that carries nothing a person decided.
        assert min(september["sittings"].values()) >= 3
        assert september["hops"] >= sum(september["sittings"].values()) + september["automatic_hops"] > 0
        months.append(sittings.Month(**{"when": september.pop("month")} | september))
    assert doc["summary"]["sittings"] == json.loads(json.dumps(sittings.summary(months)))


def test_json_says_how_the_lists_given_ahead_fared() -> None:
    """By default the players give the month's hidden steps ahead (the Allies the next month's
    at the end of their turn): with reaction orders counted too, a side sits at most twice in
    1939-10, and the lists given ahead are counted."""
    import json

    result = CliRunner().invoke(_app(), ["arena", "--json", "--until", "1939-11", "--axis", "random", "--react"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    (game,) = doc["games"]
    fared = doc["summary"]["ahead"]
    assert fared == game["ahead"] and fared["lists"] >= 4
    assert 0 <= fared["misfits"] <= fared["orders"] and fared["refitted"] <= fared["lists"]
    october = game["sittings"]["months"][1]
    assert october["month"] == "1939-10" and max(october["sittings"].values()) < 3


def test_text_ends_with_the_sittings_and_hops_line() -> None:
    result = CliRunner().invoke(
        _app(), ["arena", "--until", "1939-10", "--axis", "random", "--allies", "random", "--no-ahead"]
    )
    assert result.exit_code == 0, result.output
    last = result.output.splitlines()[-1]
    assert last.startswith("per game month over 1 finished month(s), median/max: sittings axis ")
    assert "file hops " in last and "(automatic only " in last


def test_compare_prints_the_paired_difference_per_side_and_mark() -> None:
    """A run that stops as it starts (--until the scenario's first month): the shape only."""
    result = CliRunner().invoke(_app(), ["arena", "--compare", "bot", "v1", "--until", "1939-09", "--seed", "5"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split(" game ")[0] for line in lines[:3]] == [
        "axis=bot allies=v1",
        "axis=v1 allies=bot",
        "axis=v1 allies=v1",
    ]
    assert lines[3].startswith("compare bot with v1, each against v1 on seeds 5 to 5")
    assert (
        lines[4]
        == "as the axis (against v1 as the allies): 1940-07 not reached; 1942-01 not reached; 1944-01 not reached"
    )
    assert lines[5].startswith("as the allies (against v1 as the axis): ")


def test_compare_json_and_its_errors() -> None:
    import json

    result = CliRunner().invoke(_app(), ["arena", "--compare", "random", "v1", "--until", "1939-09", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["compare"]["reference"] == "v1"
    assert doc["compare"]["margins"]["axis"]["1942-01"] == {"random": [None], "v1": [None]}
    assert {(g["axis"], g["allies"]) for g in doc["games"]} == {("random", "v1"), ("v1", "v1"), ("v1", "random")}
    assert all(g["margin"] == {"1940-07": None, "1942-01": None, "1944-01": None} for g in doc["games"])
    assert all(g["empty_capitals"] == {"axis": {}, "allies": {}} for g in doc["games"])
    same = CliRunner().invoke(_app(), ["arena", "--compare", "bot", "bot"])
    assert same.exit_code == 1 and "compare two different players" in same.output
    unknown = CliRunner().invoke(_app(), ["arena", "--compare", "bot", "v9"])
    assert unknown.exit_code == 1 and "unknown player 'v9'" in unknown.output
