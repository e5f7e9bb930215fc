"""The bot's hidden lists are drawn from its seed (docs/ai.md, "Mixed strategy"): two
seeds give materially different lists, one seed always the same list, and the draw
stays among the options the bot's own scoring rates close."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import ai, api
from engine.actions import Action
from engine.ai.economy import ARMOR_SHARE
from engine.ai.seeding import mixed_order, stream
from engine.state import GameState, LandKey
from engine.units import UnitType
from tests.ai.worlds import advance_to, at_war


def placements(actions: list[Action]) -> Counter[tuple[object, ...]]:
    """The units a deployment list places, and where (merges, forts and the like left out)."""
    return Counter((a.kind, *a.args) for a in actions if a.kind in ("place", "place_land"))


def shared(a: list[Action], b: list[Action]) -> float:
    """The share of placements two lists have in common."""
    pa, pb = placements(a), placements(b)
    return sum((pa & pb).values()) / max(sum(pa.values()), sum(pb.values()))


@pytest.fixture(scope="module")
def deployment() -> GameState:
    """The 1939 scenario at its first deployment: every unit of both sides still to place."""
    state = api.new_game("1939")
    d = api.decision(state)
    assert d.phase == "war_declaration"
    api.apply_simultaneous(state, {side: ai.decide(state, side, bytes(32)) for side in d.sides})
    assert api.decision(state).phase == "deployment"
    return state


@pytest.mark.parametrize("side", ["axis", "allies"])
def test_two_seeds_put_at_least_a_fifth_of_the_units_elsewhere(deployment: GameState, side: str) -> None:
    a = ai.decide(deployment, side, b"a" * 32)
    b = ai.decide(deployment, side, b"b" * 32)
    assert sum(placements(a).values()) >= 150  # the whole army of 1939 is placed
    assert shared(a, b) <= 0.8


def test_one_seed_gives_one_list_and_every_draw_is_legal(deployment: GameState) -> None:
    first = {side: ai.decide(deployment, side, b"s" * 32) for side in ("axis", "allies")}
    assert first == {side: ai.decide(deployment, side, b"s" * 32) for side in ("axis", "allies")}
    state = deployment.copy()
    api.apply_simultaneous(state, first)  # the engine refuses a list with one illegal order
    assert api.decision(state).phase != "deployment"


def test_options_far_apart_keep_their_order_and_near_ones_are_drawn() -> None:
    far = [30.0, 10.0, 20.0]
    near = [0.0, 0.1, 0.2]
    firsts = set()
    for n in range(40):
        rng = stream(n.to_bytes(4, "big"), "test")
        assert mixed_order(rng, far, lambda x: x, 1.0) == [10.0, 20.0, 30.0]
        firsts.add(mixed_order(rng, near, lambda x: x, 1.0)[0])
    assert firsts == set(near)


@pytest.mark.parametrize("bound", [1, 2, 6, 255, 256, 1000, 1 << 16, 1 << 48])
def test_draws_taken_together_are_the_draws_taken_one_by_one(bound: int) -> None:
    # the bot's lists, and so the recorded games, must not change with how they are drawn
    for label in range(40):
        one, each = stream(bytes(32), label), stream(bytes(32), label)
        one.below(7)  # both streams start part-way, as the bot's do
        each.below(7)
        assert [one.below(bound) for _ in range(label)] == each.below_each(bound, label)
        assert one.draws == each.draws
        assert [one.below(1 << 20) for _ in range(20)] == [each.below(1 << 20) for _ in range(20)]


def test_the_armor_share_of_the_builds_is_drawn_within_its_range() -> None:
    shares = set()
    for n in range(12):
        state = at_war()
        g = state.countries["Germany"]
        g.money, g.pool_land = 6000, {LandKey(UnitType.INFANTRY, 3): 60, LandKey(UnitType.ARMOR, 5): 30}
        advance_to(state, "build")
        buys = [a for a in ai.decide(state, "axis", n.to_bytes(32, "big")) if a.kind == "buy"]
        armor = sum(int(a.args[3]) * 200 for a in buys if a.args[1] == "armor")
        assert ARMOR_SHARE[0] * 6000 - 200 < armor <= ARMOR_SHARE[1] * 6000
        shares.add(armor)
    assert len(shares) >= 3
