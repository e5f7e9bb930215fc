"""A tiny deterministic test double of engine.api + engine.ai (protocol unit tests only).

A month is: declaration (simultaneous, both), axis move (sequential), combat
(chance), allied deployment (simultaneous, allies only), allied move
(sequential), build (simultaneous, both), weather (chance).
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, NoReturn

import msgpack

from pbem.protocol.rules import WorldMap

ENGINE_VERSION = "fake-1"
SCENARIOS = {"tiny": 3, "long": 24}


class EngineError(Exception):
    pass


class IllegalAction(EngineError):
    def __init__(self, message: str, *, rule: str = "", side: str | None = None, index: int | None = None) -> None:
        super().__init__(message)
        self.rule, self.side, self.index = rule, side, index


class OrderError(EngineError):
    def __init__(self, message: str, *, rule: str = "order.syntax") -> None:
        super().__init__(message)
        self.rule = rule


class StateError(EngineError):
    pass


class ScenarioError(EngineError):
    pass


KINDS = {"pass": 0, "move": 1, "declare": 1, "build": 1, "deploy": 1}


@dataclass(frozen=True)
class Action:
    kind: str
    args: tuple[Any, ...] = ()

    def to_wire(self) -> list[Any]:
        return [self.kind, *self.args]

    @classmethod
    def from_wire(cls, wire: Any) -> Action:
        if not isinstance(wire, list | tuple) or not wire or wire[0] not in KINDS:
            raise IllegalAction("unknown action")
        if len(wire) - 1 != KINDS[wire[0]] or not all(isinstance(a, int) for a in wire[1:]):
            raise IllegalAction(f"bad arguments for {wire[0]}")
        return cls(wire[0], tuple(wire[1:]))


@dataclass(frozen=True)
class Decision:
    kind: str
    sides: tuple[str, ...]
    phase: str
    prompt: str
    chance: str = ""
    when: str = ""


CYCLE = [
    ("simultaneous", ("axis", "allies"), "declaration", ""),
    ("sequential", ("axis",), "axis.move", ""),
    ("chance", (), "combat", "combat"),
    ("simultaneous", ("allies",), "allies.deploy", ""),
    ("sequential", ("allies",), "allies.move", ""),
    ("simultaneous", ("axis", "allies"), "build", ""),
    ("chance", (), "weather", "weather"),
]


class State:
    def __init__(self, d: dict[str, Any]) -> None:
        self.d = d

    @property
    def date(self) -> int:
        return self.d["date"]


def scenarios() -> dict[str, str]:
    return {name: f"the fake {name}-month war" for name in SCENARIOS}


def scenario_names() -> list[str]:
    return list(SCENARIOS)


def describe_scenario(name: str, on_map: WorldMap | None = None) -> NoReturn:
    raise ScenarioError("the stand-in has no map")


def new_game(name: str, options: dict[str, Any] | None = None, *, digest: str | None = None) -> State:
    if name not in SCENARIOS or digest not in (None, scenario_digest(name)):
        raise KeyError(name)
    return State(
        {
            "date": 1939 * 12 + 8,
            "end": 1939 * 12 + 8 + SCENARIOS[name],
            "step": 0,
            "moves": 0,
            "pos": {"axis": 5, "allies": 15},
            "money": {"axis": 10, "allies": 10},
            "rolls": [],
            "decl": [],
        }
    )


def serialize(state: State) -> bytes:
    return msgpack.packb(state.d, use_bin_type=True)


def deserialize(data: bytes, world: object = None, scenario: str | None = None) -> State:
    try:
        return State(msgpack.unpackb(data, raw=False))
    except Exception as exc:
        raise StateError(str(exc)) from None


def state_hash(state: State) -> bytes:
    return hashlib.sha256(serialize(state)).digest()


def scenario_digest(name: str) -> str:
    if name not in SCENARIOS:
        raise KeyError(name)
    return hashlib.sha256(f"fake scenario {name}".encode()).hexdigest()


def scenario_has_digest(name: str, digest: str) -> bool:
    return digest == scenario_digest(name)


def decision(state: State) -> Decision:
    date = state.d["date"]
    when = f"{date // 12:04d}-{date % 12 + 1:02d}"
    if date >= state.d["end"]:
        return Decision("end", (), "end", "the game is over", when=when)
    kind, sides, phase, chance = CYCLE[state.d["step"]]
    return Decision(kind, sides, phase, f"{phase}: decide", chance, when=when)


def _advance(state: State) -> None:
    state.d["step"] += 1
    state.d["moves"] = 0
    if state.d["step"] == len(CYCLE):
        state.d["step"] = 0
        state.d["date"] += 1


def legal_actions(state: State, side: str) -> list[Action]:
    d = decision(state)
    if side not in d.sides:
        return []
    if d.kind == "sequential":
        out = [Action("pass")]
        if state.d["moves"] < 3:
            out += [Action("move", (x,)) for x in (-1, 1) if 0 <= state.d["pos"][side] + x <= 20]
        return out
    if d.phase == "declaration":
        return [Action("declare", (n,)) for n in range(4)]
    if d.phase == "allies.deploy":
        return [Action("deploy", (n,)) for n in range(3)]
    return [Action("build", (n,)) for n in range(state.d["money"][side] + 1)]


def check(state: State, side: str, action: Action) -> None:
    if action.kind == "pass" and side in decision(state).sides:
        return
    if action not in legal_actions(state, side):
        raise IllegalAction(f"{format_action(state, action)} is not allowed now", rule="action.not-allowed")


def spelled_out(state: State, side: str, action: Action) -> Action:
    return action


def apply(state: State, side: str, action: Action) -> None:
    d = decision(state)
    if d.kind != "sequential" or side not in d.sides:
        raise IllegalAction(f"it is not {side}'s move")
    check(state, side, action)
    if action.kind == "pass":
        _advance(state)
    else:
        state.d["pos"][side] += action.args[0]
        state.d["moves"] += 1


def standing_before_roll(state: State, side: str, action: Action) -> None:
    raise IllegalAction("the stand-in has no standing orders")


def apply_simultaneous(state: State, lists: dict[str, list[Action]]) -> None:
    d = decision(state)
    if d.kind != "simultaneous":
        raise IllegalAction("no simultaneous decision now")
    if sorted(lists) != sorted(d.sides):
        raise IllegalAction("exactly the deciding sides must hand in lists")
    for side in ("axis", "allies"):
        acts = [a for a in lists.get(side, []) if a.kind != "pass"]
        if side not in d.sides and acts:
            raise IllegalAction(f"{side} has nothing to decide", rule="decision.none", side=side)
        if len(acts) > 2:
            raise IllegalAction("at most two actions", rule="list.length", side=side, index=2)
        for i, a in enumerate(acts):
            try:
                check(state, side, a)
            except IllegalAction as exc:
                raise IllegalAction(str(exc), rule=exc.rule, side=side, index=i) from None
        if d.phase == "build" and sum(a.args[0] for a in acts) > state.d["money"][side]:
            raise IllegalAction(f"{side} cannot pay for that", rule="money", side=side)
    for side in ("axis", "allies"):
        for a in [a for a in lists.get(side, []) if a.kind != "pass"]:
            state.d["decl"].append([side, a.kind, a.args[0]])
            if a.kind == "build":
                state.d["money"][side] -= a.args[0]
    _advance(state)


@dataclass(frozen=True)
class Summary:
    countries: tuple[Any, ...] = ()
    units: tuple[Any, ...] = ()


def summary(state: State, side: str) -> Summary:
    return Summary()  # the stand-in has no countries or units to list


@dataclass(frozen=True)
class Near:
    place: str
    radius: int
    units: tuple[Any, ...] = ()


def near(state: State, place: str, radius: int) -> Near:
    return Near(place, radius)  # nor a map to measure on


def board(state: State, side: str) -> NoReturn:
    raise OrderError("the stand-in has no map", rule="order.hex")


def game_map(state: State) -> NoReturn:
    raise OrderError("the stand-in has no map", rule="order.hex")


def hex_report(state: State, side: str, where: str, attackers: Collection[int] = ()) -> NoReturn:
    raise OrderError("the stand-in has no map", rule="order.hex")


def stack(state: State, side: str, where: str) -> tuple[str, tuple[Any, ...]]:
    raise OrderError("the stand-in has no map", rule="order.hex")


def pass_warnings(state: State, side: str) -> list[Any]:
    return []  # the stand-in's passes cost nothing


def placements(state: State, side: str, near: str = "") -> list[Any]:
    return []  # nor units waiting to be placed


def crowding(state: State, side: str, action: Action, count: int) -> Any:
    return None  # nor hexes to fill


def legal_matching(
    state: State,
    side: str,
    *,
    units: Collection[int] = (),
    places: Collection[str] = (),
    countries: Collection[str] = (),
    kinds: Collection[str] = (),
) -> list[Action]:
    if units or places or countries:
        return []  # the stand-in's orders name no units, hexes or countries
    return [a for a in legal_actions(state, side) if not kinds or a.kind in kinds]


def standing_orders(state: State, side: str) -> list[Action]:
    return []  # the stand-in has no standing orders


class Draft:
    """A side's simultaneous list, checked as it grows (at most two actions, builds paid for)."""

    def __init__(self, state: State, side: str) -> None:
        d = decision(state)
        if d.kind != "simultaneous" or side not in d.sides:
            raise IllegalAction(f"{side} has nothing to decide", rule="decision.none", side=side)
        self.side, self._base, self._actions = side, state, list[Action]()

    @property
    def actions(self) -> list[Action]:
        return list(self._actions)

    @property
    def state(self) -> State:
        probe = State(copy.deepcopy(self._base.d))
        apply_simultaneous(probe, {s: self.actions if s == self.side else [] for s in decision(probe).sides})
        return probe

    def offer(self, action: Action) -> None:
        side, i, acts = self.side, len(self._actions), [a for a in self._actions if a.kind != "pass"]
        if action.kind != "pass":
            if len(acts) >= 2:
                raise IllegalAction("at most two actions", rule="list.length", side=side, index=i)
            try:
                check(self._base, side, action)
            except IllegalAction as exc:
                raise IllegalAction(str(exc), rule=exc.rule, side=side, index=i) from None
            spent = sum(a.args[0] for a in [*acts, action] if a.kind == "build")
            if spent > self._base.d["money"][side]:
                raise IllegalAction(f"{side} cannot pay for that", rule="money", side=side, index=i)
        self._actions.append(action)


def draft(state: State, side: str) -> Draft:
    return Draft(state, side)


def preview(state: State, side: str, actions: list[Action]) -> State:
    """A copy with ``side``'s list of the current simultaneous decision applied."""
    d = Draft(state, side)
    for action in actions:
        d.offer(action)
    return d.state


def apply_chance(state: State, seed: bytes) -> list[str]:
    return [event_text(state, e) for e in apply_chance_events(state, seed)]


@dataclass(frozen=True)
class Event:
    kind: str
    text: str


def apply_chance_events(state: State, seed: bytes) -> list[Event]:
    if decision(state).kind != "chance" or len(seed) != 32:
        raise IllegalAction("no chance event now")
    roll = seed[0] % 6 + 1
    state.d["rolls"].append(roll)
    for side in ("axis", "allies"):
        state.d["money"][side] += 1
    _advance(state)
    return [Event("chance", f"rolled {roll}")]


def snapshot(state: State) -> State:
    return State(copy.deepcopy(state.d))


def changes(before: State, after: State, told: list[Event] | None = None) -> list[Event]:
    out = []
    for side in ("axis", "allies"):
        if before.d["pos"][side] != after.d["pos"][side]:
            out.append(Event("moved", f"{side} moved {before.d['pos'][side]} -> {after.d['pos'][side]}"))
        if before.d["money"][side] != after.d["money"][side]:
            out.append(Event("money", f"{side}: money {before.d['money'][side]} -> {after.d['money'][side]}"))
    return out


def event_text(state: State, event: Event) -> str:
    return event.text


def event_json(state: State, event: Event) -> dict[str, Any]:
    return {"kind": event.kind, "text": event.text}


def winner(state: State) -> str | None:
    return None


def view(state: State, side: str) -> State:
    return State(copy.deepcopy(state.d))


def parse_order(state: State, side: str, line: str) -> Action:
    parts = line.split()
    try:
        a = Action.from_wire([parts[0], *(int(x) for x in parts[1:])])
    except (IndexError, ValueError, IllegalAction):
        raise OrderError(f"cannot understand '{line}'") from None
    return a


def format_action(state: State, action: Action, named: bool = False) -> str:
    return " ".join([action.kind, *(str(a) for a in action.args)])


@dataclass(frozen=True)
class OrderKind:
    name: str

    @property
    def help(self) -> str:
        return f"the fake {self.name}"

    def usage(self) -> str:
        return " ".join([self.name, *["N"] * KINDS[self.name]])

    def roles_for(self, count: int) -> list[str]:
        return ["int"] * count


def order_kinds(state: State) -> list[OrderKind]:
    return [OrderKind(k) for k in KINDS]


@dataclass(frozen=True)
class OrderHelp:
    kind: str
    usage: str
    help: str
    arguments: tuple[tuple[str, str], ...]
    example: str


def order_reference() -> list[OrderHelp]:
    numbered = (("N", "is a number"),)
    return [
        OrderHelp(k, " ".join([k, *["N"] * n]), f"the fake {k}", numbered if n else (), " ".join([k, *["1"] * n]))
        for k, n in sorted(KINDS.items())
    ]


class ai:  # stands in for the engine.ai module
    @staticmethod
    def level_player(level: int, /) -> str:
        if level not in (1, 2):
            raise ValueError(f"there is no level {level}: choose 1 or 2")
        return ("gentle", "bot")[level - 1]

    @staticmethod
    def decide(state: State, side: str, seed: bytes, player: str = "bot", budget_s: Any = None) -> list[Action]:
        d = decision(state)
        r = seed[0]
        if d.kind == "sequential":
            out = []
            pos = state.d["pos"][side]
            for i in range(r % 3):
                step = 1 if (seed[i + 1] & 1) else -1
                if 0 <= pos + step <= 20:
                    out.append(Action("move", (step,)))
                    pos += step
            return [*out, Action("pass")]
        if d.phase == "declaration":
            return [Action("declare", (r % 4,))]
        if d.phase == "allies.deploy":
            return [Action("deploy", (r % 3,))]
        return [Action("build", (r % (state.d["money"][side] + 1),))]
