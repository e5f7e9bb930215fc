"""What happened in a game, as records for reports: the engine's game log.

Events are a by-product of applying orders and rolling dice; they are never stored in
the state (its bytes, and so every turn file's state hash, stay as they were).  Two
sources make them:

* :func:`changes` compares the state before and after any step and reports what any
  rule may have changed: countries entering the war, conquests and liberations, units
  placed, moved, bought, damaged, out of supply, losing strength or eliminated, hexes
  changing hands, money, the month.  It needs no rule knowledge, so no rule module
  has to report anything.
* combat resolution (:mod:`engine.combat`) returns a :class:`CombatReport` per attack:
  strengths and every modifier, odds, both draws, losses per unit, retreats and the
  right to advance, which no comparison of states could recover.

Hexes are internal numbers here; :meth:`Event.text` and :meth:`Event.to_json` write
them as a player does, ``COL,ROW`` with the city's name where there is one.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from engine.hexgrid import NO_HEX
from engine.hexmap import HexMap
from engine.jsondata import JsonObject
from engine.state import NO_UNIT, CountryState, GameState, Unit, date_text
from engine.world import World

#: At most this many hexes are named in the line of a change of control (all are in JSON).
NAMED_HEXES = 20


def place_name(hexmap: HexMap, h: int) -> str:
    """A hex as a player reads it: ``41,20`` or ``41,20 (Warsaw)``."""
    if h == NO_HEX:
        return "off the map"
    city = hexmap.city_at.get(h)
    label = hexmap.grid.label(h)
    return f"{label} ({city.name})" if city is not None else label


def number_text(x: Fraction) -> str:
    """A strength or ratio as a player reads it: 7, 7.5, 2.13."""
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.2f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class Hit:
    """Strength points one unit lost in a combat (``eliminated`` when nothing is left)."""

    unit: int
    points: int
    eliminated: bool

    def text(self) -> str:
        return f"#{self.unit} eliminated" if self.eliminated else f"#{self.unit} -{self.points}"

    def to_json(self) -> JsonObject:
        return {"unit": self.unit, "points": self.points, "eliminated": self.eliminated}


@dataclass(frozen=True)
class CombatReport:
    """One resolved attack or overrun, in full.

    ``outcome`` is "resolved" when the dice were rolled; otherwise why not
    ("no attackers", "no defenders") or "supply only" (a stack of supply units alone is
    eliminated without dice).  ``defender_loss`` is the loss the draw gave;
    ``defender_points`` what was taken (doubled when ``doubled`` says why).
    ``attacker_loss`` is None when every attacker was eliminated."""

    kind: str  # "attack" or "overrun"
    hex: int
    side: str  # the attacker's side
    outcome: str
    attackers: tuple[str, ...] = ()  # unit labels, "#12 Germany armor 8-5"
    defenders: tuple[str, ...] = ()
    supports: tuple[str, ...] = ()
    attack: Fraction = Fraction(0)
    attack_mods: tuple[str, ...] = ()
    defence: Fraction = Fraction(0)
    defence_mods: tuple[str, ...] = ()
    odds: Fraction = Fraction(0)
    defender_draw: Fraction = Fraction(0)
    attacker_draw: Fraction = Fraction(0)
    defender_loss: int = 0
    defender_points: int = 0
    doubled: str = ""  # "will not retreat" | "cannot retreat" | ""
    defender_hits: tuple[Hit, ...] = ()
    attacker_loss: int | None = 0
    attacker_hits: tuple[Hit, ...] = ()
    retreats: tuple[tuple[int, int], ...] = ()  # (unit, hex)
    hex_taken: bool = False  # the hex was emptied and passed to the attacker
    advance: tuple[int, ...] = ()  # attackers that may advance into the hex

    def head(self, hexmap: HexMap) -> str:
        by = ", ".join(self.attackers)
        return f"{self.kind} on {place_name(hexmap, self.hex)} by {by} against {', '.join(self.defenders)}"

    def text(self, hexmap: HexMap) -> str:
        where = place_name(hexmap, self.hex)
        if self.outcome == "no attackers":
            return f"{self.kind} on {where}: no attacker is left"
        if self.outcome == "no defenders":
            return f"{self.kind} on {where}: no enemy land units are left there"
        if self.outcome == "supply only":
            return f"{self.head(hexmap)}: the supply units are eliminated; no attacker losses"
        parts = [
            f"{self.head(hexmap)}: attack {number_text(self.attack)}"
            + (f" ({', '.join(self.attack_mods)})" if self.attack_mods else ""),
            f"defence {number_text(self.defence)}"
            + (f" ({', '.join(self.defence_mods)})" if self.defence_mods else ""),
            f"odds {float(self.odds):.2f}",
            f"defender draw {float(self.defender_draw):.3f}: {self._defender_text(hexmap)}",
            f"attacker draw {float(self.attacker_draw):.3f}: {self._attacker_text()}",
        ]
        line = "; ".join(parts)
        if self.hex_taken:
            line += f"; {where} passes to the {_SIDE_NAME.get(self.side, self.side)}"
            if self.advance:
                line += " (may advance: " + ", ".join(f"#{u}" for u in self.advance) + ")"
        return line

    def _defender_text(self, hexmap: HexMap) -> str:
        if not self.defender_loss:
            return "no defender losses"
        text = [
            f"defender loses {self.defender_points}" + (f" ({self.doubled}, losses doubled)" if self.doubled else "")
        ]
        text += [h.text() for h in self.defender_hits]
        out = ", ".join(text)
        if self.retreats:
            out += "; retreats " + ", ".join(f"#{u} to {hexmap.grid.label(h)}" for u, h in self.retreats)
        return out

    def _attacker_text(self) -> str:
        if self.attacker_loss is None:
            return "every attacker is eliminated"
        if not self.attacker_loss:
            return "no attacker losses"
        return f"attacker loses {self.attacker_loss}: " + ", ".join(h.text() for h in self.attacker_hits)

    def to_json(self, hexmap: HexMap) -> JsonObject:
        def fraction(x: Fraction) -> str:
            return f"{x.numerator}/{x.denominator}"

        return {
            "kind": self.kind,
            "hex": hexmap.grid.label(self.hex),
            "place": place_name(hexmap, self.hex),
            "side": self.side,
            "outcome": self.outcome,
            "attackers": list(self.attackers),
            "defenders": list(self.defenders),
            "supports": list(self.supports),
            "attack": fraction(self.attack),
            "attack_modifiers": list(self.attack_mods),
            "defence": fraction(self.defence),
            "defence_modifiers": list(self.defence_mods),
            "odds": fraction(self.odds),
            "defender_draw": fraction(self.defender_draw),
            "attacker_draw": fraction(self.attacker_draw),
            "defender_loss": self.defender_loss,
            "defender_points": self.defender_points,
            "doubled": self.doubled,
            "defender_hits": [h.to_json() for h in self.defender_hits],
            "attacker_loss": self.attacker_loss,
            "attacker_hits": [h.to_json() for h in self.attacker_hits],
            "retreats": [{"unit": u, "to": hexmap.grid.label(h)} for u, h in self.retreats],
            "hex_taken": self.hex_taken,
            "advance": list(self.advance),
        }


@dataclass(frozen=True)
class Event:
    """One thing that happened.  ``kind`` says which (see ``_TEXT``); the other fields are
    what that kind needs: the side and country concerned, unit ids, hexes, numbers
    (before and after, for amounts), ``what`` (a unit's label, a line of a dice roll)."""

    kind: str
    side: str = ""
    country: str = ""
    units: tuple[int, ...] = ()
    hexes: tuple[int, ...] = ()
    numbers: tuple[int, ...] = ()
    what: str = ""
    combat: CombatReport | None = None

    def text(self, hexmap: HexMap) -> str:
        """One line for people; never an internal hex number."""
        if self.combat is not None:
            return self.combat.text(hexmap)
        return _TEXT[self.kind](self, hexmap)

    def to_json(self, hexmap: HexMap) -> JsonObject:
        out: JsonObject = {"kind": self.kind, "text": self.text(hexmap)}
        if self.side:
            out["side"] = self.side
        if self.country:
            out["country"] = self.country
        if self.units:
            out["units"] = list(self.units)
        if self.hexes:
            out["hexes"] = [hexmap.grid.label(h) if h != NO_HEX else None for h in self.hexes]
        if self.numbers:
            out["numbers"] = list(self.numbers)
        if self.what:
            out["what"] = self.what
        if self.combat is not None:
            out["combat"] = self.combat.to_json(hexmap)
        return out


def _places(hexmap: HexMap, hexes: tuple[int, ...]) -> str:
    """A few hexes by name, cities first; the rest counted."""
    ordered = sorted(hexes, key=lambda h: (h not in hexmap.city_at, h))
    named = ", ".join(place_name(hexmap, h) for h in ordered[:NAMED_HEXES])
    rest = len(ordered) - NAMED_HEXES
    return named + (f" and {rest} more" if rest > 0 else "")


_ADJECTIVE = {"axis": "Axis", "allies": "Allied"}
_SIDE_NAME = {"axis": "Axis", "allies": "Allies"}


def _money(n: int) -> str:
    return f"${n}B"


#: Events of one unit that read "<unit> <phrase>", then "<preposition> <place>" of the
#: event's hex when it names one.
_UNIT_PHRASE: dict[str, tuple[str, str]] = {
    "placed": ("placed", "at"),
    "landed": ("disembarked", "at"),
    "off_map": ("left the map", "from"),
    "eliminated": ("eliminated", "at"),
    "arrived": ("arrives: its strength points join the pool to place", ""),
    "raised": ("is raised, off the map until placed", ""),
    "damaged": ("damaged", ""),
    "repaired": ("repaired", ""),
    "out_of_supply": ("is out of supply", "at"),
    "in_supply": ("is in supply again", ""),
}


def _unit_text(e: Event, m: HexMap) -> str:
    phrase, preposition = _UNIT_PHRASE[e.kind]
    return f"{e.what} {phrase}" + (f" {preposition} {place_name(m, e.hexes[0])}" if e.hexes and preposition else "")


_TEXT: dict[str, Callable[[Event, HexMap], str]] = {
    "month": lambda e, m: f"month {e.what} begins",
    "war": lambda e, m: f"{e.country} enters the war on the {_ADJECTIVE.get(e.side, e.side)} side",
    "side": lambda e, m: f"{e.country} joins the {_ADJECTIVE.get(e.side, e.side)} side",
    "conquered": lambda e, m: f"{e.country} is conquered",
    "liberated": lambda e, m: f"{e.country} is liberated",
    "winner": lambda e, m: f"the game is over: the {_SIDE_NAME.get(e.side, e.side)} win",
    **dict.fromkeys(_UNIT_PHRASE, _unit_text),
    "moved": lambda e, m: f"{e.what} moved {place_name(m, e.hexes[0])} -> {place_name(m, e.hexes[1])}",
    "embarked": lambda e, m: f"{e.what} embarked on #{e.units[1]} at {place_name(m, e.hexes[0])}",
    "merged": lambda e, m: f"{e.what} merged into #{e.units[1]} at {place_name(m, e.hexes[0])}",
    "bought": lambda e, m: f"{e.country} buys {e.what} (arrives {date_text(e.numbers[0])})",
    "strength": lambda e, m: f"{e.what} strength {e.numbers[0]} -> {e.numbers[1]}",
    "control": lambda e, m: (
        f"{e.country} takes control of {len(e.hexes)} hex{'es' if len(e.hexes) != 1 else ''}"
        + (f" from {e.what}" if e.what else "")
        + f": {_places(m, e.hexes)}"
    ),
    "money": lambda e, m: f"{e.country}: money {_money(e.numbers[0])} -> {_money(e.numbers[1])}",
    "chance": lambda e, m: e.what,
}

KINDS = frozenset({*_TEXT, "combat"})


# --- the comparison of two states ----------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """What :func:`changes` reads of a state, copied: far cheaper than copying the state
    (a report takes one at the start of every entry of a file)."""

    world: World
    date: int
    winner: str | None
    countries: dict[str, CountryState]
    units: dict[int, Unit]
    controller: bytes


def snapshot(state: GameState) -> Snapshot:
    return Snapshot(
        state.world,
        state.date,
        state.winner,
        {name: copy.copy(c) for name, c in state.countries.items()},
        {uid: copy.copy(u) for uid, u in state.units.items()},
        bytes(state.controller),
    )


#: A state, or what changes() needs of one.
Position = GameState | Snapshot


def changes(before: Position, after: Position, told: list[Event] | None = None) -> list[Event]:
    """Every change from ``before`` to ``after`` that a player would want told, in a fixed
    order: the month, wars and conquests, units, control, money, the end of the game.
    Facts the events ``told`` already report (a combat's losses and retreats) are left out."""
    out = [e for e in _all_changes(before, after) if not _told(e, told or [])]
    return out


def _told(event: Event, told: list[Event]) -> bool:
    """Does a combat among ``told`` already report this unit's loss, elimination or retreat?"""
    if not event.units or event.kind not in ("eliminated", "strength", "moved"):
        return False
    uid = event.units[0]
    for e in told:
        c = e.combat
        if c is None:
            continue
        for hit in (*c.defender_hits, *c.attacker_hits):
            if hit.unit != uid:
                continue
            if event.kind == "eliminated" and hit.eliminated:
                return True
            if event.kind == "strength" and event.numbers[0] - event.numbers[1] == hit.points:
                return True
        if event.kind == "moved" and (uid, event.hexes[1]) in c.retreats:
            return True
    return False


def _all_changes(before: Position, after: Position) -> list[Event]:
    out: list[Event] = []
    if after.date != before.date:
        out.append(Event("month", what=date_text(after.date)))
    out += _countries(before, after)
    out += _units(before, after)
    out += _control(before, after)
    for name in sorted(after.countries):
        a, b = before.countries[name], after.countries[name]
        if a.money != b.money:
            out.append(Event("money", b.side, name, numbers=(a.money, b.money)))
    if after.winner and after.winner != before.winner:
        out.append(Event("winner", after.winner))
    return out


def _countries(before: Position, after: Position) -> list[Event]:
    out = []
    for name in sorted(after.countries):
        a, b = before.countries[name], after.countries[name]
        if b.at_war and not a.at_war:
            out.append(Event("war", b.side, name))
        elif b.side != a.side:
            out.append(Event("side", b.side, name))
        if b.conquered and not a.conquered:
            out.append(Event("conquered", b.side, name))
        if b.liberated and not a.liberated:
            out.append(Event("liberated", b.side, name))
    return out


def _unit_event(
    kind: str,
    state: Position,
    u: Unit,
    units: tuple[int, ...],
    hexes: tuple[int, ...] = (),
    numbers: tuple[int, ...] = (),
) -> Event:
    side = state.countries[u.country].side
    return Event(kind, side, u.country, units=units, hexes=hexes, numbers=numbers, what=u.label())


def _units(before: Position, after: Position) -> list[Event]:
    out = []
    arrival = {uid: when for c in after.countries.values() for when, uid in c.transit}
    travelling = {uid for c in before.countries.values() for _, uid in c.transit}
    for uid in sorted(before.units.keys() | after.units.keys()):
        a, b = before.units.get(uid), after.units.get(uid)
        if b is None:
            assert a is not None
            out.append(_gone(before, after, a, uid in travelling))
            continue
        if a is None:
            if b.hex == NO_HEX and uid in arrival:
                out.append(_unit_event("bought", after, b, units=(uid,), numbers=(arrival[uid],)))
            elif b.hex == NO_HEX:
                out.append(_unit_event("raised", after, b, units=(uid,)))
            else:
                out.append(_unit_event("placed", after, b, units=(uid,), hexes=(b.hex,)))
            continue
        out += _unit_changes(after, a, b)
    return out


def _gone(before: Position, after: Position, a: Unit, travelling: bool) -> Event:
    """Why a unit is no longer in the state: a land purchase that arrived (its points go to
    the pool to place), a unit merged into another of its kind in its hex, or a loss."""
    if travelling and a.hex == NO_HEX:
        return _unit_event("arrived", before, a, units=(a.id,))
    if a.hex != NO_HEX and a.is_land and a.strength > 0:  # only land units merge
        for o in after.units.values():
            was = before.units.get(o.id)
            if (
                was is not None
                and o.hex == a.hex
                and (o.country, o.type, o.move) == (a.country, a.type, a.move)
                and o.strength - was.strength >= a.strength
            ):
                return _unit_event("merged", before, a, units=(a.id, o.id), hexes=(a.hex,))
    where = (a.hex,) if a.hex != NO_HEX else ()
    return _unit_event("eliminated", before, a, units=(a.id,), hexes=where)


def _unit_changes(after: Position, a: Unit, b: Unit) -> list[Event]:
    out = []
    ids = (b.id,)
    if b.carrier != a.carrier and b.carrier != NO_UNIT:
        out.append(_unit_event("embarked", after, b, units=(b.id, b.carrier), hexes=(b.hex,)))
    elif b.carrier != a.carrier and b.hex != NO_HEX:
        out.append(_unit_event("landed", after, b, units=ids, hexes=(b.hex,)))
    elif a.hex != b.hex:
        if a.hex == NO_HEX:
            out.append(_unit_event("placed", after, b, units=ids, hexes=(b.hex,)))
        elif b.hex == NO_HEX:
            out.append(_unit_event("off_map", after, b, units=ids, hexes=(a.hex,)))
        elif b.carrier == NO_UNIT:  # cargo moves with its carrier: the carrier's move says it
            out.append(_unit_event("moved", after, b, units=ids, hexes=(a.hex, b.hex)))
    if a.strength != b.strength:
        out.append(_unit_event("strength", after, b, units=ids, numbers=(a.strength, b.strength)))
    if b.damaged != a.damaged:
        out.append(_unit_event("damaged" if b.damaged else "repaired", after, b, units=ids))
    if b.hex != NO_HEX and a.supplied != b.supplied:
        if b.supplied:
            out.append(_unit_event("in_supply", after, b, units=ids))
        else:
            out.append(_unit_event("out_of_supply", after, b, units=ids, hexes=(b.hex,)))
    return out


def _control(before: Position, after: Position) -> list[Event]:
    """Hexes that changed hands, one event per new controller and former one."""
    old = np.frombuffer(before.controller, dtype=np.uint8)
    new = np.frombuffer(after.controller, dtype=np.uint8)
    names = after.world.country_names
    groups: dict[tuple[int, int], list[int]] = {}
    for h in np.flatnonzero(old != new):
        groups.setdefault((int(new[h]), int(old[h])), []).append(int(h))
    out = []
    for (to, frm), hexes in sorted(groups.items()):
        country = names[to]
        side = after.countries[country].side if country else ""
        out.append(Event("control", side, country, hexes=tuple(hexes), what=names[frm]))
    return out
