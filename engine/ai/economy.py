"""Money: exchanges between partners and unit builds.

Builds follow a beginner's rule of thumb: repair damaged ships and aircraft, buy the
atomic aircraft once its bomb is near (:mod:`engine.ai.air_war`), buy a
transport while troops wait on land without a front (:mod:`engine.ai.ferry`), then
spend the rest on land strength from the pool - mostly infantry (cheap, it arrives
next month), and about a third on armor for countries that have armor in their pool
(a seeded draw between a quarter and two fifths: the hidden list differs from seed to
seed); what the land pool cannot absorb buys bombers (they support land attacks), and
money still piling up buys the rest of the pool (aircraft first, then ships, then marines and
paratroopers).  Money a country cannot spend on its own pool goes in the income phase
to a partner that can: directly to a hub the rules allow (Germany, Japan, the United
Kingdom, the United States), from the United Kingdom to the Soviet Union or France (no
more than they can spend), and by convoy (:mod:`engine.ai.convoys`).  What can go
nowhere buys fortifications in the deployment (:mod:`engine.ai.deploy`).
Orders are built from the state (one ``buy`` per pool entry with the number of points wanted) rather than picked
from the engine's list, which holds one entry per possible number of points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.ai import air_war, convoys, ferry
from engine.ai.picture import Picture
from engine.economy import exchange_allowed, send_limit
from engine.state import GameState
from engine.units import COSTS, REPAIR_COST, UnitType

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Share of land spending that goes to armor when the pool has armor: drawn from this
#: range by the turn's seeded stream (nothing the bot weighs tells a quarter from two
#: fifths apart, and a fixed share would let the opponent compute the hidden builds).
ARMOR_SHARE = (1 / 4, 2 / 5)
#: Bombers a country buys per month at most, with money left after land purchases.
BOMBERS_PER_MONTH = 2
#: Money a country keeps; above it, the rest of its pool is bought (see :func:`_spend_hoard`).
HOARD = 500
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
HOARD_RANK = {t: i for i, t in enumerate(HOARD_BUYS)}
#: What the builds buy with ``spend_all`` (:mod:`engine.ai.style`): every unit money buys.
ALL_RANK = {t: i for i, t in enumerate((*HOARD_BUYS, UnitType.BOMBER_TRANSPORT))}


def income(turn: Turn) -> None:
    """Money a country cannot spend goes to a partner who can: directly where the
    rulebook allows it ("Money Exchange"), the rest on convoys (:mod:`engine.ai.convoys`).
    What each sender keeps is drawn (:func:`engine.ai.convoys.drawn_reserve`)."""
    _to_hubs(turn)
    _exchange(turn)
    convoys.load(turn)


#: Direct exchanges the bot makes, sender -> receivers in order of preference.
EXCHANGES = {"United Kingdom": ("Soviet Union", "France")}
#: Partners send what they cannot spend to these countries, the first one the rules allow
#: ("Money Exchange": there is no limit to what other countries send Germany, the United
#: Kingdom or the United States; Thailand may send Japan any amount).
HUBS = {"axis": ("Germany", "Japan"), "allies": ("United Kingdom", "United States")}


pool_cost = convoys.pool_cost


def spare_money(state: GameState, country: str, keep: int) -> int:
    """Money ``country`` cannot spend on its own pool (all of it) beyond ``keep`` (for
    repairs and buying back its losses)."""
    return state.countries[country].money - pool_cost(state, country) - keep


def _to_hubs(turn: Turn) -> None:
    """Each partner sends what it cannot spend to the first hub it may send to."""
    state = turn.state
    hubs = HUBS.get(turn.side, ())
    for name in sorted(state.countries):
        c = state.countries[name]
        if name in hubs or name in convoys.PREFERRED or c.side != turn.side or not c.active:
            continue  # (Canada's money sails by convoy: it doubles Britain's home income)
        amount = spare_money(state, name, convoys.drawn_reserve(turn))
        if amount < 1:
            continue
        for hub in hubs:
            h = state.countries.get(hub)
            if h is None or h.side != turn.side or not h.active or not exchange_allowed(state, name, hub):
                continue
            if turn.batch.offer(Action("send", (name, hub, amount))):
                break


def _exchange(turn: Turn) -> None:
    state = turn.state
    for sender, receivers in EXCHANGES.items():
        c = state.countries.get(sender)
        if c is None or c.side != turn.side or not c.active:
            continue
        spare = c.money - convoys.spendable(state, sender) - convoys.drawn_reserve(turn)
        limit = send_limit(state, sender)
        amount = spare if limit is None else min(spare, limit)
        for to in receivers:
            r = state.countries.get(to)
            if amount < 1 or r is None or r.side != turn.side or not r.active:
                continue
            if not exchange_allowed(state, sender, to):
                continue
            # no more than the receiver can spend: money sent on only piles up there
            wanted = min(amount, pool_cost(state, to) - r.money)
            if wanted >= 1 and turn.batch.offer(Action("send", (sender, to, wanted))):
                amount -= wanted


def build(turn: Turn) -> None:
    state = turn.state
    batch = turn.batch
    for u in sorted(state.side_units(turn.side), key=lambda x: x.id):
        if u.damaged and not u.is_land and state.countries[u.country].money >= REPAIR_COST:
            batch.offer(Action("repair", (u.id,)))
    stranded = _stranded_units(turn)
    for name in sorted(state.countries):
        c = state.countries[name]
        if c.side != turn.side or not c.active or c.money <= 0:
            continue
        _buy_atomic(turn, name)
        _buy_transports(turn, name, stranded.get(name, 0))
        infantry, armor = [], []
        for key, have in sorted(c.pool_land.items()):
            t, move = key.type, key.move
            if have <= 0:
                continue
            if t == UnitType.INFANTRY:
                infantry.append((move, have))
            elif t == UnitType.ARMOR:
                armor.append((move, have))
        budget = int(c.money * turn.style.build_share)
        kept = c.money - budget
        if armor:
            share = int(budget * _armor_share(turn)) if infantry else budget
            budget -= _buy(turn, name, "armor", armor, share)
        _buy(turn, name, "infantry", infantry, budget)
        if c.money > kept and armor:
            _buy(turn, name, "armor", armor, c.money - kept)  # the infantry pool ran dry: armor instead
        if turn.style.build_share < 1.0:
            continue  # a gentler player keeps the rest: no aircraft, ships or special troops with it
        _buy_bombers(turn, name)
        _spend_hoard(turn, name)
        _buy_special(turn, name)


def _armor_share(turn: Turn) -> float:
    low, high = ARMOR_SHARE
    return low + (high - low) * turn.rng.below(1001) / 1000


#: Transports a country with troops on land without a front keeps at most (one for every
#: :data:`UNITS_PER_TRANSPORT` such units): each ferries a unit a month or so.
FERRY_FLEET = 12
UNITS_PER_TRANSPORT = 3


def _stranded_units(turn: Turn) -> dict[str, int]:
    """Our land units standing on land without a front, by country (:mod:`engine.ai.ferry`)."""
    pic = Picture(turn.state, turn.side)
    out: dict[str, int] = {}
    if not pic.to_front:
        return out
    for u in pic.my_land:
        if u.type is not UnitType.SUPPLY and ferry.stranded(pic, u.hex):
            out[u.country] = out.get(u.country, 0) + 1
    return out


def _buy_transports(turn: Turn, country: str, stranded: int) -> None:
    """A country whose troops wait on land without a front buys a transport a month
    until it has one for every :data:`UNITS_PER_TRANSPORT` of them (before land points:
    troops that cannot reach a front are worth nothing)."""
    state = turn.state
    c = state.countries[country]
    want = min(FERRY_FLEET, stranded // UNITS_PER_TRANSPORT)
    have = sum(1 for u in state.units_of(country) if u.type == UnitType.TRANSPORT)  # in transit too
    if have >= want or c.money < COSTS[UnitType.TRANSPORT].price:
        return
    for p in c.pool_units:
        if p.type == UnitType.TRANSPORT and turn.batch.offer(Action("buy_unit", (country, p.name))):
            return


def _buy_atomic(turn: Turn, country: str) -> None:
    """The atomic aircraft in the pool comes first once its bomb is near (it is lost to
    interceptors now and then; the bomb may make the enemy surrender)."""
    c = turn.state.countries[country]
    for p in list(c.pool_units):
        if air_war.atomic_soon(turn.state, country, p.name):
            turn.batch.offer(Action("buy_unit", (country, p.name)))


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


def _kept(turn: Turn) -> int:
    """Money a country's builds leave unspent: :data:`HOARD`, or nothing with ``spend_all``
    (repairs come first in the builds, and money kept for next month's buy-backs buys
    nothing this month that the month's income could not buy then)."""
    return 0 if turn.style.spend_all else HOARD


def _spend_hoard(turn: Turn, country: str) -> None:
    """Money the land pool and the monthly bombers leave unspent beyond :func:`_kept` buys
    the pool's aircraft, then escorts and transports, then the great ships: money kept
    in the bank wins nothing."""
    c = turn.state.countries[country]
    rank, keep = ALL_RANK if turn.style.spend_all else HOARD_RANK, _kept(turn)
    for p in sorted((p for p in c.pool_units if p.type in rank), key=lambda p: (rank[p.type], p.name)):
        if c.money <= keep:
            return
        if COSTS[p.type].price <= c.money:
            turn.batch.offer(Action("buy_unit", (country, p.name)))


def _buy_special(turn: Turn, country: str) -> None:
    """Money still beyond :func:`_kept` buys marines (they make landings succeed more
    often) and paratroopers from the pool."""
    c = turn.state.countries[country]
    keep = _kept(turn)
    for t in (UnitType.MARINE, UnitType.PARATROOPER):
        entries = [(key.move, have) for key, have in sorted(c.pool_land.items()) if key.type == t and have > 0]
        if entries and c.money > keep:
            _buy(turn, country, t.value, entries, c.money - keep)


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
