"""The scenario data (countries.toml, 1937.toml, 1939.toml) and its loader and CLI."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from engine import scenario as sc
from engine.position import build_map
from engine.scenario import (
    Anchor,
    Arrival,
    ScenarioError,
    Units,
    list_scenarios,
    load_scenario,
    parse_date,
    parse_profile,
    parse_scenario,
    scenario_digest,
)
from engine.units import Domain, UnitType
from pbem.cli import scenario_cmd

DESIGN = Path(__file__).resolve().parents[2] / "docs" / "design.md"


def _design_countries() -> list[str]:
    """The country names listed under "## The countries" in docs/design.md."""
    text = DESIGN.read_text(encoding="utf-8")
    section = text.split("## The countries", 1)[1].split("\n## ", 1)[0]
    names: list[str] = []
    for m in re.finditer(
        r"^(Europe|Asia|Africa|Oceania|Americas) \((\d+)\):(.*?)(?=^\S+ \(\d+\):|\n\n)", section, re.M | re.S
    ):
        listed = [n.strip().rstrip(".") for n in " ".join(m.group(3).split()).split(",")]
        assert len(listed) == int(m.group(2)), m.group(1)
        names += listed
    return names


def _texts() -> dict[str, str]:
    root = resources.files("scenarios")
    return {f: root.joinpath(f).read_text(encoding="utf-8") for f in ("countries.toml", "1937.toml", "1939.toml")}


# ------------------------------------------------------------------ countries


def test_every_design_country_is_listed_exactly_once() -> None:
    design = _design_countries()
    assert len(design) == 61
    names = [c.name for c in sc.load_countries()]
    assert sorted(names) == sorted(design)
    assert len(set(names)) == len(names)


def test_country_facts_follow_the_supplement() -> None:
    by_name = {c.name: c for c in sc.load_countries()}
    rail = {
        "Soviet Union": 8,
        "United States": 8,
        "Germany": 6,
        "United Kingdom": 6,
        "France": 3,
        "Japan": 3,
        "Italy": 1,
        "China": 1,
        "Australia": 1,
        "Canada": 1,
    }
    for name, c in by_name.items():
        assert c.rail_capacity == rail.get(name, 0), name
    leaning = {
        "United Kingdom",
        "France",
        "Canada",
        "Australia",
        "New Zealand",
        "United States",
        "Panama",
        "Poland",
        "China",
        "Argentina",
        "Brazil",
        "Chile",
        "Colombia",
        "Cuba",
        "Peru",
        "Venezuela",
    }
    assert {n for n, c in by_name.items() if c.leans_allied} == leaning
    assert {n for n, c in by_name.items() if c.leans_axis} == {
        "Germany",
        "Italy",
        "Hungary",
        "Bulgaria",
        "Thailand",
        "Japan",
    }
    for name in (
        "Estonia",
        "Latvia",
        "Lithuania",
        "Luxembourg",
        "Yemen",
        "Saudi Arabia",
        "Iran",
        "Liberia",
        "Tibet",
        "Mongolia",
        "Thailand",
        "Panama",
        "Haiti",
    ):
        assert not by_name[name].has_units, name
    assert by_name["Germany"].region == "europe" and by_name["Canada"].region == "americas"
    assert by_name["United States"].atomic_bomb_from == parse_date("1945-08")


# ------------------------------------------------------------------ scenarios


@pytest.mark.parametrize("name", ["1937", "1939"])
def test_scenarios_load_and_validate(name: str) -> None:
    s = load_scenario(name)
    sc.validate(name)
    assert s.name == name
    assert s.at_war == {"China": "allies", "Japan": "axis"}
    countries = {c.name: c for c in s.countries}
    for c in s.countries:
        assert (c.name in s.pools) == c.has_units, c.name
    for a in s.arrivals:
        assert a.country in countries and countries[a.country].has_units
        for profile in (*a.units.naval, *a.units.air):
            assert isinstance(profile.type, UnitType)
        for lp in a.units.land:
            assert lp.type.domain is Domain.LAND


def test_start_dates_and_first_phase() -> None:
    assert load_scenario("1937").start == 1937 * 12 + 5
    s39 = load_scenario("1939")
    assert s39.start == 1939 * 12 + 8
    assert s39.joins_at_start == {"Germany": "axis"}
    assert s39.start_control[0].temp_border == "china_japan_1939"
    assert s39.start_control[0].country == "Japan" and s39.start_control[0].first_turn_placement
    assert load_scenario("1937").joins_at_start == {}


def test_list_scenarios() -> None:
    assert list_scenarios() == ["1937", "1939"]


# Rough ranges around the supplement's pool table: (scenario, country, type) -> (low, high).
POOL_RANGES = {
    ("1937", "Germany", UnitType.INFANTRY): (85, 115),
    ("1937", "Germany", UnitType.ARMOR): (0, 5),
    ("1937", "Japan", UnitType.INFANTRY): (90, 120),
    ("1937", "United States", UnitType.INFANTRY): (95, 125),
    ("1937", "United States", UnitType.ARMOR): (24, 36),
    ("1937", "United Kingdom", UnitType.INFANTRY): (32, 48),
    ("1937", "United Kingdom", UnitType.ARMOR): (9, 15),
    ("1937", "France", UnitType.INFANTRY): (68, 92),
    ("1937", "Soviet Union", UnitType.INFANTRY): (85, 115),
    ("1937", "China", UnitType.INFANTRY): (90, 120),
    ("1939", "Germany", UnitType.INFANTRY): (160, 200),
    ("1939", "Germany", UnitType.ARMOR): (70, 90),
    ("1939", "Japan", UnitType.INFANTRY): (160, 200),
    ("1939", "United States", UnitType.INFANTRY): (95, 125),
    ("1939", "United States", UnitType.ARMOR): (24, 36),
    ("1939", "United Kingdom", UnitType.INFANTRY): (32, 48),
    ("1939", "United Kingdom", UnitType.ARMOR): (9, 15),
    ("1939", "France", UnitType.INFANTRY): (115, 145),
    ("1939", "Soviet Union", UnitType.INFANTRY): (135, 165),
    ("1939", "Soviet Union", UnitType.ARMOR): (10, 16),
    ("1939", "China", UnitType.INFANTRY): (125, 155),
}


@pytest.mark.parametrize(("key", "bounds"), list(POOL_RANGES.items()), ids=lambda v: "-".join(map(str, v)))
def test_pool_sizes_are_in_the_supplement_ranges(key: tuple[str, str, UnitType], bounds: tuple[int, int]) -> None:
    name, country, unit_type = key
    points = load_scenario(name).pool(country).points(unit_type)
    assert bounds[0] <= points <= bounds[1], f"{name} {country} {unit_type}: {points}"


def test_fleets_and_air_forces_1939() -> None:
    s = load_scenario("1939")
    germany, japan, uk = s.pool("Germany"), s.pool("Japan"), s.pool("United Kingdom")
    assert 15 <= len(germany.air) <= 19
    assert 11 <= len(japan.air) <= 15
    assert 6 <= japan.count(UnitType.CARRIER) <= 7
    assert len(uk.naval) == max(len(p.naval) for p in s.pools.values())  # the largest fleet
    assert {"Scharnhorst", "Gneisenau", "Admiral Graf Spee"} <= {p.name for p in germany.naval}
    assert s.pool("Denmark").points(UnitType.INFANTRY) == 3
    # every carrier comes with an air unit that can land on it
    for name in ("1937", "1939"):
        for country, pool in load_scenario(name).pools.items():
            carrier_air = sum(1 for p in pool.air if p.carrier_based)
            assert carrier_air >= pool.count(UnitType.CARRIER), (name, country)


def test_special_air_units() -> None:
    arrivals = load_scenario("1939").arrivals
    japanese = [p for a in arrivals if a.country == "Japan" for p in a.units.air]
    assert any(p.kamikaze and p.name == "Ohka" for p in japanese)
    italy = load_scenario("1939").pool("Italy")
    sm79 = [p for p in italy.air if p.name == "SM-79 Sparviero"]
    assert sm79 and all(p.type is UnitType.BOMBER_TRANSPORT and p.bomber > 0 for p in sm79)
    bf109 = next(p for p in load_scenario("1939").pool("Germany").air if p.name == "Bf 109")
    assert bf109.text() == "3-1-2-10"
    # the units that carry atomic bombs exist in their countries' schedules or pools
    s = load_scenario("1937")
    for c in s.countries:
        if c.atomic_bomb_unit:
            names = {p.name for p in s.pool(c.name).air} | {
                p.name for a in s.arrivals if a.country == c.name for p in a.units.air
            }
            assert c.atomic_bomb_unit in names, c.name


def test_1937_pools_plus_arrivals_grow_into_1939_pools() -> None:
    """The two scenarios tell one story: 1937 plus the schedule is roughly 1939."""
    s37, s39 = load_scenario("1937"), load_scenario("1939")
    entries = {"China": s37.start, "Japan": s37.start}
    grown: dict[tuple[str, UnitType], int] = {}
    for country, pool in s37.pools.items():
        for lp in pool.land:
            grown[(country, lp.type)] = grown.get((country, lp.type), 0) + lp.points
    for date in range(s37.start + 1, s39.start + 1):
        for a in s37.arrivals_due(date, entries):
            for lp in a.units.land:
                grown[(a.country, lp.type)] = grown.get((a.country, lp.type), 0) + lp.points
    for country in ("Germany", "Japan", "France", "Soviet Union", "China", "Italy"):
        for t in (UnitType.INFANTRY, UnitType.ARMOR):
            have, want = grown.get((country, t), 0), s39.pool(country).points(t)
            assert abs(have - want) <= max(4, want // 10), (country, t, have, want)


# ------------------------------------------------------------------- arrivals


def _arrival(start: tuple[Anchor, ...], every: int = 0, until: tuple[Anchor, ...] = ()) -> Arrival:
    return Arrival("Sweden", Units(), start, every, until)


def test_arrival_schedules() -> None:
    d = parse_date
    once = _arrival((Anchor("date", date=d("1940-06")),))
    assert [m for m in range(d("1940-01"), d("1941-01")) if once.fires(m, {})] == [d("1940-06")]
    window = _arrival((Anchor("date", date=d("1943-01")),), 1, (Anchor("date", date=d("1944-01")),))
    assert sum(window.fires(m, {}) for m in range(d("1942-01"), d("1946-01"))) == 12
    # relative to another country's entry: nothing until it enters
    rel = _arrival(
        (Anchor("entry_of", countries=("Norway", "Sweden"), months=1),),
        1,
        (Anchor("entry_of", countries=("Norway", "Sweden"), months=16),),
    )
    assert not any(rel.fires(m, {}) for m in range(d("1939-01"), d("1946-01")))
    fired = [m for m in range(d("1939-01"), d("1946-01")) if rel.fires(m, {"Norway": d("1940-04")})]
    assert len(fired) == 15 and fired[0] == d("1940-05")
    # the first of several countries counts
    both = {"Norway": d("1940-04"), "Sweden": d("1941-01")}
    assert [m for m in range(d("1939-01"), d("1946-01")) if rel.fires(m, both)] == fired
    # all of several starts must have happened ("once the US is at war too")
    uk = Arrival(
        "United Kingdom",
        Units(),
        (Anchor("entry", months=1), Anchor("entry_of", countries=("United States",), months=1)),
        1,
    )
    assert not uk.fires(d("1941-01"), {"United Kingdom": d("1939-09")})
    entries = {"United Kingdom": d("1939-09"), "United States": d("1941-12")}
    assert not uk.fires(d("1941-12"), entries) and uk.fires(d("1942-01"), entries)
    every_other = _arrival((Anchor("date", date=d("1939-01")),), 2)
    assert every_other.fires(d("1939-03"), {}) and not every_other.fires(d("1939-04"), {})


def test_schedule_from_the_rulebook() -> None:
    s = load_scenario("1937")
    d = parse_date
    us_entry = d("1941-12")
    china_bombers = [
        m
        for m in range(s.start + 1, d("1946-01"))
        for a in s.arrivals_due(m, {"China": s.start, "Japan": s.start, "United States": us_entry})
        if a.country == "China" and a.units.air
    ]
    assert d("1942-12") in china_bombers and d("1943-12") in china_bombers
    china_inf = sum(
        a.units.points(UnitType.INFANTRY)
        for m in range(s.start + 1, d("1946-01"))
        for a in s.arrivals_due(m, {"China": s.start, "Japan": s.start})
        if a.country == "China"
    )
    assert china_inf == 2 * (6 + 12 + 12)  # July-December 1937, 1938 and 1943
    # Germany's infantry from 1943 moves 2
    late = [a for a in s.arrivals if a.country == "Germany" and a.units.points(UnitType.INFANTRY, move=2)]
    assert late and all(a.start[0].date >= d("1943-01") for a in late)
    # the 1939 scenario takes the same schedule but fires nothing in its start month
    s39 = load_scenario("1939")
    assert len(s39.arrivals) == len(s.arrivals)
    assert s39.arrivals_due(s39.start, {"China": s.start, "Japan": s.start, "Germany": s39.start}) == []
    countries_with_schedules = {a.country for a in s.arrivals}
    assert {
        "Australia",
        "Canada",
        "China",
        "France",
        "Germany",
        "Italy",
        "Japan",
        "Netherlands",
        "Soviet Union",
        "Sweden",
        "United Kingdom",
        "United States",
    } <= countries_with_schedules


# ----------------------------------------------------------------- validation


def _broken(edit: Callable[[dict[str, str]], None], name: str = "1939") -> str:
    texts = _texts()
    edit(texts)
    with pytest.raises(ScenarioError) as info:
        parse_scenario(name, texts)
    return str(info.value)


def _replace(file: str, old: str, new: str) -> Callable[[dict[str, str]], None]:
    def edit(texts: dict[str, str]) -> None:
        assert old in texts[file], old
        texts[file] = texts[file].replace(old, new, 1)

    return edit


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        ("1939.toml", "[pool.Romania]", "[pool.Rumania]", r"1939\.toml: pool: unknown country 'Rumania'"),
        (
            "1939.toml",
            '"battlecruiser", name = "Scharnhorst"',
            '"battlecruser", name = "Scharnhorst"',
            r"1939\.toml: pool\.Germany\.naval\[0\]\.type: unknown unit type 'battlecruser'",
        ),
        (
            "1939.toml",
            '{ type = "infantry", points = 180 }',
            '{ type = "infantry", points = -5 }',
            r"pool\.Germany\.land\[0\]\.points: -5 is",
        ),
        ("1939.toml", 'start = "1939-09"', 'start = "1939-13"', r"scenario\.start: date '1939-13' has no month 13"),
        ("1939.toml", 'start = "1939-09"', 'start = "Sep 1939"', r"not in the form YYYY-MM"),
        (
            "1939.toml",
            'start_phase = "war_declaration"',
            'start_phase = "war_declaration"\nturns = 3',
            r"scenario: unknown field 'turns'",
        ),
        (
            "1939.toml",
            '{ type = "fighter", name = "Bf 109", profile = "3-1-2-10", count = 4 }',
            '{ type = "fighter", name = "Bf 109", profile = "3-1-2-10", count = 4, speed = 5 }',
            r"pool\.Germany\.air\[0\]: unknown field 'speed'",
        ),
        (
            "1939.toml",
            'profile = "3-1-2-10", count = 4',
            'profile = "0-1-2-10", count = 4',
            r"'Bf 109'.*fighter needs a fighter strength",
        ),
        (
            "1939.toml",
            'name = "Hood", profile = "5-1-5-58"',
            'name = "Hood", profile = "5-1-5"',
            r"'Hood'.*not of the form",
        ),
        ("1939.toml", "[pool.Denmark]", "[pool.Estonia]", r"Estonia has no units"),
        ("1939.toml", 'China = "allies"', 'China = "comintern"', r"at_war\.China: unknown side"),
        ("1939.toml", "Germany = 1000", "Germany = 1000.5", r"money\.Germany: expected a whole number"),
        ("1939.toml", "[pool.Venezuela]", "[pool.Venezuela]\nmoney = 3", r"pool\.Venezuela: unknown field 'money'"),
        (
            "1939.toml",
            '[pool.Ireland]\nland = [{ type = "infantry", points = 2 }]\n',
            "",
            r"Ireland has units .* but no pool",
        ),
        (
            "1937.toml",
            'country = "Australia"\nat = { date = "1940-06" }',
            'country = "Australia"\nat = { date = "1940-06" }\nevery = 2',
            r"arrival\[0\] \(Australia\): 'every' makes no sense",
        ),
        (
            "1937.toml",
            'country = "Australia"',
            'country = "Austria"',
            r"1937\.toml: arrival\[0\] \(Austria\)\.country: unknown country 'Austria' \(did you mean 'Australia'\?\)",
        ),
        (
            "1937.toml",
            'from = { entry_of = ["Norway", "Sweden"], months = 1 }',
            'from = { entry_of = ["Norway", "Swedn"], months = 1 }',
            r"unknown country 'Swedn'",
        ),
        ("1937.toml", 'until = { date = "1944-01" }', 'until = { date = "1942-01" }', r"'until' is not after 'from'"),
        (
            "1937.toml",
            'units = [{ type = "infantry", points = 2 }]\nnote = "two infantry points a month in 1943',
            'units = [{ type = "infantry", points = 2, name = "x" }]\nnote = "two infantry points a month in 1943',
            r"unknown field 'name'",
        ),
        (
            "countries.toml",
            'name = "Ireland"',
            'name = "Ireland"\ncapital = "Dublin"',
            r"countries\.toml: country 'Ireland': unknown field 'capital'",
        ),
        ("countries.toml", 'region = "asia"', 'region = "orient"', r"unknown region 'orient'"),
        ("countries.toml", 'name = "Ireland"', 'name = "France"', r"country 'France' is listed twice"),
        ("1939.toml", "[scenario]", "[scenario", r"1939\.toml: not valid TOML"),
    ],
)
def test_validation_names_the_problem(file: str, old: str, new: str, expected: str) -> None:
    name = "1937" if file == "1937.toml" else "1939"
    message = _broken(_replace(file, old, new), name)
    assert re.search(expected, message), message


def test_profiles_round_trip() -> None:
    for text, unit_type in [
        ("5-1-6-52", UnitType.BATTLESHIP),
        ("C-0-3-58", UnitType.CARRIER),
        ("T-0-1-44", UnitType.TRANSPORT),
        ("$-0-1-44", UnitType.CONVOY),
        ("3-1-2-16C", UnitType.FIGHTER),
        ("0-6K-1-8", UnitType.BOMBER),
        ("T-2-2-12", UnitType.BOMBER_TRANSPORT),
        ("T-0-1-12", UnitType.AIR_TRANSPORT),
    ]:
        assert parse_profile(unit_type, "x", text).text() == text
    for text, unit_type in [
        ("T-0-1-44", UnitType.DESTROYER),
        ("3-1K-2-10", UnitType.FIGHTER),
        ("5-1-6-52C", UnitType.BATTLESHIP),
    ]:
        with pytest.raises(ValueError):
            parse_profile(unit_type, "x", text)


def test_every_shipped_profile_prints_back_as_written() -> None:
    texts = _texts()
    written = set(re.findall(r'profile = "([^"]+)"', texts["1937.toml"] + texts["1939.toml"]))
    printed = set()
    for name in ("1937", "1939"):
        s = load_scenario(name)
        for p in (
            *(q for pool in s.pools.values() for q in (*pool.naval, *pool.air)),
            *(q for a in s.arrivals for q in (*a.units.naval, *a.units.air)),
        ):
            printed.add(p.text())
    assert printed == written


# --------------------------------------------------------------------- digest


def test_digest_is_stable_and_sensitive() -> None:
    texts = _texts()
    files39 = load_scenario("1939").files
    assert files39 == ("countries.toml", "1937.toml", "1939.toml")
    d = scenario_digest("1939")
    assert re.fullmatch(r"[0-9a-f]{64}", d)
    assert d == sc.digest_texts(texts, files39)
    assert d != scenario_digest("1937")
    crlf = {k: v.replace("\n", "\r\n") for k, v in texts.items()}
    assert sc.digest_texts(crlf, files39) == d  # a checkout with CRLF line ends plays the same game
    texts["1937.toml"] += "\n# a comment\n"
    assert sc.digest_texts(texts, files39) != d


def test_unknown_scenario() -> None:
    with pytest.raises(ScenarioError, match="unknown scenario 'x'; choose one of: 1937, 1939"):
        load_scenario("x")


# ------------------------------------------------------------------------ CLI


def _small_world():  # -> HexMap
    return build_map(
        """
        G:c G:c P:c ~
         U:c U:c ~ ~
        """,
        cities={"Berlin": "0,0 capital", "Warsaw": "2,0 capital", "London": "1,1 capital port", "Hamburg": "1,0"},
        resources=["1,0", "0,1"],
        colonies={"India": "United Kingdom"},
        colony_hexes={"India": ["0,1"]},
    )


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch) -> typer.Typer:
    monkeypatch.setattr(scenario_cmd, "_load_world", _small_world)
    root = typer.Typer()
    scenario_cmd.register(root)

    @root.callback()
    def _root() -> None:  # a group callback keeps "scenario" a subcommand
        pass

    return root


def test_cli_list(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["scenario", "list"])
    assert result.exit_code == 0
    assert [line.split()[0] for line in result.output.splitlines()] == ["1937", "1939"]


def test_cli_info_text(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["scenario", "info", "1939"])
    assert result.exit_code == 0, result.output
    assert "Germany" in result.output and "joining in the first phase: Germany" in result.output


def test_cli_info_json(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["scenario", "info", "1939", "--json"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.output)
    for key in ("hexes", "land_hexes", "countries", "cities", "resource_hexes"):
        assert key in info
    assert info["hexes"] == 8 and info["land_hexes"] == 5 and info["resource_hexes"] == 2
    countries = {c["name"]: c for c in info["countries"]}
    assert len(countries) == 61
    assert countries["Japan"]["partnership"] == "axis"
    assert countries["China"]["partnership"] == "allies"
    assert countries["Poland"]["partnership"] == "neutral"
    assert countries["Germany"]["joins_at_start"] == "axis"
    assert countries["United Kingdom"]["colonies"] == ["India"]
    assert countries["Germany"]["pool"]["land"]["infantry"] == 180
    cities = {c["name"]: c for c in info["cities"]}
    assert cities["Berlin"] == {
        "name": "Berlin",
        "country": "Germany",
        "hex": "0,0",
        "capital": True,
        "major_port": False,
        "resource": False,
    }
    assert cities["Hamburg"]["resource"] is True
    assert cities["London"]["major_port"] is True


def test_cli_unknown_scenario(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["scenario", "info", "1914"])
    assert result.exit_code == 2
    assert "unknown scenario '1914'; choose one of: 1937, 1939" in result.output
    assert "Traceback" not in result.output


def test_germany_and_japan_receive_land_units_throughout_the_game() -> None:
    """Rulebook "New Available Units": "Germany regularly receives land units throughout the
    game, and air and naval units until 1944" and "Japan regularly receives land units
    throughout the game, air units until 1945, and naval units until 1946"; the game lasts
    past 1945 (atomic bombs until November 1952)."""
    s = load_scenario("1939")
    d = parse_date
    entries = {"Germany": d("1939-09"), "Japan": s.start}

    def land_points(country: str, first: str, stop: str) -> int:
        return sum(
            lp.points
            for m in range(d(first), d(stop))
            for a in s.arrivals_due(m, entries)
            if a.country == country
            for lp in a.units.land
        )

    for year in ("1946", "1949", "1952"):
        assert land_points("Germany", f"{year}-01", f"{year}-02") >= 6, year
        assert land_points("Japan", f"{year}-01", f"{year}-02") >= 3, year
    # the rest of the schedule keeps its end: no German ship or aircraft after 1944
    late_german = [
        a
        for m in range(d("1945-01"), d("1953-01"))
        for a in s.arrivals_due(m, entries)
        if a.country == "Germany" and (a.units.naval or a.units.air)
    ]
    assert late_german == []
    # from 1943 every new German infantry point moves 2, to the end of the game
    late_infantry = [
        lp
        for a in s.arrivals_due(d("1950-06"), entries)
        if a.country == "Germany"
        for lp in a.units.land
        if lp.type == UnitType.INFANTRY
    ]
    assert late_infantry and all(lp.move == 2 for lp in late_infantry)


def test_a_map_put_in_the_packaged_one_s_place_gets_its_own_answer(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    packaged = scenario_cmd._info_or_exit("1939")
    assert list(tmp_path.rglob("scenario-info-1939.json")), "the packaged map's answer is kept"
    monkeypatch.setattr(scenario_cmd, "_load_world", _small_world)
    assert scenario_cmd._info_or_exit("1939")["hexes"] == 8
    assert packaged["hexes"] > 8


def test_a_kept_answer_is_the_made_one_and_a_damaged_one_is_made_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    made = scenario_cmd._info_or_exit("1939")
    key = scenario_cmd._cache_key("1939")
    assert key is not None
    assert scenario_cmd._kept_info("1939", key) == made
    assert scenario_cmd._kept_info("1939", "0" * 64) is None, "an answer made from other code or data"
    [entry] = tmp_path.rglob("scenario-info-1939.json")
    entry.write_bytes(entry.read_bytes()[:-10])
    assert scenario_cmd._kept_info("1939", key) is None
    assert scenario_cmd._info_or_exit("1939") == made
    assert scenario_cmd._kept_info("1939", key) == made, "made again and kept again"


def test_a_cache_folder_that_cannot_be_written_is_no_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert scenario_cmd._info_or_exit("1937")["name"] == "1937"
    assert blocked.read_text() == "not a folder"


def test_the_key_covers_every_file_of_the_code_and_the_data(tmp_path: Path) -> None:
    from pbem.store.usercache import files_digest

    package = tmp_path / "package"
    (package / "data").mkdir(parents=True)
    (package / "code.py").write_text("x = 1\n")
    (package / "data" / "world.map").write_bytes(b"\x00map")
    roots = [package, tmp_path / "alone.py"]
    roots[1].write_text("y = 2\n")
    digests = [files_digest(roots)]
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "code.cpython-311.pyc").write_bytes(b"compiled")
    assert files_digest(roots) == digests[0], "compiled bytecode is not code"
    for change in (
        lambda: (package / "data" / "world.map").write_bytes(b"\x01map"),
        lambda: (package / "code.py").write_text("x = 2\n"),
        lambda: roots[1].write_text("y = 3\n"),
        lambda: (package / "data" / "more.toml").write_text(""),
        lambda: (package / "data" / "more.toml").rename(package / "data" / "other.toml"),
    ):
        change()
        digests.append(files_digest(roots))
    assert len(set(digests)) == len(digests)
