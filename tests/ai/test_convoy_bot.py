"""The bot ships money it cannot spend by convoy (rulebook "Convoys")."""

from __future__ import annotations

from engine import api
from engine.actions import PASS, Action
from engine.ai import arena, bot
from engine.position import begin_at, hex_at, put, setup
from engine.state import GameState, LandKey
from engine.units import UnitType
from engine.war import enter_war
from engine.world import CountryInfo

PICTURE = """
K:c ~ ~ ~ ~ ~ U:c G:c
 K:c ~ ~ ~ ~ ~ U:c G:c
"""


def game() -> GameState:
    state = setup(
        PICTURE,
        axis=("Germany",),
        allies=("United Kingdom", "Canada"),
        step=None,
        countries=[CountryInfo("Canada", region="americas", leans_allied=True)],
        cities={"Halifax": "0,0 port", "London": "6,0 capital port", "Berlin": "7,0 capital"},
    )
    state.countries["Canada"].money = 5000
    state.countries["United Kingdom"].pool_land = {LandKey(UnitType.INFANTRY, 3): 60}  # Britain can spend it
    return state


def test_canada_loads_its_unspendable_money_for_the_united_kingdom() -> None:
    state = game()
    ship = put(state, "United Kingdom", "convoy", "0,0", in_port=True)
    begin_at(state, "income")
    actions = bot.decide(state, "allies", b"s" * 32)
    loads = [a for a in actions if a.kind == "convoy"]
    assert len(loads) == 1
    frm, to, amount, uid = loads[0].args
    assert (frm, to, uid) == ("Canada", "United Kingdom", ship.id)
    assert 0 < int(amount) <= state.countries["Canada"].money


def test_no_convoy_money_for_a_receiver_that_cannot_spend_it() -> None:
    """Money sent where it cannot be spent only piles up there: Canada keeps it (and the
    United States buys its own pool before it pays Britain's)."""
    state = game()
    state.countries["United Kingdom"].pool_land = {LandKey(UnitType.INFANTRY, 3): 8}  # $800B to spend
    put(state, "United Kingdom", "convoy", "0,0", in_port=True)
    put(state, "United Kingdom", "convoy", "0,0", in_port=True)
    begin_at(state, "income")
    loads = [a for a in bot.decide(state, "allies", b"s" * 32) if a.kind == "convoy"]
    assert [int(a.args[2]) for a in loads] == [800]


def test_a_loaded_convoy_sails_for_the_receiver_and_an_empty_one_for_the_sender() -> None:
    state = game()
    laden, empty = (
        put(state, "United Kingdom", "convoy", "0,0", in_port=True),
        put(state, "United Kingdom", "convoy", "6,0", in_port=True),
    )
    laden.cargo, laden.cargo_to = 1000, "United Kingdom"
    begin_at(state, "allies.first_movement")
    actions = [a for a in bot.decide(state, "allies", b"s" * 32) if a.kind == "move"]
    dest = {int(a.args[0]): int(a.args[-1]) for a in actions}
    assert dest[laden.id] == hex_at(state, "6,0")
    assert dest[empty.id] == hex_at(state, "0,0")
    for action in [*actions, PASS]:
        api.apply(state, "allies", action)
    assert state.units[laden.id].in_port


def _uk_sends_at_income(soviet_infantry_points: int) -> tuple[GameState, list[Action]]:
    """The Allied bot's sends at income: the United Kingdom with $9,000B, the Soviet Union
    with this many infantry points in its pool to spend money on."""
    state = setup(
        "U:c S:c G:c",
        axis=("Germany",),
        allies=("United Kingdom", "Soviet Union"),
        step=None,
        cities={"London": "0,0 capital", "Moscow": "1,0 capital", "Berlin": "2,0 capital"},
    )
    state.countries["United Kingdom"].money = 9000
    state.countries["Soviet Union"].pool_land = {LandKey(UnitType.INFANTRY, 3): soviet_infantry_points}
    begin_at(state, "income")
    return state, [a for a in bot.decide(state, "allies", b"s" * 32) if a.kind == "send"]


def test_the_uk_sends_what_it_cannot_spend_to_the_soviet_union() -> None:
    state, sends = _uk_sends_at_income(40)
    assert sends == [Action("send", ("United Kingdom", "Soviet Union", sends[0].args[2]))]
    assert 0 < int(sends[0].args[2]) <= state.countries["United Kingdom"].money // 3


def test_the_uk_sends_no_more_than_the_soviet_union_can_spend() -> None:
    """Money sent to a partner with nothing to buy only piles up there."""
    _, sends = _uk_sends_at_income(5)
    assert sends == [Action("send", ("United Kingdom", "Soviet Union", 500))]


def test_the_arena_counts_convoy_money_delivered() -> None:
    """Canada's money reaches the United Kingdom within a few months, and the arena says how much."""
    world = game().world

    def prepare(state: GameState) -> None:
        for name, side in (("Germany", "axis"), ("United Kingdom", "allies"), ("Canada", "allies")):
            enter_war(state, name, side)
        state.countries["Canada"].money = 5000
        state.countries["United Kingdom"].pool_land = {LandKey(UnitType.INFANTRY, 3): 60}
        put(state, "United Kingdom", "convoy", "0,0", in_port=True)

    start = api.new_game(world).date
    result = arena.play_game(world, start + 4, {"axis": "bot", "allies": "bot"}, seed=3, setup=prepare)
    assert not result.error
    assert result.convoy_money["allies"] > 0
    assert result.convoy_money["axis"] == 0
    assert "convoy money delivered: axis 0 allies" in result.line()
    summary = arena.summarize([result])
    assert summary.mean_convoy_money["allies"] == result.convoy_money["allies"]
