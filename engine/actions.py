"""Actions: the small plain records every decision is made of, and the errors
that explain why one is not allowed.

An action is a kind plus a tuple of ints, strings and bools.  Its wire form is
the list ``[kind, *args]``, which msgpack serialises without custom hooks, so a
turn file is just a list of them.  Each step of the sequence of play declares the
kinds it accepts, with the roles of their arguments (:attr:`engine.phase.Phase.orders`);
:mod:`engine.sequence` collects them, with the standing orders, into :data:`KINDS`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

Arg = int | str | bool

MAX_ARGS = 64
MAX_STR = 200
#: The range of a number argument (a signed 32-bit integer).
INT_LOW, INT_HIGH = -(2**31), 2**31


class EngineError(Exception):
    """Base of the engine's errors; ``str(err)`` is one sentence for a person."""


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow now.

    The sentence is for a person; the fields are for programs, which must never read
    the sentence: ``rule`` is a stable slug naming the rule that refuses (``terrain.armor``,
    ``stacking.land``, ...), ``side`` the side whose order it is and ``index`` the position
    (from 0) of the refused order in a list, when the refusal concerns one of a list.
    """

    def __init__(self, message: str, *, rule: str = "", side: str | None = None, index: int | None = None) -> None:
        super().__init__(message)
        self.rule = rule or rule_of(message)
        self.side = side
        self.index = index

    def located(self, side: str, index: int, prefix: str) -> IllegalAction:
        """The same refusal, placed in ``side``'s list at ``index``, its sentence prefixed."""
        return IllegalAction(f"{prefix}{self}", rule=self.rule, side=side, index=index)


class OrderError(EngineError):
    """A text order that cannot be understood; ``rule`` says why, as for IllegalAction."""

    def __init__(self, message: str, *, rule: str = "order.syntax") -> None:
        super().__init__(message)
        self.rule = rule


class Refusal(str):
    """A rule's refusal: its sentence, which is also the text ``str`` of it, carrying the
    slug of the rule.  Rule helpers return ``""`` for "allowed" or a Refusal, so callers
    test it like a string and raise ``IllegalAction(why)``, which takes the slug along."""

    rule: str

    def __new__(cls, rule: str, sentence: str) -> Refusal:
        made = super().__new__(cls, sentence)
        made.rule = rule
        return made


def rule_of(why: str) -> str:
    """The slug of a refusal's rule ('' for a plain sentence)."""
    return why.rule if isinstance(why, Refusal) else ""


def prefixed(prefix: str, why: str) -> Refusal:
    """The same refusal behind a prefix (usually the unit's label)."""
    return Refusal(rule_of(why), prefix + why)


class StateError(EngineError):
    """Serialised state that cannot be loaded."""


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    args: tuple[Arg, ...] = ()

    def to_wire(self) -> list[Arg]:
        return [self.kind, *self.args]

    @classmethod
    def from_wire(cls, wire: object) -> Action:
        """Rebuild an action from its wire form, checking its shape against :data:`KINDS`."""
        if not isinstance(wire, list | tuple) or not wire or not isinstance(wire[0], str):
            raise IllegalAction("an action must be a list starting with its kind", rule="action.shape")
        kind, args = wire[0], tuple(wire[1:])
        spec = KINDS.get(kind)
        if spec is None:
            raise IllegalAction(f"unknown action '{kind[:40]}'", rule="action.unknown")
        spec.check_shape(args)
        return cls(kind, args)

    def __str__(self) -> str:
        return " ".join([self.kind, *(str(a) for a in self.args)])


PASS = Action("pass")


#: Argument roles: what an argument means, which fixes its type and its text form.
ROLES: dict[str, type] = {"hex": int, "unit": int, "int": int, "str": str, "country": str, "bool": bool}
#: What an argument of each role must be, as a refusal says it.
_AS = {
    "hex": "a hex number",
    "unit": "a unit number",
    "int": "a whole number",
    "str": "a word",
    "country": "a country's name",
    "bool": "yes or no",
}


@dataclass(frozen=True, slots=True)
class KindSpec:
    """The shape of one kind of action: argument roles; ``variadic`` repeats the last role."""

    name: str
    roles: tuple[str, ...]
    variadic: bool = False
    help: str = ""
    #: The arguments' names as a person reads them (``COUNTRY TYPE MOVE POINTS HEX``), one
    #: per role; their meanings are in :data:`engine.orders.ARGUMENTS`.
    words: tuple[str, ...] = ()
    #: One order of this kind as a player would write it.
    example: str = ""

    def __post_init__(self) -> None:
        for role in self.roles:
            if role not in ROLES:
                raise ValueError(f"unknown argument role '{role}'")
        if self.words and len(self.words) != len(self.roles):
            raise ValueError(f"order '{self.name}' names {len(self.words)} of its {len(self.roles)} arguments")

    def usage(self) -> str:
        """``place_land COUNTRY TYPE MOVE POINTS HEX``; ``...`` where the last argument repeats."""
        words = self.words or tuple(r.upper() for r in self.roles)
        return " ".join((self.name, *words, *(("...",) if self.variadic else ())))

    def roles_for(self, count: int) -> list[str]:
        if not self.variadic:
            return list(self.roles)
        return list(self.roles[:-1]) + [self.roles[-1]] * (count - len(self.roles) + 1)

    def check_shape(self, args: tuple[object, ...]) -> None:
        # Checked here, not only where a file is read, so that the engine refuses in memory
        # what no file could carry (a bot's 64-hex voyage once passed every game played in
        # memory and stopped the first self-play that wrote it).
        if not self.variadic and len(args) == len(self.roles):
            # Every order is checked so twice on its way in (read from the wire, offered to
            # a list): arguments of exactly their role's type need only their bounds.
            for arg, role in zip(args, self.roles, strict=True):
                typ = type(arg)
                if typ is not ROLES[role]:
                    break
                if typ is int:
                    if not INT_LOW <= cast(int, arg) < INT_HIGH:
                        break
                elif typ is str and len(cast(str, arg)) > MAX_STR:
                    break
            else:
                return
        self._check_each(args)

    def _check_each(self, args: tuple[object, ...]) -> None:
        """:meth:`check_shape` argument by argument, naming the first that does not fit."""
        if len(args) > MAX_ARGS:
            raise IllegalAction(f"action '{self.name}' has too many arguments", rule="action.shape")
        roles = self.roles
        if self.variadic:
            if len(args) < len(roles) - 1:
                raise IllegalAction(
                    f"action '{self.name}' needs at least {len(roles) - 1} arguments", rule="action.shape"
                )
        elif len(args) != len(roles):
            raise IllegalAction(
                f"action '{self.name}' takes {len(roles)} arguments, got {len(args)}", rule="action.shape"
            )
        for i, (arg, role) in enumerate(zip(args, self.roles_for(len(args)), strict=True)):
            typ = ROLES[role]
            # bool is a subclass of int: keep the two apart so the wire form is canonical.
            ok = isinstance(arg, bool) if typ is bool else isinstance(arg, typ) and not isinstance(arg, bool)
            if not ok:
                raise IllegalAction(f"argument {i + 1} of '{self.name}' must be {_AS[role]}", rule="action.shape")
            if isinstance(arg, str) and len(arg) > MAX_STR:
                raise IllegalAction(f"argument {i + 1} of '{self.name}' is too long", rule="action.shape")
            if isinstance(arg, int) and not isinstance(arg, bool) and not INT_LOW <= arg < INT_HIGH:
                raise IllegalAction(f"argument {i + 1} of '{self.name}' is out of range", rule="action.shape")


#: ``pass``: the order that ends a side's part of the current step, accepted in every step.
PASS_ORDER = KindSpec("pass", (), help="end my part of the current phase", example="pass")

#: Every action kind by name.  :mod:`engine.sequence` fills it, once, from the orders its
#: steps declare; :mod:`engine.orders` and :mod:`engine.api` import the sequence, so the
#: table is whole wherever orders are read.
KINDS: dict[str, KindSpec] = {}


def declare_kinds(specs: Iterable[KindSpec]) -> None:
    """Enter the kinds of the sequence of play into :data:`KINDS`.  A kind accepted by
    several steps is one declaration shared by them; two different ones are an error."""
    for spec in specs:
        known = KINDS.setdefault(spec.name, spec)
        if known is not spec:
            raise ValueError(f"action kind '{spec.name}' declared twice")
