"""Looking at a game before deciding: one hex in full (`pbem hex`) and the legal orders
that concern a unit, a hex, a country or a kind (`pbem legal`).

Both look at the game as it stands after my pending orders, as `pbem show` does; the
engine answers every rules question and this module only writes its answers as lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import PbemError
from pbem.play.turn import my_turn
from pbem.protocol import engine_link
from pbem.protocol.rules import Action, StackUnit, State, refusal_rule
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace


def state_now(ws: Workspace, gid: str, home: Path | None) -> tuple[State, str]:
    """The game after my pending orders, and my side."""
    api = engine_link.api()
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        t = my_turn(lg)
    state = t.work.state
    sim = [api.Action.from_wire(w) for w in (t.pending.sim or [])]
    if sim:
        state = api.preview(state, lg.me, sim)
    return state, lg.me


def _place_error(exc: Exception) -> PbemError:
    return PbemError(str(exc), "usage", refusal_rule(exc))


def hex_lines(ws: Workspace, gid: str, where: str, home: Path | None = None) -> list[str]:
    api = engine_link.api()
    state, side = state_now(ws, gid, home)
    try:
        r = api.hex_report(state, side, where)
    except api.OrderError as exc:
        raise _place_error(exc) from None
    name = f"hex {r.hex}" + (f" [{r.city}]" if r.city else "")
    land = f"{r.terrain}, {r.territory}" if r.territory else r.terrain
    lines = [f"{name}: {land}; weather: {r.weather}"]
    if r.controller:
        lines.append(f"controlled by {r.controller} ({r.control_side})")
    lines.append("installations: " + (", ".join(r.installations) if r.installations else "none"))
    lines.append(f"units ({len(r.units)}):" if r.units else "units: none")
    lines += stack_lines(r.units)
    o = r.odds
    if o is not None:
        if o.attackers:
            lines.append(
                f"if you attacked now with {len(o.attackers)} adjacent unit(s)"
                + (f" and {len(o.supports)} supporting unit(s)" if o.supports else "")
                + f": attack {o.attack} against defence "
                f"{o.defence}, odds {o.ratio}; the defender loses at least 1 point with chance "
                f"{o.defender_loses:.0%}, every attacker is eliminated with chance {o.attackers_eliminated:.0%}"
            )
            lines += [f"  attacker {label}" for label in o.attackers]
            lines += [f"  support {label}" for label in o.supports]
        else:
            lines.append(f"none of your units may attack it now (defence {o.defence})")
        if o.notes:
            lines.append("  modifiers: " + ", ".join(o.notes))
        lines += [f"  cannot attack: {why}" for why in o.barred]
    return lines


def stack_lines(units: Sequence[StackUnit]) -> list[str]:
    """The units of a stack as the page's stack viewer shows them: each counter with its
    side, its numbers in words and its supply; below it, when there is any, whether it is
    damaged or embarked, what it did this month and what it carries."""
    lines = []
    for u in units:
        lines.append(f"  {u.label} ({u.side}): {u.numbers}; {u.supply}")
        extra = [*u.notes, *u.done] + ([f"carries {', '.join(u.cargo)}"] if u.cargo else [])
        if extra:
            lines.append("      " + "; ".join(extra))
    return lines


@dataclass(frozen=True)
class LegalFilter:
    """What `pbem legal` keeps; empty means everything."""

    units: tuple[int, ...] = ()
    places: tuple[str, ...] = ()
    countries: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()


def unit_number(text: str) -> int:
    digits = text.removeprefix("#")
    if not digits.isdigit():
        raise PbemError(f"'{text}' is not a unit; write its number, e.g. #12", "usage")
    return int(digits)


def in_phase_order(state: State, actions: list[Action]) -> list[Action]:
    """Legal orders listed by kind in the order the phase names its kinds (a deployment's
    placements before its fortifications and airfields), each kind's own order kept."""
    api = engine_link.api()
    rank = {k.name: i for i, k in enumerate(api.order_kinds(state))}
    return sorted(actions, key=lambda a: rank.get(a.kind, len(rank)))


def legal_lines(ws: Workspace, gid: str, flt: LegalFilter, limit: int, home: Path | None = None) -> list[str]:
    api = engine_link.api()
    state, side = state_now(ws, gid, home)
    try:
        found = api.legal_matching(
            state, side, units=flt.units, places=flt.places, countries=flt.countries, kinds=flt.kinds
        )
    except api.OrderError as exc:
        raise _place_error(exc) from None
    found = in_phase_order(state, found)
    shown = found[:limit] if limit else found
    more = f", first {len(shown)}" if len(shown) < len(found) else ""
    d = api.decision(state)
    head = f"{len(found)} legal order(s) for the {side} in {d.phase}{more}"
    return [head + ":" if shown else head, *(f"  {api.format_action(state, a)}" for a in shown)]
