"""The rules engine as pbem sees it: the typed shape of ``engine/api.py`` (and of the
computer player), which the real engine and the protocol tests' small stand-in both
have.  mypy checks both against it (tests/protocol/test_engine_shape.py), so the
stand-in cannot drift from the real engine unnoticed.

A game state is opaque here (``State``): pbem stores it, hashes it and hands it back,
and learns everything else through these functions.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Protocol

#: A game state: pbem never looks inside one.
State = Any


class Decision(Protocol):
    """Who acts now, in which phase and month (``engine.sequence.Decision``)."""

    @property
    def kind(self) -> str: ...  # "sequential" | "simultaneous" | "chance" | "end"
    @property
    def sides(self) -> tuple[str, ...]: ...
    @property
    def phase(self) -> str: ...
    @property
    def prompt(self) -> str: ...
    @property
    def chance(self) -> str: ...
    @property
    def when(self) -> str: ...


class Action(Protocol):
    """One order: a kind and its arguments, with a msgpack-ready wire form."""

    @property
    def kind(self) -> str: ...
    @property
    def args(self) -> tuple[Any, ...]: ...
    def to_wire(self) -> list[Any]: ...


class ActionClass(Protocol):
    """The action type itself: build one, or rebuild one from its wire form (checked)."""

    def __call__(self, kind: str, args: tuple[Any, ...] = ..., /) -> Action: ...
    def from_wire(self, wire: Any, /) -> Action: ...


class RulesEngine(Protocol):
    """What pbem calls on the engine (docs/design.md, "The engine interface")."""

    # Read-only members (properties), so that a module's own subclasses match them.
    @property
    def ENGINE_VERSION(self) -> str: ...
    @property
    def Action(self) -> ActionClass: ...
    @property
    def EngineError(self) -> type[Exception]: ...
    @property
    def IllegalAction(self) -> type[Exception]: ...  # carries .rule, .side, .index (see refusal_rule)
    @property
    def OrderError(self) -> type[Exception]: ...  # carries .rule
    @property
    def StateError(self) -> type[Exception]: ...
    @property
    def ScenarioError(self) -> type[Exception]: ...

    def new_game(self, scenario: str, options: dict[str, object] | None = ..., /) -> State: ...
    def serialize(self, state: State, /) -> bytes: ...
    def deserialize(self, data: bytes, /, world: Any = ..., scenario: str | None = ...) -> State: ...
    def state_hash(self, state: State, /) -> bytes: ...
    def scenario_digest(self, name: str, /) -> str: ...
    def decision(self, state: State, /) -> Decision: ...
    def winner(self, state: State, /) -> str | None: ...
    def legal_actions(self, state: State, side: str, /) -> list[Any]: ...
    def standing_orders(self, state: State, side: str, /) -> list[Any]: ...
    def check(self, state: State, side: str, action: Any, /) -> None: ...
    def apply(self, state: State, side: str, action: Any, /) -> None: ...
    def apply_simultaneous(self, state: State, orders_by_side: dict[str, list[Any]], /) -> None: ...
    def preview(self, state: State, side: str, actions: list[Any], /) -> State: ...
    def apply_chance(self, state: State, seed: bytes, /) -> list[str]: ...
    def parse_order(self, state: State, side: str, line: str, /) -> Any: ...
    def format_action(self, state: State, action: Any, /) -> str: ...
    def summary(self, state: State, side: str, /) -> Any: ...
    def hex_report(self, state: State, side: str, where: str, /) -> Any: ...
    def pass_warnings(self, state: State, side: str, /) -> list[Any]: ...  # each has .slug and .sentence
    def legal_matching(
        self,
        state: State,
        side: str,
        /,
        *,
        units: Collection[int] = ...,
        places: Collection[str] = ...,
        countries: Collection[str] = ...,
        kinds: Collection[str] = ...,
    ) -> list[Any]: ...


class ComputerPlayer(Protocol):
    """What pbem calls on the computer player (``engine.ai``)."""

    def decide(
        self, state: State, side: str, seed: bytes, /, player: str = ..., budget_s: float | None = ...
    ) -> list[Any]: ...


def refusal_rule(exc: BaseException) -> str:
    """The rule slug an engine refusal carries ('' if it carries none)."""
    rule = getattr(exc, "rule", "")
    return rule if isinstance(rule, str) else ""


def refusal_side(exc: BaseException) -> str | None:
    """The side whose list an engine refusal concerns, if it says."""
    side = getattr(exc, "side", None)
    return side if isinstance(side, str) else None
