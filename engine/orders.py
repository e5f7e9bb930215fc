"""The text form of actions: a small order language a person can write by hand.

One order per line: the action's kind, then its arguments separated by spaces::

    move #12 41,17 42,17        a unit (``#12`` or ``12``), then hexes as COL,ROW
    declare "Soviet Union"      names with spaces in double quotes
    buy Germany armor 3
    pass

A hex may also be written as a city name in square brackets: ``[Warsaw]``.
Blank lines and everything after ``#`` followed by a space are ignored.
Every action has exactly one canonical text (:func:`format_action`) and
:func:`parse_order` reads it back.

For example, on the 1939 map (a city in brackets stands for its hex):

>>> from engine import api
>>> state = api.new_game("1939")
>>> api.parse_order(state, "axis", "move #12 [Berlin]")
Action(kind='move', args=(12, 15761))
>>> api.format_action(state, api.parse_order(state, "axis", "move #12 [Berlin]"))
'move #12 161,52'
>>> api.parse_order(state, "axis", "move #12 [Atlantis]")
Traceback (most recent call last):
    ...
engine.actions.OrderError: 'move': there is no city named Atlantis; did you mean Atlanta?
"""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass

import engine.sequence  # noqa: F401  (its steps declare every action kind into KINDS)
from engine.actions import KINDS, Action, IllegalAction, OrderError
from engine.hexmap import HexMap
from engine.units import Domain, UnitType

#: A city in brackets whose name has spaces (``[Hong Kong]``), standing alone as a word and
#: not already quoted: it is one argument, as a person who wrote it means.
_BRACKETED = re.compile(r"(?:(?<=\s)|^)\[[^\[\]\"']*\s[^\[\]\"']*\](?=\s|$)")


def _split(line: str) -> list[str]:
    line = _BRACKETED.sub(lambda m: shlex.quote(m.group(0)), line)
    try:
        return shlex.split(line, comments=False, posix=True)
    except ValueError as exc:
        raise OrderError(f"cannot read the order: {exc}", rule="order.syntax") from None


def strip_comment(line: str) -> str:
    if line.lstrip().startswith("# "):
        return ""
    pos = line.find(" # ")
    return line if pos < 0 else line[:pos]


def parse_order(hexmap: HexMap, line: str) -> Action:
    """Parse one order; raises OrderError naming what is wrong."""
    words = _split(strip_comment(line))
    if not words:
        raise OrderError("empty order", rule="order.empty")
    name, raw = words[0].lower(), words[1:]
    spec = KINDS.get(name)
    if spec is None:
        known = ", ".join(sorted(KINDS))
        raise OrderError(f"unknown order '{words[0]}'; orders are: {known}", rule="order.unknown")
    if spec.variadic:
        if len(raw) < len(spec.roles) - 1:
            raise OrderError(
                f"'{name}' needs at least {len(spec.roles) - 1} arguments ({_usage(name)})", rule="order.arguments"
            )
    elif len(raw) != len(spec.roles):
        raise OrderError(f"'{name}' takes {len(spec.roles)} arguments ({_usage(name)})", rule="order.arguments")
    args: list[int | str | bool] = []
    for word, role in zip(raw, spec.roles_for(len(raw)), strict=True):
        args.append(_parse_arg(hexmap, word, role, name))
    action = Action(name, tuple(args))
    try:
        spec.check_shape(action.args)
    except IllegalAction as exc:
        raise OrderError(str(exc), rule=exc.rule) from None
    return action


def _usage(name: str) -> str:
    """The kind's usage with what each argument means, for a person who got them wrong."""
    spec = KINDS[name]
    meanings = "; ".join(f"{w} {ARGUMENTS[w]}" for w in dict.fromkeys(spec.words) if w in ARGUMENTS)
    return spec.usage() + (f" — {meanings}" if meanings else "")


#: What each argument name of an order means (:attr:`KindSpec.words`).
ARGUMENTS: dict[str, str] = {
    "HEX": "is a hex: COL,ROW as the maps and `show` print it, or a city in brackets, [Warsaw] or [Hong Kong]",
    "UNIT": "is a unit's number, #14 (listed by `show`); ... means several may follow",
    "TARGET": "is the number of the enemy unit, #812",
    "CARRIER": "is the number of the transport or carrier in the unit's hex",
    "OTHER": "is the number of the other land unit, in the same hex, of the same country, type and movement",
    "COUNTRY": 'is a country\'s name; quote a name with spaces: "United Kingdom"',
    "FROM": "is the country that gives the money",
    "TO": "is the country that receives it",
    "AMOUNT": "is money in billions of dollars ($B)",
    "TYPE": "is a land unit type: " + ", ".join(t.value for t in UnitType if t.domain is Domain.LAND),
    "MOVE": "is the movement allowance of the points (a 4-3 infantry moves 3)",
    "POINTS": "is a number of strength points",
    "NAME": "is the name of a naval or air unit of the country's pool, quoted when it has spaces",
    "WHAT": "is what is bombed: installation, strategic, airfield or fortification",
    "YES/NO": "is yes (the stack holds, its losses doubled) or no (it retreats)",
}


@dataclass(frozen=True)
class OrderHelp:
    """One kind of order as the reference shows it."""

    kind: str
    usage: str
    help: str
    arguments: tuple[tuple[str, str], ...]  # (name, meaning), each name once
    example: str


def reference() -> list[OrderHelp]:
    """Every kind of order the engine knows, by name: the one source of the order
    reference (`pbem help orders`, docs/orders.md)."""
    return [
        OrderHelp(
            spec.name,
            spec.usage(),
            spec.help,
            tuple((w, ARGUMENTS[w]) for w in dict.fromkeys(spec.words)),
            spec.example,
        )
        for spec in sorted(KINDS.values(), key=lambda k: k.name)
    ]


def parse_hex(hexmap: HexMap, word: str) -> int:
    """A hex written ``COL,ROW`` or as a city in brackets; OrderError says what is wrong
    (an unknown city with the names it may have meant)."""
    if word.startswith("[") and word.endswith("]"):
        return _city_hex(hexmap, word[1:-1], "")
    try:
        return hexmap.grid.parse_label(word)
    except ValueError as exc:
        raise OrderError(str(exc), rule="order.hex") from None


def _parse_arg(hexmap: HexMap, word: str, role: str, order: str) -> int | str | bool:
    if role == "hex":
        try:
            return parse_hex(hexmap, word)
        except OrderError as exc:
            raise OrderError(f"'{order}': {exc}", rule=exc.rule) from None
    if role == "unit":
        text = word[1:] if word.startswith("#") else word
        if not text.isdigit():
            raise OrderError(f"'{order}': '{word}' is not a unit; write its number, e.g. #12", rule="order.unit")
        return int(text)
    if role == "int":
        try:
            return int(word)
        except ValueError:
            raise OrderError(f"'{order}': '{word}' is not a whole number", rule="order.number") from None
    if role == "bool":
        if word.lower() in ("yes", "true", "1"):
            return True
        if word.lower() in ("no", "false", "0"):
            return False
        raise OrderError(f"'{order}': write yes or no, not '{word}'", rule="order.yes-no")
    return word


def _city_hex(hexmap: HexMap, name: str, prefix: str) -> int:
    city = hexmap.city_by_name.get(name.lower())
    if city is None:
        close = difflib.get_close_matches(name.lower(), hexmap.city_by_name, n=3, cutoff=0.75)
        hint = f"; did you mean {' or '.join(hexmap.city_by_name[c].name for c in close)}?" if close else ""
        raise OrderError(f"{prefix}there is no city named {name}{hint}", rule="order.unknown-place")
    return city.hex


def parse_place(hexmap: HexMap, text: str) -> int:
    """A hex a person names outside an order: ``COL,ROW``, ``[City]`` or a bare city name."""
    word = text.strip()
    if (word.startswith("[") and word.endswith("]")) or "," in word:
        return parse_hex(hexmap, word)
    return _city_hex(hexmap, word, "")


def cities_named(hexmap: HexMap, action: Action) -> list[str]:
    """The cities among an action's hexes, in order: what a person recognises in ``161,52``."""
    spec = KINDS[action.kind]
    roles = spec.roles_for(len(action.args))
    return [
        city.name
        for arg, role in zip(action.args, roles, strict=True)
        if role == "hex" and (city := hexmap.city_at.get(int(arg))) is not None
    ]


def format_action(hexmap: HexMap, action: Action) -> str:
    """The canonical text of an action; :func:`parse_order` reads it back."""
    spec = KINDS[action.kind]
    words = [action.kind]
    for arg, role in zip(action.args, spec.roles_for(len(action.args)), strict=True):
        if role == "hex":
            words.append(hexmap.grid.label(int(arg)))
        elif role == "unit":
            words.append(f"#{arg}")
        elif role == "bool":
            words.append("yes" if arg else "no")
        else:
            words.append(shlex.quote(str(arg)) if str(arg) else '""')
    return " ".join(words)
