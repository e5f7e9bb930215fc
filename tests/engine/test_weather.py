"""Weather (rulebook: "Weather", "Weather Zones", "Weather Conditions")."""

from __future__ import annotations

from engine import api, weather
from engine.hexmap import WeatherZone
from engine.position import build_world
from engine.rng import Rng
from engine.sequence import STEP_INDEX
from engine.state import GameState, parse_date
from engine.weather import MILD_WINTER, MONSOON, NONE, SEVERE_WINTER, SPRING, WeatherRoll

Z = WeatherZone
WORLD = build_world(
    """
    S:c S:c S:c S:c S:c S:c
     S:c S:c S:c S:c S:c S:c
    """,
    weather={
        "0,0": Z.POLAR,
        "1,0": Z.NORTH_TEMPERATE,
        "2,0": Z.SOUTH_TEMPERATE,
        "3,0": Z.INDUSTRIAL,
        "4,0": Z.FAIR,
        "5,0": Z.TROPICAL,
    },
)
POLAR, NORTH, SOUTH, INDUSTRIAL, FAIR, TROPICAL = range(6)  # hex ids of row 0, by zone


def at(date: str) -> GameState:
    state = api.new_game(WORLD)
    state.date = parse_date(date)
    return state


def test_condition_table_of_every_zone_by_season() -> None:
    """Rulebook "Weather Zones": the table of conditions per zone for Dec-Feb, Mar-May,
    Jun-Aug and Sep-Nov; northern and southern temperate differ by season."""
    expected = {
        "1940-01": (SEVERE_WINTER, MILD_WINTER, NONE, NONE, NONE, NONE),
        "1940-04": (SPRING, SPRING, NONE, NONE, NONE, NONE),
        "1940-07": (NONE, NONE, MILD_WINTER, NONE, NONE, MONSOON),
        "1940-10": (MILD_WINTER, NONE, SPRING, NONE, NONE, NONE),
        "1940-12": (SEVERE_WINTER, MILD_WINTER, NONE, NONE, NONE, NONE),
        "1941-03": (SPRING, SPRING, NONE, NONE, NONE, NONE),
    }
    for date, conditions in expected.items():
        state = at(date)
        assert tuple(weather.condition(state, h) for h in range(6)) == conditions, date


def test_extra_movement_cost_in_spring_mild_winter_and_monsoon() -> None:
    """Rulebook "Mild Winter", "Spring", "Monsoon": entering such a hex costs one more
    movement point; severe winter and clear weather do not."""
    jan, jul = at("1940-01"), at("1940-07")
    assert weather.extra_move_cost(jan, NORTH) == 1  # mild winter
    assert weather.extra_move_cost(jan, POLAR) == 0  # severe winter
    assert weather.extra_move_cost(jan, FAIR) == 0
    assert weather.extra_move_cost(jul, TROPICAL) == 1  # monsoon
    assert weather.extra_move_cost(at("1940-04"), POLAR) == 1  # spring


def test_mud_is_spring_or_monsoon_only() -> None:
    """Rulebook "Spring" (defence doubled, no overrun) and "Monsoon" (same effects as spring)."""
    assert weather.mud(at("1940-04"), NORTH)
    assert weather.mud(at("1940-07"), TROPICAL)
    assert not weather.mud(at("1940-01"), NORTH)  # mild winter
    assert weather.mud(at("1940-10"), SOUTH)


def test_icecap_frozen_only_in_severe_winter() -> None:
    """Rulebook "Severe Winter": icecap hexsides are frozen (polar zone, December-February)."""
    assert weather.icecap_frozen(at("1940-12"), POLAR)
    assert weather.icecap_frozen(at("1941-02"), POLAR)
    assert not weather.icecap_frozen(at("1941-03"), POLAR)
    assert not weather.icecap_frozen(at("1941-01"), NORTH)


def test_grounding_roll_is_for_next_month_and_industrial_follows_northern_temperate() -> None:
    """Rulebook "Weather Conditions": grounding is decided in the supply phase for the
    next month; the industrialized zone is grounded whenever the northern temperate one is."""
    state = at("1940-11")  # the roll is for December: polar severe (60%), north mild (30%)
    state.step = STEP_INDEX["weather"]
    roll = WeatherRoll()
    seen_north = seen_not_north = False
    for i in range(60):
        trial = state.copy()
        log = roll.roll(trial, Rng(bytes([i]) * 32))
        assert trial.grounded_zones <= {Z.POLAR, Z.NORTH_TEMPERATE, Z.INDUSTRIAL}
        assert (Z.INDUSTRIAL in trial.grounded_zones) == (Z.NORTH_TEMPERATE in trial.grounded_zones)
        assert any("polar" in line for line in log)
        seen_north |= Z.NORTH_TEMPERATE in trial.grounded_zones
        seen_not_north |= Z.NORTH_TEMPERATE not in trial.grounded_zones
    assert seen_north and seen_not_north


def test_grounding_frequencies_match_the_rulebook() -> None:
    """Rulebook "Severe Winter" 60 %, "Mild Winter" 30 %, "Spring" 30 %, "Monsoon" 60 %."""
    state = at("1940-11")  # next month: December
    hits = {Z.POLAR: 0, Z.NORTH_TEMPERATE: 0}
    n = 2000
    for i in range(n):
        trial = state.copy()
        WeatherRoll().roll(trial, Rng(i.to_bytes(32, "big")))
        for z in hits:
            hits[z] += z in trial.grounded_zones
    assert abs(hits[Z.POLAR] / n - 0.60) < 0.05
    assert abs(hits[Z.NORTH_TEMPERATE] / n - 0.30) < 0.05
    june = at("1940-05")  # next month: June: monsoon 60 %, southern mild winter 30 %
    tropical = sum(Z.TROPICAL in _rolled(june, i) for i in range(n))
    assert abs(tropical / n - 0.60) < 0.05


def _rolled(state: GameState, i: int) -> set[int]:
    trial = state.copy()
    WeatherRoll().roll(trial, Rng(i.to_bytes(32, "big")))
    return trial.grounded_zones


def test_no_roll_is_needed_when_next_month_has_no_weather() -> None:
    """Rulebook "Weather Conditions": grounding is decided before each month with relevant
    weather conditions; a map of fair weather only never needs the dice."""
    state = api.new_game(build_world("S:c S:c"))
    assert not WeatherRoll().needed(state, "")
    polar = at("1940-11")
    assert WeatherRoll().needed(polar, "")


def test_air_grounded_reads_the_rolled_zones() -> None:
    """Rulebook "Weather Conditions": air units cannot move in hexes where they are grounded."""
    state = at("1941-01")
    state.grounded_zones = {int(Z.NORTH_TEMPERATE), int(Z.INDUSTRIAL)}
    assert weather.air_grounded(state, NORTH)
    assert weather.air_grounded(state, INDUSTRIAL)
    assert not weather.air_grounded(state, POLAR)


def _invaded(date: str) -> GameState:
    state = api.new_game(WORLD)
    su = state.countries["Soviet Union"]
    su.side, su.at_war, su.entered = "allies", True, parse_date(date)
    return state


def _bonus(state: GameState, date: str, country: str = "Soviet Union") -> tuple[int, int]:
    state.date = parse_date(date)
    return weather.winter_bonus(state, country, POLAR)


def test_soviet_winter_bonus_after_a_summer_invasion() -> None:
    """Rulebook "Severe Winter": first winter after the Axis declares war on the Soviet
    Union x2 attack and defence, second winter x2 defence only; Soviet and Finnish units only."""
    state = _invaded("1941-06")
    assert _bonus(state, "1941-12") == (2, 2)
    assert _bonus(state, "1942-02") == (2, 2)
    assert _bonus(state, "1942-12") == (1, 2)
    assert _bonus(state, "1943-01") == (1, 2)
    assert _bonus(state, "1943-12") == (1, 1)
    assert _bonus(state, "1941-12", "Finland") == (2, 2)
    assert _bonus(state, "1941-12", "Germany") == (1, 1)
    state.date = parse_date("1941-12")
    assert weather.winter_bonus(state, "Soviet Union", NORTH) == (1, 1)  # only in severe winter


def test_soviet_winter_bonus_after_a_december_invasion() -> None:
    """Rulebook "Severe Winter": invaded in December, the first bonus covers only that
    winter; the second bonus the winter after."""
    state = _invaded("1941-12")
    assert _bonus(state, "1941-12") == (2, 2)
    assert _bonus(state, "1942-02") == (2, 2)
    assert _bonus(state, "1942-12") == (1, 2)
    assert _bonus(state, "1943-12") == (1, 1)


def test_soviet_winter_bonus_after_a_january_invasion() -> None:
    """Rulebook "Severe Winter": invaded in January or February, the first bonus covers
    that winter and the next; the second bonus the one after."""
    state = _invaded("1942-01")
    assert _bonus(state, "1942-02") == (2, 2)
    assert _bonus(state, "1942-12") == (2, 2)
    assert _bonus(state, "1943-12") == (1, 2)
    assert _bonus(state, "1944-12") == (1, 1)


def test_no_winter_bonus_without_an_axis_declaration() -> None:
    """Rulebook "Severe Winter": the bonus counts from the Axis's declaration of war."""
    state = api.new_game(WORLD)
    assert _bonus(state, "1941-12") == (1, 1)
