"""The air orders of the combat phase in one table: air combat, kamikaze, bombing and the
atomic bomb (:mod:`engine.air_combat`, :mod:`engine.bombing`, :mod:`engine.atomic`).
The combat phase (:mod:`engine.combat`) hands them their orders and resolutions here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import air_combat, atomic, bombing
from engine.actions import Action, KindSpec
from engine.air_combat import InSupply
from engine.rng import Rng
from engine.state import DeclaredAttack, GameState


@dataclass(frozen=True, slots=True)
class AirRule:
    orders: tuple[KindSpec, ...]
    check: Callable[[GameState, str, Action, InSupply], None]
    apply: Callable[[GameState, Action], None]
    actions: Callable[[GameState, str, InSupply], list[Action]]
    resolves: Callable[[str], bool]
    resolve: Callable[[GameState, Rng, DeclaredAttack], list[str]]


RULES = (
    AirRule(
        air_combat.ORDERS,
        air_combat.check,
        air_combat.apply,
        air_combat.actions,
        lambda kind: kind in air_combat.RESOLVED,
        air_combat.resolve,
    ),
    AirRule(
        bombing.ORDERS,
        bombing.check,
        bombing.apply,
        bombing.actions,
        lambda kind: kind.startswith(bombing.PREFIX),
        bombing.resolve,
    ),
    AirRule(
        atomic.ORDERS, atomic.check, atomic.apply, atomic.actions, lambda kind: kind == atomic.KIND, atomic.resolve
    ),
)

ORDERS: tuple[KindSpec, ...] = tuple(spec for rule in RULES for spec in rule.orders)


def rule_for_order(kind: str) -> AirRule | None:
    return next((r for r in RULES if any(s.name == kind for s in r.orders)), None)


def rule_for_entry(entry: DeclaredAttack) -> AirRule | None:
    return next((r for r in RULES if r.resolves(entry.kind)), None)


def actions(state: GameState, side: str, in_supply: InSupply) -> list[Action]:
    return [a for rule in RULES for a in rule.actions(state, side, in_supply)]
