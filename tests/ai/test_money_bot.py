"""The bot spends its money: partners send what they cannot spend to a hub (rulebook
"Money Exchange"), a country that can neither spend nor send fortifies, a country with
troops on land without a front buys transports, and the arena reports what is left
unspent at each year's end."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from engine import ai, api
from engine.ai import arena, bot, convoys, deploy
from engine.position import begin_at, parse, put, setup
from engine.scenario import Anchor, Arrival, LandPoints, Units
from engine.state import GameState, LandKey
from engine.units import COSTS, UnitProfile, UnitType
from engine.war import enter_war
from engine.world import CountryInfo
from tests.ai.worlds import FRONT_WORLD

SEED = b"m" * 32


def sends(state: GameState, side: str) -> list[tuple[object, ...]]:
    begin_at(state, "income")
    return [a.args for a in bot.decide(state, side, SEED) if a.kind == "send"]


def test_italy_sends_germany_what_it_cannot_spend() -> None:
    """ "Germany can exchange money with any other Axis country in Europe ... there is no
    limit how much other countries can send to Germany." """
    state = setup(
        "G:c I:c F:c",
        axis=("Germany", "Italy"),
        allies=("France",),
        step=None,
        cities={"Berlin": "0,0 capital", "Rome": "1,0 capital", "Paris": "2,0 capital"},
    )
    state.countries["Italy"].money = 6000
    out = sends(state, "axis")
    assert len(out) == 1 and out[0][:2] == ("Italy", "Germany")
    low, high = convoys.RESERVE_DRAWN
    assert 6000 - high <= int(out[0][2]) <= 6000 - low  # Italy's pool is empty: it keeps only a reserve


def test_norway_sends_britain_what_it_cannot_spend() -> None:
    """ "The United Kingdom can exchange money with any other Allied country in Europe" """
    state = setup(
        "U:c O:c G:c",
        axis=("Germany",),
        allies=("United Kingdom", "Norway"),
        step=None,
        cities={"London": "0,0 capital", "Oslo": "1,0 capital", "Berlin": "2,0 capital"},
    )
    state.countries["Norway"].money = 4000
    assert [a[:2] for a in sends(state, "allies")] == [("Norway", "United Kingdom")]


def test_a_country_that_can_neither_spend_nor_send_fortifies() -> None:
    """China may send money to no one and its pool is bought out: what piles up beyond
    deploy.RICH buys fortifications ($500B each, supplement "Installations and repairs"),
    front hexes first."""
    state = parse(
        """
        J:c J:c C:c C:c C:c
         J:c J:c C:c C:c C:c
        city Tokyo 0,0 capital
        city Chungking 4,1 capital
        city Changsha 3,0
        resource 4,1 3,0
        war axis Japan
        war allies China
        date 1941-03
        step deployment
        unit Japan infantry 1,0
        unit Japan infantry 1,1
        unit China infantry 2,0
        unit China infantry 2,1
        money China 2700
        """
    )
    forts = [a.args[0] for a in bot.decide(state, "allies", SEED) if a.kind == "fortify"]
    assert len(forts) == (2700 - deploy.RICH) // 500 + 1  # down to deploy.RICH
    label = state.world.map.grid.parse_label
    assert set(forts[:2]) == {label("2,0"), label("2,1")}  # the front first
    assert forts[2] in {label("3,0"), label("4,1")}  # then a city or resource hex


def test_troops_without_a_front_make_their_country_buy_transports() -> None:
    """Strategy: units on land without a front reach one only by sea (docs/ai.md, "Ferries")."""
    state = parse(
        """
        J:c J:c ~ ~ J:c C:c
         J:c J:c ~ ~ J:c C:c
        city Tokyo 0,0 capital
        city Osaka 1,1
        city Pusan 4,1
        city Chungking 5,1 capital
        resource 0,0 4,1 5,1
        war axis Japan
        war allies China
        date 1941-03
        step build
        unit China infantry 5,0
        unit Japan infantry 4,1
        money Japan 1000
        """
    )
    for label in ("0,0", "0,1", "1,0", "1,1", "0,0", "0,1"):
        put(state, "Japan", "infantry", label, strength=2)
    state.countries["Japan"].pool_units.append(UnitProfile(UnitType.TRANSPORT, name="Army transports", move=44))
    actions = bot.decide(state, "axis", SEED)
    assert actions[0].kind == "buy_unit" and actions[0].args == ("Japan", "Army transports")


def test_the_arena_reports_the_money_left_at_each_year_s_end() -> None:
    """Issue 12's measure: no side ends a year with more than $10,000B unspent; the arena
    counts the countries at war of each side (a neutral earns nothing)."""

    def prepare(state: GameState) -> None:
        enter_war(state, "Germany", "axis")
        enter_war(state, "Poland", "allies")
        state.countries["Poland"].money = 2500

    start = api.new_game(FRONT_WORLD).date
    until = (start // 12 + 1) * 12 + 1  # January's first phases of the next year
    result = arena.play_game(FRONT_WORLD, until, {"axis": "bot", "allies": "bot"}, seed=5, setup=prepare)
    year = str(start // 12)
    assert not result.error
    assert set(result.money_by_year) == {year}
    assert set(result.money_by_year[year]) == {"axis", "allies"}
    assert result.year_end_money["allies"] == result.money_by_year[year]["allies"]
    assert f"unspent at a year's end: {year} axis" in result.line()
    summary = arena.summarize([result])
    assert summary.money_by_year == result.money_by_year
    assert any("most unspent at each year's end" in line for line in summary.lines({"axis": "bot", "allies": "bot"}))


def test_the_builds_spend_what_the_pool_can_take_and_v1_kept_a_reserve() -> None:
    """The pools the history games left with money at a year's end: the Soviet Union's
    paratroopers and fighters with $713B, Italy's bomber transport and battleship with
    $1,176B.  The bot buys what the money pays for; v1 kept $500B a country and never
    bought bomber transports."""
    state = parse(
        """
        I:c I:c S:c S:c
         I:c I:c S:c S:c
        city Rome 0,0 capital
        city Moscow 3,1 capital
        war axis Italy
        war allies "Soviet Union"
        date 1943-12
        step build
        unit Italy infantry 1,0
        unit "Soviet Union" infantry 2,0
        money Italy 1176
        money "Soviet Union" 713
        """
    )
    italy, soviets = state.countries["Italy"], state.countries["Soviet Union"]
    italy.pool_land, soviets.pool_land = {}, {LandKey(UnitType.PARATROOPER, 3): 3}
    italy.pool_units = [
        UnitProfile(UnitType.BOMBER_TRANSPORT, name="SM.82", bomber=1, defense=1, move=10),
        UnitProfile(UnitType.BATTLESHIP, name="Roma", attack=6, defense=6, move=6),
    ]
    soviets.pool_units = [UnitProfile(UnitType.FIGHTER, name="Yak-9", attack=2, defense=2, move=8)]

    def bought(side: str, player: str) -> list[tuple[object, ...]]:
        return [a.args for a in ai.decide(state, side, SEED, player) if a.kind in ("buy", "buy_unit")]

    assert bought("axis", "bot") == [("Italy", "SM.82")]
    assert bought("axis", "v1") == []  # $1,176B kept: a battleship costs $1,400B
    assert bought("allies", "bot") == [("Soviet Union", "paratrooper", 3, 2)]  # $600B of the $713B
    assert bought("allies", "v1") == []  # $213B above the reserve buys no $300B point


class _JanuaryDraft:
    """A schedule that brings Poland 5 infantry points each January (a scenario's arrivals)."""

    def arrivals_due(self, date: int, entries: Mapping[str, int]) -> list[Arrival]:
        infantry = Units(land=(LandPoints(UnitType.INFANTRY, 3, 5),))
        return [Arrival("Poland", infantry, (Anchor("date", date),))] if date % 12 == 0 else []


def test_money_is_idle_only_if_the_pool_had_something_to_buy_after_the_year_s_last_builds() -> None:
    """Poland ends the year with money and an empty pool: none of it is idle, although
    January's arrivals fill the pool before the next year's first decision."""

    def prepare(state: GameState) -> None:
        enter_war(state, "Germany", "axis")
        enter_war(state, "Poland", "allies")
        poland = state.countries["Poland"]
        poland.money = 2500
        poland.pool_land.clear()
        poland.pool_units.clear()

    world = dataclasses.replace(FRONT_WORLD, schedule=_JanuaryDraft())
    start = api.new_game(world).date
    until = (start // 12 + 1) * 12 + 1  # January's first phases of the next year
    january: list[GameState] = []

    def on_month(state: GameState) -> None:
        if state.date == until - 1:
            january.append(state.copy())

    result = arena.play_game(world, until, {"axis": "bot", "allies": "bot"}, seed=5, setup=prepare, on_month=on_month)
    assert not result.error
    (new_year,) = january
    assert "Poland" in arena.idlers(new_year)  # the measure read in January would count it
    year = str(start // 12)
    assert "Poland" not in result.idlers_by_year[year]
    assert result.idle_by_year[year]["allies"] == 0


def test_countries_info_regions_matter_for_the_hubs() -> None:
    """Australia (Oceania) may send money to no one: the rules' own limit."""
    state = setup(
        "U:c G:c ~ X:c",
        axis=("Germany",),
        allies=("United Kingdom", "Australia"),
        step=None,
        cities={"London": "0,0 capital", "Berlin": "1,0 capital", "Sydney": "3,0 capital"},
        countries=[CountryInfo("Australia", region="oceania")],
        legend={"X": "Australia"},
    )
    state.countries["Australia"].money = 9000
    assert sends(state, "allies") == []


def test_idle_money_is_what_a_pool_could_have_bought_with() -> None:
    """The issue's measure of money left unspent counts a country only while its pool has
    something its money pays for: an empty pool, or one dearer than the money, is not idle."""
    state = setup(
        "G:c I:c F:c U:c",
        axis=("Germany", "Italy"),
        allies=("France", "United Kingdom"),
        step=None,
        cities={"Berlin": "0,0 capital", "Rome": "1,0 capital", "Paris": "2,0 capital", "London": "3,0 capital"},
    )
    for c in state.countries.values():
        c.pool_land.clear()
        c.pool_units.clear()
    infantry = UnitType.INFANTRY
    price = COSTS[infantry].price
    germany, italy, france, britain = (state.countries[n] for n in ("Germany", "Italy", "France", "United Kingdom"))
    germany.money, italy.money, france.money, britain.money = 9000, 4000, price - 1, 900
    germany.pool_land[LandKey(infantry, 3)] = 5  # pays for a point: idle, as much as the 5 points cost
    france.pool_land[LandKey(infantry, 3)] = 5  # not enough for one point: not idle
    britain.pool_land[LandKey(infantry, 3)] = 0  # an entry with no points left: empty
    italy.pool_land[LandKey(UnitType.SUPPLY, 0)] = 2  # free: money buys a supply unit no sooner
    assert arena.cheapest_buy(state, "Germany") == price
    assert arena.cheapest_buy(state, "Italy") is None  # nothing to buy: its money is not idle
    assert arena.idlers(state) == {"Germany": 5 * price}
