"""The rules engine as pbem sees it: the typed shape of ``engine/api.py`` (and of the
computer player and the arena), which the real engine and the protocol tests' small
stand-in both have.  mypy checks both against it (tests/protocol/test_engine_shape.py),
so the stand-in cannot drift from the real engine unnoticed.

A game state is opaque here (``State``): pbem stores it, hashes it and hands it back,
and learns everything else through these functions.  So are an event of the game's log,
a snapshot to compare a state with and the world map (pbem reads its grid; the map
renderer, ``scenarios.gameview``, takes it and a side's ``Board`` back checked).  The
engine's own types stand in for them in :class:`RulesEngine`'s parameters, so that mypy
checks each engine with its own types (tests/protocol/test_engine_shape.py); pbem sees
:data:`Engine`, these shapes filled in with the opaque ones.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Protocol, TypedDict, TypeVar

from pbem.protocol.jsondoc import Json


class State(Protocol):
    """A game state: pbem never looks inside one."""


class Event(Protocol):
    """A game-log event: pbem only has it written out, by event_text / event_json."""


class Snapshot(Protocol):
    """What a state was, kept to tell later what changed (``changes``)."""


#: An argument of an order: a number, a name, a yes or no.
Arg = int | str | bool


class Grid(Protocol):
    """The world's grid of hexes: its size and the names of its hexes (``engine.hexgrid.HexGrid``)."""

    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    def label(self, hex_id: int, /) -> str: ...
    def parse_label(self, text: str, /) -> int: ...  # raises ValueError with a reason for people


class WorldMap(Protocol):
    """The static world map (``engine.hexmap.HexMap``): pbem reads its grid, the map renderer
    (``scenarios.gameview``) the rest."""

    @property
    def grid(self) -> Grid: ...


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
    def args(self) -> tuple[Arg, ...]: ...
    def to_wire(self) -> list[Arg]: ...


#: The computer player that claims and reaction orders re-execute (docs/turn-file-format.md,
#: 5.8 and 12): the engine's frozen reference player, so that every receiver, whatever its
#: release of the bot, replays the same decisions; the bot's improvements go to ``bot``.
PINNED_PLAYER = "v1"

S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)
E = TypeVar("E", bound=Event)
P = TypeVar("P", bound=Snapshot)
M = TypeVar("M", bound=WorldMap)
A_co = TypeVar("A_co", bound=Action, covariant=True)
S_co = TypeVar("S_co", bound=State, covariant=True)
S_contra = TypeVar("S_contra", bound=State, contravariant=True)


class ActionClass(Protocol[A_co]):
    """The action type itself: build one, or rebuild one from its wire form (checked)."""

    def __call__(self, kind: str, args: tuple[Arg, ...] = ..., /) -> A_co: ...
    def from_wire(self, wire: object, /) -> A_co: ...


class CountryLine(Protocol):
    """One country of a side, for people (``engine.summary.CountryLine``)."""

    @property
    def name(self) -> str: ...
    @property
    def money(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def to_place(self) -> str: ...
    @property
    def pool_points(self) -> int: ...
    @property
    def pool_units(self) -> int: ...


class UnitLine(Protocol):
    """One unit, for people; its hex as the order language writes it (``engine.summary.UnitLine``)."""

    @property
    def id(self) -> int: ...
    @property
    def side(self) -> str: ...
    @property
    def country(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def strength(self) -> str: ...
    @property
    def hex(self) -> str: ...
    @property
    def city(self) -> str: ...
    @property
    def where(self) -> str: ...
    @property
    def flags(self) -> tuple[str, ...]: ...


class StackUnit(Protocol):
    """One unit of a hex as its counter reads, with what a player looks for in a stack
    (``engine.inspect.UnitLine``)."""

    @property
    def id(self) -> int: ...
    @property
    def label(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def country(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def counter(self) -> str: ...
    @property
    def numbers(self) -> str: ...
    @property
    def supply(self) -> str: ...
    @property
    def notes(self) -> tuple[str, ...]: ...
    @property
    def done(self) -> tuple[str, ...]: ...
    @property
    def cargo(self) -> tuple[str, ...]: ...


class Summary(Protocol):
    """A side's countries and units (``engine.summary.Summary``)."""

    @property
    def countries(self) -> tuple[CountryLine, ...]: ...
    @property
    def units(self) -> tuple[UnitLine, ...]: ...


class Near(Protocol):
    """The units of both sides around a place, nearest first (``engine.summary.Near``)."""

    @property
    def place(self) -> str: ...
    @property
    def radius(self) -> int: ...
    @property
    def units(self) -> tuple[tuple[int, UnitLine], ...]: ...


class BoardUnit(Protocol):
    """One counter on the map (``engine.board.BoardUnit``)."""

    @property
    def id(self) -> int: ...
    @property
    def hex(self) -> int: ...
    @property
    def label(self) -> str: ...
    @property
    def in_port(self) -> bool: ...


class Board(Protocol):
    """The position as one side may see it, for a picture of the game (``engine.board.Board``):
    ``scenarios.gameview`` draws it; pbem reads the few lines the page says in words."""

    @property
    def map(self) -> WorldMap: ...
    @property
    def weather(self) -> tuple[tuple[str, str], ...]: ...  # (zone, condition) for every zone
    @property
    def grounded(self) -> tuple[str, ...]: ...
    @property
    def winner(self) -> str | None: ...
    @property
    def units(self) -> tuple[BoardUnit, ...]: ...


class NamedUnit(TypedDict):
    name: str
    type: str
    profile: str


class PoolSummary(TypedDict):
    land: dict[str, int]
    supply: int
    naval: dict[str, int]
    air: dict[str, int]
    naval_units: list[NamedUnit]
    air_units: list[NamedUnit]


class CountryInfo(TypedDict):
    name: str
    code: str
    region: str
    partnership: str
    joins_at_start: str | None
    leans_allied: bool
    leans_axis: bool
    has_units: bool
    rail_capacity: int
    money: int
    colonies: list[str]
    pool: PoolSummary


class CityInfo(TypedDict):
    name: str
    country: str
    hex: str
    capital: bool
    major_port: bool
    resource: bool


class StartControl(TypedDict):
    temp_border: str
    country: str
    first_turn_placement: bool


class ScenarioInfo(TypedDict):
    """What a scenario sets up, for people: `pbem scenario info --json`'s document as the
    engine makes it (``engine.scenario_info.ScenarioInfo``)."""

    name: str
    title: str
    start: str
    start_phase: str
    data_digest: str
    map_digest: str
    hexes: int
    land_hexes: int
    resource_hexes: int
    start_control: list[StartControl]
    arrivals: int
    countries: list[CountryInfo]
    cities: list[CityInfo]


class DraftShape(Protocol[S_co, A]):
    """A side's hidden list for the current simultaneous decision, checked action by action
    (``engine.api.Draft``): ``offer`` accepts the next action or raises IllegalAction (with
    ``.side`` and ``.index``) and leaves the draft as it was."""

    @property
    def actions(self) -> list[A]: ...
    @property
    def state(self) -> S_co: ...
    def offer(self, action: A, /) -> None: ...


class RulesEngine(Protocol[S, A, E, P, M]):
    """What pbem calls on the engine (docs/design.md, "The engine interface"), with the
    engine's state, action, event, snapshot and world map types."""

    # Read-only members (properties), so that a module's own subclasses match them.
    @property
    def ENGINE_VERSION(self) -> str: ...
    @property
    def Action(self) -> ActionClass[A]: ...
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

    def scenarios(self) -> dict[str, str]: ...
    def scenario_names(self) -> list[str]: ...
    def describe_scenario(self, name: str, on_map: M | None = ..., /) -> ScenarioInfo: ...
    def new_game(self, scenario: str, options: dict[str, object] | None = ..., /, *, digest: str | None = ...) -> S: ...
    def serialize(self, state: S, /) -> bytes: ...
    def deserialize(self, data: bytes, /, *, scenario: str | None = ...) -> S: ...
    def state_hash(self, state: S, /) -> bytes: ...
    def scenario_digest(self, name: str, /) -> str: ...
    def scenario_has_digest(self, name: str, digest: str, /) -> bool: ...
    def decision(self, state: S, /) -> Decision: ...
    def winner(self, state: S, /) -> str | None: ...
    def legal_actions(self, state: S, side: str, /) -> list[A]: ...
    def standing_orders(self, state: S, side: str, /) -> list[A]: ...
    def check(self, state: S, side: str, action: A, /) -> None: ...
    def apply(self, state: S, side: str, action: A, /) -> None: ...
    def spelled_out(self, state: S, side: str, action: A, /) -> A: ...
    def standing_before_roll(self, state: S, side: str, action: A, /) -> None: ...
    def apply_simultaneous(self, state: S, orders_by_side: dict[str, list[A]], /) -> None: ...
    def preview(self, state: S, side: str, actions: list[A], /) -> S: ...
    def draft(self, state: S, side: str, /) -> DraftShape[S, A]: ...
    def apply_chance(self, state: S, seed: bytes, /) -> list[str]: ...
    def apply_chance_events(self, state: S, seed: bytes, /) -> list[E]: ...
    def snapshot(self, state: S, /) -> P: ...
    def changes(self, before: P, after: S, told: list[E] | None = ..., /) -> list[E]: ...
    def event_text(self, state: S, event: E, /) -> str: ...
    def event_json(self, state: S, event: E, /) -> dict[str, Json]: ...
    def parse_order(self, state: S, side: str, line: str, /) -> A: ...
    def format_action(self, state: S, action: A, /, named: bool = ...) -> str: ...
    def order_reference(self) -> Sequence[OrderHelp]: ...
    def order_kinds(self, state: S, /) -> Sequence[OrderKind]: ...
    def view(self, state: S, side: str, /) -> S: ...
    def summary(self, state: S, side: str, /) -> Summary: ...
    def board(self, state: S, side: str, /) -> Board: ...
    def game_map(self, state: S, /) -> M: ...
    def near(self, state: S, place: str, radius: int, /) -> Near: ...
    def hex_report(self, state: S, side: str, where: str, attackers: Collection[int] = ..., /) -> HexReport: ...
    def stack(self, state: S, side: str, where: str, /) -> tuple[str, Sequence[StackUnit]]: ...
    def pass_warnings(self, state: S, side: str, /) -> Sequence[PassWarning]: ...
    def placements(self, state: S, side: str, /, near: str = ...) -> Sequence[Placing]: ...
    def crowding(self, state: S, side: str, action: A, count: int, /) -> Crowding | None: ...
    def legal_matching(
        self,
        state: S,
        side: str,
        /,
        *,
        units: Collection[int] = ...,
        places: Collection[str] = ...,
        countries: Collection[str] = ...,
        kinds: Collection[str] = ...,
    ) -> list[A]: ...


class Room(Protocol):
    """A hex where units may be placed now, with its stacking room (``engine.free.Room``)."""

    @property
    def hex(self) -> str: ...
    @property
    def city(self) -> str: ...
    @property
    def city_distance(self) -> int: ...
    @property
    def used(self) -> int: ...
    @property
    def limit(self) -> int | None: ...
    @property
    def distance(self) -> int: ...


class Waiting(Protocol):
    """Units waiting to be placed and the order that places them (``engine.free.Waiting``)."""

    @property
    def label(self) -> str: ...
    @property
    def order(self) -> str: ...
    @property
    def id(self) -> int: ...
    @property
    def what(self) -> tuple[str | int, ...]: ...  # the placing orders' kind and what they place


class Placing(Protocol):
    """Waiting units that may go to the same hexes (``engine.free.Placing``)."""

    @property
    def waiting(self) -> tuple[Waiting, ...]: ...
    @property
    def counts(self) -> str: ...
    @property
    def hexes(self) -> tuple[Room, ...]: ...


class Crowding(Protocol):
    """A placing order's hex and the free hexes nearest it (``engine.free.Crowding``)."""

    @property
    def target(self) -> Room: ...
    @property
    def counts(self) -> str: ...
    @property
    def free(self) -> tuple[Room, ...]: ...


class OrderKind(Protocol):
    """One kind of order the current decision accepts (``engine.actions.KindSpec``)."""

    @property
    def name(self) -> str: ...
    @property
    def help(self) -> str: ...
    def usage(self) -> str: ...
    def roles_for(self, count: int, /) -> list[str]: ...  # each argument's role ("int", "hex", ...)


class OrderHelp(Protocol):
    """One kind of order in the reference (``engine.orders.OrderHelp``)."""

    @property
    def kind(self) -> str: ...
    @property
    def usage(self) -> str: ...
    @property
    def help(self) -> str: ...
    @property
    def arguments(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def example(self) -> str: ...


class ComputerPlayer(Protocol[S_contra, A]):
    """What pbem calls on the computer player (``engine.ai``)."""

    def decide(
        self, state: S_contra, side: str, seed: bytes, /, player: str = ..., budget_s: float | None = ...
    ) -> list[A]: ...

    def level_player(self, level: int, /) -> str:
        """The player of a level a person chooses; ValueError, with a sentence, for no level."""
        ...


class GameResult(Protocol):
    """One game the arena played (``engine.ai.arena.GameResult``)."""

    @property
    def error(self) -> str: ...  # why the game stopped early ("" when it did not)
    def to_json(self) -> dict[str, object]: ...


class Written(Protocol):
    """An arena's result that pbem only writes out (``engine.ai.arena.Summary``, ``Comparison``)."""

    def to_json(self) -> dict[str, object]: ...


class ArenaShape(Protocol[S_co, A]):
    """Computer players against each other, without files (``engine.ai.arena``)."""

    def run(
        self,
        scenario: str,
        until: str,
        games: int,
        axis: str,
        allies: str,
        seed: int = ...,
        budget_s: float | None = ...,
        report: Callable[[str], None] | None = ...,
        *,
        clock: Callable[[], float] = ...,
        on_game: Callable[[GameResult], None] | None = ...,
        on_decision: Callable[[Decision, S_co], None] | None = ...,
        decide_hidden: Callable[[S_co, str, bytes, str, float | None], list[A]] | None = ...,
    ) -> Written: ...
    def compare(
        self,
        scenario: str,
        until: str,
        games: int,
        a: str,
        b: str,
        *,
        seed: int = ...,
        budget_s: float | None = ...,
        report: Callable[[str], None] | None = ...,
        clock: Callable[[], float] = ...,
        on_game: Callable[[GameResult, dict[str, str]], None] | None = ...,
    ) -> Written: ...


class PassWarning(Protocol):
    """What ending a decision now would cost (``engine.passing.PassWarning``)."""

    @property
    def slug(self) -> str: ...
    @property
    def sentence(self) -> str: ...
    @property
    def about(self) -> tuple[str, ...]: ...


class AttackOdds(Protocol):
    """What an attack on a hex would be now (``engine.inspect.AttackOdds``)."""

    @property
    def attackers(self) -> tuple[str, ...]: ...
    @property
    def supports(self) -> tuple[str, ...]: ...
    @property
    def barred(self) -> tuple[str, ...]: ...
    @property
    def attack(self) -> str: ...
    @property
    def defence(self) -> str: ...
    @property
    def ratio(self) -> str: ...
    @property
    def defender_loses(self) -> float: ...
    @property
    def attackers_eliminated(self) -> float: ...
    @property
    def notes(self) -> tuple[str, ...]: ...


class HexReport(Protocol):
    """Everything about a hex that a side sees (``engine.inspect.HexReport``)."""

    @property
    def hex(self) -> str: ...
    @property
    def city(self) -> str: ...
    @property
    def terrain(self) -> str: ...
    @property
    def territory(self) -> str: ...
    @property
    def controller(self) -> str: ...
    @property
    def control_side(self) -> str: ...
    @property
    def weather(self) -> str: ...
    @property
    def installations(self) -> tuple[str, ...]: ...
    @property
    def units(self) -> tuple[StackUnit, ...]: ...
    @property
    def odds(self) -> AttackOdds | None: ...


#: The engine as pbem sees it: its state, events, snapshots and map opaque.
Engine = RulesEngine[State, Action, Event, Snapshot, WorldMap]
#: A hidden list being drafted, as pbem sees it.
Draft = DraftShape[State, Action]
#: The computer player as pbem sees it.
Player = ComputerPlayer[State, Action]
#: The arena as pbem sees it.
Arena = ArenaShape[State, Action]


def refusal_rule(exc: BaseException) -> str:
    """The rule slug an engine refusal carries ('' if it carries none)."""
    rule = getattr(exc, "rule", "")
    return rule if isinstance(rule, str) else ""
