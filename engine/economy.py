"""Income, money exchange and unit builds (rulebook: "Money", "Money Exchange",
"Buying Units", "Buying Back Eliminated Units"; supplement "Installations and repairs").

Orders of the income phase::

    send FROM TO AMOUNT            e.g. send Germany Italy 300

Orders of the unit build phase::

    buy COUNTRY TYPE MOVE POINTS   land strength points from the pool, e.g. buy Germany armor 5 4
    buy_unit COUNTRY NAME          a named naval or air unit of the pool
    repair UNIT                    a damaged naval unit in port, or a damaged air unit

A bought purchase travels as an off-map unit in ``CountryState.transit`` until its
arrival date; the deployment phase makes it placeable (land purchases hold their
points in ``strength``, supply purchases their number of supply units).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from engine import stacking
from engine.actions import PASS, Action, IllegalAction, KindSpec, Refusal
from engine.hexmap import Terrain
from engine.ownership import no_unit
from engine.phase import Phase
from engine.sides import AXIS, SIDES
from engine.state import GameState, LandKey, StepMemo
from engine.units import COSTS, REPAIR_COST, Domain, UnitProfile, UnitType

SEND = KindSpec(
    "send",
    ("country", "country", "int"),
    help="send money to a partner",
    words=("FROM", "TO", "AMOUNT"),
    example='send "United Kingdom" France 50',
)
BUY = KindSpec(
    "buy",
    ("country", "str", "int", "int"),
    help="buy land strength points",
    words=("COUNTRY", "TYPE", "MOVE", "POINTS"),
    example="buy Germany armor 5 2",
)
BUY_UNIT = KindSpec(
    "buy_unit",
    ("country", "str"),
    help="buy a naval or air unit of the pool",
    words=("COUNTRY", "NAME"),
    example='buy_unit Germany "Bf 109"',
)
REPAIR = KindSpec(
    "repair",
    ("unit",),
    help=f"repair a damaged naval (in port) or air unit (${REPAIR_COST}B)",
    words=("UNIT",),
    example="repair #118",
)

# ----------------------------------------------------------------------- income

RESOURCE_INCOME = 50
#: Income per resource hex a country controls in its own home territory (rulebook "Money").
HOME_RESOURCE_INCOME = {"Germany": 100, "Japan": 200}
UK_CONVOY_HOME_INCOME = 100  # only if the UK received convoy money during the past turn
US_HOME_INCOME, US_HOME_INCOME_LATER, US_LATER_AFTER = 100, 150, 12  # months at war
CHINA_EXTRA = 600
CANADA_EXTRA = 500  # while the United States is neutral


def home_resource_value(state: GameState, country: str) -> int:
    c = state.countries[country]
    if country == "United Kingdom":
        return UK_CONVOY_HOME_INCOME if c.received_convoy_money else RESOURCE_INCOME
    if country == "United States":
        return US_HOME_INCOME_LATER if state.date - c.entered >= US_LATER_AFTER else US_HOME_INCOME
    return HOME_RESOURCE_INCOME.get(country, RESOURCE_INCOME)


def income_of(state: GameState, country: str) -> int:
    """This month's income of ``country`` (0 unless it is at war and not conquered)."""
    c = state.countries[country]
    if not c.active:
        return 0
    hexmap = state.world.map
    own = state.world.country_no[country]
    home = home_resource_value(state, country)
    total = 0
    for h in hexmap.resources:
        if state.controller[h] != own or h in state.strategic or h in state.atomized:
            continue
        at_home = hexmap.country_of[h] == country and not hexmap.is_colony(h)
        total += home if at_home else RESOURCE_INCOME
    if country == "China":
        total += CHINA_EXTRA
    us = state.countries.get("United States")
    if country == "Canada" and (us is None or not us.at_war):
        total += CANADA_EXTRA
    return total


def collect_income(state: GameState) -> dict[str, int]:
    paid = {}
    for name in sorted(state.countries):
        amount = income_of(state, name)
        if amount:
            state.countries[name].money += amount
            paid[name] = amount
    # The convoy bonus counts the past turn only; convoys arriving this turn set it again.
    uk = state.countries.get("United Kingdom")
    if uk is not None:
        uk.received_convoy_money = False
    return paid


# --------------------------------------------------------------- money exchange

GERMAN_SEND_LIMIT = 500
THIRD_LIMIT = ("United States", "United Kingdom")  # may send a third of their money per month
CHINA_ROUTE = ("China", "Burma")  # country, territory: the Burma road


_route_pairs: dict[str, tuple[tuple[int, int], ...]] = {}


def _china_route_pairs(state: GameState) -> tuple[tuple[int, int], ...]:
    key = state.world.digest
    if key not in _route_pairs:
        hexmap = state.world.map
        burma = hexmap.hexes_of_territory.get(CHINA_ROUTE[1], ())
        pairs = []
        for b in burma:
            if hexmap.terrain[b] == Terrain.TALL_MOUNTAIN:
                continue
            for o in hexmap.land_neighbours[b]:
                if hexmap.country_of[o] == CHINA_ROUTE[0] and hexmap.terrain[o] != Terrain.TALL_MOUNTAIN:
                    pairs.append((b, o))
        _route_pairs[key] = tuple(sorted(pairs))
    return _route_pairs[key]


def china_route_open(state: GameState) -> bool:
    """Do the Allies hold an adjacent pair of non-tall-mountain hexes in Burma and China?"""
    return any(
        state.side_controlling(b) == "allies" and state.side_controlling(c) == "allies"
        for b, c in _china_route_pairs(state)
    )


def exchange_allowed(state: GameState, frm: str, to: str) -> bool:
    """May ``frm`` send money directly to ``to`` (rulebook "Money Exchange")?"""
    region = state.world.info
    side = state.countries[frm].side
    if side == AXIS:
        if "Germany" in (frm, to):
            partner = to if frm == "Germany" else frm
            return region[partner].region == "europe"
        return frm == "Thailand" and to == "Japan"
    if to == "China" and frm in THIRD_LIMIT:
        return china_route_open(state)
    for hub, area in (("United States", "americas"), ("United Kingdom", "europe")):
        if hub in (frm, to):
            partner = to if frm == hub else frm
            if region[partner].region == area:
                return True
    return False


def amount_refusal(state: GameState, frm: str, amount: int) -> str:
    """Why ``frm`` cannot hand over ``amount`` (directly or on a convoy), or ""."""
    if amount < 1:
        return Refusal("money.amount", "send at least $1B")
    money = state.countries[frm].money
    if amount > money:
        return Refusal("money.short", f"{frm} has only ${money}B")
    return ""


def send_limit(state: GameState, frm: str) -> int | None:
    """Most ``frm`` may still send this month (None: no limit beyond its money)."""
    sent = (state.memo.sent or {}).get(frm, 0)
    if frm == "Germany":
        return max(0, GERMAN_SEND_LIMIT - sent)
    if frm in THIRD_LIMIT:
        return max(0, (state.memo.income_base or {}).get(frm, 0) // 3 - sent)
    return None


def send_refusal(state: GameState, side: str, frm: str, to: str, amount: int) -> str:
    for name in (frm, to):
        c = state.countries.get(name)
        if c is None:
            return Refusal("country.unknown", f"there is no country named {name}")
        if c.side != side or not c.active:
            return Refusal("country.not-active", f"{name} is not an active {side} country at war")
    if frm == to:
        return Refusal("money.send-self", f"{frm} cannot send money to itself")
    if not exchange_allowed(state, frm, to):
        return Refusal("money.send-route", f"{frm} cannot send money directly to {to}")
    short = amount_refusal(state, frm, amount)
    if short:
        return short
    limit = send_limit(state, frm)
    if limit is not None and amount > limit:
        return Refusal("money.send-limit", f"{frm} may send only ${limit}B more this month")
    return ""


#: Fixed amounts ($B) listed for ``send`` besides all, half and a quarter of what may be sent.
SEND_STEPS = (50, 100, 200, 300, 500, 1000)


def send_amounts(top: int) -> list[int]:
    """The amounts ``legal()`` lists for one send: a representative set, not every
    integer up to ``top`` (which made the list thousands of actions long per pair);
    ``check`` accepts any amount from 1 to ``top``."""
    return sorted({n for n in (top, top // 2, top // 4, *SEND_STEPS) if 1 <= n <= top})


class Income(Phase):
    name = "income"
    kind = "simultaneous"
    lists_in_turn = True
    orders: ClassVar[tuple[KindSpec, ...]] = (SEND,)
    prompt = "send money to partners, or pass"

    def enter(self, state: GameState) -> None:
        collect_income(state)
        # The third a country may send is a third of its money after this month's income.
        base = {n: c.money for n, c in sorted(state.countries.items()) if c.active}
        state.memo = StepMemo(income_base=base, sent={})

    def leave(self, state: GameState) -> None:
        state.memo = StepMemo()

    def _pairs(self, state: GameState, side: str) -> list[tuple[str, str, int]]:
        names = [n for n in sorted(state.countries) if state.countries[n].side == side and state.countries[n].active]
        out: list[tuple[str, str, int]] = []
        for frm in names:
            money = state.countries[frm].money
            limit = send_limit(state, frm)
            top = money if limit is None else min(money, limit)
            if top < 1:
                continue
            out.extend((frm, to, top) for to in names if to != frm and exchange_allowed(state, frm, to))
        return out

    def needed(self, state: GameState, side: str) -> bool:
        return bool(self._pairs(state, side))

    def legal(self, state: GameState, side: str) -> list[Action]:
        out = [PASS]
        for frm, to, top in self._pairs(state, side):
            out.extend(Action("send", (frm, to, n)) for n in send_amounts(top))
        return sorted(out, key=lambda a: (a.kind, a.args))

    def check(self, state: GameState, side: str, action: Action) -> None:
        if action.kind != "send":
            super().check(state, side, action)
            return
        frm, to, amount = action.args
        why = send_refusal(state, side, str(frm), str(to), int(amount))
        if why:
            raise IllegalAction(why)

    def apply(self, state: GameState, side: str, action: Action) -> None:
        frm, to, amount = str(action.args[0]), str(action.args[1]), int(action.args[2])
        state.countries[frm].money -= amount
        state.countries[to].money += amount
        if state.memo.sent is None:
            state.memo.sent = {}
        sent = state.memo.sent
        sent[frm] = sent.get(frm, 0) + amount

    def apply_simultaneous(self, state: GameState, orders: dict[str, list[Action]]) -> None:
        # Each side moves only its own countries' money: the order between sides is immaterial.
        for side in SIDES:
            for action in orders.get(side, ()):
                self.apply(state, side, action)


# ------------------------------------------------------------------------ builds


def _buyer(state: GameState, side: str, name: str) -> str:
    c = state.countries.get(name)
    if c is None:
        return Refusal("country.unknown", f"there is no country named {name}")
    if c.side != side:
        return Refusal("country.not-yours", f"{name} is not on the {side}' side")
    if c.conquered:
        return Refusal("country.conquered", f"{name} is conquered and cannot buy units")
    if not c.at_war:
        return Refusal("country.not-at-war", f"{name} is not at war and cannot buy units")
    return ""


def _find_profile(state: GameState, country: str, unit_name: str) -> int:
    for i, p in enumerate(state.countries[country].pool_units):
        if p.name == unit_name:
            return i
    return -1


def buy_refusal(state: GameState, side: str, name: str, t: str, move: int, points: int) -> str:
    why = _buyer(state, side, name)
    if why:
        return why
    try:
        unit_type = UnitType(t)
    except ValueError:
        return Refusal("unit.unknown-type", f"'{t}' is not a unit type")
    if unit_type.domain is not Domain.LAND:
        return Refusal("buy.not-land-type", f"{t} is not a land type; buy naval and air units by name with buy_unit")
    c = state.countries[name]
    have = c.pool_land.get(LandKey(unit_type, move), 0)
    if points < 1:
        return Refusal("buy.points", "buy at least one strength point")
    if points > have:
        return Refusal("buy.pool", f"{name} has {have} {t} points with movement {move} available, not {points}")
    cost = COSTS[unit_type].price * points
    if cost > c.money:
        return Refusal("money.short", f"{points} {t} points cost ${cost}B and {name} has ${c.money}B")
    return ""


def unit_refusal(state: GameState, side: str, name: str, unit_name: str) -> str:
    why = _buyer(state, side, name)
    if why:
        return why
    i = _find_profile(state, name, unit_name)
    if i < 0:
        return Refusal("buy.pool", f"{name} has no unit named {unit_name} available")
    c = state.countries[name]
    cost = COSTS[c.pool_units[i].type].price
    if cost > c.money:
        return Refusal("money.short", f"{unit_name} costs ${cost}B and {name} has ${c.money}B")
    return ""


def repair_refusal(state: GameState, side: str, uid: int) -> str:
    u = state.units.get(uid)
    if u is None:
        return no_unit(uid)
    why = _buyer(state, side, u.country)
    if why:
        return why
    if not u.damaged:
        return Refusal("repair.not-damaged", f"{u.label()} is not damaged")
    if u.is_land or not u.on_map:
        return Refusal(
            "repair.not-repairable", f"{u.label()} cannot be repaired: only damaged naval and air units on the map can"
        )
    if u.is_naval and not (u.in_port and stacking.friendly_port(state, u.hex, side)):
        return Refusal("repair.not-in-port", f"{u.label()} must be in a port its side holds to be repaired")
    money = state.countries[u.country].money
    if money < REPAIR_COST:
        return Refusal("money.short", f"repairing {u.label()} costs ${REPAIR_COST}B and {u.country} has ${money}B")
    return ""


class Build(Phase):
    name = "build"
    kind = "simultaneous"
    lists_in_turn = True
    orders = (BUY, BUY_UNIT, REPAIR)
    prompt = "buy units and repair damaged units"

    def needed(self, state: GameState, side: str) -> bool:
        return next(self._offers(state, side), None) is not None

    def legal(self, state: GameState, side: str) -> list[Action]:
        return sorted([PASS, *self._offers(state, side)], key=lambda a: (a.kind, a.args))

    def _offers(self, state: GameState, side: str) -> Iterator[Action]:
        """The purchases and repairs ``side`` may order (the first is enough to need the step)."""
        for name in sorted(state.countries):
            if _buyer(state, side, name):
                continue
            c = state.countries[name]
            for key, have in sorted(c.pool_land.items()):
                t, move = key.type.value, key.move
                price = COSTS[key.type].price
                top = have if price == 0 else min(have, c.money // price)
                yield from (Action("buy", (name, t, move, n)) for n in range(1, top + 1))
            for unit_name in sorted({p.name for p in c.pool_units}):
                if not unit_refusal(state, side, name, unit_name):
                    yield Action("buy_unit", (name, unit_name))
        for u in sorted(state.side_units(side), key=lambda x: x.id):
            if u.damaged and not repair_refusal(state, side, u.id):
                yield Action("repair", (u.id,))

    def check(self, state: GameState, side: str, action: Action) -> None:
        k, a = action.kind, action.args
        if k == "buy":
            why = buy_refusal(state, side, str(a[0]), str(a[1]), int(a[2]), int(a[3]))
        elif k == "buy_unit":
            why = unit_refusal(state, side, str(a[0]), str(a[1]))
        elif k == "repair":
            why = repair_refusal(state, side, int(a[0]))
        else:
            super().check(state, side, action)
            return
        if why:
            raise IllegalAction(why)

    def apply(self, state: GameState, side: str, action: Action) -> None:
        k, a = action.kind, action.args
        if k == "buy":
            name, t, move, points = str(a[0]), str(a[1]), int(a[2]), int(a[3])
            c = state.countries[name]
            unit_type = UnitType(t)
            key = LandKey(unit_type, move)
            c.pool_land[key] -= points
            if not c.pool_land[key]:
                del c.pool_land[key]
            c.money -= COSTS[unit_type].price * points
            u = state.new_unit(name, UnitProfile(unit_type, strength=points, move=move))
            c.transit.append((state.date + COSTS[unit_type].delay, u.id))
        elif k == "buy_unit":
            name, unit_name = str(a[0]), str(a[1])
            c = state.countries[name]
            profile = c.pool_units.pop(_find_profile(state, name, unit_name))
            cost = COSTS[profile.type]
            c.money -= cost.price
            bought = [profile]
            if profile.type is UnitType.CARRIER:
                # The carrier's price includes a carrier-based air unit of the pool.
                for i, p in enumerate(c.pool_units):
                    if p.domain is Domain.AIR and p.carrier_based:
                        bought.append(c.pool_units.pop(i))
                        break
            for p in bought:
                c.transit.append((state.date + cost.delay, state.new_unit(name, p).id))
        elif k == "repair":
            u = state.units[int(a[0])]
            state.countries[u.country].money -= REPAIR_COST
            u.damaged = False

    def apply_simultaneous(self, state: GameState, orders: dict[str, list[Action]]) -> None:
        # Each side spends only its own countries' money: the order between sides is immaterial.
        for side in SIDES:
            for action in orders.get(side, ()):
                self.apply(state, side, action)
