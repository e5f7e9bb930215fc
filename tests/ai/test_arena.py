"""The arena plays whole games straight on the engine and scores them by territory."""

from __future__ import annotations

from engine.ai import arena
from engine.state import date_text
from tests.ai.worlds import FRONT_WORLD, at_war


def test_a_game_on_a_small_world_runs_and_is_reproducible() -> None:
    first = arena.play_game(FRONT_WORLD, 3, {"axis": "bot", "allies": "random"}, seed=7)
    again = arena.play_game(FRONT_WORLD, 3, {"axis": "bot", "allies": "random"}, seed=7)
    assert not first.error
    assert first.end_date == date_text(3)
    assert len(first.month_seconds) == 3
    assert (first.winner, first.held, first.gained) == (again.winner, again.held, again.gained)


def test_territory_counts_captures_not_neutrals_joining() -> None:
    state = at_war()
    hexes = arena.objective_hexes(state)
    start = {h: state.side_controlling(h) for h in hexes}
    assert arena.gained(state, hexes, start) == {"axis": 0, "allies": 0}
    warsaw = state.world.map.city_by_name["warsaw"].hex
    state.set_controller(warsaw, "Germany")
    assert arena.gained(state, hexes, start) == {"axis": 1, "allies": 0}
    assert arena.held(state, hexes)["axis"] == 4  # Berlin, Breslau, 1,1 and Warsaw


def test_summary_counts_wins_and_reports_lines() -> None:
    lines: list[str] = []
    summary = arena.run(FRONT_WORLD, "0000-03", 2, "random", "bot", seed=1, report=lines.append)
    assert summary.games == 2
    assert sum(summary.wins.values()) == 2
    assert any(line.startswith("wins:") for line in lines)


def test_bot_beats_random_on_a_small_europe() -> None:
    """The bot's Axis takes Poland from a random Allied player within a few months."""
    from tests.ai.worlds import EUROPE_WORLD, europe_1939

    result = arena.play_game(
        EUROPE_WORLD, 1940 * 12 + 1, {"axis": "bot", "allies": "random"}, seed=3, setup=europe_1939
    )
    assert not result.error
    assert result.winner == "axis"
    assert "Poland" in result.fallen


def test_home_cities_taken_is_seen_before_conquest() -> None:
    state = at_war()
    assert not arena.home_taken(state, "Poland")
    for name in ("warsaw", "krakow"):
        state.set_controller(state.world.map.city_by_name[name].hex, "Germany")
    assert arena.home_taken(state, "Poland")


def test_entries_into_the_war_are_recorded_per_game_and_summed() -> None:
    """Each country's entry date and side (rulebook "Other Ways of Entering the War")."""
    from engine.position import begin_at
    from engine.state import parse_date
    from tests.engine.test_entries import position

    world = position().world

    def setup(state: arena.GameState) -> None:
        for name, side in (("Germany", "axis"), ("Japan", "axis"), ("China", "allies")):
            c = state.countries[name]
            c.side, c.at_war, c.entered = side, True, 0
        state.date = parse_date("1940-06")
        begin_at(state, "war_declaration")

    result = arena.play_game(world, parse_date("1940-08"), {"axis": "bot", "allies": "bot"}, seed=1, setup=setup)
    assert not result.error
    assert result.entered == {"Italy": ("1940-06", "axis")}
    assert "entered: Italy 1940-06 axis" in result.line()
    summary = arena.summarize([result, result])
    assert summary.entered == {"Italy (axis)": ["1940-06", "1940-06"]}
    assert "entered the war: Italy (axis) in 2 games, 1940-06" in summary.lines({"axis": "bot", "allies": "bot"})


def test_a_failed_attempt_is_reported() -> None:
    from tests.engine.test_entries import position

    state = position()
    entered: dict[str, tuple[str, str]] = {}
    failed: dict[str, str] = {}
    state.countries["Spain"].flags.entry_attempt = "failed"
    arena.new_entries(state, entered, frozenset({"Germany", "Japan", "China"}), failed)
    assert failed == {"Spain": "1940-06"} and entered == {}
    summary = arena.summarize([])
    summary.failed_attempts = {"Spain": 1}
    assert "failed attempts: Spain in 1" in summary.lines({"axis": "bot", "allies": "bot"})
