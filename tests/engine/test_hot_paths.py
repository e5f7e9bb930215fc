"""Faster paths that must find what the plain ones find: the searches that stop once
their goals are known, the derived results shared between equal states, the supply of a
country's placement area read from its side's map, and the bot's convoy distances."""

from __future__ import annotations

import gc
import weakref
from collections import deque

import numpy as np

from engine import api
from engine.ai import convoys
from engine.derived import Derived
from engine.position import hex_at as hx
from engine.position import put
from engine.position import setup as game
from engine.reach import naval_search, sea_steps
from engine.state import GameState
from engine.supply import SupplyMap, supplied_hexes, supply_class, supply_of_side
from engine.zoc import naval_zoc


def test_a_naval_search_with_goals_finds_their_costs_and_paths_and_stops_early() -> None:
    """Supplement "Movement": a ship moves 1 hex per point through sea hexes; the search
    by layers may stop after the layer that reaches its last goal, and what it found by
    then (costs and paths) is what the whole search finds."""
    pic = """
        ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~
         ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~
        ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~ ~
        """
    s = game(pic)
    ship = put(s, "Germany", "destroyer", "0,0", move=14)
    put(s, "Poland", "destroyer", "12,2")
    zoc = naval_zoc(s, "allies")
    whole = naval_search(s, ship, 14, zoc)
    goals = frozenset({hx(s, "4,1"), hx(s, "6,2")})
    part = naval_search(s, ship, 14, zoc, targets=goals)
    for h in goals:
        assert part.cost[h] == whole.cost[h]
        assert part.path(h) == whole.path(h)
    assert len(part.cost) < len(whole.cost)
    assert max(part.cost.values()) == max(whole.cost[h] for h in goals)


def test_derived_results_are_shared_by_states_with_the_same_stamp() -> None:
    """A copy of a state (the bot's working copy) finds what was computed on the original;
    a changed stamp computes again; only the last few stamps are remembered."""
    calls: list[int] = []

    def compute(state: GameState, key: str) -> int:
        calls.append(state.date)
        return state.date * 10

    table: Derived[str, int] = Derived(lambda st: st.date, compute, recent=2)
    s = api.new_game("1939")
    t = s.copy()
    assert table(s, "x") == table(t, "x") == s.date * 10
    assert calls == [s.date]
    t.date += 1
    assert table(t, "x") == (s.date + 1) * 10
    assert len(calls) == 2
    u = s.copy()
    u.date += 2
    table(u, "x")  # a third stamp: the first one is forgotten
    v = s.copy()
    table(v, "x")
    assert calls == [s.date, s.date + 1, s.date + 2, s.date]


def test_a_state_and_what_was_derived_from_it_go_when_it_is_dropped() -> None:
    """The computer player copies the state for every decision: a copy whose supply was
    computed must not outlive it (the results refer to their state; a table keyed weakly
    by the state kept every copy, about a gigabyte over a whole game)."""
    s = api.new_game("1939")
    for side in ("axis", "allies"):
        supply_of_side(s, side)
    copies = []
    for n in range(6):  # more stamps than the shared table remembers
        t = s.copy()
        t.date += n + 1
        supply_of_side(t, "axis")
        copies.append(weakref.ref(t))
        del t
    gc.collect()
    alive = [ref for ref in copies if ref() is not None]
    assert len(alive) <= 4, f"{len(alive)} dropped copies still alive"  # at most the recent stamps' own
    assert copies[0]() is None and copies[1]() is None


def test_placement_supply_read_from_the_side_map_is_the_single_class_search() -> None:
    """Supplement "Placing units": the hexes where a country's units trace supply, read
    from its side's map of every class, are those a search of its class alone finds."""
    s = api.new_game("1939")
    for name, c in sorted(s.countries.items()):
        if c.side not in ("axis", "allies"):
            continue
        cls = supply_class(name)
        alone = SupplyMap(s, c.side, frozenset({cls}))
        expected = alone.full[cls].copy()
        for h in alone.forts:
            expected[h] = True
        assert np.array_equal(supplied_hexes(s, name).mask, expected), name


def test_convoy_sea_distances_are_the_plain_breadth_first_search() -> None:
    s = api.new_game("1939")
    side = s.countries["United Kingdom"].side
    ports = convoys._ports(s, side, "United Kingdom")
    assert len(ports) > 3
    steps = sea_steps(s, side)
    far = 1 << 20
    dist = [far] * s.world.map.grid.size
    queue = deque(ports)
    for h in ports:
        dist[h] = 0
    while queue:
        h = queue.popleft()
        for n in steps(h):
            if dist[n] > dist[h] + 1:
                dist[n] = dist[h] + 1
                queue.append(n)
    found = convoys.sea_distance(s, side, list(reversed(ports)))
    assert list(found) == dist
    assert convoys.sea_distance(s, side, ports) is found  # kept per map and targets
