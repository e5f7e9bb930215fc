"""The kinds of record a turn file carries, read once from their wire lists.

    ["act", action]                    Act: one action of a sequential decision
    ["commit", H]                      Commit: commitment to a hidden simultaneous list
    ["sim", [action, ...]]             Sim: a simultaneous list in the clear
    ["reveal", [action, ...], salt]    Reveal: the opening of that commitment
    ["dice", k, v]                     Dice: this side's chain value for chance event k
    ["seal", H]                        Seal: commitment to this side's reaction orders
    ["react", orders, salt]            React: the opening of that seal, which decides now

and the ending records (:mod:`pbem.protocol.endings`), which carry nothing but their kind:
``["resign"]``, ``["offer-draw"]``, ``["accept-draw"]``, ``["decline-draw"]`` and
``["withdraw-draw"]``.

An action is kept in its wire form (a list starting with its kind): records are the
file format, read before and without the engine; the protocol hands actions to the
engine when it re-executes them.  ``to_wire`` gives back exactly the list that was
read, so a file's bytes and hash never depend on this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeGuard

from pbem.errors import PbemError

#: An action in its wire form: ``[kind, arg, ...]`` (each argument an int, a str or a bool).
Wire = list[int | str | bool]
#: Reaction orders in their wire form: ``[intercept mode, landing mode, [unit, ...]]``.
ReactionWire = list[str | list[int]]
MAX_CHAIN = 1 << 20
MAX_ACTION_ARGS = 64


@dataclass(frozen=True)
class Act:
    KIND: ClassVar[str] = "act"
    action: Wire

    def to_wire(self) -> list[object]:
        return ["act", self.action]


@dataclass(frozen=True)
class Commit:
    KIND: ClassVar[str] = "commit"
    digest: bytes

    def to_wire(self) -> list[object]:
        return ["commit", self.digest]


@dataclass(frozen=True)
class Sim:
    KIND: ClassVar[str] = "sim"
    actions: list[Wire]

    def to_wire(self) -> list[object]:
        return ["sim", self.actions]


@dataclass(frozen=True)
class Reveal:
    KIND: ClassVar[str] = "reveal"
    actions: list[Wire]
    salt: bytes

    def to_wire(self) -> list[object]:
        return ["reveal", self.actions, self.salt]


@dataclass(frozen=True)
class Dice:
    KIND: ClassVar[str] = "dice"
    k: int
    value: bytes

    def to_wire(self) -> list[object]:
        return ["dice", self.k, self.value]


@dataclass(frozen=True)
class Ending:
    """A resignation or a step of a draw agreement: the game's end by its players, not its rules."""

    kind: str

    @property
    def KIND(self) -> str:
        return self.kind

    def to_wire(self) -> list[object]:
        return [self.kind]


@dataclass(frozen=True)
class Seal:
    """A commitment to the side's reaction orders (docs/turn-file-format.md, section 5.8)."""

    KIND: ClassVar[str] = "seal"
    digest: bytes

    def to_wire(self) -> list[object]:
        return ["seal", self.digest]


@dataclass(frozen=True)
class React:
    """The opening of the side's seal: its reaction orders decide the decision now.

    ``orders`` is ``[intercept, land, only]``: how interceptions and the landing of its
    aircraft are decided (``bot``, ``pass`` for interception, ``ask``), and the aircraft
    that may intercept (empty: any); a fourth element, when present, is the side's retreat
    order given before a roll: ``bot`` (the engine picks) or the hexes to retreat toward."""

    KIND: ClassVar[str] = "react"
    orders: ReactionWire
    salt: bytes

    def to_wire(self) -> list[object]:
        return ["react", self.orders, self.salt]


ENDING_KINDS = ("resign", "offer-draw", "accept-draw", "decline-draw", "withdraw-draw")
Record = Act | Commit | Sim | Reveal | Dice | Ending | Seal | React
_ARITY = {"act": 1, "commit": 1, "sim": 1, "reveal": 2, "dice": 2, "seal": 1, "react": 2} | dict.fromkeys(
    ENDING_KINDS, 0
)
#: What reaction orders may say of interceptions and of landings, and how many aircraft they name.
INTERCEPT_MODES = ("ask", "bot", "pass")
LAND_MODES = ("ask", "bot")
MAX_NAMED = 1_000
#: The most hexes the retreat part of reaction orders names (the engine's limit of one order).
MAX_TOWARD = 8
#: The record kinds, as the first element of their wire lists.
KINDS = tuple(_ARITY)


def malformed(why: str) -> PbemError:
    return PbemError(f"malformed turn file: {why}", "schema")


def is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def bin32(x: object, what: str) -> bytes:
    if not isinstance(x, bytes) or len(x) != 32:
        raise malformed(f"'{what}' must be 32 bytes")
    return x


def _action(x: object) -> Wire:
    if not isinstance(x, list) or not x or not isinstance(x[0], str) or len(x) > 1 + MAX_ACTION_ARGS:
        raise malformed("an action must be a list starting with its kind")
    for a in x[1:]:
        if not isinstance(a, int | str):
            raise malformed("action arguments must be integers, strings or booleans")
    return x


def _actions(x: object, kind: str) -> list[Wire]:
    if not isinstance(x, list):
        raise malformed(f"'{kind}' must carry a list of actions")
    return [_action(a) for a in x]


def retreat_part(x: object) -> bool:
    """Is ``x`` the retreat part of reaction orders: ``bot``, or 1 to 8 distinct hexes?"""
    if x == "bot":
        return True
    return (
        isinstance(x, list)
        and 1 <= len(x) <= MAX_TOWARD
        and all(is_int(h) and 0 <= h < 1 << 31 for h in x)
        and len(set(x)) == len(x)
    )


def reaction_orders(x: object) -> ReactionWire:
    """Reaction orders in their wire form, checked: ``[intercept, land, [unit, ...]]``, with
    the retreat part (:func:`retreat_part`) as a fourth element when they give one."""
    if (
        not isinstance(x, list)
        or len(x) not in (3, 4)
        or (len(x) == 4 and not retreat_part(x[3]))
        or x[0] not in INTERCEPT_MODES
        or x[1] not in LAND_MODES
        or not isinstance(x[2], list)
        or len(x[2]) > MAX_NAMED
        or not all(is_int(u) and 0 <= u < 1 << 31 for u in x[2])
        or x[2] != sorted(set(x[2]))
    ):
        raise malformed(
            "reaction orders must be [intercept mode, landing mode, [unit numbers in increasing order]], "
            "then possibly the retreat order: bot or 1 to 8 distinct hexes"
        )
    return x


def from_wire(rec: object) -> Record:
    """The record a wire list holds; raises PbemError (code "schema") for anything else."""
    if not isinstance(rec, list) or not rec or not isinstance(rec[0], str) or rec[0] not in _ARITY:
        raise malformed("unknown or misshapen record")
    kind = rec[0]
    if len(rec) != 1 + _ARITY[kind]:
        raise malformed("unknown or misshapen record")
    if kind in ENDING_KINDS:
        return Ending(kind)
    if kind == "act":
        return Act(_action(rec[1]))
    if kind == "commit":
        return Commit(bin32(rec[1], "commit"))
    if kind == "sim":
        return Sim(_actions(rec[1], kind))
    if kind == "reveal":
        return Reveal(_actions(rec[1], kind), bin32(rec[2], "salt"))
    if kind == "seal":
        return Seal(bin32(rec[1], "seal"))
    if kind == "react":
        return React(reaction_orders(rec[1]), bin32(rec[2], "salt"))
    if not is_int(rec[1]) or not 1 <= rec[1] <= MAX_CHAIN:
        raise malformed("dice index out of range")
    return Dice(rec[1], bin32(rec[2], "dice value"))
