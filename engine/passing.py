"""What ending a decision now would cost a side (rulebook: "Air units", "Supply",
"Buying Units").

A ``pass`` is always legal; these are the facts a player may have overlooked when
giving it: aircraft still in the air that the end of the phase eliminates, land units
that cannot trace supply before the supply phase, and money left unspent while units
could still be bought.  The engine states them; the program a person uses decides
whether to ask for a confirmation.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.economy import Build
from engine.hexgrid import NO_HEX
from engine.movement import FirstMovement, Landing, SecondMovement
from engine.reach import can_land
from engine.sequence import current
from engine.state import NO_UNIT, GameState, Unit
from engine.supply import supply_map

#: Slugs of the warnings, stable for programs (like the refusal slugs).
AIR_LOST = "pass.air-lost"
OUT_OF_SUPPLY = "pass.out-of-supply"
MONEY_UNSPENT = "pass.money-unspent"
WARNINGS = (AIR_LOST, OUT_OF_SUPPLY, MONEY_UNSPENT)

_SHOWN = 3  # units named in a sentence before "and N more"


@dataclass(frozen=True, slots=True)
class PassWarning:
    slug: str
    sentence: str
    #: what it is about: the countries with money left, or the unit numbers concerned
    about: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.sentence


def _names(units: list[Unit]) -> str:
    shown = ", ".join(u.label() for u in units[:_SHOWN])
    return shown + (f" and {len(units) - _SHOWN} more" if len(units) > _SHOWN else "")


def pass_warnings(state: GameState, side: str) -> list[PassWarning]:
    """What ``side`` would lose by ending its part of the current decision now (the state
    given is the one the pass would end: for a hidden list, after the orders before it)."""
    if side not in state.acting or state.winner is not None:
        return []
    step = current(state)
    out: list[PassWarning] = []
    lands_air = (isinstance(step, SecondMovement) and step.mover == side) or (
        isinstance(step, Landing) and step.acting_side() == side
    )
    if lands_air:
        lost = _air_lost(state, side)
        if lost:
            out.append(
                PassWarning(
                    AIR_LOST,
                    f"{len(lost)} air unit(s) still in the air with no base in their hex would be eliminated: "
                    f"{_names(lost)}",
                    tuple(f"#{u.id}" for u in lost),
                )
            )
    if isinstance(step, FirstMovement | SecondMovement) and step.mover == side:
        cut = _cannot_trace(state, side)
        if cut:
            out.append(
                PassWarning(
                    OUT_OF_SUPPLY,
                    f"{len(cut)} land unit(s) cannot trace supply and would face the supply phase out of supply: "
                    f"{_names(cut)}",
                    tuple(f"#{u.id}" for u in cut),
                )
            )
    if isinstance(step, Build):
        unspent = _unspent(state, side, step)
        if unspent:
            out.append(
                PassWarning(
                    MONEY_UNSPENT,
                    "money left unspent although units could still be bought: "
                    + ", ".join(f"{name} ${money}B" for name, money in unspent),
                    tuple(name for name, _ in unspent),
                )
            )
    return out


def _air_lost(state: GameState, side: str) -> list[Unit]:
    """Air units the end of this phase grounds where they are, and which cannot land there."""
    return [
        u
        for u in sorted(state.side_units(side), key=lambda x: x.id)
        if u.is_air and u.origin != NO_HEX and u.carrier == NO_UNIT and not can_land(state, u, u.hex, side)
    ]


def _cannot_trace(state: GameState, side: str) -> list[Unit]:
    smap = supply_map(state, side)
    return [
        u
        for u in sorted(state.side_units(side), key=lambda x: x.id)
        if u.is_land and u.carrier == NO_UNIT and state.countries[u.country].active and not smap.can_trace(u)
    ]


def _unspent(state: GameState, side: str, step: Build) -> list[tuple[str, int]]:
    buyers = sorted(
        {str(a.args[0]) for a in step.legal(state, side) if a.kind in ("buy", "buy_unit")},
    )
    return [(name, state.countries[name].money) for name in buyers]
