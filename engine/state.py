"""The game state: everything that changes during a game, and its canonical bytes.

The static world (map, country facts, scenario data) is a :class:`~engine.world.World`
shared by reference and never serialised; the state records the world's digest so
a state cannot be loaded against other data.

Layout, chosen for speed on a map of ~100,000 hexes:

* per-hex control is a ``bytearray`` of country numbers (0 = nobody, the sea);
* installations and damage are sparse dicts/sets keyed by hex;
* units are slotted records in a dict by id, with an index by hex kept up to date
  by :meth:`GameState.place` / :meth:`GameState.remove` only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, fields
from itertools import chain, compress, repeat
from operator import attrgetter, not_
from typing import Any, NamedTuple, TypedDict, cast

import msgpack
import numpy as np

from engine.actions import StateError
from engine.hexgrid import NO_HEX
from engine.packed import Key, RowBytes, SameBytes, array_of, exact, packed_map
from engine.sides import ALLIES, AXIS, NEUTRAL, SIDES, Side
from engine.units import Domain, UnitProfile, UnitType
from engine.world import World

STATE_FORMAT = 1

#: The carrier of a unit that is not embarked (unit ids start at 0).
NO_UNIT = -1


def date_text(date: int) -> str:
    return f"{date // 12:04d}-{date % 12 + 1:02d}"


def parse_date(text: str) -> int:
    try:
        year, month = text.strip().split("-")
        y, m = int(year), int(month)
    except ValueError:
        raise ValueError(f"'{text}' is not a date; write YYYY-MM, e.g. 1940-06") from None
    if not 1 <= m <= 12:
        raise ValueError(f"'{text}' is not a date; the month must be 01 to 12")
    return y * 12 + m - 1


class _PackedRow:
    """Room for the msgpack bytes of a unit's wire row, kept until a fact of the unit is set
    (:class:`Unit`): the state hash then packs only the units that changed.  Absent until
    a hash has packed the unit."""

    __slots__ = ("_row",)
    _row: bytes | None


@dataclass(slots=True)
class _UnitFacts(_PackedRow):
    """A unit's facts without the watch on their changes: what a copy or a load builds,
    made a :class:`Unit` at once (see :func:`_built_unit`)."""

    id: int
    country: str
    type: UnitType
    name: str = ""
    strength: int = 0  # land: strength points
    attack: int = 0  # naval: surface attack; air: fighter strength
    sub_attack: int = 0
    bomber: int = 0
    defense: int = 0
    move: int = 0
    carrier_based: bool = False
    kamikaze: bool = False
    hex: int = NO_HEX
    carrier: int = NO_UNIT  # id of the ship or aircraft carrying this unit
    in_port: bool = False  # naval: inside the port of its hex
    damaged: bool = False
    # bookkeeping of the current main phase
    moved: bool = False  # land/naval: moved in the first movement phase
    attacked: bool = False
    overran: bool = False  # took part in a successful overrun
    mp_used: int = 0  # movement points spent this main phase (air: both movements)
    origin: int = NO_HEX  # hex at the start of the first movement phase
    railed: bool = False
    # supply
    supplied: bool = True  # could trace supply at the last check
    unsupplied: int = 0  # land: supply phases spent out of supply; naval: months away from a supplied base
    # written to the wire only when set (after the row above), so older states keep their bytes
    cargo: int = 0  # convoy: money carried ($B)
    cargo_to: str = ""  # convoy: the country the money is carried to

    @property
    def domain(self) -> Domain:
        return self.type.domain

    @property
    def is_land(self) -> bool:
        return self.type.domain is Domain.LAND

    @property
    def is_naval(self) -> bool:
        return self.type.domain is Domain.NAVAL

    @property
    def is_air(self) -> bool:
        return self.type.domain is Domain.AIR

    @property
    def on_map(self) -> bool:
        return self.hex != NO_HEX

    def profile(self) -> UnitProfile:
        return UnitProfile(self.type, **{f: getattr(self, f) for f in _PROFILE_NUMBERS})

    def label(self) -> str:
        """How a player names the unit: ``#12 German armor 8-5``."""
        what = self.name or self.type.value.replace("_", " ")
        return f"#{self.id} {self.country} {what} {self.profile().text()}"


_set = object.__setattr__


class Unit(_UnitFacts):
    """A unit on the map, in transit, or embarked.  Numbers are copied from its profile.

    Setting any fact forgets the unit's packed row, so that the state hash never takes a
    row packed from older facts; no field holds a mutable value, so setting one is the
    only way to change a unit."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        _set(self, name, value)
        _set(self, "_row", None)


def _built_unit(unit: _UnitFacts) -> Unit:
    """``unit`` made a :class:`Unit`: built as plain facts first, so that its constructor's
    setting of each of its 29 fields skips the watch (a copy of a state builds every unit;
    same layout, so the class can be switched)."""
    unit.__class__ = Unit
    return cast(Unit, unit)


#: the facts a unit's wire row always holds, and those appended only when one is set
_UNIT_EXTRAS = ("cargo", "cargo_to")
_UNIT_FIELDS = tuple(f.name for f in fields(Unit) if f.name not in _UNIT_EXTRAS)
#: a plain dict is several times faster than ``UnitType(name)`` when a copy loads every unit
_TYPE_BY_NAME = {t.value: t for t in UnitType}
#: what a unit copies from its profile, besides the type (same names in both records)
_PROFILE_NUMBERS = tuple(f.name for f in fields(UnitProfile) if f.name != "type")
_unit_values = attrgetter(*_UNIT_FIELDS)
#: every fact of a unit, in the order of the fields (a copy builds units by position)
_unit_facts = attrgetter(*(f.name for f in fields(Unit)))
_carrier = attrgetter("carrier")


def _unit_row(u: Unit) -> Sequence[object]:
    # A tuple packs as the same array as a list: the common row goes out as the getter makes it.
    row = _unit_values(u)
    if u.cargo or u.cargo_to:
        return [*row, [u.cargo, u.cargo_to]]
    return row


def unit_from_profile(uid: int, country: str, profile: UnitProfile) -> Unit:
    facts = _UnitFacts(id=uid, country=country, type=profile.type, **{f: getattr(profile, f) for f in _PROFILE_NUMBERS})
    return _built_unit(facts)


def probe_unit(country: str, unit_type: UnitType, strength: int, move: int) -> Unit:
    """A land unit that belongs to no state (id -1), to ask the rules about a unit not yet
    placed or split off; built as :func:`unit_from_profile` builds, without the watch."""
    return _built_unit(_UnitFacts(id=-1, country=country, type=unit_type, strength=strength, move=move))


def _packed_units(units: list[Unit]) -> bytes:
    """The msgpack array of the units' rows: each unit's row as the unit keeps it, those it
    lacks (set since, or never packed) found or packed by :data:`_UNIT_BYTES` and kept."""
    rows: list[bytes | None] = list(map(getattr, units, repeat("_row"), repeat(None)))
    if not all(rows):
        lacking = list(compress(units, map(not_, rows)))
        for u, row in zip(lacking, _UNIT_BYTES.rows(lacking), strict=True):
            _set(u, "_row", row)  # past the watch of Unit.__setattr__, which would forget it at once
        rows = list(map(getattr, units, repeat("_row")))
    return array_of(rows)  # type: ignore[arg-type]  # no None left


@dataclass(slots=True)
class CountryFlags:
    """What the country-specific rules remember about a country.

    Wire form: the sorted ``[key, value]`` pairs of the facts that are set, under
    their historical keys (``had_infantry``, ``joins_at_start``, ``vichy``,
    ``axis_war``, ``place:BORDER``, ``entry_attempt``, ``atomic_bombs``, ``atomic_surrender``,
    ``vichy_tried``, ``surrendered``)."""

    #: ever had infantry: liberation gives it infantry points
    had_infantry: bool = False
    #: the side it joins at the first war declaration phase ('' if none)
    joins: str = ""
    #: France's colonies no longer count (Vichy France)
    vichy: bool = False
    #: date the Axis declared war on it (the Soviet Union's winter), if recorded
    axis_war: int | None = None
    #: the Axis has attempted to create Vichy France (France: once in the game)
    vichy_tried: bool = False
    #: it surrendered and is closed to every unit for the rest of the game (Finland)
    surrendered: bool = False
    #: temporary border -> the date in which the country may place units there
    placements: dict[str, int] = field(default_factory=dict)
    #: an attempt ordered this month and not yet rolled (``pending``: Spain's entry,
    #: Vichy France), or Spain's once-in-a-game attempt rolled and ``failed``
    entry_attempt: str = ""
    #: atomic bombs dropped on it so far (the surrender chance grows with them)
    atomic_bombs: int = 0
    #: the country it surrendered to after an atomic bomb ('' if none): conquered by it at
    #: the next war declaration phase, never to be liberated (rulebook "Atomic Bomb")
    atomic_surrender: str = ""

    def to_wire(self) -> list[list[object]]:
        pairs: list[list[object]] = [[_PLACE + border, date] for border, date in self.placements.items()]
        if self.had_infantry:
            pairs.append(["had_infantry", 1])
        if self.joins:
            pairs.append(["joins_at_start", _JOIN_CODE[self.joins]])
        if self.vichy:
            pairs.append(["vichy", 1])
        if self.axis_war is not None:
            pairs.append(["axis_war", self.axis_war])
        if self.entry_attempt:
            pairs.append(["entry_attempt", self.entry_attempt])
        if self.atomic_bombs:
            pairs.append(["atomic_bombs", self.atomic_bombs])
        if self.atomic_surrender:
            pairs.append(["atomic_surrender", self.atomic_surrender])
        if self.vichy_tried:
            pairs.append(["vichy_tried", 1])
        if self.surrendered:
            pairs.append(["surrendered", 1])
        return sorted(pairs)

    @classmethod
    def from_wire(cls, pairs: list[list[Any]]) -> CountryFlags:
        f = cls()
        for key, value in pairs:
            if key.startswith(_PLACE):
                f.placements[key[len(_PLACE) :]] = value
            elif key == "had_infantry":
                f.had_infantry = bool(value)
            elif key == "joins_at_start":
                f.joins = _JOINS[value]
            elif key == "vichy":
                f.vichy = bool(value)
            elif key == "axis_war":
                f.axis_war = value
            elif key == "entry_attempt":
                f.entry_attempt = str(value)
            elif key == "atomic_bombs":
                f.atomic_bombs = value
            elif key == "atomic_surrender":
                f.atomic_surrender = str(value)
            elif key == "vichy_tried":
                f.vichy_tried = bool(value)
            elif key == "surrendered":
                f.surrendered = bool(value)
            else:
                raise ValueError(f"unknown country flag '{key}'")
        return f


_PLACE = "place:"
_JOIN_CODE: dict[str, int] = {AXIS: 1, ALLIES: 2}
_JOINS = {code: side for side, code in _JOIN_CODE.items()}


class _KeptCountryRow:
    """Room for a country's packed row and the values it was packed from (see
    :func:`_packed_countries`).  Absent until a hash has packed the country."""

    __slots__ = ("_kept",)
    _kept: tuple[object, bytes]


@dataclass(slots=True)
class CountryState(_KeptCountryRow):
    name: str
    side: str = NEUTRAL  # partnership: axis, allies or neutral
    at_war: bool = False
    entered: int = -1  # date it entered the war
    conquered: bool = False
    liberated: bool = False
    never_liberate: bool = False  # Italy; atomic surrender
    money: int = 0
    #: units that may be bought: land points by type and movement, named ships/aircraft as profiles
    pool_land: dict[LandKey, int] = field(default_factory=dict)
    pool_units: list[UnitProfile] = field(default_factory=list)
    #: free units to place at the next deployment (entering the war, liberation, returned units)
    free_land: dict[LandKey, int] = field(default_factory=dict)
    free_units: list[int] = field(default_factory=list)  # ids of off-map units to place free
    #: bought units on their way: (arrival date, unit id)
    transit: list[tuple[int, int]] = field(default_factory=list)
    received_convoy_money: bool = False
    flags: CountryFlags = field(default_factory=CountryFlags)  # country-specific rules' memory

    @property
    def active(self) -> bool:
        """At war and not conquered: receives income, builds, moves."""
        return self.at_war and not self.conquered


class LandKey(NamedTuple):
    """Land strength points of a pool: their unit type and movement allowance.
    Wire form ``"type/move"`` (``"infantry/3"``)."""

    type: UnitType
    move: int

    def to_wire(self) -> str:
        return f"{self.type.value}/{self.move}"

    @classmethod
    def from_wire(cls, text: str) -> LandKey:
        t, m = text.split("/")
        return cls(_TYPE_BY_NAME[t], int(m))

    def __str__(self) -> str:
        return f"{self.type.value} move {self.move}"


def _land_wire(points: dict[LandKey, int]) -> list[list[object]]:
    # Sorted by the wire text, as when the keys were those strings.  Most countries'
    # pools are empty, and the state hash builds this for each of them every time.
    if not points:
        return []
    return sorted([k.to_wire(), n] for k, n in points.items())


def _land_unwire(pairs: list[list[Any]]) -> dict[LandKey, int]:
    return {LandKey.from_wire(k): n for k, n in pairs}


@dataclass(slots=True)
class DeclaredAttack:
    """An attack or overrun declared in the current step and not yet resolved: the target
    hex, the attacking units and the aircraft and ships supporting it.  Its wire form is
    the list ``[kind, hex, attackers, supports]``."""

    kind: str  # "attack" or "overrun"
    hex: int
    attackers: list[int]
    supports: list[int] = field(default_factory=list)

    def to_wire(self) -> list[object]:
        return [self.kind, self.hex, self.attackers, self.supports]

    @classmethod
    def from_wire(cls, row: list[Any]) -> DeclaredAttack:
        kind, h, attackers, supports = row
        return cls(kind, h, list(attackers), list(supports))


@dataclass(slots=True)
class AdvanceRight:
    """A hex emptied by an attack of the current combat phase: the attackers that may
    still advance into it and how many have already.  Wire form ``[hex, eligible, taken]``."""

    hex: int
    eligible: list[int]
    taken: int = 0

    def to_wire(self) -> list[object]:
        return [self.hex, self.eligible, self.taken]

    @classmethod
    def from_wire(cls, row: list[Any]) -> AdvanceRight:
        h, eligible, taken = row
        return cls(h, list(eligible), taken)


@dataclass(slots=True)
class UnitIds:
    """Ids drawn by the two sides' placements in one deployment: each side draws from its
    own interleaved sequence from ``base`` (see ``engine.deployment``).  Wire form
    ``{"base": n, "axis": drawn, "allies": drawn}``."""

    base: int
    drawn: dict[str, int]

    def to_wire(self) -> dict[str, int]:
        return {"base": self.base, **self.drawn}

    @classmethod
    def from_wire(cls, doc: dict[str, int]) -> UnitIds:
        return cls(doc["base"], {side: doc[side] for side in SIDES})


@dataclass(slots=True)
class Intercept:
    """An interception declared in the current interception phase: the air unit that
    intercepts, its target, the hex, and the round of declarations it belongs to (round 0
    is the side that did not move).  Wire form ``[interceptor, target, hex, round]``."""

    interceptor: int
    target: int
    hex: int
    round: int

    def to_wire(self) -> list[int]:
        return [self.interceptor, self.target, self.hex, self.round]

    @classmethod
    def from_wire(cls, row: list[int]) -> Intercept:
        a, b, h, r = row
        return cls(a, b, h, r)


@dataclass(slots=True)
class Assault:
    """An amphibious assault or paradrop of the current main phase, from its declaration
    to the end of the combat phase: the hex, the land units, how they came (by sea, by
    air) and its stage: ``declared`` (not yet rolled), ``landed`` (on a defended hex: must
    clear it in the combat phase) or ``taken`` (an empty hex, taken: no attack this turn).
    Wire form ``[hex, units, by_sea, by_air, stage]``."""

    hex: int
    units: list[int]
    by_sea: bool
    by_air: bool
    stage: str = "declared"

    def to_wire(self) -> list[object]:
        return [self.hex, self.units, self.by_sea, self.by_air, self.stage]

    @classmethod
    def from_wire(cls, row: list[Any]) -> Assault:
        h, units, sea, air, stage = row
        return cls(h, list(units), bool(sea), bool(air), str(stage))


class MemoWire(TypedDict, total=False):
    """The wire form of a :class:`StepMemo`: its recorded fields under their historical keys."""

    advance: list[list[object]]  # AdvanceRight rows
    rail_used: dict[str, int]
    paths: dict[str, list[int]]  # unit ids as text
    ids: dict[str, int]
    declared: dict[str, list[str]]
    base: dict[str, int]
    sent: dict[str, int]
    attempts: list[str]
    intercepts: list[list[int]]
    intercept_round: int
    assaults: list[list[object]]  # Assault rows


@dataclass(slots=True)
class StepMemo:
    """What the current step remembers between orders, emptied when a step begins or ends.

    ``None`` means "not recorded in this step", which the wire form tells apart from
    empty: its wire form is the dict of the recorded fields under their historical keys.
    """

    #: combat: hexes emptied by attacks (``advance``)
    advances: list[AdvanceRight] | None = None
    #: movement: country -> units moved by rail this phase (``rail_used``)
    rail_used: dict[str, int] | None = None
    #: first movement: unit id -> hexes flown or sailed, for interception (``paths``)
    paths: dict[int, list[int]] | None = None
    #: deployment: the ids the two sides' new units are drawn from (``ids``)
    ids: UnitIds | None = None
    #: war declaration: targets already declared in a side's list (``declared``)
    declared: dict[str, list[str]] | None = None
    #: income: each active country's money after income, a third of which it may send (``base``)
    income_base: dict[str, int] | None = None
    #: income: money each country has sent this month (``sent``)
    sent: dict[str, int] | None = None
    #: war declaration: the Vichy attempt and Finland's surrender already in the list
    #: being given (``vichy``, ``surrender``), each allowed once
    attempts: list[str] | None = None
    #: interception: the interceptions declared (``intercepts``) and the round now declaring
    intercepts: list[Intercept] | None = None
    intercept_round: int | None = None
    #: amphibious and paradrop phase to the end of the combat phase: the assaults (``assaults``)
    assaults: list[Assault] | None = None

    def to_wire(self) -> MemoWire:
        doc: MemoWire = {}
        if self.advances is not None:
            doc["advance"] = [a.to_wire() for a in self.advances]
        if self.rail_used is not None:
            doc["rail_used"] = self.rail_used
        if self.paths is not None:
            # Unit ids are string keys on the wire (the form the first games were recorded in).
            doc["paths"] = {str(uid): hexes for uid, hexes in self.paths.items()}
        if self.ids is not None:
            doc["ids"] = self.ids.to_wire()
        if self.declared is not None:
            doc["declared"] = self.declared
        if self.income_base is not None:
            doc["base"] = self.income_base
        if self.sent is not None:
            doc["sent"] = self.sent
        if self.attempts is not None:
            doc["attempts"] = self.attempts
        if self.intercepts is not None:
            doc["intercepts"] = [i.to_wire() for i in self.intercepts]
        if self.intercept_round is not None:
            doc["intercept_round"] = self.intercept_round
        if self.assaults is not None:
            doc["assaults"] = [a.to_wire() for a in self.assaults]
        # Sorting keys keeps the fields and what each holds.
        return cast(MemoWire, _canonical(doc))

    @classmethod
    def from_wire(cls, doc: MemoWire) -> StepMemo:
        unknown = set(doc) - _MEMO_KEYS
        if unknown:
            raise ValueError(f"unknown step memory {sorted(unknown)}")
        m = cls()
        if "advance" in doc:
            m.advances = [AdvanceRight.from_wire(row) for row in doc["advance"]]
        if "rail_used" in doc:
            m.rail_used = dict(doc["rail_used"])
        if "paths" in doc:
            m.paths = {int(uid): list(hexes) for uid, hexes in doc["paths"].items()}
        if "ids" in doc:
            m.ids = UnitIds.from_wire(doc["ids"])
        if "declared" in doc:
            m.declared = {side: list(targets) for side, targets in doc["declared"].items()}
        if "attempts" in doc:
            m.attempts = list(doc["attempts"])
        if "base" in doc:
            m.income_base = dict(doc["base"])
        if "sent" in doc:
            m.sent = dict(doc["sent"])
        if "intercepts" in doc:
            m.intercepts = [Intercept.from_wire(row) for row in doc["intercepts"]]
        if "intercept_round" in doc:
            m.intercept_round = doc["intercept_round"]
        if "assaults" in doc:
            m.assaults = [Assault.from_wire(row) for row in doc["assaults"]]
        return m


_MEMO_KEYS = frozenset(
    {"advance", "rail_used", "paths", "ids", "declared", "base", "sent", "attempts", "intercepts",
     "intercept_round", "assaults"}
)  # fmt: skip


class GameState:
    """Mutable game state.  Rules change it only through the engine's phase functions."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.date = 0
        self.step = 0  # number of the step in engine.sequence.STEPS (not its place in the order of play)
        self.acting: list[Side] = []  # sides that have not yet finished the current step
        self.countries: dict[str, CountryState] = {c.name: CountryState(c.name) for c in world.countries}
        self.controller = bytearray(world.map.size)
        self.forts: dict[int, int] = {}  # hex -> months until finished (0 = built)
        self.fort_owner: dict[int, str] = {}
        self.airfields: dict[int, int] = {}
        self.airfield_owner: dict[int, str] = {}
        self.bombed: set[int] = set()  # installation bombing: no port, no airbase capacity
        self.strategic: set[int] = set()  # strategic bombing: no income
        self.atomized: set[int] = set()  # destroyed for good
        self.units: dict[int, Unit] = {}
        self.next_unit_id = 1
        self.grounded_zones: set[int] = set()  # weather zones where air units are grounded this month
        self.combats: list[DeclaredAttack] = []  # declared, unresolved attacks of the current step
        #: standing orders "stand HEX yes": hex -> side whose land units there will not retreat
        self.stands: dict[int, str] = {}
        #: standing orders "retreat HEX ...": side -> the hexes its retreats head for
        self.toward: dict[str, tuple[int, ...]] = {}
        self.memo = StepMemo()  # what the current step remembers between orders
        self.winner: str | None = None
        self._by_hex: dict[int, list[int]] | None = None
        #: packed before: its units and countries keep their rows from its second packing on
        #: (see to_bytes)
        self._packed_before = False
        #: results of the :class:`engine.derived.Derived` tables computed on this state, by
        #: table; they die with the state (a table keyed weakly by the state could never let
        #: it go, since results such as a supply map refer to their state)
        self.derived_tables: dict[object, tuple[Hashable, dict[Any, Any]]] = {}

    # --- countries and sides ---------------------------------------------------

    def side_of(self, country: str) -> str:
        return self.countries[country].side

    def country_no(self, name: str) -> int:
        return self.world.country_no[name]

    def controller_of(self, h: int) -> str:
        """Country controlling a hex ('' for the sea)."""
        return self.world.country_names[self.controller[h]]

    def side_controlling(self, h: int) -> str:
        c = self.controller[h]
        return self.countries[self.world.country_names[c]].side if c else ""

    def set_controller(self, h: int, country: str) -> None:
        self.controller[h] = self.world.country_no[country]

    def enemies(self, a: str, b: str) -> bool:
        """Are two countries on opposite sides?"""
        sa, sb = self.countries[a].side, self.countries[b].side
        return sa != sb and NEUTRAL not in (sa, sb)

    # --- units -----------------------------------------------------------------

    def _index(self) -> dict[int, list[int]]:
        if self._by_hex is None:
            idx: dict[int, list[int]] = {}
            for u in self.units.values():
                if u.hex != NO_HEX:
                    idx.setdefault(u.hex, []).append(u.id)
            self._by_hex = idx
        return self._by_hex

    def units_at(self, h: int) -> list[Unit]:
        ids = self._index().get(h, ())
        return [self.units[i] for i in ids]

    def occupied_hexes(self) -> dict[int, list[int]]:
        return self._index()

    def new_unit(self, country: str, profile: UnitProfile) -> Unit:
        u = unit_from_profile(self.next_unit_id, country, profile)
        self.next_unit_id += 1
        self.units[u.id] = u
        return u

    def place(self, u: Unit, h: int) -> None:
        """Put (or move) a unit at hex h, keeping the hex index right; what it carries goes
        with it."""
        self.place_alone(u, h)
        for cargo in self.cargo_of(u):
            self.place(cargo, h)

    def place_alone(self, u: Unit, h: int) -> None:
        """Put (or move) a unit that carries nothing at hex h: :meth:`place` without looking
        through every unit for its cargo (a deployment places hundreds of arrivals, and
        none carries anything: a unit sent home sends its cargo home on its own)."""
        idx = self._index()
        if u.hex != NO_HEX:
            lst = idx.get(u.hex)
            if lst is not None and u.id in lst:
                lst.remove(u.id)
                if not lst:
                    del idx[u.hex]
        u.hex = h
        if h != NO_HEX:
            idx.setdefault(h, []).append(u.id)

    def remove(self, u: Unit) -> None:
        """Take a unit off the map (it stays known, e.g. to be bought back)."""
        self.place(u, NO_HEX)
        u.carrier = NO_UNIT

    def destroy(self, u: Unit) -> None:
        """A unit ceases to exist (and what it carries with it)."""
        for cargo in self.cargo_of(u):
            self.destroy(cargo)
        self.place(u, NO_HEX)
        del self.units[u.id]

    def cargo_of(self, u: Unit) -> list[Unit]:
        if u.domain is Domain.LAND:
            return []
        uid = u.id  # read once: every ship or aircraft placed asks this of every unit
        units = self.units.values()
        # Most carry nothing: the carriers are compared in C before any unit is listed.
        if uid not in map(_carrier, units):
            return []
        return [c for c in units if c.carrier == uid]

    def units_of(self, country: str) -> list[Unit]:
        return [u for u in self.units.values() if u.country == country]

    def side_units(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.hex != NO_HEX and self.countries[u.country].side == side]

    # --- serialisation ---------------------------------------------------------

    def to_doc(self) -> dict[str, object]:
        # A fact added here is added to _from_doc and to copy() too (copy builds what
        # loading these bytes gives, without them).
        # Sorting the (key, value) pairs never compares values: the keys are unique.
        countries = [_country_row(c) for _, c in sorted(self.countries.items())]
        units = [_unit_row(u) for _, u in sorted(self.units.items())]
        return self._doc(countries, self._control_changes(), units)

    def _doc(self, countries: object, control: object, units: object) -> dict[str, object]:
        return {
            "format": STATE_FORMAT,
            "world": self.world.digest,
            "date": self.date,
            "step": self.step,
            "acting": list(self.acting),
            "countries": countries,
            # Only hexes whose controller differs from the start of the world are stored:
            # a few hundred entries instead of one byte per hex of a 100,000-hex map.
            "control": control,
            "forts": sorted([h, m, self.fort_owner.get(h, "")] for h, m in self.forts.items()),
            "airfields": sorted([h, m, self.airfield_owner.get(h, "")] for h, m in self.airfields.items()),
            "bombed": sorted(self.bombed),
            "strategic": sorted(self.strategic),
            "atomized": sorted(self.atomized),
            "units": units,
            "next_unit_id": self.next_unit_id,
            "grounded": sorted(self.grounded_zones),
            "combats": [c.to_wire() for c in self.combats],
            "stands": sorted([h, side] for h, side in self.stands.items()),
            "pending": self.memo.to_wire(),
            "winner": self.winner or "",
        } | self._toward_doc()

    def _toward_doc(self) -> dict[str, list[list[object]]]:
        # Absent while no side gave the order, so that every state recorded before the
        # order existed keeps its bytes and its hash.
        if not self.toward:
            return {}
        return {"toward": sorted([side, list(hexes)] for side, hexes in self.toward.items())}

    def _control_changes(self) -> list[tuple[int, int]]:
        now = np.frombuffer(self.controller, dtype=np.uint8)
        base = np.frombuffer(self.world.home_control, dtype=np.uint8)
        changed = np.flatnonzero(now != base)
        # Whole arrays to Python numbers at once (pairs pack as the two-number arrays they were).
        return list(zip(changed.tolist(), now[changed].tolist(), strict=True))

    def to_bytes(self) -> bytes:
        """``msgpack.packb(self.to_doc())``, with the rows that earlier states had already
        packed taken as they were packed (engine/packed.py): the state hash packs only what
        changed.  The units and countries of a state packed before keep their rows (a state
        hashed again after a change packs only what changed, not even looking the others
        up); a state packed once, as a receiver packs the state a file leads to, would only
        pay for keeping them."""
        countries = [c for _, c in sorted(self.countries.items())]
        units = list(map(self.units.__getitem__, sorted(self.units)))
        if self._packed_before:
            packed = {"countries": _packed_countries(countries), "units": _packed_units(units)}
        else:
            packed = {"countries": _COUNTRY_BYTES.array(countries), "units": _UNIT_BYTES.array(units)}
            self._packed_before = True
        packed["control"] = _CONTROL_BYTES.packed(self.world, self.controller, self._packed_control)
        doc = self._doc(None, None, None)
        return packed_map(doc.items(), packed, len(doc))

    def _packed_control(self) -> bytes:
        return bytes(msgpack.packb(self._control_changes()))

    def digest(self) -> bytes:
        return hashlib.sha256(self.to_bytes()).digest()

    @classmethod
    def from_bytes(cls, data: bytes, world: World) -> GameState:
        try:
            doc = msgpack.unpackb(data, raw=False, strict_map_key=False, use_list=True)
        except Exception as exc:  # msgpack raises several unrelated types on garbage
            raise StateError(f"saved game is corrupt: {exc}") from None
        try:
            return cls._from_doc(doc, world)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateError(f"saved game is malformed: {exc}") from None

    @classmethod
    def _from_doc(cls, doc: dict[str, Any], world: World) -> GameState:
        if doc["format"] != STATE_FORMAT:
            raise StateError(f"saved game format {doc['format']} is not supported")
        if doc["world"] != world.digest:
            raise StateError("saved game belongs to other scenario or map data")
        s = cls(world)
        s.date, s.step, s.acting = doc["date"], doc["step"], [Side(a) for a in doc["acting"]]
        for row in doc["countries"]:
            c = s.countries[row[0]]
            _load_country(c, row)
            if not _loaded_exactly(c, row):
                raise ValueError(f"the facts of {row[0]} are not of their types")
        s.controller = bytearray(world.home_control)
        size, names = world.map.size, len(world.country_names)
        for h, c in doc["control"]:
            if not (0 <= h < size and 0 <= c < names):
                raise StateError("saved game controls a hex or country that does not exist")
            s.controller[h] = c
        for h, m, owner in doc["forts"]:
            s.forts[h] = m
            if owner:
                s.fort_owner[h] = owner
        for h, m, owner in doc["airfields"]:
            s.airfields[h] = m
            if owner:
                s.airfield_owner[h] = owner
        s.bombed, s.strategic, s.atomized = set(doc["bombed"]), set(doc["strategic"]), set(doc["atomized"])
        fixed = len(_UNIT_FIELDS)
        for row in doc["units"]:
            extras = row[fixed] if len(row) > fixed else None
            if len(row) < fixed:
                raise ValueError(f"a unit's row has {len(row)} facts, not {fixed}")
            # By position, in the order of the fields: keywords made a copy of the state
            # (every chance step makes one) spend a third of its time building units.
            facts = row[:fixed]
            # Values of other types than the rules write (a 1 for a True) would pack otherwise
            # than the equal values of the rows kept packed (engine/packed.py): refused.
            if tuple(map(type, facts)) != _UNIT_WIRE_TYPES or (extras is not None and not exact(extras, (int, str))):
                raise ValueError("a unit's facts are not of their types")
            u = _UnitFacts(*facts)
            if extras is not None:
                u.cargo, u.cargo_to = extras
            u.type = _TYPE_BY_NAME[u.type]
            u.__class__ = Unit  # built unwatched (see _built_unit), inline: a load builds every unit
            s.units[u.id] = cast(Unit, u)
        s.next_unit_id = doc["next_unit_id"]
        s.grounded_zones = set(doc["grounded"])
        s.combats = [DeclaredAttack.from_wire(row) for row in doc["combats"]]
        s.stands = {h: side for h, side in doc.get("stands", [])}
        s.toward = {side: tuple(hexes) for side, hexes in doc.get("toward", [])}
        s.memo = StepMemo.from_wire(doc["pending"])
        s.winner = doc["winner"] or None
        return s

    def copy(self) -> GameState:
        """The state that loading this state's bytes would give, built without the bytes.

        Every chance step, simultaneous decision and hidden list works on a copy, and the
        msgpack round trip it used to be was a third of verifying such a file.  The copy
        keeps what the round trip does, so that a rule iterating a container behaves alike
        on a copy and on a loaded state: containers in the order loading gives (units,
        installations and stands by number, sets rebuilt from sorted lists, countries and
        the step memory through their wire rows), a hex index built afresh (by unit id),
        no derived results, and only what the bytes hold (a fortification's owner without
        its fortification is dropped).  tests/test_state_shortcuts.py holds it to that."""
        s = GameState(self.world)
        s.date, s.step, s.acting = self.date, self.step, [Side(a) for a in self.acting]
        for name, c in self.countries.items():
            _load_country(s.countries[name], _country_row(c))
        s.controller = bytearray(self.controller)
        for h in sorted(self.forts):
            s.forts[h] = self.forts[h]
            if owner := self.fort_owner.get(h):
                s.fort_owner[h] = owner
        for h in sorted(self.airfields):
            s.airfields[h] = self.airfields[h]
            if owner := self.airfield_owner.get(h):
                s.airfield_owner[h] = owner
        s.bombed, s.strategic, s.atomized = (
            set(sorted(self.bombed)),
            set(sorted(self.strategic)),
            set(sorted(self.atomized)),
        )
        units = self.units
        for k in sorted(units):
            u = _UnitFacts(*_unit_facts(units[k]))
            u.__class__ = Unit  # built unwatched (see _built_unit), inline: a copy builds every unit
            s.units[k] = cast(Unit, u)
        s.next_unit_id = self.next_unit_id
        s.grounded_zones = set(sorted(self.grounded_zones))
        s.combats = [DeclaredAttack.from_wire(c.to_wire()) for c in self.combats]
        s.stands = dict(sorted(self.stands.items()))
        s.toward = dict(sorted(self.toward.items()))
        s.memo = StepMemo.from_wire(self.memo.to_wire())
        s.winner = self.winner or None
        return s


def _country_row(c: CountryState) -> list[object]:
    return [
        c.name,
        c.side,
        c.at_war,
        c.entered,
        c.conquered,
        c.liberated,
        c.never_liberate,
        c.money,
        _land_wire(c.pool_land),
        list(map(_profile_wire, c.pool_units)),
        _land_wire(c.free_land),
        list(c.free_units),
        # A tuple packs as the same array as a list; _load_country copies the pairs.
        list(c.transit),
        c.received_convoy_money,
        c.flags.to_wire(),
    ]


def _load_country(c: CountryState, row: list[Any]) -> None:
    """Set ``c`` from its wire row (the row's lists are not kept: a copy may pass its own)."""
    (_, side, at_war, entered, conquered, liberated, never_lib, money, pool_land, pool_units,
     free_land, free_units, transit, convoy, flags) = row  # fmt: skip
    c.side, c.at_war, c.entered = side, at_war, entered
    c.conquered, c.liberated, c.never_liberate, c.money = conquered, liberated, never_lib, money
    c.pool_land = _land_unwire(pool_land)
    c.pool_units = [_profile_unwire(p) for p in pool_units]
    c.free_land = _land_unwire(free_land)
    c.free_units = list(free_units)
    c.transit = [(a, b) for a, b in transit]
    c.received_convoy_money = convoy
    c.flags = CountryFlags.from_wire(flags)


def _loaded_exactly(c: CountryState, row: Sequence[object]) -> bool:
    """Were the values that loading takes from ``c``'s wire row as they are (not made
    booleans, texts or sides, as its flags' other facts are) of the types the rules write?"""
    (_, side, at_war, entered, conquered, liberated, never_lib, money, _, profiles, _, _, _, convoy, _) = row
    pool_units = cast("list[list[object]]", profiles)  # loaded from it already
    f = c.flags
    numbers = chain(c.pool_land.values(), c.free_land.values(), c.free_units, chain.from_iterable(c.transit))
    return (
        tuple(map(type, (side, at_war, entered, conquered, liberated, never_lib, money, convoy))) == _COUNTRY_WIRE_TYPES
        and (f.axis_war is None or type(f.axis_war) is int)
        and all(type(n) is int for n in chain(numbers, f.placements.values(), (f.atomic_bombs,)))
        and all(tuple(map(type, p)) == _PROFILE_TYPES for p in pool_units)
    )


#: a profile's wire row (its type packs as its name: a str enum)
_profile_wire: Callable[[UnitProfile], tuple[Any, ...]] = attrgetter(
    "type", "name", "strength", "attack", "sub_attack", "bomber", "defense", "move", "carrier_based", "kamikaze"
)


def _profile_unwire(w: list[Any]) -> UnitProfile:
    t, name, strength, attack, sub, bomber, defense, move, cb, kk = w
    return UnitProfile(_TYPE_BY_NAME[t], name, strength, attack, sub, bomber, defense, move, cb, kk)


def _canonical(x: object) -> object:
    """Sort dict keys recursively so the same content always packs to the same bytes."""
    if isinstance(x, dict):
        return {k: _canonical(x[k]) for k in sorted(x)}
    if isinstance(x, list | tuple):
        # A list of plain numbers and texts (a unit's path, most of a memo) is copied whole:
        # the state hash meets hundreds of them in a movement step.
        if set(map(type, x)) <= _PLAIN:
            return list(x)
        return [_canonical(v) for v in x]
    return x


_PLAIN = {int, str, bool, float, type(None)}


#: the values a country's row is made of (the key of its packed row): its plain facts and its
#: flags', and its containers given as tuples of their items in their order (another order
#: is another key, packed to the same bytes); most countries hold nothing in them
_country_facts = attrgetter(
    "name", "side", "at_war", "entered", "conquered", "liberated", "never_liberate", "money", "received_convoy_money",
    "flags.had_infantry", "flags.joins", "flags.vichy", "flags.axis_war", "flags.vichy_tried", "flags.surrendered",
    "flags.entry_attempt", "flags.atomic_bombs", "flags.atomic_surrender",
)  # fmt: skip
_country_holds = attrgetter("pool_land", "pool_units", "free_land", "free_units", "transit", "flags.placements")


def _country_key(c: CountryState) -> Key:
    facts = _country_facts(c)
    held = _country_holds(c)
    if not any(held):
        return facts
    pool_land, pool_units, free_land, free_units, transit, placements = held
    return (
        facts,
        tuple(pool_land.items()),
        tuple(map(_profile_wire, pool_units)),
        tuple(free_land.items()),
        tuple(free_units),
        tuple(transit),
        tuple(placements.items()),
    )


_country_own = attrgetter(
    "name", "side", "at_war", "entered", "conquered", "liberated", "never_liberate", "money", "received_convoy_money"
)
_flag_facts = attrgetter(
    "had_infantry", "joins", "vichy", "axis_war", "vichy_tried", "surrendered", "entry_attempt", "atomic_bombs",
    "atomic_surrender",
)  # fmt: skip
_country_containers = attrgetter("pool_land", "pool_units", "free_land", "free_units", "transit")


def _country_values(c: CountryState) -> object:
    """What a country's row is packed from, cheaper to take than its key (:func:`_country_key`):
    its pool's profiles themselves, which are frozen, instead of their facts.  Containers are
    taken as tuples of their items, since a rule changes them in place."""
    flags = c.flags
    facts = (_country_own(c), _flag_facts(flags))
    held = _country_containers(c)
    if not (any(held) or flags.placements):
        return facts
    pool_land, pool_units, free_land, free_units, transit = held
    return (
        facts,
        tuple(pool_land.items()),
        tuple(pool_units),
        tuple(free_land.items()),
        tuple(free_units),
        tuple(transit),
        tuple(flags.placements.items()),
    )


def _packed_countries(countries: list[CountryState]) -> bytes:
    """The msgpack array of the countries' rows: each country keeps its row with the values
    it was packed from, and the row is taken again while the values are equal; otherwise
    it is found or packed by :data:`_COUNTRY_BYTES`.  Equal values pack alike because they
    have their declared types (engine/packed.py).  Kept on the country, not shared: a
    thread's countries are its own."""
    values = list(map(_country_values, countries))
    kept = map(getattr, countries, repeat("_kept"), repeat(None))
    rows = [k[1] if k is not None and k[0] == v else None for v, k in zip(values, kept, strict=True)]
    if not all(rows):
        lacking = [i for i, row in enumerate(rows) if row is None]
        for i, row in zip(lacking, _COUNTRY_BYTES.rows([countries[i] for i in lacking]), strict=True):
            countries[i]._kept = (values[i], row)  # type: ignore[misc]  # mypy misses a slot a dataclass inherits
            rows[i] = row
    return array_of(rows)  # type: ignore[arg-type]  # no None left


def _country_canonical(key: Key) -> bool:
    if len(key) == len(_COUNTRY_TYPES):
        return _facts_canonical(key)
    parts: tuple[Any, ...] = key
    facts, pool_land, pool_units, free_land, free_units, transit, placements = parts
    return (
        _facts_canonical(facts)
        and all(type(k) is LandKey and exact((*k, n), _LAND_TYPES) for k, n in (*pool_land, *free_land))
        and all(exact(p, _PROFILE_TYPES) for p in pool_units)
        and exact(free_units, (int,) * len(free_units))
        and all(exact(t, (int, int)) for t in transit)
        and all(exact(p, (str, int)) for p in placements)
    )


def _facts_canonical(facts: Key) -> bool:
    # a country's date of the Axis' declaration of war is a number or None
    return exact(facts, _COUNTRY_TYPES if facts[12] is None else _COUNTRY_TYPES_AXIS_WAR)


def _unit_canonical(key: Key) -> bool:
    return exact(key, _UNIT_TYPES)


_DECLARED = {"int": int, "bool": bool, "str": str, "UnitType": str}
_UNIT_TYPES = tuple(_DECLARED[str(f.type)] for f in fields(Unit))
#: msgpack reads every string as a plain str
_UNIT_WIRE_TYPES = _UNIT_TYPES[: len(_UNIT_FIELDS)]
#: a country's flags' facts (without a date of the Axis' declaration of war), after its own
_FLAG_TYPES = (bool, str, bool, type(None), bool, bool, str, int, str)
_COUNTRY_TYPES = (str, str, bool, int, bool, bool, bool, int, bool, *_FLAG_TYPES)
_COUNTRY_TYPES_AXIS_WAR = (*_COUNTRY_TYPES[:12], int, *_COUNTRY_TYPES[13:])
_LAND_TYPES = (str, int, int)
_PROFILE_TYPES = tuple(_DECLARED[str(f.type)] for f in fields(UnitProfile))
#: the country's own facts in its wire row (msgpack reads every string as a plain str)
_COUNTRY_WIRE_TYPES = (str, bool, int, bool, bool, bool, int, bool)
_COUNTRY_BYTES = RowBytes(_country_key, _country_row, _country_canonical)
_UNIT_BYTES = RowBytes(_unit_facts, _unit_row, _unit_canonical)
_CONTROL_BYTES = SameBytes()
