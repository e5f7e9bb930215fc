"""The engine's whole interface: what the CLI, the protocol, the bot and the tests call.

Every function is deterministic.  Functions that change a state either succeed
completely or raise and leave the state exactly as it was: actions are checked
before anything is changed, and a checked action always applies.

A game, the decision it waits for, and an order given as text:

>>> from engine import api
>>> state = api.new_game("1939")
>>> d = api.decision(state)
>>> d.kind, d.phase, d.when
(<DecisionKind.SIMULTANEOUS: 'simultaneous'>, 'war_declaration', '1939-09')
>>> d.sides
(<Side.AXIS: 'axis'>, <Side.ALLIES: 'allies'>)
>>> d.kind == "simultaneous" and d.sides == ("axis", "allies")
True
>>> order = api.parse_order(state, "axis", "declare Poland")
>>> order
Action(kind='declare', args=('Poland',))
>>> api.format_action(state, order)
'declare Poland'

A refusal explains itself to a person and names its rule for a program:

>>> try:
...     api.check(state, "axis", api.Action("declare", ("Atlantis",)))
... except api.IllegalAction as refusal:
...     print(refusal.rule, "/", refusal)
country.unknown / there is no country named Atlantis.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from engine import free, inspect, orders, passing
from engine.actions import PASS, Action, EngineError, IllegalAction, KindSpec, OrderError, StateError
from engine.board import Board
from engine.board import board as _board
from engine.events import Event, Snapshot
from engine.events import changes as _changes
from engine.events import snapshot as _snapshot
from engine.free import Crowding, Placing
from engine.hexmap import HexMap as WorldMap
from engine.inspect import HexReport
from engine.jsondata import JsonObject
from engine.newgame import new_game as _new_game
from engine.newgame import scenario_digest, scenario_world, world_for, world_map, world_matching, world_of
from engine.passing import PassWarning
from engine.rng import SEED_BYTES, Rng
from engine.scenario import ScenarioError, list_scenarios, load_scenario
from engine.scenario_info import ScenarioInfo, scenario_info
from engine.sequence import (
    STANDING,
    Decision,
    DecisionKind,
    begin,
    carry_out,
    check_order,
    check_shape,
    check_shaped_order,
    current,
    finish,
    give,
    give_lists,
)
from engine.sequence import decision as _decision
from engine.sides import SIDES
from engine.state import GameState
from engine.summary import Near, Summary
from engine.summary import near as _near
from engine.summary import summary as _summary
from engine.world import World

__all__ = [
    "ENGINE_VERSION",
    "Action",
    "Board",
    "Crowding",
    "Decision",
    "DecisionKind",
    "Draft",
    "EngineError",
    "Event",
    "GameState",
    "HexReport",
    "IllegalAction",
    "KindSpec",
    "OrderError",
    "PassWarning",
    "Placing",
    "ScenarioError",
    "ScenarioInfo",
    "Snapshot",
    "StateError",
    "WorldMap",
    "apply",
    "apply_chance",
    "apply_chance_events",
    "apply_simultaneous",
    "board",
    "changes",
    "check",
    "crowding",
    "decision",
    "describe_scenario",
    "deserialize",
    "draft",
    "event_json",
    "event_text",
    "format_action",
    "game_map",
    "hex_report",
    "legal_actions",
    "legal_matching",
    "near",
    "new_game",
    "order_kinds",
    "order_reference",
    "parse_order",
    "pass_warnings",
    "placements",
    "preview",
    "scenario_digest",
    "scenario_has_digest",
    "scenario_names",
    "scenarios",
    "serialize",
    "snapshot",
    "spelled_out",
    "stack",
    "standing_before_roll",
    "standing_orders",
    "state_hash",
    "summary",
    "view",
    "winner",
]

#: Bumped whenever a rule change can make the same actions give another state.
ENGINE_VERSION = "0.3.0"


def new_game(
    scenario: str | World, options: dict[str, object] | None = None, *, digest: str | None = None
) -> GameState:
    """A new game at the start of a scenario ("1937", "1939") or of a custom world.  A
    scenario's game is on the newest packaged map, or on the one whose world has the
    ``digest`` an invitation names (a game begun before the map changed)."""
    state = _new_game(scenario, options or {}, digest)
    begin(state)
    return state


def scenarios() -> dict[str, str]:
    """The packaged scenarios by name ("1937", "1939"), with their titles."""
    return {name: load_scenario(name).title for name in list_scenarios()}


def scenario_names() -> list[str]:
    """The packaged scenarios' names, without loading them (a title needs its scenario
    read and checked: a tenth of a second each)."""
    return list_scenarios()


def describe_scenario(name: str, on_map: WorldMap | None = None) -> ScenarioInfo:
    """What scenario ``name`` sets up (sides, money, pools, cities), as plain data for people;
    ``on_map`` replaces the packaged world map (tests).  Raises ScenarioError."""
    return scenario_info(load_scenario(name), world_map() if on_map is None else on_map)


def serialize(state: GameState) -> bytes:
    return state.to_bytes()


def deserialize(data: bytes, world: World | None = None, scenario: str | None = None) -> GameState:
    """Load a state; the world is the given one, or the packaged ``scenario``'s on the
    packaged map the state names, or found from the state's own record (which may mean
    loading every scenario).  The state's world digest must match either way (StateError)."""
    if world is None and scenario is not None:
        if scenario not in list_scenarios():
            raise StateError(f"saved game belongs to scenario '{scenario[:40]}', which this program does not have")
        # the scenario's world on the map the game began on; none matching, the newest
        # one refuses the state with the loader's own reason
        world = world_matching(data, (scenario,)) or world_of(scenario)
    return GameState.from_bytes(data, world if world is not None else world_for(data))


def scenario_has_digest(name: str, digest: str) -> bool:
    """Whether ``digest`` names the world of the packaged scenario ``name`` on one of the
    packaged maps (the newest, or one a game begun earlier keeps).  Raises ScenarioError
    or OSError for a scenario this program cannot load."""
    world_of(name)
    return scenario_world(name, digest) is not None


def state_hash(state: GameState) -> bytes:
    return state.digest()


def decision(state: GameState) -> Decision:
    return _decision(state)


def summary(state: GameState, side: str) -> Summary:
    """What ``side`` has, for people: its countries' money and pools, its units and where.
    Any side's: a player sees the whole state (see :func:`view`)."""
    _side(side)
    return _summary(state, side)


def board(state: GameState, side: str) -> Board:
    """The position as ``side`` sees it, as plain data for a map of the game (see
    engine/board.py): control, installations, weather and every counter on the map."""
    _side(side)
    return _board(state, side)


def game_map(state: GameState) -> WorldMap:
    """The map the game is played on (hexes, their names and terrain)."""
    return state.world.map


def near(state: GameState, place: str, radius: int) -> Near:
    """The units of both sides within ``radius`` hexes of ``place`` (``COL,ROW``, ``[City]``
    or a city's name), nearest first; an unknown city raises OrderError with the names it
    may have meant."""
    if radius < 0:
        raise OrderError(f"a radius counts hexes: {radius} is below 0", rule="order.number")
    return _near(state, place, radius)


def winner(state: GameState) -> str | None:
    return state.winner


def view(state: GameState, side: str) -> GameState:
    """What ``side`` may see.  Hidden decisions never enter the state before they are
    revealed (the protocol keeps them), so a side sees the whole state."""
    _side(side)
    return state


def _side(side: str) -> None:
    if side not in SIDES:
        raise IllegalAction(f"'{side}' is not a side; the sides are axis and allies", rule="side.unknown")


def legal_actions(state: GameState, side: str) -> list[Action]:
    _side(side)
    if side not in state.acting or state.winner is not None:
        return []
    return current(state).legal(state, side)


def legal_matching(
    state: GameState,
    side: str,
    *,
    units: Collection[int] = (),
    places: Collection[str] = (),
    countries: Collection[str] = (),
    kinds: Collection[str] = (),
) -> list[Action]:
    """The part of :func:`legal_actions` that concerns one of ``units`` (ids), ``places``
    (``COL,ROW``, ``[City]`` or a city name: orders naming the hex or moving a unit that
    stands there), ``countries`` and ``kinds``; an empty collection does not filter.
    Faster than the whole list: the movement phases search only units that can match.
    Raises OrderError for a place that does not exist."""
    _side(side)
    if side not in state.acting or state.winner is not None:
        return []
    return inspect.legal_matching(state, side, units=units, places=places, countries=countries, kinds=kinds)


def hex_report(state: GameState, side: str, where: str, attackers: Collection[int] = ()) -> HexReport:
    """One hex as ``side`` sees it: terrain, control, installations, every unit with its
    counter and supply, and the odds of an attack on it by ``side``'s adjacent units now
    (only by ``attackers``, unit ids, when given: the odds of one attack order).
    ``where`` is ``COL,ROW``, ``[City]`` or a city name (OrderError if there is none)."""
    _side(side)
    return inspect.hex_report(state, side, where, attackers)


def stack(state: GameState, side: str, where: str) -> tuple[str, tuple[inspect.UnitLine, ...]]:
    """The units in the hex ``where`` as ``side`` sees them (those :func:`hex_report`
    lists, without the rest of the hex, for a look at a stack), and the hex as ``COL,ROW``.
    ``where`` is ``COL,ROW``, ``[City]`` or a city name (OrderError if there is none)."""
    _side(side)
    return inspect.stack(state, where)


def placements(state: GameState, side: str, near: str = "") -> list[Placing]:
    """Where ``side``'s units waiting to be placed may go in the current step (none when it
    places nothing now), grouped by the hexes they may take, with the room each hex has
    left; ``near`` (``COL,ROW``, ``[City]`` or a city name: OrderError if there is none)
    puts each group's hexes nearest it first."""
    _side(side)
    return free.placements(state, side, near)


def crowding(state: GameState, side: str, action: Action, count: int) -> Crowding | None:
    """For a placing order (``place``, ``place_land``): the room in its hex, and the
    ``count`` hexes nearest it where the same units may go now (None for other orders):
    what a person needs when the order is refused because the hex is full."""
    _side(side)
    return free.crowding(state, side, action, count)


def pass_warnings(state: GameState, side: str) -> list[PassWarning]:
    """What ``side`` would lose by passing now (aircraft lost in the air, land units out
    of supply, money unspent), each with a stable ``slug`` and a ``sentence``.  A pass
    stays legal: this only informs."""
    _side(side)
    return passing.pass_warnings(state, side)


def standing_orders(state: GameState, side: str) -> list[Action]:
    """The ``stand`` orders ``side`` may give now; they are accepted in any of its decisions
    and are not repeated in :func:`legal_actions`."""
    _side(side)
    return STANDING.offered(state, side)


def order_kinds(state: GameState) -> list[KindSpec]:
    """The kinds of order the current decision accepts, standing orders and ``pass``
    included (none in a chance step or once the game is over): the shape of each order
    a player may give now, for a page that offers them by kind."""
    if state.winner is not None or current(state).kind == "chance":
        return []
    return [*current(state).orders, *STANDING.kinds()]


def check(state: GameState, side: str, action: Action) -> None:
    """Raise IllegalAction with a reason a player understands, or return if legal."""
    _check(state, side, action)


def _check(state: GameState, side: str, action: Action) -> Callable[[], None] | None:
    """:func:`check`, returning the planned change when the phase worked it out."""
    _side(side)
    d = _decision(state)
    if d.kind == "end":
        raise IllegalAction("the game is over", rule="game.over")
    if d.kind == "chance":
        raise IllegalAction(f"the dice must be rolled for {d.phase} first", rule="decision.dice-first")
    if side not in d.sides:
        raise IllegalAction(
            f"it is not the {side}' turn to act in {d.phase.replace('_', ' ')}", rule="decision.not-your-turn"
        )
    return check_order(state, side, action)


def spelled_out(state: GameState, side: str, action: Action) -> Action:
    """``action`` as it is best written into a turn file: the same order in the form the
    receiver checks fastest (a move of a land, naval or air unit given by its destination
    alone becomes the move along the path the rules choose for it, so the receiver checks
    that path instead of searching for one).  An order ``side`` may not give now is left as
    it is: :func:`apply` refuses it."""
    d = _decision(state)
    if d.kind != "sequential" or side not in d.sides:
        return action
    return current(state).spelled_out(state, side, action)


def apply(state: GameState, side: str, action: Action) -> None:
    """Apply one action of a sequential decision; ``pass`` ends the side's part."""
    d = _decision(state)
    if d.kind != "sequential":
        raise IllegalAction(
            f"the {d.phase.replace('_', ' ')} phase is decided by both sides at once", rule="decision.simultaneous"
        )
    plan = _check(state, side, action)
    # A checked action cannot fail, so it is applied in place (copying a large state
    # for every move would dominate the cost of verifying a turn file).
    give(state, side, action, plan)


def standing_before_roll(state: GameState, side: str, action: Action) -> None:
    """Give ``side``'s standing order while the dice of a roll are due: the reaction orders
    a side sealed earlier, opened before the roll that may use them (pbem's ``react``)."""
    _side(side)
    d = _decision(state)
    if d.kind != "chance":
        raise IllegalAction(f"no roll is due in {d.phase.replace('_', ' ')}", rule="decision.not-your-turn")
    check_shape(action)
    if not STANDING.owns(action):
        raise IllegalAction(f"the dice must be rolled for {d.phase} first", rule="decision.dice-first")
    STANDING.check(state, side, action)
    STANDING.apply(state, side, action)


def apply_simultaneous(state: GameState, orders_by_side: dict[str, list[Action]]) -> None:
    """Apply both sides' secret lists at once (each may end with ``pass``); all or nothing."""
    d = _decision(state)
    if d.kind != "simultaneous":
        raise IllegalAction(
            f"{d.phase.replace('_', ' ')} is not a simultaneous decision", rule="decision.not-simultaneous"
        )
    if sorted(orders_by_side) != sorted(d.sides):
        raise IllegalAction(
            f"both of {', '.join(d.sides)} must hand in their decisions together", rule="decision.both-sides"
        )
    drafts: dict[str, Draft] = {}
    for side in SIDES:
        if side not in orders_by_side:
            continue
        actions = orders_by_side[side]
        if actions in ([], [PASS]):
            continue  # nothing to check on a copy of its own (the decision is the side's: above)
        # Each side is checked on its own, against the state before either side acted,
        # so neither side's orders can depend on the other's.
        drafts[side] = draft = Draft(state, side)
        for action in actions:
            draft.offer(action)
    _commit(state, _revealed(state, orders_by_side, drafts))


def _revealed(state: GameState, orders_by_side: dict[str, list[Action]], drafts: dict[str, Draft]) -> GameState:
    """``state`` after both sides' checked lists (``drafts``), on a state of its own.

    A step whose lists are carried out one after the other (``Phase.lists_in_turn``) has
    carried out the first list with orders already, on that side's draft: the others are
    carried out after it there, instead of both again on a new copy (a deployment's
    reveal places some 400 units, and placed the Axis's twice).
    Standing orders go first in any list's reveal (:func:`give_lists`), so a list holding
    one takes the long way."""
    step = current(state)
    listed = [s for s in SIDES if s in drafts]
    standing = any(STANDING.owns(a) for actions in orders_by_side.values() for a in actions)
    if not step.lists_in_turn or standing or not listed:
        trial = state.copy()
        give_lists(trial, orders_by_side)
        return trial
    trial = drafts[listed[0]].state
    for side in listed[1:]:
        for action in orders_by_side[side]:
            if not STANDING.ends(action):
                step.apply(trial, side, action)
    finish(trial)
    return trial


class Draft:
    """A side's hidden list for the current simultaneous decision, checked as it grows.

    Each offered action is checked against the state the list so far has made (the
    order of a list matters: a merge may make room for a placement) and, if accepted,
    applied to that previewed state; a refused action leaves the draft as it was.  So
    checking a list of n orders takes one copy of the state, not n.

    >>> state = new_game("1939")
    >>> draft = Draft(state, "axis")
    >>> draft.offer(Action("declare", ("Poland",)))
    >>> draft.offer(Action("declare", ("Atlantis",)))
    Traceback (most recent call last):
    ...
    engine.actions.IllegalAction: axis order 2 (declare Atlantis): there is no country named Atlantis.
    >>> draft.actions
    [Action(kind='declare', args=('Poland',))]
    """

    def __init__(self, state: GameState, side: str) -> None:
        _side(side)
        d = _decision(state)
        if d.kind != "simultaneous" or side not in d.sides:
            raise IllegalAction(
                f"the {side} have no hidden orders to give in {d.phase.replace('_', ' ')}",
                rule="decision.no-hidden-orders",
            )
        self.side = side
        self._probe = state.copy()
        self._actions: list[Action] = []

    @property
    def actions(self) -> list[Action]:
        """The accepted list, in order (``pass`` included where it was offered)."""
        return list(self._actions)

    @property
    def state(self) -> GameState:
        """The state with the accepted list applied (the draft's own: do not change it)."""
        return self._probe

    def offer(self, action: Action) -> None:
        """Accept ``action`` as the next of the list, or raise IllegalAction located at its
        side and index (the draft is unchanged then)."""
        side, i, probe = self.side, len(self._actions), self._probe
        if self._actions and STANDING.ends(self._actions[-1]):
            # A pass closes the list: an order after it would still be carried out at the
            # reveal, against what a person who passed believes they said.
            raise IllegalAction(
                "the list already ended with pass; take the pass back to add orders",
                rule="decision.list-ended",
            ).located(side, i, f"{side} order {i + 1} ({action.kind}): ")
        if not STANDING.ends(action):
            try:
                check_shape(action)
            except IllegalAction as exc:
                raise exc.located(side, i, f"{side} order {i + 1}: ") from None
            try:
                plan = check_shaped_order(probe, side, action)
            except IllegalAction as exc:
                # The order in its player's text form: a person never sees an internal hex number.
                text = orders.format_action(probe.world.map, action)
                raise exc.located(side, i, f"{side} order {i + 1} ({text}): ") from None
            carry_out(probe, side, action, plan)
        self._actions.append(action)


def draft(state: GameState, side: str) -> Draft:
    """Open a :class:`Draft` of ``side``'s hidden list for the current simultaneous decision
    (IllegalAction if ``side`` has none to give); ``state`` itself never changes."""
    return Draft(state, side)


def preview(state: GameState, side: str, actions: list[Action]) -> GameState:
    """A copy of ``state`` with ``side``'s list for the current simultaneous decision applied
    in order, each action checked first.  Raises IllegalAction naming the first order that
    is refused."""
    d = Draft(state, side)
    for action in actions:
        d.offer(action)
    return d.state


def apply_chance(state: GameState, seed: bytes) -> list[str]:
    """Resolve the pending chance event with a 32-byte seed; returns lines for the players."""
    return [e.text(state.world.map) for e in apply_chance_events(state, seed)]


def apply_chance_events(state: GameState, seed: bytes) -> list[Event]:
    """:func:`apply_chance`, returning what the dice did as game-log events (each combat
    in full: strengths, modifiers, odds, draws, losses, retreats)."""
    d = _decision(state)
    if d.kind != "chance":
        raise IllegalAction("no dice are to be rolled now", rule="decision.no-dice")
    if len(seed) != SEED_BYTES:
        raise IllegalAction(f"a chance seed must be {SEED_BYTES} bytes", rule="decision.seed")
    trial = state.copy()
    log = current(trial).roll_events(trial, Rng(seed))
    finish(trial)
    _commit(state, trial)
    return log


def snapshot(state: GameState) -> Snapshot:
    """What :func:`changes` needs to compare ``state`` with a later one (cheaper than a copy)."""
    return _snapshot(state)


def changes(before: GameState | Snapshot, after: GameState, told: list[Event] | None = None) -> list[Event]:
    """What changed from ``before`` to ``after`` (two states of one game), as game-log
    events: wars entered, conquests, units placed, moved, bought or eliminated, strength,
    supply, hexes changing hands, money, the month (engine/events.py).  What the events
    ``told`` (those of :func:`apply_chance_events` in between) already report is left out."""
    return _changes(before, after, told)


def event_text(state: GameState, event: Event) -> str:
    """One line for people, hexes written ``COL,ROW`` (with the city's name)."""
    return event.text(state.world.map)


def event_json(state: GameState, event: Event) -> JsonObject:
    """The event as plain data (hexes written ``COL,ROW``), for ``--json``."""
    return event.to_json(state.world.map)


def parse_order(state: GameState, side: str, line: str) -> Action:
    _side(side)
    return orders.parse_order(state.world.map, line)


def format_action(state: GameState, action: Action, named: bool = False) -> str:
    """The order's canonical text; ``named`` adds the cities among its hexes as a comment
    (``place_land Germany infantry 3 4 161,52  # Berlin``), which reading it back ignores."""
    text = orders.format_action(state.world.map, action)
    cities = orders.cities_named(state.world.map, action) if named else []
    return f"{text}  # {', '.join(cities)}" if cities else text


def order_reference() -> list[orders.OrderHelp]:
    """Every kind of order, its arguments in words and an example (engine.orders.reference)."""
    return orders.reference()


def _commit(state: GameState, trial: GameState) -> None:
    """Make ``state`` the trial state (which was built on a copy so failures change nothing)."""
    state.__dict__.update(trial.__dict__)
