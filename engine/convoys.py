"""Money carried by convoys (rulebook: "Convoys", "Money"; "Naval Units").

Order of the income phase, beside ``send``::

    convoy FROM TO AMOUNT UNIT     e.g. convoy Canada "United Kingdom" 800 #57

The money leaves FROM at once and rides on the convoy's unit record (``Unit.cargo``,
``Unit.cargo_to``), so whatever eliminates the convoy loses the money with it.  A convoy
carrying money delivers it at the start of an income phase in which it lies in a port of
the receiving country, before the month's income is paid: money arriving during the month
thus counts for the United Kingdom's double home income of that income phase.
"""

from __future__ import annotations

from typing import ClassVar

from engine.actions import Action, IllegalAction, KindSpec, Refusal
from engine.economy import Income, amount_refusal, send_amounts
from engine.ownership import no_unit
from engine.state import GameState, Unit
from engine.units import UnitType

CONVOY = KindSpec(
    "convoy",
    ("country", "country", "int", "unit"),
    help="load money on a convoy in a port of the sender",
    words=("FROM", "TO", "AMOUNT", "UNIT"),
    example='convoy "United States" "United Kingdom" 100 #705',
)

#: Who may send money to whom by convoy (rulebook "Convoys").
ROUTES: dict[str, tuple[str, ...]] = {
    "United States": ("France", "United Kingdom", "Soviet Union"),
    "United Kingdom": ("Canada", "Soviet Union"),
    "Canada": ("United Kingdom",),
}


def route_open(frm: str, to: str) -> bool:
    return to in ROUTES.get(frm, ())


def _active_on(state: GameState, side: str, name: str) -> bool:
    c = state.countries.get(name)
    return c is not None and c.side == side and c.active


def loadable(state: GameState, side: str, frm: str, u: Unit, to: str) -> str:
    """Why ``u`` may not take ``frm``'s money to ``to`` now ('' if it may)."""
    if u.type != UnitType.CONVOY:
        return Refusal("convoy.not-convoy", f"{u.label()} is not a convoy")
    if state.countries[u.country].side != side or not u.on_map:
        return Refusal("convoy.not-yours", f"{u.label()} is not a convoy of the {side} on the map")
    if not u.in_port or state.world.map.country_of[u.hex] != frm:
        return Refusal("convoy.not-in-port", f"{u.label()} is not in a port of {frm}")
    if state.side_controlling(u.hex) != side:
        return Refusal("convoy.not-in-port", f"{u.label()} is in a port {side} do not control")
    if u.cargo and u.cargo_to != to:
        return Refusal("convoy.loaded", f"{u.label()} already carries money to {u.cargo_to}")
    return ""


def convoy_refusal(state: GameState, side: str, frm: str, to: str, amount: int, u: Unit) -> str:
    for name in (frm, to):
        if name not in state.countries:
            return Refusal("country.unknown", f"there is no country named {name}")
        if not _active_on(state, side, name):
            return Refusal("country.not-active", f"{name} is not an active {side} country at war")
    if not route_open(frm, to):
        return Refusal("convoy.route", f"{frm} cannot send money to {to} by convoy")
    return amount_refusal(state, frm, amount) or loadable(state, side, frm, u, to)


def convoy_orders(state: GameState, side: str) -> list[Action]:
    """Every convoy loading ``side`` may order now, with a representative set of amounts."""
    out: list[Action] = []
    for u in sorted(state.side_units(side), key=lambda x: x.id):
        if u.type != UnitType.CONVOY or not u.in_port or not u.on_map:
            continue
        frm = state.world.map.country_of[u.hex]
        if frm not in ROUTES or not _active_on(state, side, frm):
            continue
        money = state.countries[frm].money
        for to in ROUTES[frm]:
            if money >= 1 and _active_on(state, side, to) and not loadable(state, side, frm, u, to):
                out.extend(Action("convoy", (frm, to, n, u.id)) for n in send_amounts(money))
    return out


def load(state: GameState, frm: str, to: str, amount: int, u: Unit) -> None:
    state.countries[frm].money -= amount
    u.cargo += amount
    u.cargo_to = to


def deliver(state: GameState) -> list[tuple[Unit, str, int]]:
    """Hand over the money of convoys lying in a port of their receiver; money for a
    conquered receiver is redirected to the convoy's owner.  Returns (convoy, receiver,
    amount) for each delivery."""
    done: list[tuple[Unit, str, int]] = []
    for uid in sorted(state.units):
        u = state.units[uid]
        if not u.cargo:
            continue
        side = state.countries[u.country].side
        if not _active_on(state, side, u.cargo_to):
            u.cargo_to = u.country
        if not u.in_port or not u.on_map or state.world.map.country_of[u.hex] != u.cargo_to:
            continue
        if state.side_controlling(u.hex) != side:
            continue
        receiver = state.countries[u.cargo_to]
        receiver.money += u.cargo
        receiver.received_convoy_money = True
        done.append((u, u.cargo_to, u.cargo))
        u.cargo, u.cargo_to = 0, ""
    return done


class ConvoyIncome(Income):
    """The income phase with convoys: deliveries first, then income, then sending."""

    orders: ClassVar[tuple[KindSpec, ...]] = (*Income.orders, CONVOY)
    prompt = "send money to partners, load convoys, or pass"

    def enter(self, state: GameState) -> None:
        deliver(state)
        super().enter(state)

    def needed(self, state: GameState, side: str) -> bool:
        return super().needed(state, side) or bool(convoy_orders(state, side))

    def legal(self, state: GameState, side: str) -> list[Action]:
        return sorted([*super().legal(state, side), *convoy_orders(state, side)], key=lambda a: (a.kind, a.args))

    def check(self, state: GameState, side: str, action: Action) -> None:
        if action.kind != "convoy":
            super().check(state, side, action)
            return
        frm, to, amount, uid = str(action.args[0]), str(action.args[1]), int(action.args[2]), int(action.args[3])
        u = state.units.get(uid)
        if u is None:
            raise IllegalAction(no_unit(uid))
        why = convoy_refusal(state, side, frm, to, amount, u)
        if why:
            raise IllegalAction(why)

    def apply(self, state: GameState, side: str, action: Action) -> None:
        if action.kind != "convoy":
            super().apply(state, side, action)
            return
        frm, to, amount, uid = str(action.args[0]), str(action.args[1]), int(action.args[2]), int(action.args[3])
        load(state, frm, to, amount, state.units[uid])
