"""Money: exchanges between partners and unit builds.

Builds follow a beginner's rule of thumb: repair damaged ships and aircraft,
then spend the rest on land strength from the pool - mostly infantry (cheap,
it arrives next month), and a third on armor for countries that have armor in
their pool; what the land pool cannot absorb buys bombers (they support land
attacks), and money still piling up buys the rest of the pool (aircraft first,
then ships).  Money that a sender cannot spend sails by convoy (:mod:`engine.ai.convoys`).
Orders are built from the state (one ``buy`` per pool entry with the number of points wanted) rather than picked
from the engine's list, which holds one entry per possible number of points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.ai import convoys
from engine.economy import exchange_allowed, send_limit
from engine.units import COSTS, REPAIR_COST, UnitType

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Share of land spending that goes to armor when the pool has armor.
ARMOR_SHARE = 1 / 3
#: Bombers a country buys per month at most, with money left after land purchases.
BOMBERS_PER_MONTH = 2
#: Money a country keeps; above it, the rest of its pool is bought (see :func:`_spend_hoard`).
HOARD = 1500
#: What hoarded money buys first.
HOARD_BUYS = (
    UnitType.FIGHTER,
    UnitType.BOMBER,
    UnitType.FIGHTER_BOMBER,
    UnitType.CONVOY,
    UnitType.TRANSPORT,
    UnitType.DESTROYER,
    UnitType.DESTROYER_ESCORT,
    UnitType.SUBMARINE,
    UnitType.LIGHT_CRUISER,
    UnitType.KAIBOKAN,
    UnitType.AIR_TRANSPORT,
    UnitType.CARRIER,
    UnitType.HEAVY_CRUISER,
    UnitType.BATTLECRUISER,
    UnitType.BATTLESHIP,
)


def income(turn: Turn) -> None:
    """Money a country cannot spend goes to a partner who can: directly where the
    rulebook allows it ("Money Exchange"), the rest on convoys (:mod:`engine.ai.convoys`)."""
    _exchange(turn)
    convoys.load(turn)


#: Direct exchanges the bot makes, sender -> receivers in order of preference.
EXCHANGES = {"United Kingdom": ("Soviet Union", "France")}


def _exchange(turn: Turn) -> None:
    state = turn.state
    for sender, receivers in EXCHANGES.items():
        c = state.countries.get(sender)
        if c is None or c.side != turn.side or not c.active:
            continue
        spare = c.money - convoys.spendable(state, sender) - HOARD
        limit = send_limit(state, sender)
        amount = spare if limit is None else min(spare, limit)
        for to in receivers:
            r = state.countries.get(to)
            if amount < 1 or r is None or r.side != turn.side or not r.active:
                continue
            if not exchange_allowed(state, sender, to):
                continue
            if turn.batch.offer(Action("send", (sender, to, amount))):
                break


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
        _spend_hoard(turn, name)


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


def _spend_hoard(turn: Turn, country: str) -> None:
    """Money the land pool and the monthly bombers leave unspent beyond :data:`HOARD` buys
    the pool's aircraft, then escorts and transports, then the great ships: money kept
    in the bank wins nothing."""
    c = turn.state.countries[country]
    rank = {t: i for i, t in enumerate(HOARD_BUYS)}
    for p in sorted((p for p in c.pool_units if p.type in rank), key=lambda p: (rank[p.type], p.name)):
        if c.money <= HOARD:
            return
        if COSTS[p.type].price <= c.money:
            turn.batch.offer(Action("buy_unit", (country, p.name)))


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
