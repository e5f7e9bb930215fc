"""Convoys: money that the sender cannot spend sails to a partner who can.

Canada has money and no ships; the United States, once at war, earns more than its
pool absorbs.  The convoys shuttle: an empty convoy sails for the nearest port of a
sender with money to spare, loads it there in the income phase, and sails for the
nearest port of the receiver, where the money is delivered at the next income phase
(and doubles the United Kingdom's home income).  Distances are counted over the sea.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.actions import Action
from engine.convoys import ROUTES
from engine.hexmap import HexMap
from engine.reach import naval_destinations, open_canals
from engine.state import GameState, Unit
from engine.units import COSTS, UnitType

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Receivers in order of preference: the first one at war on our side that can spend
#: more gets the money.
PREFERRED: dict[str, tuple[str, ...]] = {
    "Canada": ("United Kingdom",),
    "United States": ("United Kingdom", "Soviet Union", "France"),
}
#: Money worth a voyage ($B).
WORTH_SAILING = 300
#: Money a sender keeps beyond its pool (as the builds keep: :data:`engine.ai.economy.HOARD`).
RESERVE = 500
#: The reserve kept when money is sent in the income phase, drawn from this range by the
#: turn's seeded stream for each sender: nothing the bot weighs tells $400B kept from
#: $600B apart, and a fixed reserve would let the opponent compute the hidden list.
RESERVE_DRAWN = (400, 600)


def drawn_reserve(turn: Turn) -> int:
    low, high = RESERVE_DRAWN
    return low + turn.rng.below(high - low + 1)


def pool_cost(state: GameState, country: str) -> int:
    """What buying ``country``'s whole pool would cost: its land points and units."""
    c = state.countries[country]
    land = sum(points * COSTS[key.type].price for key, points in c.pool_land.items())
    return land + sum(COSTS[p.type].price for p in c.pool_units)


def capacity(state: GameState, country: str) -> int:
    """What ``country`` could still spend on its pool beyond its money and the money
    already sailing to it."""
    c = state.countries[country]
    coming = sum(u.cargo for u in state.units.values() if u.cargo and u.cargo_to == country)
    return pool_cost(state, country) - c.money - coming


def receiver(state: GameState, sender: str) -> str:
    """The first of the sender's receivers at war on its side that can spend more ('' if none:
    money sent where it cannot be spent only piles up there)."""
    side = state.countries[sender].side
    for name in PREFERRED.get(sender, ()):
        c = state.countries.get(name)
        open_to = c is not None and c.side == side and c.active and name in ROUTES.get(sender, ())
        if open_to and capacity(state, name) > 0:
            return name
    return ""


def spendable(state: GameState, country: str) -> int:
    """What ``country`` spends on its own builds in a month, roughly: the bot's own
    shopping list, its infantry and armor points and two bombers if its pool has any
    (marines, paratroopers and the rest of the pool are bought only from money to spare)."""
    c = state.countries[country]
    land = sum(
        points * COSTS[key.type].price
        for key, points in c.pool_land.items()
        if key.type in (UnitType.INFANTRY, UnitType.ARMOR)
    )
    bombers = sum(1 for p in c.pool_units if p.type in (UnitType.BOMBER, UnitType.FIGHTER_BOMBER))
    return land + min(2, bombers) * COSTS[UnitType.BOMBER].price


def surplus(state: GameState, country: str, reserve: int = RESERVE) -> int:
    """Money ``country`` can send: what its own whole pool and ``reserve`` leave, if a
    receiver can spend it (the United States buys its fleet before it pays Britain's)."""
    c = state.countries[country]
    if not c.active or not receiver(state, country):
        return 0
    return max(0, c.money - pool_cost(state, country) - reserve)


def load(turn: Turn) -> None:
    """Income phase: each of our convoys in a sender's port takes that sender's surplus
    beyond a drawn reserve, as much as its receiver can spend."""
    for u in _convoys(turn.state, turn.side):
        if u.cargo or not u.in_port:
            continue
        state = turn.state
        sender = state.world.map.country_of[u.hex]
        if sender not in PREFERRED:
            continue
        to = receiver(state, sender)
        amount = min(surplus(state, sender, drawn_reserve(turn)), capacity(state, to)) if to else 0
        if amount >= 1:
            turn.batch.offer(Action("convoy", (sender, to, amount, u.id)))


def sail(turn: Turn) -> None:
    """Movement phases: loaded convoys sail for the receiver, empty ones for a sender."""
    state = turn.state
    side = turn.side
    laden: dict[str, Sequence[int]] = {}
    for name in sorted({u.cargo_to for u in _convoys(state, side) if u.cargo}):
        laden[name] = sea_distance(state, side, _ports(state, side, name))
    senders = [s for s in sorted(PREFERRED) if s in state.countries and surplus(state, s) >= WORTH_SAILING]
    empty = sea_distance(state, side, [h for s in senders for h in _ports(state, side, s)])
    for u in _convoys(state, side):
        if u.moved or u.mp_used >= u.move:
            continue
        dist = laden.get(u.cargo_to) if u.cargo else empty
        if not dist or dist[u.hex] == 0:
            continue
        options = naval_destinations(state, u, max(0, u.move - u.mp_used))
        best = min(options, key=lambda h: (dist[h], h), default=u.hex)
        if dist[best] < dist[u.hex]:
            turn.batch.offer(Action("move", (u.id, best)))


def _convoys(state: GameState, side: str) -> list[Unit]:
    return sorted((u for u in state.side_units(side) if u.type == UnitType.CONVOY), key=lambda u: u.id)


def _ports(state: GameState, side: str, country: str) -> list[int]:
    m = state.world.map
    return [
        c.hex
        for c in m.cities
        if m.is_port(c.hex) and m.country_of[c.hex] == country and state.side_controlling(c.hex) == side
    ]


def sea_distance(state: GameState, side: str, targets: list[int]) -> Sequence[int]:
    """Sea steps from every hex to the nearest target (a large number where none is reached)."""
    if not targets:
        return ()
    canals = open_canals(state, side) if state.world.map.canals else {}
    return _distances(state.world.map, tuple(sorted(canals.items())), tuple(sorted(set(targets))))


@functools.lru_cache(maxsize=16)
def _distances(
    hexmap: HexMap, canals: tuple[tuple[int, tuple[int, ...]], ...], targets: tuple[int, ...]
) -> tuple[int, ...]:
    """The search behind :func:`sea_distance`: it reads only the map, the canals open to
    the side and the targets, which stay the same for months, so it is kept per map."""
    far = 1 << 20
    dist = [far] * hexmap.grid.size
    sea_nbr = hexmap.sea_neighbours
    extra = dict(canals)
    queue = deque(targets)
    for h in targets:
        dist[h] = 0
    while queue:
        h = queue.popleft()
        d = dist[h] + 1
        for n in sea_nbr[h] + extra.get(h, ()):
            if dist[n] > d:
                dist[n] = d
                queue.append(n)
    return tuple(dist)
