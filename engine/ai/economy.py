"""Money: exchanges between partners and unit builds.

Builds follow a beginner's rule of thumb: repair damaged ships and aircraft,
then spend the rest on land strength from the pool - mostly infantry (cheap,
it arrives next month), and a third on armor for countries that have armor in
their pool; what the land pool cannot absorb buys bombers (they support land
attacks).  Ships and fighters are not bought, and money is not exchanged
between partners (see docs/ai.md, "Limits").  Orders are built from the state
(one ``buy`` per pool entry with the number of points wanted) rather than picked
from the engine's list, which holds one entry per possible number of points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.ai import convoys
from engine.units import COSTS, REPAIR_COST, UnitType

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Share of land spending that goes to armor when the pool has armor.
ARMOR_SHARE = 1 / 3
#: Bombers a country buys per month at most, with money left after land purchases.
BOMBERS_PER_MONTH = 2


def income(turn: Turn) -> None:
    """Money the sender cannot spend goes on convoys (:mod:`engine.ai.convoys`); no
    direct exchange."""
    convoys.load(turn)


def build(turn: Turn) -> None:
    state = turn.state
    batch = turn.batch
    for u in sorted(state.side_units(turn.side), key=lambda x: x.id):
        if u.damaged and not u.is_land and state.countries[u.country].money >= REPAIR_COST:
            batch.offer(Action("repair", (u.id,)))
    for name in sorted(state.countries):
        c = state.countries[name]
        if c.side != turn.side or not c.active or c.money <= 0:
            continue
        infantry, armor = [], []
        for key, have in sorted(c.pool_land.items()):
            t, move = key.type, key.move
            if have <= 0:
                continue
            if t == UnitType.INFANTRY:
                infantry.append((move, have))
            elif t == UnitType.ARMOR:
                armor.append((move, have))
        budget = c.money
        if armor:
            share = int(budget * ARMOR_SHARE) if infantry else budget
            budget -= _buy(turn, name, "armor", armor, share)
        _buy(turn, name, "infantry", infantry, budget)
        if c.money > 0 and armor:
            _buy(turn, name, "armor", armor, c.money)  # the infantry pool ran dry: armor instead
        _buy_bombers(turn, name)


def _buy_bombers(turn: Turn, country: str) -> None:
    """Money the land pool cannot absorb goes to bombers, which support land attacks."""
    c = turn.state.countries[country]
    bought = 0
    names = sorted(
        {
            p.name
            for p in c.pool_units
            if p.type in (UnitType.BOMBER, UnitType.FIGHTER_BOMBER) and p.bomber > 0 and not p.kamikaze
        }
    )
    for name in names:
        if bought >= BOMBERS_PER_MONTH or c.money < COSTS[UnitType.BOMBER].price:
            break
        if turn.batch.offer(Action("buy_unit", (country, name))):
            bought += 1


def _buy(turn: Turn, country: str, unit_type: str, entries: list[tuple[int, int]], budget: int) -> int:
    """Buy as many points as ``budget`` pays for, faster units first; returns the money spent."""
    price = COSTS[UnitType(unit_type)].price
    spent = 0
    for move, have in sorted(entries, key=lambda e: (-e[0], e[1])):
        points = min(have, (budget - spent) // price)
        while points > 0:
            if turn.batch.offer(Action("buy", (country, unit_type, move, points))):
                spent += points * price
                break
            points //= 2  # refused (the rules know better): try a smaller purchase
    return spent
