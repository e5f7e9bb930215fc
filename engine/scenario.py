"""Scenario data: the countries, the 1937 and 1939 set-ups and their arrival schedules.

The data lives in TOML files in the ``scenarios`` package (``countries.toml``,
``1937.toml``, ``1939.toml``); this module reads them, checks them strictly and
turns them into frozen records.  It does no other I/O, and everything it returns
is a pure function of those files, so two players' copies of the game agree as
long as :func:`scenario_digest` agrees.

Terms (see docs/orders-of-battle.md for the data format and the scale):

* a *pool* is what a country has available when it enters the war: land
  strength points per (type, movement allowance), supply units, and named naval
  and air units;
* an *arrival* adds units to a country's pool on a schedule (the rulebook's
  "New Available Units").  A scenario's pools already hold everything that
  arrived up to and including its start month; arrivals fire in later months.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from engine.sides import SIDES
from engine.units import LAND_MOVE, Domain, UnitProfile, UnitType

SCENARIOS = ("1937", "1939")
COUNTRIES_FILE = "countries.toml"
REGIONS = ("europe", "asia", "africa", "oceania", "americas")
START_PHASES = ("war_declaration",)

#: Dates outside this window are almost certainly typos ("1493-09").
FIRST_YEAR, LAST_YEAR = 1930, 1960
#: Movement allowances outside this are typos too (the largest real values are ~30).
MAX_NAVAL_MOVE, MAX_AIR_MOVE, MAX_LAND_MOVE = 99, 60, 10


class ScenarioError(ValueError):
    """Scenario data that is malformed; the message names file, entry and problem."""


# --------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Country:
    name: str
    code: str
    adjective: str
    region: str
    leans_allied: bool  # the Allies may not declare war on it
    leans_axis: bool  # the Axis may not declare war on it
    has_units: bool
    rail_capacity: int
    atomic_bomb_from: int | None = None  # date from which it may drop atomic bombs
    atomic_bomb_unit: str = ""  # the air unit that carries them


@dataclass(frozen=True, slots=True)
class LandPoints:
    """``points`` single strength points of one land type and movement allowance."""

    type: UnitType
    move: int
    points: int


@dataclass(frozen=True, slots=True)
class Units:
    """A bundle of units: a pool, or what one arrival adds to a pool."""

    land: tuple[LandPoints, ...] = ()  # merged per (type, move), sorted
    supply: int = 0  # supply units (strength 0; free to buy)
    naval: tuple[UnitProfile, ...] = ()  # in file order, one entry per counter
    air: tuple[UnitProfile, ...] = ()

    def points(self, unit_type: UnitType, move: int | None = None) -> int:
        """Land strength points of a type (and, if given, a movement allowance)."""
        return sum(lp.points for lp in self.land if lp.type is unit_type and (move is None or lp.move == move))

    def count(self, unit_type: UnitType) -> int:
        """Number of naval or air counters of a type."""
        return sum(1 for p in (*self.naval, *self.air) if p.type is unit_type)

    @property
    def empty(self) -> bool:
        return not (self.land or self.supply or self.naval or self.air)


@dataclass(frozen=True, slots=True)
class Anchor:
    """A month, given either outright or relative to when countries enter the war.

    ``kind``: ``"date"`` (``date``), ``"entry"`` (``months`` after the arrival's own
    country enters) or ``"entry_of"`` (``months`` after the first of ``countries``
    enters).  A country at war at the start counts as entering at the start date.
    """

    kind: str
    date: int = 0
    countries: tuple[str, ...] = ()
    months: int = 0

    def resolve(self, own: str, entries: Mapping[str, int]) -> int | None:
        """The month this anchor stands for, or None while it has not happened yet."""
        if self.kind == "date":
            return self.date
        names = (own,) if self.kind == "entry" else self.countries
        known = [entries[c] for c in names if c in entries]
        return min(known) + self.months if known else None


@dataclass(frozen=True, slots=True)
class Arrival:
    """Units added to ``country``'s pool: once (``every == 0``) or every ``every`` months.

    The schedule starts at the latest of ``start`` (all anchors must have
    happened) and stops before the earliest of ``until`` (exclusive).
    ``where`` names the entry in its file, for messages.
    """

    country: str
    units: Units
    start: tuple[Anchor, ...]
    every: int = 0
    until: tuple[Anchor, ...] = ()
    where: str = ""

    def fires(self, date: int, entries: Mapping[str, int]) -> bool:
        """Whether this arrival adds its units in month ``date``.

        ``entries`` maps each country that has entered the war to the month it did.
        """
        starts = [a.resolve(self.country, entries) for a in self.start]
        if any(s is None for s in starts):
            return False
        first = max(s for s in starts if s is not None)
        if date < first:
            return False
        ends = [e for e in (a.resolve(self.country, entries) for a in self.until) if e is not None]
        if ends and date >= min(ends):
            return False
        if self.every == 0:
            return date == first
        return (date - first) % self.every == 0


@dataclass(frozen=True, slots=True)
class StartControl:
    """A temporary border of the map whose hexes a country controls at the start."""

    temp_border: str
    country: str
    first_turn_placement: bool  # the country may place units there in the first turn


@dataclass(frozen=True)
class Scenario:
    """One scenario.  Mappings are plain dicts for easy use; treat them as read-only."""

    name: str
    title: str
    description: str
    start: int  # date: year * 12 + month - 1
    start_phase: str
    countries: tuple[Country, ...]
    at_war: dict[str, str]  # country -> side, at war before the first phase
    joins_at_start: dict[str, str]  # country -> side, enters at the first war declaration phase
    start_control: tuple[StartControl, ...]
    money: dict[str, int]  # $B; countries not listed start with 0
    pools: dict[str, Units]  # countries with units; the others have none
    arrivals: tuple[Arrival, ...]
    files: tuple[str, ...] = field(default=())  # the data files it was built from

    def country(self, name: str) -> Country:
        for c in self.countries:
            if c.name == name:
                return c
        raise KeyError(name)

    @property
    def country_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.countries)

    def partnership(self, name: str) -> str:
        """``"axis"``, ``"allies"`` or ``"neutral"`` before the first phase."""
        return self.at_war.get(name, "neutral")

    def pool(self, name: str) -> Units:
        return self.pools.get(name, Units())

    def arrivals_due(self, date: int, entries: Mapping[str, int]) -> list[Arrival]:
        """The arrivals that fire in month ``date``, in file order.

        Nothing fires in or before the start month: the pools already hold it.
        """
        if date <= self.start:
            return []
        return [a for a in self.arrivals if a.fires(date, entries)]


# ------------------------------------------------------------------ date text


_DATE = re.compile(r"^(\d{4})-(\d{2})$")


def parse_date(text: object) -> int:
    """``"1939-09"`` -> ``1939 * 12 + 8``; raises ValueError with the reason."""
    m = _DATE.match(text) if isinstance(text, str) else None
    if not m:
        raise ValueError(f"date {text!r} is not in the form YYYY-MM")
    year, month = int(m.group(1)), int(m.group(2))
    if not 1 <= month <= 12:
        raise ValueError(f"date {text!r} has no month {month}")
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise ValueError(f"date {text!r} is outside {FIRST_YEAR}-{LAST_YEAR}")
    return year * 12 + month - 1


def format_date(date: int) -> str:
    return f"{date // 12:04d}-{date % 12 + 1:02d}"


# -------------------------------------------------------------------- parsing


class _Ctx:
    """Where we are in a file, so every error can say so."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, where: str, problem: str) -> ScenarioError:
        return ScenarioError(f"{self.file}: {where}: {problem}" if where else f"{self.file}: {problem}")

    def table(self, value: object, where: str) -> dict[str, object]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a table, got {_kind(value)}")
        return value

    def array(self, value: object, where: str) -> list[object]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected an array, got {_kind(value)}")
        return value

    def keys(
        self, table: Mapping[str, object], where: str, required: Iterable[str], optional: Iterable[str] = ()
    ) -> None:
        req = tuple(required)
        allowed = set(req) | set(optional)
        for key in table:
            if key not in allowed:
                raise self.fail(where, f"unknown field '{key}' (allowed: {', '.join(sorted(allowed))})")
        for key in req:
            if key not in table:
                raise self.fail(where, f"missing field '{key}'")

    def string(self, value: object, where: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, f"expected a non-empty string, got {_kind(value)}")
        return value

    def boolean(self, value: object, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, got {_kind(value)}")
        return value

    def integer(self, value: object, where: str, low: int = 0, high: int | None = None) -> int:
        # bool is an int in Python; "true" for a number is a typo, not a 1
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"expected a whole number, got {_kind(value)}")
        if value < low:
            raise self.fail(where, f"{value} is negative" if low == 0 else f"{value} is less than {low}")
        if high is not None and value > high:
            raise self.fail(where, f"{value} is more than {high}")
        return value

    def date(self, value: object, where: str) -> int:
        try:
            return parse_date(value)
        except ValueError as exc:
            raise self.fail(where, str(exc)) from None

    def country(self, value: object, where: str, known: Mapping[str, Country]) -> str:
        name = self.string(value, where)
        if name not in known:
            raise self.fail(where, f"unknown country '{name}'{_did_you_mean(name, known)}")
        return name


def _kind(value: object) -> str:
    return {
        bool: "a boolean",
        int: "a number",
        float: "a decimal number",
        str: f"the string {value!r}",
        list: "an array",
        dict: "a table",
    }.get(type(value), type(value).__name__)


def _did_you_mean(name: str, known: Iterable[str]) -> str:
    low = name.lower()
    close = [k for k in known if k.lower() == low or k.lower().startswith(low[:4])]
    return f" (did you mean '{close[0]}'?)" if close else ""


def _parse_toml(file: str, text: str) -> dict[str, object]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{file}: not valid TOML: {exc}") from None


def parse_countries(text: str, file: str = COUNTRIES_FILE) -> tuple[Country, ...]:
    """Read ``countries.toml`` text; raises ScenarioError naming the entry and problem."""
    ctx = _Ctx(file)
    doc = _parse_toml(file, text)
    ctx.keys(doc, "", ["country"])
    out: list[Country] = []
    seen: set[str] = set()
    codes: set[str] = set()
    for i, raw in enumerate(ctx.array(doc["country"], "country")):
        where = f"country[{i}]"
        t = ctx.table(raw, where)
        if isinstance(t.get("name"), str):
            where = f"country '{t['name']}'"
        ctx.keys(
            t,
            where,
            ["name", "code", "adjective", "region", "leans_allied", "leans_axis", "has_units", "rail_capacity"],
            ["atomic_bomb"],
        )
        name = ctx.string(t["name"], f"{where}.name")
        if name != name.strip():
            raise ctx.fail(where, "name has leading or trailing spaces")
        if name in seen:
            raise ctx.fail(where, f"country '{name}' is listed twice")
        seen.add(name)
        code = ctx.string(t["code"], f"{where}.code")
        if not re.fullmatch(r"[A-Z]{3}", code):
            raise ctx.fail(f"{where}.code", f"'{code}' is not three capital letters")
        if code in codes:
            raise ctx.fail(f"{where}.code", f"code '{code}' is used twice")
        codes.add(code)
        region = ctx.string(t["region"], f"{where}.region")
        if region not in REGIONS:
            raise ctx.fail(f"{where}.region", f"unknown region '{region}' (choose one of: {', '.join(REGIONS)})")
        bomb_from, bomb_unit = None, ""
        if "atomic_bomb" in t:
            bomb = ctx.table(t["atomic_bomb"], f"{where}.atomic_bomb")
            ctx.keys(bomb, f"{where}.atomic_bomb", ["from", "unit"])
            bomb_from = ctx.date(bomb["from"], f"{where}.atomic_bomb.from")
            bomb_unit = ctx.string(bomb["unit"], f"{where}.atomic_bomb.unit")
        out.append(
            Country(
                name=name,
                code=code,
                adjective=ctx.string(t["adjective"], f"{where}.adjective"),
                region=region,
                leans_allied=ctx.boolean(t["leans_allied"], f"{where}.leans_allied"),
                leans_axis=ctx.boolean(t["leans_axis"], f"{where}.leans_axis"),
                has_units=ctx.boolean(t["has_units"], f"{where}.has_units"),
                rail_capacity=ctx.integer(t["rail_capacity"], f"{where}.rail_capacity", high=99),
                atomic_bomb_from=bomb_from,
                atomic_bomb_unit=bomb_unit,
            )
        )
        if out[-1].leans_allied and out[-1].leans_axis:
            raise ctx.fail(where, "a country cannot lean to both sides")
    if not out:
        raise ctx.fail("country", "no countries")
    return tuple(out)


_TYPE_INDEX = {t: i for i, t in enumerate(UnitType)}


_NAVAL_LETTER = {UnitType.TRANSPORT: "T", UnitType.CARRIER: "C", UnitType.CONVOY: "$"}
_AIR_TRANSPORTS = (UnitType.AIR_TRANSPORT, UnitType.BOMBER_TRANSPORT)
_PROFILE = re.compile(r"^([0-9]+|[TC$])-([0-9]+)(K?)-([0-9]+)-([0-9]+)(C?)$")


def parse_profile(unit_type: UnitType, name: str, text: object) -> UnitProfile:
    """A naval or air counter from its printed numbers, e.g. ``"5-1-6-52"``, ``"3-1-2-14C"``.

    Raises ValueError with the reason.  ``UnitProfile.text()`` gives the same text back.
    """
    m = _PROFILE.match(text) if isinstance(text, str) else None
    if not m:
        raise ValueError(f"profile {text!r} is not of the form A-B-D-M (e.g. '5-1-6-52' or '3-1-2-14C')")
    first, second, kamikaze, defense, move, carrier = m.groups()
    domain = unit_type.domain
    if domain is Domain.NAVAL:
        letter = _NAVAL_LETTER.get(unit_type)
        if letter is not None and first != letter:
            raise ValueError(f"a {unit_type} profile starts with '{letter}', not '{first}'")
        if letter is None and not first.isdigit():
            raise ValueError(f"a {unit_type} profile starts with its surface attack, not '{first}'")
        if kamikaze or carrier:
            raise ValueError("'K' and 'C' marks are for air units")
        attack, sub_attack, bomber = (0 if letter else int(first)), int(second), 0
        if not 1 <= int(move) <= MAX_NAVAL_MOVE:
            raise ValueError(f"naval movement allowance {move} is outside 1-{MAX_NAVAL_MOVE}")
    elif domain is Domain.AIR:
        is_transport = unit_type in _AIR_TRANSPORTS
        if is_transport != (first == "T"):
            raise ValueError(
                f"a {unit_type} profile starts with 'T'" if is_transport else f"a {unit_type} profile has no 'T'"
            )
        if first == "C" or first == "$":
            raise ValueError(f"'{first}' is a naval mark")
        attack, sub_attack, bomber = (0 if is_transport else int(first)), 0, int(second)
        if unit_type is UnitType.FIGHTER and attack == 0:
            raise ValueError("a fighter needs a fighter strength above 0")
        if unit_type in (UnitType.BOMBER, UnitType.BOMBER_TRANSPORT, UnitType.FIGHTER_BOMBER) and bomber == 0:
            raise ValueError(f"a {unit_type} needs a bomber strength above 0")
        if unit_type is UnitType.FIGHTER_BOMBER and attack == 0:
            raise ValueError("a fighter_bomber needs a fighter strength above 0")
        if unit_type is UnitType.AIR_TRANSPORT and bomber:
            raise ValueError("an air_transport has no bomber strength; use bomber_transport")
        if kamikaze and unit_type is not UnitType.BOMBER:
            raise ValueError("only bombers can be kamikaze-only ('K')")
        if not 1 <= int(move) <= MAX_AIR_MOVE:
            raise ValueError(f"air movement allowance {move} is outside 1-{MAX_AIR_MOVE}")
    else:
        raise ValueError(f"{unit_type} is a land type; land units have points, not a profile")
    if int(defense) == 0:
        raise ValueError("defense 0 would make the unit impossible to fight")
    return UnitProfile(
        type=unit_type,
        name=name,
        attack=attack,
        sub_attack=sub_attack,
        bomber=bomber,
        defense=int(defense),
        move=int(move),
        carrier_based=bool(carrier),
        kamikaze=bool(kamikaze),
    )


def _parse_unit_type(ctx: _Ctx, value: object, where: str) -> UnitType:
    name = ctx.string(value, where)
    try:
        return UnitType(name)
    except ValueError:
        raise ctx.fail(where, f"unknown unit type '{name}' (known: {', '.join(t.value for t in UnitType)})") from None


def _parse_units(ctx: _Ctx, entries: object, where: str, domain: Domain | None) -> Units:
    """A list of unit entries.  ``domain`` restricts it (pool sections); None allows all."""
    land: dict[tuple[UnitType, int], int] = {}
    supply = 0
    naval: list[UnitProfile] = []
    air: list[UnitProfile] = []
    for i, raw in enumerate(ctx.array(entries, where)):
        at = f"{where}[{i}]"
        t = ctx.table(raw, at)
        if "type" not in t:
            raise ctx.fail(at, "missing field 'type'")
        unit_type = _parse_unit_type(ctx, t["type"], f"{at}.type")
        if domain is not None and unit_type.domain is not domain:
            raise ctx.fail(at, f"'{unit_type}' is a {unit_type.domain} type; it belongs under '{unit_type.domain}'")
        if unit_type is UnitType.SUPPLY:
            ctx.keys(t, at, ["type", "count"])
            supply += ctx.integer(t["count"], f"{at}.count", low=1)
        elif unit_type.domain is Domain.LAND:
            ctx.keys(t, at, ["type", "points"], ["move"])
            points = ctx.integer(t["points"], f"{at}.points", low=1)
            move = LAND_MOVE[unit_type]
            if "move" in t:
                move = ctx.integer(t["move"], f"{at}.move", low=1, high=MAX_LAND_MOVE)
            land[(unit_type, move)] = land.get((unit_type, move), 0) + points
        else:
            ctx.keys(t, at, ["type", "name", "profile"], ["count"])
            name = ctx.string(t["name"], f"{at}.name")
            at = f"{at} ('{name}')"
            profile_text = t["profile"]
            try:
                profile = parse_profile(unit_type, name, profile_text)
            except ValueError as exc:
                raise ctx.fail(f"{at}.profile", str(exc)) from None
            count = ctx.integer(t["count"], f"{at}.count", low=1, high=99) if "count" in t else 1
            (naval if unit_type.domain is Domain.NAVAL else air).extend([profile] * count)
    return Units(
        # rulebook order (infantry, armor, paratrooper, marine), then movement allowance
        land=tuple(
            LandPoints(ut, mv, pts)
            for (ut, mv), pts in sorted(land.items(), key=lambda kv: (_TYPE_INDEX[kv[0][0]], -kv[0][1]))
        ),
        supply=supply,
        naval=tuple(naval),
        air=tuple(air),
    )


def _parse_anchors(ctx: _Ctx, value: object, where: str, countries: Mapping[str, Country]) -> tuple[Anchor, ...]:
    """One anchor table, or an array of them (all must have happened: the latest counts)."""
    items = value if isinstance(value, list) else [value]
    if not items:
        raise ctx.fail(where, "empty list of anchors")
    out = []
    for i, raw in enumerate(items):
        at = f"{where}[{i}]" if isinstance(value, list) else where
        t = ctx.table(raw, at)
        if "date" in t:
            ctx.keys(t, at, ["date"])
            out.append(Anchor("date", date=ctx.date(t["date"], f"{at}.date")))
        elif "entry" in t:
            ctx.keys(t, at, ["entry"])
            out.append(Anchor("entry", months=ctx.integer(t["entry"], f"{at}.entry", high=999)))
        elif "entry_of" in t:
            ctx.keys(t, at, ["entry_of"], ["months"])
            names = ctx.array(t["entry_of"], f"{at}.entry_of")
            if not names:
                raise ctx.fail(f"{at}.entry_of", "names no country")
            countries_ = tuple(ctx.country(n, f"{at}.entry_of", countries) for n in names)
            months = ctx.integer(t["months"], f"{at}.months", high=999) if "months" in t else 0
            out.append(Anchor("entry_of", countries=countries_, months=months))
        else:
            raise ctx.fail(at, "an anchor needs one of 'date', 'entry' or 'entry_of'")
    return tuple(out)


def _parse_arrivals(ctx: _Ctx, entries: object, countries: Mapping[str, Country]) -> list[Arrival]:
    out = []
    for i, raw in enumerate(ctx.array(entries, "arrival")):
        where = f"arrival[{i}]"
        t = ctx.table(raw, where)
        if isinstance(t.get("country"), str):
            where = f"arrival[{i}] ({t['country']})"
        ctx.keys(t, where, ["country", "units"], ["at", "every", "from", "until", "note"])
        country = ctx.country(t["country"], f"{where}.country", countries)
        if not countries[country].has_units:
            raise ctx.fail(where, f"{country} has no units in this game, so it cannot receive any")
        if "note" in t:
            ctx.string(t["note"], f"{where}.note")
        units = _parse_units(ctx, t["units"], f"{where}.units", None)
        if units.empty:
            raise ctx.fail(f"{where}.units", "no units")
        if "at" in t:
            for key in ("every", "from", "until"):
                if key in t:
                    raise ctx.fail(where, f"'{key}' makes no sense with 'at' (a one-time arrival)")
            start = _parse_anchors(ctx, t["at"], f"{where}.at", countries)
            out.append(Arrival(country, units, start, where=where))
            continue
        if "every" not in t or "from" not in t:
            raise ctx.fail(where, "give either 'at' (once) or 'every' and 'from' (repeating)")
        every = ctx.integer(t["every"], f"{where}.every", low=1, high=120)
        start = _parse_anchors(ctx, t["from"], f"{where}.from", countries)
        until = _parse_anchors(ctx, t["until"], f"{where}.until", countries) if "until" in t else ()
        # Two fixed dates that cannot both hold: a schedule that never fires is a typo.
        fixed = until and all(a.kind == "date" for a in (*start, *until))
        if fixed and max(a.date for a in start) >= min(a.date for a in until):
            raise ctx.fail(where, "'until' is not after 'from', so it never fires")
        out.append(Arrival(country, units, start, every, until, where))
    return out


def parse_scenario(
    name: str,
    texts: Mapping[str, str],
) -> Scenario:
    """Build a scenario from file texts: ``texts`` maps file names to their contents.

    It needs ``countries.toml``, ``<name>.toml`` and any scenario that one takes
    its arrivals from.  Tests feed broken text through here.
    """
    file = f"{name}.toml"
    if COUNTRIES_FILE not in texts:
        raise ScenarioError(f"{COUNTRIES_FILE}: missing")
    if file not in texts:
        raise ScenarioError(f"{file}: missing")
    country_list = parse_countries(texts[COUNTRIES_FILE])
    countries = {c.name: c for c in country_list}
    ctx = _Ctx(file)
    doc = _parse_toml(file, texts[file])
    ctx.keys(doc, "", ["scenario", "money", "pool"], ["at_war", "joins_at_start", "start_control", "arrival"])

    head = ctx.table(doc["scenario"], "scenario")
    ctx.keys(head, "scenario", ["name", "title", "start", "start_phase"], ["description", "arrivals_from"])
    if head["name"] != name:
        raise ctx.fail("scenario.name", f"is {head['name']!r} but the file is {file}")
    start = ctx.date(head["start"], "scenario.start")
    phase = ctx.string(head["start_phase"], "scenario.start_phase")
    if phase not in START_PHASES:
        raise ctx.fail("scenario.start_phase", f"unknown phase '{phase}' (choose one of: {', '.join(START_PHASES)})")

    def sides_table(key: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for country, side in ctx.table(doc.get(key, {}), key).items():
            ctx.country(country, f"{key}", countries)
            if side not in SIDES or not isinstance(side, str):
                raise ctx.fail(f"{key}.{country}", f"unknown side {side!r} (choose 'axis' or 'allies')")
            out[country] = side
        return out

    at_war = sides_table("at_war")
    joins = sides_table("joins_at_start")
    for country in joins:
        if country in at_war:
            raise ctx.fail(f"joins_at_start.{country}", "is already at war at the start")

    control = []
    for i, raw in enumerate(ctx.array(doc.get("start_control", []), "start_control")):
        where = f"start_control[{i}]"
        t = ctx.table(raw, where)
        ctx.keys(t, where, ["temp_border", "country", "first_turn_placement"], ["note"])
        control.append(
            StartControl(
                temp_border=ctx.string(t["temp_border"], f"{where}.temp_border"),
                country=ctx.country(t["country"], f"{where}.country", countries),
                first_turn_placement=ctx.boolean(t["first_turn_placement"], f"{where}.first_turn_placement"),
            )
        )

    money: dict[str, int] = {}
    for country, amount in ctx.table(doc["money"], "money").items():
        ctx.country(country, "money", countries)
        money[country] = ctx.integer(amount, f"money.{country}", high=100_000)

    pools: dict[str, Units] = {}
    for country, raw in ctx.table(doc["pool"], "pool").items():
        where = f"pool.{country}"
        ctx.country(country, "pool", countries)
        if not countries[country].has_units:
            raise ctx.fail(where, f"{country} has no units in this game (has_units = false in {COUNTRIES_FILE})")
        t = ctx.table(raw, where)
        ctx.keys(t, where, [], ["land", "naval", "air"])
        parts = {
            key: _parse_units(ctx, t.get(key, []), f"{where}.{key}", Domain(key)) for key in ("land", "naval", "air")
        }
        units = Units(parts["land"].land, parts["land"].supply, parts["naval"].naval, parts["air"].air)
        if units.empty:
            raise ctx.fail(where, "empty pool; leave the country out instead")
        pools[country] = units
    for c in country_list:
        if c.has_units and c.name not in pools:
            raise ctx.fail("pool", f"{c.name} has units (has_units = true in {COUNTRIES_FILE}) but no pool")

    files = [COUNTRIES_FILE]
    arrivals: list[Arrival] = []
    if "arrivals_from" in head:
        base = ctx.string(head["arrivals_from"], "scenario.arrivals_from")
        base_file = f"{base}.toml"
        if base == name or base_file not in texts:
            raise ctx.fail("scenario.arrivals_from", f"no other scenario '{base}' to take arrivals from")
        base_ctx = _Ctx(base_file)
        base_doc = _parse_toml(base_file, texts[base_file])
        if "arrivals_from" in ctx.table(base_doc.get("scenario", {}), "scenario"):
            raise ctx.fail(
                "scenario.arrivals_from", f"{base_file} takes its arrivals from elsewhere too; use one level"
            )
        arrivals += _parse_arrivals(base_ctx, base_doc.get("arrival", []), countries)
        files.append(base_file)
    arrivals += _parse_arrivals(ctx, doc.get("arrival", []), countries)
    files.append(file)

    return Scenario(
        name=name,
        title=ctx.string(head["title"], "scenario.title"),
        description=ctx.string(head["description"], "scenario.description").strip() if "description" in head else "",
        start=start,
        start_phase=phase,
        countries=country_list,
        at_war=at_war,
        joins_at_start=joins,
        start_control=tuple(control),
        money=money,
        pools=pools,
        arrivals=tuple(arrivals),
        files=tuple(files),
    )


# ------------------------------------------------------------- packaged files


def _read(file: str) -> str:
    return resources.files("scenarios").joinpath(file).read_text(encoding="utf-8")


class UnknownScenario(ScenarioError):
    def __init__(self, name: str) -> None:
        super().__init__(f"unknown scenario '{name}'; choose one of: {', '.join(SCENARIOS)}")
        self.name = name


def _check_name(name: str) -> None:
    if name not in SCENARIOS:
        raise UnknownScenario(name)


def list_scenarios() -> list[str]:
    return list(SCENARIOS)


def _texts_for(name: str) -> dict[str, str]:
    """The files a scenario is built from (it may take its arrivals from another one)."""
    texts = {COUNTRIES_FILE: _read(COUNTRIES_FILE), f"{name}.toml": _read(f"{name}.toml")}
    # Read every scenario file: cheap, and lets ``arrivals_from`` name any of them.
    for other in SCENARIOS:
        texts.setdefault(f"{other}.toml", _read(f"{other}.toml"))
    return texts


@cache
def load_countries() -> tuple[Country, ...]:
    return parse_countries(_read(COUNTRIES_FILE))


@cache
def load_scenario(name: str) -> Scenario:
    """The named scenario, checked; cached, so every caller shares one object."""
    _check_name(name)
    return parse_scenario(name, _texts_for(name))


def validate(name: str | None = None) -> None:
    """Load and check one scenario (or all); raises ScenarioError on the first problem."""
    for n in [name] if name is not None else SCENARIOS:
        load_scenario(n)


def digest_texts(texts: Mapping[str, str], files: Iterable[str]) -> str:
    """SHA-256 over the canonical bytes of ``files``: name, length and content each.

    Line endings are normalised to LF so a checkout that converts them does not
    change the digest; the content is otherwise taken byte for byte.
    """
    h = hashlib.sha256(b"pbem-scenario-data\x00")
    for f in files:
        data = texts[f].replace("\r\n", "\n").encode("utf-8")
        h.update(f.encode("utf-8") + b"\x00" + str(len(data)).encode("ascii") + b"\x00" + data)
    return h.hexdigest()


@cache
def scenario_digest(name: str) -> str:
    """Hex SHA-256 of the files the scenario is built from (the map is added by the caller)."""
    scenario = load_scenario(name)
    return digest_texts(_texts_for(name), scenario.files)
