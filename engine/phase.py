"""What every step of the sequence of play offers the engine.

A step is one of:

* ``simultaneous`` - both sides decide at once, secretly (war declaration,
  deployment, money exchange, builds); each side hands in one list of actions;
* ``sequential``   - one side acts, action by action, and ends with ``pass``;
* ``chance``       - the engine needs a 32-byte seed to roll dice;
* ``auto``         - the engine does the work itself (e.g. the supply phase).

Rules modules subclass :class:`Phase`; :mod:`engine.sequence` lists them in order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.actions import PASS, Action, IllegalAction, KindSpec
from engine.events import Event
from engine.sides import SIDES

if TYPE_CHECKING:
    from engine.rng import Rng
    from engine.state import GameState


class Phase:
    name: ClassVar[str] = ""
    kind: ClassVar[str] = "sequential"
    #: the orders this step accepts besides the standing orders: the one declaration of
    #: each action kind, from which :mod:`engine.sequence` builds the table of all kinds
    orders: ClassVar[tuple[KindSpec, ...]] = ()
    prompt: ClassVar[str] = ""
    #: A simultaneous step whose :meth:`apply_simultaneous` carries out the Axis's list,
    #: then the Allies', order by order with :meth:`apply`, and whose :meth:`check` plans
    #: nothing: a side's draft (its list carried out on a copy, engine.api.Draft) is then
    #: the reveal's state after that side's list, and the engine continues from it.
    lists_in_turn: ClassVar[bool] = False

    def __init__(self, mover: str = "") -> None:
        self.mover = mover  # the side whose main phase this step belongs to ('' outside main phases)

    @property
    def label(self) -> str:
        return f"{self.mover}.{self.name}" if self.mover else self.name

    # --- flow --------------------------------------------------------------------

    def actors(self, state: GameState) -> tuple[str, ...]:
        """Sides that decide in this step."""
        if self.kind == "simultaneous":
            return SIDES
        return (self.mover,) if self.mover else ()

    def enter(self, state: GameState) -> None:
        """Work done when the step begins (before anyone decides)."""

    def needed(self, state: GameState, side: str) -> bool:
        """Does ``side`` have anything to decide here?  If not, the engine does not ask."""
        return True

    def leave(self, state: GameState) -> None:
        """Work done when the step is over."""

    def next_actor(self, state: GameState, side: str) -> str:
        """Sequential steps where the sides take turns: the side to act after ``side``
        passed ('' when ``side``'s pass ends its part as usual)."""
        return ""

    # --- decisions ---------------------------------------------------------------

    def accepts(self, kind: str) -> bool:
        """Is ``kind`` one of this step's orders?"""
        return any(spec.name == kind for spec in self.orders)

    def wrong_order(self, action: Action) -> IllegalAction:
        return IllegalAction(
            f"'{action.kind}' is not an order of the {self.name.replace('_', ' ')} phase", rule="action.wrong-phase"
        )

    def legal(self, state: GameState, side: str) -> list[Action]:
        """Every legal action of ``side`` now (``pass`` included), sorted."""
        return [PASS]

    def check(self, state: GameState, side: str, action: Action) -> Callable[[], None] | None:
        """Raise IllegalAction with a reason if ``action``, one of :attr:`orders`, is not
        allowed now (the sequence refuses other kinds before asking).

        A phase whose check has already worked out the whole change may return it as a
        function; the engine then calls that instead of :meth:`apply`, so a received
        turn file does not plan every move twice."""
        if action.kind != "pass":
            raise self.wrong_order(action)
        return None

    def spelled_out(self, state: GameState, side: str, action: Action) -> Action:
        """``action`` in the form that is cheapest to check again and has the same effect
        (the movement phases give a move its whole path); by default, as it is."""
        return action

    def apply(self, state: GameState, side: str, action: Action) -> None:
        """Carry out a checked action (``pass`` is handled by the engine)."""

    def apply_simultaneous(self, state: GameState, orders: dict[str, list[Action]]) -> None:
        """Carry out both sides' checked lists.  The default applies them axis first."""
        for side in sorted(orders):
            for action in orders[side]:
                if action.kind != "pass":
                    self.apply(state, side, action)

    def roll(self, state: GameState, rng: Rng) -> list[str]:
        """Chance steps: resolve with the random stream, return lines for the players."""
        return []

    def roll_events(self, state: GameState, rng: Rng) -> list[Event]:
        """:meth:`roll` as game-log events; a step whose results a comparison of states
        cannot tell (combat) returns its own structured records instead."""
        return [Event("chance", what=line) for line in self.roll(state, rng)]


@dataclass(frozen=True, slots=True)
class StandingOrders:
    """The orders a side may give in any of its decisions, whatever the step: ``pass``,
    which ends the side's part of the step, and the orders of :attr:`orders`, which change
    what the side has ordered for later (``stand``) rather than doing the step's work.
    :mod:`engine.sequence` consults it before handing an order to the current step."""

    ends_part: KindSpec
    orders: tuple[KindSpec, ...]
    #: raise IllegalAction if a standing order may not be given now
    check: Callable[[GameState, str, Action], None]
    apply: Callable[[GameState, str, Action], None]
    #: the standing orders a side may give now (each changes one)
    offered: Callable[[GameState, str], list[Action]]

    def ends(self, action: Action) -> bool:
        return action.kind == self.ends_part.name

    def owns(self, action: Action) -> bool:
        """Is ``action`` a standing order (not ``pass``, not the step's own)?"""
        return any(spec.name == action.kind for spec in self.orders)

    def kinds(self) -> tuple[KindSpec, ...]:
        return (self.ends_part, *self.orders)


class AttemptRoll(Phase):
    """The chance step of an attempt ordered this month on ``country`` (Spain's entry,
    Vichy France): needed while the country's ``entry_attempt`` mark is "pending"."""

    kind = "chance"
    country: ClassVar[str] = ""

    def needed(self, state: GameState, side: str) -> bool:
        found = state.countries.get(self.country)
        return found is not None and found.flags.entry_attempt == "pending"
