"""The players' rules reference (pbem/play/rules.md, `pbem help rules`, docs/rules.md, the
page's help panel): one source, a topic for every step of the engine's month, each topic
naming a module of the engine that exists, and its numbers those of the engine's tables."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import economy, entries, stacking, units, vichy, weather
from engine.sequence import STEPS
from engine.units import UnitType
from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import rules_reference
from pbem.play.rules_reference import PHASE_TOPICS, Topic

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"


def text(slug: str) -> str:
    """A topic's text on one line, as a reader would read it."""
    return " ".join(" ".join(rules_reference.topic(slug).lines).split())


def table(t: Topic) -> list[list[str]]:
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in t.lines if line.startswith("|")]
    return [r for r in rows[1:] if not all(set(c) <= {"-"} for c in r)]


def test_docs_rules_md_is_the_packaged_reference() -> None:
    assert DOC.read_text(encoding="utf-8") == rules_reference.source(), (
        "run `pbem help rules --markdown > docs/rules.md`"
    )


def test_every_step_of_the_engine_maps_to_a_topic_that_exists() -> None:
    slugs = {t.slug for t in rules_reference.topics()}
    names = {step.name for step in STEPS} | {"end"}
    assert names <= set(PHASE_TOPICS), f"steps with no topic: {sorted(names - set(PHASE_TOPICS))}"
    assert set(PHASE_TOPICS) <= names, f"topics mapped to steps the engine lacks: {sorted(set(PHASE_TOPICS) - names)}"
    assert set(PHASE_TOPICS.values()) <= slugs
    assert {rules_reference.topic_of_phase(step.label) for step in STEPS} == set(PHASE_TOPICS.values()) - {"victory"}
    assert rules_reference.topic_of_phase("allies.combat_roll") == "land-combat"


def test_every_topic_has_a_unique_slug_a_title_and_engine_modules_that_exist() -> None:
    topics = rules_reference.topics()
    assert len(topics) >= 25
    assert len({t.slug for t in topics}) == len(topics)
    for t in topics:
        assert t.title and t.lines, t.slug
        assert t.lines[0].startswith("In the engine: "), t.slug
        assert t.modules, t.slug
        for module in t.modules:
            assert re.fullmatch(r"engine/[a-z_]+\.py", module) and (ROOT / module).is_file(), (t.slug, module)
    # nothing of the source is lost between the anchors: every section heading is a topic
    assert rules_reference.source().count("\n## ") == len(topics)


def test_the_prices_and_delays_are_the_engine_s() -> None:
    names = {
        "infantry, a strength point": ["infantry"],
        "armor or marine, a strength point": ["armor", "marine"],
        "paratrooper": ["paratrooper"],
        "supply unit": ["supply"],
        "fighter or fighter-bomber": ["fighter", "fighter_bomber"],
        "bomber or bomber-transport": ["bomber", "bomber_transport"],
        "air transport": ["air_transport"],
        "carrier, with its first carrier aircraft": ["carrier"],
        "battleship, battlecruiser, heavy cruiser": ["battleship", "battlecruiser", "heavy_cruiser"],
        "light cruiser": ["light_cruiser"],
        "destroyer": ["destroyer"],
        "submarine": ["submarine"],
        "destroyer escort": ["destroyer_escort"],
        "kaibokan": ["kaibokan"],
        "transport ship": ["transport"],
        "convoy": ["convoy"],
    }
    rows = table(rules_reference.topic("builds"))
    prices = [r for r in rows if r[0] in names]
    assert [r[0] for r in prices] == list(names)
    covered = [t for r in prices for t in names[r[0]]]
    assert sorted(covered) == sorted(t.value for t in UnitType)
    for label, cost, delay in prices:
        for t in names[label]:
            expected = units.COSTS[UnitType(t)]
            assert cost == ("free" if expected.price == 0 else f"${expected.price}B"), label
            assert delay == f"{expected.delay} month{'s' if expected.delay > 1 else ''}", label


def test_the_largest_land_units_are_the_engine_s() -> None:
    def cell(points: tuple[int, int]) -> str:
        before, since = points
        return "none" if before == 0 else str(before) if before == since else f"{before}, {since} from 1943"

    rows = {r[0]: r[1:] for r in table(rules_reference.topic("builds")) if len(r) == 4 and r[0] != "Country"}
    assert set(rows) == {*units.STRENGTH_POINTS} - {"Other"} | {"any other"}
    for country, columns in units.STRENGTH_POINTS.items():
        infantry = cell(columns["infantry"])
        if "infantry/2" in columns:
            infantry = f"{infantry} (movement 3), {cell(columns['infantry/2'])} (movement 2)"
        expected = [infantry, cell(columns["armor"]), cell(columns["paratrooper"])]
        assert rows["any other" if country == "Other" else country] == expected, country


def test_the_rail_moves_are_the_scenario_s() -> None:
    said = re.search(r"Per turn: (.*?), others none", text("movement"))
    assert said
    found: dict[str, int] = {}
    for names, number in re.findall(r"(.+?) (\d+)(?: units)?(?:, |$)", said.group(1)):
        for name in re.split(r", | and ", names):
            found[name.removeprefix("the ")[:1].upper() + name.removeprefix("the ")[1:]] = int(number)
    countries = tomllib.loads((ROOT / "scenarios" / "countries.toml").read_text())["country"]
    assert found == {c["name"]: c["rail_capacity"] for c in countries if c.get("rail_capacity")}


def test_the_other_numbers_are_the_engine_s() -> None:
    limits = (stacking.ORDINARY_LIMIT, stacking.PARATROOPER_LIMIT, stacking.SUPPLY_LIMIT)
    assert "at most {} ordinary land units (infantry, armor, marines), {} paratrooper and {} supply unit".format(
        *limits
    ) in text("stacking")
    assert f"at most {stacking.NAVAL_LIMIT} ships a hex" in text("stacking")
    grounding = {k: int(v * 100) for k, v in weather.GROUNDING.items()}
    assert grounding[weather.SEVERE_WINTER] == grounding[weather.MONSOON]
    assert grounding[weather.MILD_WINTER] == grounding[weather.SPRING]
    severe, mild = grounding[weather.SEVERE_WINTER], grounding[weather.SPRING]
    assert f"{severe}% (severe winter, monsoon) or {mild}% (mild winter, spring)" in text("weather")
    assert f"a {entries.SPAIN_ODDS}% chance" in text("entering-the-war")
    assert f"a {int(vichy.CHANCE * 100)}% chance" in text("vichy")
    assert f"less than {vichy.WINDOW_MONTHS} months" in text("vichy")
    deployment = text("deployment")
    assert f"fortification costs ${units.FORTIFICATION_COST}B and an airfield ${units.AIRFIELD_COST}B" in deployment
    assert f"each ready {units.FORTIFICATION_DELAY} months later" in deployment
    assert units.FORTIFICATION_DELAY == units.AIRFIELD_DELAY
    assert f"repaired for ${units.REPAIR_COST}B" in deployment
    income = text("income")
    assert f"pays ${economy.RESOURCE_INCOME}B a month" in income
    home = economy.HOME_RESOURCE_INCOME
    assert f"Germany ${home['Germany']}B, Japan ${home['Japan']}B" in income
    assert f"United States ${economy.US_HOME_INCOME}B (${economy.US_HOME_INCOME_LATER}B after" in income
    assert f"United Kingdom ${economy.UK_CONVOY_HOME_INCOME}B" in income
    assert f"China gets ${economy.CHINA_EXTRA}B" in income and f"Canada ${economy.CANADA_EXTRA}B" in income
    assert f"at most ${economy.GERMAN_SEND_LIMIT}B a month" in income


def test_a_topic_reads_as_blocks_for_the_page() -> None:
    doc = rules_reference.for_page("axis.first_movement")
    assert doc["now"] == "movement"
    assert [t["slug"] for t in doc["topics"]] == [t.slug for t in rules_reference.topics()]
    builds = next(t for t in doc["topics"] if t["slug"] == "builds")
    kinds = [b["kind"] for b in builds["blocks"]]
    assert kinds[:3] == ["p", "p", "table"] and kinds.count("table") == 2
    prices = builds["blocks"][2]["rows"]
    assert prices[0] == ["Unit", "Cost", "Arrives after"] and len(prices) == 17  # the ruler row is gone
    month = next(t for t in doc["topics"] if t["slug"] == "month")["blocks"]
    steps = next(b for b in month if b["kind"] == "ol")["items"]
    assert len(steps) == 7 and steps[4].endswith("the landing of the other side's aircraft.")  # continued lines joined


def test_help_rules_on_the_command_line() -> None:
    runner = CliRunner()
    listing = runner.invoke(app, ["help", "rules"])
    assert listing.exit_code == 0
    lines = listing.output.splitlines()
    assert [line.split()[0] for line in lines[: len(rules_reference.topics())]] == [
        t.slug for t in rules_reference.topics()
    ]
    one = runner.invoke(app, ["help", "rules", "Stacking"])
    assert one.exit_code == 0
    assert one.output.splitlines()[:3] == ["Stacking", "========", "In the engine: engine/stacking.py"]
    wrong = runner.invoke(app, ["help", "rules", "combat"])
    assert wrong.exit_code == 2
    assert wrong.output.splitlines() == [
        "error: there is no rules topic 'combat'; nearest: land-combat, advance, naval-air-combat "
        "(`pbem help rules` lists them all)"
    ]
    markdown = runner.invoke(app, ["help", "rules", "--markdown"])
    assert markdown.exit_code == 0 and markdown.output == rules_reference.source()


def test_a_misspelt_topic_names_the_nearest_by_spelling() -> None:
    with pytest.raises(PbemError, match=r"no rules topic 'suply'; nearest: supply\b"):
        rules_reference.topic("suply")
