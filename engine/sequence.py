"""The sequence of play as a table (rulebook: "Game Sequence"; supplement:
"Sequence and who acts"), and the driver that walks it.

A month is: war declaration, deployment, income, build, the Axis main phase,
the Allied main phase, supply, and the weather roll for the next month.  Each
main phase is: overrun (+ roll), first movement, interception, amphibious and
paradrop (each + roll), combat (+ roll, + advance after combat), second movement, and the
landing of the other side's air units.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from engine.actions import KINDS, PASS_ORDER, Action, IllegalAction, declare_kinds
from engine.assaults import Amphibious, AmphibiousRoll
from engine.combat import (
    RETREAT,
    STAND,
    Advance,
    Overrun,
    OverrunRoll,
    apply_standing,
    check_standing,
    stand_actions,
)
from engine.control import china_holds
from engine.convoys import ConvoyIncome
from engine.deployment import Deployment
from engine.economy import Build
from engine.entries import SpainAttempt, WarDeclaration
from engine.interception import Interception, InterceptionRoll
from engine.movement import FirstMovement, Landing, SecondMovement
from engine.naval import Combat, CombatRoll
from engine.phase import Phase, StandingOrders
from engine.sides import SIDES, Side
from engine.state import GameState, date_text
from engine.supply import SupplyPhase
from engine.vichy import VichyAttempt
from engine.weather import WeatherRoll


def _main_phase(mover: str) -> list[Phase]:
    return [
        Overrun(mover),
        OverrunRoll(mover),
        FirstMovement(mover),
        Interception(mover),
        InterceptionRoll(mover),
        Amphibious(mover),
        AmphibiousRoll(mover),
        Combat(mover),
        CombatRoll(mover),
        Advance(mover),
        SecondMovement(mover),
        Landing(mover),
    ]


#: The steps in the order of play.
PLAY: tuple[Phase, ...] = (
    WarDeclaration(),
    SpainAttempt(),
    VichyAttempt(),
    Deployment(),
    ConvoyIncome(),
    Build(),
    *_main_phase(SIDES[0]),
    *_main_phase(SIDES[1]),
    SupplyPhase(),
    WeatherRoll(),
)
#: Steps added after the first games were recorded.  A state records its step by its
#: number in STEPS, so these are numbered after the others: a recorded state keeps its bytes.
ADDED_LATER = (
    "spain_attempt",
    *(f"{side}.{name}" for side in SIDES for name in ("interception_roll", "amphibious_roll")),
    "vichy_attempt",
)

STEPS: tuple[Phase, ...] = (
    *(p for p in PLAY if p.label not in ADDED_LATER),
    *sorted((p for p in PLAY if p.label in ADDED_LATER), key=lambda p: ADDED_LATER.index(p.label)),
)

STEP_INDEX = {p.label: i for i, p in enumerate(STEPS)}
#: Steps before the month's deployment, at whose end China's rule is not applied: no land
#: unit moves in them, the war declaration applies it itself after its conquests, and in the
#: first month of the 1939 scenario the hexes of China that Japan holds stay Japanese until
#: Japan has placed its units there (supplement "Placing units").
_BEFORE_DEPLOYMENT = frozenset(
    STEP_INDEX[p.label] for p in PLAY[: PLAY.index(next(p for p in PLAY if isinstance(p, Deployment)))]
)
#: step number -> the number of the step played after it
_FOLLOWS = {STEP_INDEX[a.label]: STEP_INDEX[b.label] for a, b in zip(PLAY, (*PLAY[1:], PLAY[0]), strict=True)}
_FIRST = STEP_INDEX[PLAY[0].label]

#: ``pass``, ``stand`` and ``retreat``: accepted in any decision of their side.  Standing
#: orders may be changed in any decision so they are always fixed before the enemy's dice
#: are rolled.  Only ``stand`` orders are offered: a ``retreat`` order's hexes are anybody's.
STANDING = StandingOrders(PASS_ORDER, (STAND, RETREAT), check_standing, apply_standing, stand_actions)

declare_kinds([*STANDING.kinds(), *(spec for step in STEPS for spec in step.orders)])


class DecisionKind(StrEnum):
    """Who acts now; equal to its plain string, which is what the turn files record."""

    SEQUENTIAL = "sequential"  # one side, action by action
    SIMULTANEOUS = "simultaneous"  # the sides named, each with one hidden list
    CHANCE = "chance"  # dice, seeded by both players
    END = "end"  # the game is over


@dataclass(frozen=True, slots=True)
class Decision:
    kind: DecisionKind
    sides: tuple[Side, ...]
    phase: str
    prompt: str
    chance: str = ""
    #: the month of the game, as ``YYYY-MM``
    when: str = ""


def current(state: GameState) -> Phase:
    return STEPS[state.step]


def decision(state: GameState) -> Decision:
    when = date_text(state.date)
    if state.winner is not None:
        return Decision(DecisionKind.END, (), "end", f"the game is over: the {state.winner} have won", when=when)
    step = current(state)
    if step.kind == "chance":
        prompt = f"dice for {step.name.replace('_', ' ')}"
        return Decision(DecisionKind.CHANCE, (), step.label, prompt, chance=step.name, when=when)
    if step.kind == "simultaneous":
        return Decision(DecisionKind.SIMULTANEOUS, tuple(state.acting), step.label, step.prompt, when=when)
    return Decision(DecisionKind.SEQUENTIAL, tuple(state.acting[:1]), step.label, step.prompt, when=when)


def begin(state: GameState) -> None:
    """Enter the current step and skip forward while nobody has anything to decide."""
    while state.winner is None:
        step = current(state)
        step.enter(state)
        if state.winner is not None:
            return
        if step.kind == "auto":
            step.leave(state)
            _next(state)
            continue
        if step.kind == "chance":
            if step.needed(state, ""):
                state.acting = []
                return
            step.leave(state)
            _next(state)
            continue
        actors = [s for s in step.actors(state) if step.needed(state, s)]
        if actors:
            state.acting = [Side(a) for a in actors]
            return
        step.leave(state)
        _next(state)


def finish(state: GameState) -> None:
    """The current step is over: leave it and begin the next one."""
    current(state).leave(state)
    _next(state)
    begin(state)


# --- orders ----------------------------------------------------------------------------


def check_shape(action: Action) -> None:
    """Refuse an action whose kind is unknown or whose arguments do not fit it."""
    spec = KINDS.get(action.kind)
    if spec is None:
        raise IllegalAction(f"unknown action '{action.kind}'", rule="action.unknown")
    spec.check_shape(action.args)


def check_order(state: GameState, side: str, action: Action) -> Callable[[], None] | None:
    """Check an order of ``side``, who acts now: ``pass``, a standing order, or one of the
    current step's orders.  Returns the planned change when the step worked it out."""
    check_shape(action)
    return check_shaped_order(state, side, action)


def check_shaped_order(state: GameState, side: str, action: Action) -> Callable[[], None] | None:
    """:func:`check_order` of an action whose shape was checked already (a hidden list's
    order is checked for its shape first, to be told apart from a refusal by the rules)."""
    if STANDING.ends(action):
        return None
    if STANDING.owns(action):
        STANDING.check(state, side, action)
        return None
    step = current(state)
    if not step.accepts(action.kind):
        raise step.wrong_order(action)
    return step.check(state, side, action)


def carry_out(state: GameState, side: str, action: Action, plan: Callable[[], None] | None = None) -> None:
    """Carry out a checked order other than ``pass`` (``plan``: what its check returned)."""
    if STANDING.owns(action):
        STANDING.apply(state, side, action)
    elif plan is not None:
        plan()
    else:
        current(state).apply(state, side, action)


def give(state: GameState, side: str, action: Action, plan: Callable[[], None] | None = None) -> None:
    """Carry out a checked order of a sequential decision; ``pass`` ends the side's part."""
    if STANDING.ends(action):
        turn = current(state).next_actor(state, side)
        state.acting.remove(Side(side))
        if turn:
            state.acting = [Side(turn)]
        elif not state.acting:
            finish(state)
    else:
        carry_out(state, side, action, plan)
        # A land unit that moved through Chinese hexes, left one or fell may leave hexes
        # without an enemy land unit, which are China's at once (rulebook "Chinese
        # Exceptions").  A hidden list's orders wait for the end of their step (_next).
        china_holds(state)


def give_lists(state: GameState, orders: dict[str, list[Action]]) -> None:
    """Carry out both sides' checked hidden lists: the standing orders as given, then the
    step's orders of both sides together; then the step is over."""
    step_orders: dict[str, list[Action]] = {}
    for side in SIDES:
        if side not in orders:
            continue
        step_orders[side] = [a for a in orders[side] if not STANDING.ends(a) and not STANDING.owns(a)]
        for action in orders[side]:
            if STANDING.owns(action):
                STANDING.apply(state, side, action)
    current(state).apply_simultaneous(state, step_orders)
    finish(state)


def _next(state: GameState) -> None:
    if state.step not in _BEFORE_DEPLOYMENT:
        # Rolls and the supply phase move and remove land units too (rulebook "Chinese
        # Exceptions"); see _BEFORE_DEPLOYMENT for the steps left out.
        china_holds(state)
    state.acting = []
    state.step = _FOLLOWS[state.step]
    if state.step == _FIRST:
        state.date += 1
