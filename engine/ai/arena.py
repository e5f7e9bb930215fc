"""The arena: computer players against each other, straight on the engine.

No files, signatures or mail: the arena asks :func:`engine.ai.decide` for each
side's actions and applies them with :mod:`engine.api`.  Everything random is
derived from the game's seed, so a game is reproduced exactly by its seed:

* a chance event ``n`` (0, 1, 2, ... in the order they come) is rolled with
  ``sha256(game seed || n)``;
* a side's decision ``n`` uses ``sha256(game seed || "ai" || side || n)``.

A game is scored by territory: the cities and resource hexes each side holds at
the end, and what each side *gained*, i.e. objectives it holds at the end that
it did not hold at the start and that lie outside its own countries' land, or
that the other side held at the start (liberations).  Neutrals joining a side
therefore do not score; only taking ground does.  The game's winner is the
engine's winner if there is one, else the side that gained more.

The yardstick of strength is the *territorial margin* T: the cities the Axis gained minus
the cities the Allies gained (the same count, on cities only: the victory conditions are
conquests, and a country is conquered when its cities are taken), read as each of
:data:`MARKS` begins.  ``compare`` plays two players against a reference on the same seeds
and pairs their margins seed by seed.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from fractions import Fraction

from engine import ai, api, sequence
from engine.actions import EngineError
from engine.ai.convoys import pool_cost
from engine.ai.garrison import exposed
from engine.ai.picture import Picture
from engine.events import Event
from engine.sides import SIDES
from engine.state import Assault, GameState, date_text, parse_date
from engine.units import COSTS
from engine.world import World

#: Countries whose fall the arena records (the bot-vs-bot acceptance questions).
WATCHED = ("Poland", "France", "Soviet Union", "China", "United Kingdom", "Germany", "Italy", "Japan")
#: Decisions without progress before a game is abandoned as stuck.
MAX_STALLS = 3
#: The months at whose start the territorial margin T is read.
MARKS = ("1940-07", "1942-01", "1944-01")
#: The frozen player every player is measured against by ``compare``.
REFERENCE = "v1"


@dataclass(slots=True)
class GameResult:
    seed: int
    winner: str  # "axis", "allies" or "draw"
    by: str  # "engine" (victory conditions) or "territory"
    end_date: str
    held: dict[str, int]
    gained: dict[str, int]
    fallen: dict[str, str]  # country -> date text of its (first) conquest, every country
    #: country -> first month all its home cities were held by the other side (a country
    #: with colonies can lose its home land long before it counts as conquered)
    overrun: dict[str, str]
    furthest_axis: tuple[str, int]  # (date, objectives gained by the Axis then), the Axis high-water mark
    month_seconds: list[float]
    decide_seconds: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)
    #: side -> convoy money delivered ($B)
    convoy_money: dict[str, int] = field(default_factory=dict)
    #: side -> the most money its countries at war held together at the end of a year ($B)
    year_end_money: dict[str, int] = field(default_factory=dict)
    error: str = ""
    #: country -> (date text, side) of its entry into the war during the game
    entered: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: country -> date text of a failed attempt to bring it in (Spain's 25% roll)
    failed_attempts: dict[str, str] = field(default_factory=dict)
    #: naval attacks declared, by side
    naval_combats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    #: side -> air event (see AIR_EVENTS) -> how many of its orders in the game
    air: dict[str, dict[str, int]] = field(default_factory=dict)
    #: country -> date text of its (first) liberation
    liberated: dict[str, str] = field(default_factory=dict)
    #: country -> date text of its surrender (Finland's, or to an atomic bomb)
    surrendered: dict[str, str] = field(default_factory=dict)
    #: date text Vichy France was created ('' if it was not)
    vichy: str = ""
    #: date text the Axis was first at war with the Soviet Union ('' if not)
    soviet_war: str = ""
    #: date text the Vichy France attempt failed ('' if it did not)
    vichy_failed: str = ""

    #: side -> landing event (see LANDING_EVENTS) -> how many in the game
    landings: dict[str, dict[str, int]] = field(default_factory=dict)
    #: year ("1940") -> side -> money its countries at war held, unspent, when the year ended
    money_by_year: dict[str, dict[str, int]] = field(default_factory=dict)
    #: year -> country -> its money when the year ended, for countries holding $1,000B or more
    rich_by_year: dict[str, dict[str, int]] = field(default_factory=dict)
    #: date text the Axis declared war on (or otherwise brought in) the United States ('' if not)
    us_war: str = ""
    #: mark (see MARKS) -> the territorial margin T as that month began (None: not reached)
    margin: dict[str, int | None] = field(default_factory=dict)
    #: date text of the month whose war declaration phase met the victory conditions ('' if none)
    victory: str = ""
    #: side -> capital -> hand-overs (:data:`HAND_OVER`: the enemy to move) at which it was left
    #: with no land unit of the side while an enemy land unit could walk into it within a month
    #: (engine/ai/garrison.py)
    empty_capitals: dict[str, dict[str, int]] = field(default_factory=dict)
    #: side -> hand-overs summed over its other home cities left so
    empty_home_cities: dict[str, int] = field(default_factory=dict)
    #: year -> side -> money held when the year ended by its countries at war that could have
    #: bought something of their pool with it (issue 30: "no side above $1,000B unspent at a
    #: year's end while its pool has units to buy"); a country whose pool is empty or dearer
    #: than its money is left out.  Read just after December's builds, the year's last chance
    #: to spend: what comes to the pools later (buy-backs of the month's losses, January's
    #: arrivals) money could not buy before the year ended
    idle_by_year: dict[str, dict[str, int]] = field(default_factory=dict)
    #: year -> country -> its idle money when the year ended (the countries counted above)
    idlers_by_year: dict[str, dict[str, int]] = field(default_factory=dict)
    #: side -> odds band (see ODDS_BANDS) -> [land attacks and overruns it made at those odds,
    #: strength points its defenders lost, points its attackers lost]
    attacks: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    #: side -> its countries at war and not conquered when the game ended (what a victory
    #: by the rules still waited for)
    standing: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    def events(self) -> str:
        """Conquests, surrenders, liberations and Vichy France, in date order."""
        found = [(d, f"{c} conquered") for c, d in self.fallen.items()]
        found += [(d, f"{c} liberated") for c, d in self.liberated.items()]
        found += [(d, f"{c} surrendered") for c, d in self.surrendered.items()]
        if self.vichy:
            found.append((self.vichy, "Vichy France created"))
        if self.vichy_failed:
            found.append((self.vichy_failed, "Vichy France attempt failed"))
        if self.soviet_war:
            found.append((self.soviet_war, "Axis at war with the Soviet Union"))
        if self.us_war:
            found.append((self.us_war, "United States at war"))
        return ", ".join(f"{what} {d}" for d, what in sorted(found)) or "none"

    def line(self) -> str:
        secs = sum(self.month_seconds) / max(1, len(self.month_seconds))
        overrun = ", ".join(f"{c} {d}" for c, d in sorted(self.overrun.items(), key=lambda x: x[1])) or "none"
        text = (
            f"game {self.seed}: {self.winner} ({self.by}) at {self.end_date}; "
            f"held axis {self.held['axis']} allies {self.held['allies']}; "
            f"gained axis {self.gained['axis']} allies {self.gained['allies']}; "
            f"events: {self.events()}; home cities taken: {overrun}; "
            f"furthest Axis advance {self.furthest_axis[0]} (+{self.furthest_axis[1]}); "
            f"entered: {entered_text(self.entered)}; "
            + "".join(f"{c} attempt failed {d}; " for c, d in sorted(self.failed_attempts.items()))
            + f"naval combats axis {self.naval_combats['axis']} allies {self.naval_combats['allies']}; "
            + f"convoy money delivered: axis {self.convoy_money.get('axis', 0)} "
            f"allies {self.convoy_money.get('allies', 0)}; "
            f"unspent at a year's end: {money_text(self.money_by_year, self.rich_by_year)}; "
            f"of which its pool could have bought with: {money_text(self.idle_by_year, self.idlers_by_year)}; "
            f"margin T: {margin_text(self.margin)}; victory: {self.victory or 'none'}; "
            f"{empty_text(self.empty_capitals, self.empty_home_cities)}; "
            f"{secs:.2f} s/month"
        )
        text += "; " + air_text(self.air) + "; " + landing_text(self.landings)
        return text + (f"; ERROR: {self.error}" if self.error else "")


def money_text(by_year: dict[str, dict[str, int]], rich: dict[str, dict[str, int]] | None = None) -> str:
    """``1939 axis 0 allies 5200 (Australia 1500, ...), 1940 ...`` (countries at war only)."""
    parts = []
    for year in sorted(by_year):
        text = f"{year} axis {by_year[year].get('axis', 0)} allies {by_year[year].get('allies', 0)}"
        top = sorted((rich or {}).get(year, {}).items(), key=lambda x: (-x[1], x[0]))
        if top:
            text += " (" + ", ".join(f"{c} {m}" for c, m in top) + ")"
        parts.append(text)
    return ", ".join(parts) or "no year ended"


def margin_text(margin: dict[str, int | None]) -> str:
    """``1940-07 +12, 1942-01 +30, 1944-01 not reached``."""
    return ", ".join(f"{m} {'not reached' if t is None else format(t, '+d')}" for m, t in margin.items())


def empty_text(capitals: dict[str, dict[str, int]], home: dict[str, int]) -> str:
    """``empty within an enemy's reach (as the enemy was to move): capitals axis 2 (Rome 2), allies 0;
    other home cities ...``"""
    caps = []
    for side in SIDES:
        names = sorted(capitals.get(side, {}).items())
        text = f"{side} {sum(n for _, n in names)}"
        caps.append(text + (" (" + ", ".join(f"{c} {n}" for c, n in names) + ")" if names else ""))
    others = ", ".join(f"{side} {home.get(side, 0)}" for side in SIDES)
    reach = "empty within an enemy's reach (as the enemy was to move)"
    return f"{reach}: capitals {', '.join(caps)}; other home cities {others}"


#: Where in a month each side hands the move to the enemy: the Axis once its own turn is over
#: (the Allied turn follows), the Allies once theirs, the supply phase and the next month's
#: deployment and builds are over (the Axis turn follows).  A key city empty then is one the
#: enemy may walk into before its owner can answer; one emptied earlier in the owner's own
#: month (a landing in the enemy's turn) is the owner's to fill first.
HAND_OVER = {"axis": "allies.overrun", "allies": "axis.overrun"}
_PLACE_IN_MONTH = {p.label: i for i, p in enumerate(sequence.PLAY)}


def count_empty(state: GameState, side: str, capitals: dict[str, dict[str, int]], home: dict[str, int]) -> None:
    """Add ``side``'s key cities left empty within an enemy land unit's reach as it hands the
    move to the enemy (:data:`HAND_OVER`)."""
    names = state.world.map.city_at
    for h, capital in exposed(Picture(state, side)).items():
        if capital:
            per = capitals.setdefault(side, {})
            per[names[h].name] = per.get(names[h].name, 0) + 1
        else:
            home[side] = home.get(side, 0) + 1


def handing_over(state: GameState, counted: dict[str, int]) -> list[str]:
    """The sides whose hand-over of this month (:data:`HAND_OVER`) the game has reached and
    that were not counted yet this month; marks them counted."""
    here = _PLACE_IN_MONTH[sequence.current(state).label]
    out = []
    for side, step in HAND_OVER.items():
        if here >= _PLACE_IN_MONTH[step] and counted.get(side) != state.date:
            counted[side] = state.date
            out.append(side)
    return out


def entered_text(entered: dict[str, tuple[str, str]]) -> str:
    """``Italy 1940-06 axis, ...`` in the order of entry ('none' if nobody entered)."""
    rows = sorted(entered.items(), key=lambda x: (x[1][0], x[0]))
    return ", ".join(f"{c} {d} {side}" for c, (d, side) in rows) or "none"


def new_entries(
    state: GameState, entered: dict[str, tuple[str, str]], at_start: frozenset[str], failed: dict[str, str]
) -> None:
    """Record the countries that have entered the war since the game began, and failed attempts."""
    for name, c in state.countries.items():
        if c.at_war and name not in at_start and name not in entered:
            entered[name] = (date_text(state.date), c.side)
        if c.flags.entry_attempt == "failed" and name not in failed:
            failed[name] = date_text(state.date)


#: The air war's orders as the arena counts them: event -> order kinds.
AIR_EVENTS: dict[str, tuple[str, ...]] = {
    "air combats": ("air_attack", "bomb_ships", "kamikaze"),
    "interceptions": ("intercept",),
    "bombing raids": ("bomb",),
    "atomic bombs": ("atomic",),
}
_AIR_EVENT_OF = {kind: event for event, kinds in AIR_EVENTS.items() for kind in kinds}


def air_text(air: dict[str, dict[str, int]]) -> str:
    return "air: " + "; ".join(
        f"{side} " + ", ".join(f"{event} {air.get(side, {}).get(event, 0)}" for event in AIR_EVENTS) for side in SIDES
    )


#: Amphibious assaults and paradrops as the arena counts them (a combined assault counts
#: as both); an assault succeeded if its units hold its hex when the combat phase is over.
LANDING_EVENTS = (
    "amphibious assaults tried",
    "amphibious assaults succeeded",
    "paradrops tried",
    "paradrops succeeded",
)


#: The bands of odds the arena counts land combats in (issue 30: at which odds does a side
#: attack, and what does each band cost the two sides?); a band holds odds from its number
#: up to the next one's.
ODDS_BANDS = (
    (Fraction(0), "below 1"),
    (Fraction(1), "1-1.5"),
    (Fraction(3, 2), "1.5-2"),
    (Fraction(2), "2-3"),
    (Fraction(3), "3 up"),
)


def odds_band(ratio: Fraction) -> str:
    return next(name for low, name in reversed(ODDS_BANDS) if ratio >= low)


def _count_attacks(events: list[Event], counts: dict[str, dict[str, list[int]]]) -> None:
    """Note each land combat the dice resolved: its band of odds and both sides' losses."""
    for e in events:
        c = e.combat
        if c is None or c.outcome != "resolved":
            continue
        row = counts[c.side][odds_band(c.odds)]
        row[0] += 1
        row[1] += sum(h.points for h in c.defender_hits)
        row[2] += sum(h.points for h in c.attacker_hits)


def attack_text(attacks: dict[str, dict[str, list[int]]]) -> str:
    """``attacks (count, points lost by defenders / attackers): axis below 1 0 (0/0), ...``"""
    return "attacks by odds (how many, points lost by defenders/attackers): " + "; ".join(
        f"{side} "
        + ", ".join(
            f"{band} {n} ({d}/{a})"
            for band, (n, d, a) in ((b, attacks.get(side, {}).get(b, [0, 0, 0])) for _, b in ODDS_BANDS)
        )
        for side in SIDES
    )


def landing_text(landings: dict[str, dict[str, int]]) -> str:
    return "landings: " + "; ".join(
        f"{side} " + ", ".join(f"{event} {landings.get(side, {}).get(event, 0)}" for event in LANDING_EVENTS)
        for side in SIDES
    )


def _count_landings(
    state: GameState,
    side: str,
    action: api.Action,
    pending: list[tuple[str, Assault]],
    counts: dict[str, dict[str, int]],
) -> None:
    """Note an assault just declared (its kinds are on the state's record of it)."""
    if action.kind != "assault" or not state.memo.assaults:
        return
    a = state.memo.assaults[-1]
    pending.append((side, Assault(a.hex, list(a.units), a.by_sea, a.by_air)))
    for kind, used in (("amphibious assaults", a.by_sea), ("paradrops", a.by_air)):
        if used:
            counts[side][f"{kind} tried"] += 1


def _settle_landings(state: GameState, pending: list[tuple[str, Assault]], counts: dict[str, dict[str, int]]) -> None:
    """Once the engine has forgotten the assaults (the combat phase is over), count those whose
    units hold their hex."""
    if not pending or state.memo.assaults is not None:
        return
    for side, a in pending:
        held = state.side_controlling(a.hex) == side and any(
            i in state.units and state.units[i].hex == a.hex for i in a.units
        )
        for kind, used in (("amphibious assaults", a.by_sea), ("paradrops", a.by_air)):
            if used and held:
                counts[side][f"{kind} succeeded"] += 1
    pending.clear()


def home_taken(state: GameState, country: str) -> bool:
    """Are all of ``country``'s home cities held by the side it is at war with?"""
    c = state.countries.get(country)
    cities = state.world.home_cities_of.get(country, ())
    if c is None or not c.at_war or c.side not in SIDES or not cities:
        return False
    enemy = "allies" if c.side == "axis" else "axis"
    return all(state.side_controlling(h) == enemy for h in cities)


def objective_hexes(state: GameState) -> list[int]:
    m = state.world.map
    return sorted({c.hex for c in m.cities} | set(m.resources))


def city_hexes(state: GameState) -> list[int]:
    """The objectives of the territorial margin: every city (conquest is by cities)."""
    return sorted({c.hex for c in state.world.map.cities})


def margin(state: GameState, cities: list[int], start: dict[int, str]) -> int:
    """The territorial margin T: cities the Axis gained minus cities the Allies gained."""
    g = gained(state, cities, start)
    return g["axis"] - g["allies"]


def held(state: GameState, hexes: list[int]) -> dict[str, int]:
    out: dict[str, int] = dict.fromkeys(SIDES, 0)
    for h in hexes:
        s = state.side_controlling(h)
        if s in out:
            out[s] += 1
    return out


def gained(state: GameState, hexes: list[int], start: dict[int, str]) -> dict[str, int]:
    out: dict[str, int] = dict.fromkeys(SIDES, 0)
    country_of = state.world.map.country_of
    for h in hexes:
        s = state.side_controlling(h)
        if s not in out or start.get(h) == s:
            continue
        owner = country_of[h]
        owner_side = state.countries[owner].side if owner in state.countries else ""
        if owner_side != s or start.get(h) in SIDES:
            out[s] += 1
    return out


def _cargo(state: GameState) -> dict[int, tuple[int, str]]:
    """Convoys carrying money: id -> (amount, side)."""
    return {u.id: (u.cargo, state.countries[u.country].side) for u in state.units.values() if u.cargo}


def money_of(state: GameState, side: str) -> int:
    """Money of ``side``'s countries at war (a neutral earns nothing; a conquered country
    loses its money)."""
    return sum(c.money for c in state.countries.values() if c.side == side and c.at_war)


#: A country holding this much at a year's end is named in the arena's money figures.
RICH = 1000


def cheapest_buy(state: GameState, country: str) -> int | None:
    """The price of the cheapest thing in ``country``'s pool that money buys: a land point or a
    unit (None: nothing; supply units are free, so money buys them no sooner)."""
    c = state.countries[country]
    prices = [COSTS[key.type].price for key, points in c.pool_land.items() if points > 0]
    prices += [COSTS[p.type].price for p in c.pool_units]
    return min((p for p in prices if p > 0), default=None)


def idlers(state: GameState) -> dict[str, int]:
    """Countries at war whose money could buy something of their pool: country -> the part of
    its money the pool could have taken (money beyond the whole pool's price buys nothing)."""
    out = {}
    for name, c in sorted(state.countries.items()):
        cheapest = cheapest_buy(state, name) if c.at_war and c.money > 0 else None
        if cheapest is not None and c.money >= cheapest:
            out[name] = min(c.money, pool_cost(state, name))
    return out


def _seed(game_seed: bytes, *parts: bytes | str | int) -> bytes:
    h = hashlib.sha256(game_seed)
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
    return h.digest()


#: A computer player's simultaneous decision: (state, side, seed, player, seconds) -> its list.
Decide = Callable[[GameState, str, bytes, str, float | None], list[api.Action]]


@dataclass(slots=True)
class Resume:
    """A game of the arena stopped as a month began: its state and how many decisions and
    chance events its seed has numbered so far, which is all :func:`play_game` needs to go
    on exactly as the whole game would.  A change that acts only late in a war is measured
    from here on many seeds without playing the years before again."""

    state: GameState
    decisions: int
    chances: int


def play_game(
    scenario: str | World,
    until: int,
    players: dict[str, str],
    seed: int,
    budget_s: float | None = None,
    on_month: Callable[[GameState], None] | None = None,
    setup: Callable[[GameState], None] | None = None,
    clock: Callable[[], float] = lambda: 0.0,
    on_decision: Callable[[api.Decision, GameState], None] | None = None,
    decide_hidden: Decide | None = None,
    marks: tuple[str, ...] = MARKS,
    resume: Resume | None = None,
    on_resume: Callable[[Resume], None] | None = None,
) -> GameResult:
    """Play one game from the scenario's start until the date ``until`` begins (or the game ends).

    ``setup`` may change the new game before play (tests on hand-made worlds).  The engine
    has no clock: timings are measured only with the ``clock`` the caller hands in.
    ``on_decision`` is told each decision before it is made (who would sit down for it), with
    the state it is made at (to read, not to change).
    ``decide_hidden`` makes the simultaneous decisions in the computer player's place (a
    player who gives some of them ahead); by default the computer player makes them.
    ``marks`` are the months at whose start the territorial margin is read.
    ``on_resume`` is handed, as each month begins, what ``resume`` needs to go on from there
    (the game's own state, which play goes on changing: keep a copy); the margins of a game
    resumed still count from the scenario's start, the result's other counts only the months
    played in this call."""
    hidden = decide_hidden or ai.decide
    state = api.new_game(scenario)
    if setup is not None:
        setup(state)
    game_seed = hashlib.sha256(b"pbem/arena/v1\0" + str(seed).encode()).digest()
    hexes = objective_hexes(state)
    start = {h: state.side_controlling(h) for h in hexes}
    cities = city_hexes(state)
    at_start = frozenset(n for n, c in state.countries.items() if c.at_war)
    chance_no = decision_no = 0
    if resume is not None:
        state, decision_no, chance_no = resume.state, resume.decisions, resume.chances
    margins: dict[str, int | None] = dict.fromkeys(marks)
    victory = ""
    empty_capitals: dict[str, dict[str, int]] = {side: {} for side in SIDES}
    empty_home: dict[str, int] = dict.fromkeys(SIDES, 0)
    fallen: dict[str, str] = {}
    liberated: dict[str, str] = {}
    surrendered: dict[str, str] = {}
    dates: dict[str, str] = {}
    overrun: dict[str, str] = {}
    entered: dict[str, tuple[str, str]] = {}
    failed: dict[str, str] = {}
    furthest = (date_text(state.date), 0)
    if resume is not None and date_text(state.date) in margins:
        margins[date_text(state.date)] = margin(state, cities, start)  # read as its month began
    month_seconds: list[float] = []
    decide_seconds: dict[str, float] = dict.fromkeys(SIDES, 0.0)
    decisions: dict[str, int] = dict.fromkeys(SIDES, 0)
    naval_combats: dict[str, int] = dict.fromkeys(SIDES, 0)

    air: dict[str, dict[str, int]] = {side: dict.fromkeys(AIR_EVENTS, 0) for side in SIDES}
    landings: dict[str, dict[str, int]] = {side: dict.fromkeys(LANDING_EVENTS, 0) for side in SIDES}
    assaults: list[tuple[str, Assault]] = []
    attacks: dict[str, dict[str, list[int]]] = {side: {band: [0, 0, 0] for _, band in ODDS_BANDS} for side in SIDES}
    stalls = 0
    error = ""
    month = state.date
    month_start = clock()
    convoy_money: dict[str, int] = dict.fromkeys(SIDES, 0)
    year_end_money: dict[str, int] = dict.fromkeys(SIDES, 0)
    money_by_year: dict[str, dict[str, int]] = {}
    rich_by_year: dict[str, dict[str, int]] = {}
    idle_by_year: dict[str, dict[str, int]] = {}
    idlers_by_year: dict[str, dict[str, int]] = {}
    handed: dict[str, int] = {}
    december_idlers: dict[str, int] = {}
    built = False  # this month's builds were made
    while state.date < until:
        d = api.decision(state)
        if d.kind == "end":
            break
        for side in handing_over(state, handed):
            count_empty(state, side, empty_capitals, empty_home)
        before = (state.step, state.date, tuple(state.acting))
        carried = _cargo(state)
        if on_decision is not None:
            on_decision(d, state)
        try:
            if d.kind == "chance":
                rolled = api.apply_chance_events(state, _seed(game_seed, chance_no.to_bytes(8, "big")))
                _count_attacks(rolled, attacks)
                chance_no += 1
            elif d.kind == "simultaneous":
                orders: dict[str, list[api.Action]] = {}
                for side in d.sides:
                    t0 = clock()
                    orders[side] = hidden(
                        state, side, _seed(game_seed, "ai", side, decision_no), players[side], budget_s
                    )
                    decide_seconds[side] += clock() - t0
                    decisions[side] += 1
                    decision_no += 1
                api.apply_simultaneous(state, orders)
            else:
                side = d.sides[0]
                t0 = clock()
                actions = ai.decide(state, side, _seed(game_seed, "ai", side, decision_no), players[side], budget_s)
                decide_seconds[side] += clock() - t0
                decisions[side] += 1
                decision_no += 1
                for action in actions:
                    api.apply(state, side, action)
                    if action.kind == "naval":
                        naval_combats[side] += 1
                    if action.kind in _AIR_EVENT_OF:
                        air[side][_AIR_EVENT_OF[action.kind]] += 1
                    _count_landings(state, side, action, assaults, landings)
                    if side not in api.decision(state).sides:
                        break
        except api.EngineError as exc:
            error = f"{d.phase} {date_text(state.date)}: {exc}"
            break
        _settle_landings(state, assaults, landings)
        for uid, (amount, owner) in carried.items():
            if uid in state.units and not state.units[uid].cargo:
                convoy_money[owner] += amount
        after = (state.step, state.date, tuple(state.acting))
        stalls = stalls + 1 if after == before and d.kind != "chance" else 0
        if stalls >= MAX_STALLS:
            error = f"no progress in {d.phase} {date_text(state.date)}"
            break
        new_entries(state, entered, at_start, failed)
        # conquests happen in the war declaration phase: record the month they happen in
        record_events(state, fallen, liberated, surrendered, dates)
        if state.winner and not victory:
            victory = date_text(state.date)
        if state.date % 12 == 11 and not built:
            december_idlers = idlers(state)
            built = d.phase == "build"
        if state.date != month:
            built = False
            month_seconds.append(clock() - month_start)
            month_start = clock()
            month = state.date
            if month % 12 == 0:
                year = str(month // 12 - 1)  # the state at January's start: the year just ended
                money_by_year[year] = {side: money_of(state, side) for side in SIDES}
                rich_by_year[year] = {
                    n: c.money for n, c in sorted(state.countries.items()) if c.at_war and c.money >= RICH
                }
                for side in SIDES:
                    year_end_money[side] = max(year_end_money[side], money_by_year[year][side])
                idlers_by_year[year] = december_idlers
                idle_by_year[year] = {
                    side: sum(m for n, m in idlers_by_year[year].items() if state.countries[n].side == side)
                    for side in SIDES
                }
            for c in WATCHED:
                if c not in overrun and home_taken(state, c):
                    overrun[c] = date_text(state.date)
            if date_text(state.date) in margins:
                margins[date_text(state.date)] = margin(state, cities, start)
            g = gained(state, hexes, start)["axis"]
            if g > furthest[1]:
                furthest = (date_text(state.date), g)
            if on_month is not None:
                on_month(state)
            if on_resume is not None:
                on_resume(Resume(state, decision_no, chance_no))
    holds, gains = held(state, hexes), gained(state, hexes, start)
    if state.winner:
        winner, by = state.winner, "engine"
        # a won game is over: its margin stands at every later mark
        final = margin(state, cities, start)
        margins = {m: final if t is None and parse_date(m) >= state.date else t for m, t in margins.items()}
    else:
        winner = "axis" if gains["axis"] > gains["allies"] else "allies" if gains["allies"] > gains["axis"] else "draw"
        by = "territory"
    return GameResult(
        seed,
        winner,
        by,
        date_text(state.date),
        holds,
        gains,
        fallen,
        overrun,
        furthest,
        month_seconds,
        decide_seconds,
        decisions,
        convoy_money,
        year_end_money,
        error,
        entered,
        failed,
        naval_combats,
        air,
        liberated,
        surrendered,
        dates.get("vichy", ""),
        dates.get("soviet_war", ""),
        dates.get("vichy_failed", ""),
        landings,
        money_by_year,
        rich_by_year,
        dates.get("us_war", ""),
        margins,
        victory,
        empty_capitals,
        empty_home,
        idle_by_year,
        idlers_by_year,
        attacks,
        standing(state),
    )


def standing(state: GameState) -> dict[str, list[str]]:
    """Side -> its countries at war and not conquered."""
    return {
        side: sorted(n for n, c in state.countries.items() if c.side == side and c.at_war and not c.conquered)
        for side in SIDES
    }


def record_events(
    state: GameState,
    fallen: dict[str, str],
    liberated: dict[str, str],
    surrendered: dict[str, str],
    dates: dict[str, str],
) -> None:
    """Note the first date of each conquest, liberation, surrender, of Vichy France and of
    the Axis at war with the Soviet Union."""
    now = date_text(state.date)
    for name, c in state.countries.items():
        # A surrender to an atomic bomb makes the country conquered too (in the next war
        # declaration phase): it counts as a surrender, from the month of the bomb.
        gave_up = c.flags.surrendered or bool(c.flags.atomic_surrender)
        if c.conquered and not gave_up:
            fallen.setdefault(name, now)
        if c.liberated:
            liberated.setdefault(name, now)
        if gave_up:
            surrendered.setdefault(name, now)
    france = state.countries.get("France")
    if france is not None and france.flags.vichy:
        dates.setdefault("vichy", now)
    elif france is not None and france.flags.vichy_tried:
        dates.setdefault("vichy_failed", now)
    soviet = state.countries.get("Soviet Union")
    if soviet is not None and soviet.at_war and soviet.side == "allies":
        dates.setdefault("soviet_war", now)
    us = state.countries.get("United States")
    if us is not None and us.at_war:
        dates.setdefault("us_war", now)


@dataclass(slots=True)
class Summary:
    games: int
    wins: dict[str, int]
    mean_held: dict[str, float]
    mean_gained: dict[str, float]
    fallen: dict[str, int]  # country -> games in which it fell
    overrun: dict[str, int]  # country -> games in which all its home cities were taken
    liberated: dict[str, int]  # country -> games in which it was liberated
    surrendered: dict[str, int]  # country -> games in which it surrendered
    vichy: int  # games in which Vichy France was created
    seconds_per_month: float
    seconds_per_side_month: dict[str, float]
    errors: int
    #: "country (side)" -> the dates it entered the war on that side, one per game it did
    entered: dict[str, list[str]] = field(default_factory=dict)
    #: country -> games in which an attempt to bring it in failed
    failed_attempts: dict[str, int] = field(default_factory=dict)
    #: naval attacks declared in all games, by side
    naval_combats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    #: side -> convoy money delivered per game (mean, $B)
    mean_convoy_money: dict[str, float] = field(default_factory=dict)
    #: side -> the most money a side held at a year's end in any game ($B)
    max_year_end_money: dict[str, int] = field(default_factory=dict)
    #: year -> side -> the most money the side's countries at war held unspent when that
    #: year ended, over the games
    money_by_year: dict[str, dict[str, int]] = field(default_factory=dict)
    #: games in which the United States entered the war
    us_war: int = 0
    #: side -> air event -> total over the games
    air: dict[str, dict[str, int]] = field(default_factory=dict)
    #: side -> landing event -> total over the games
    landings: dict[str, dict[str, int]] = field(default_factory=dict)
    #: mark -> (mean territorial margin T over the games that reached it, how many did)
    mean_margin: dict[str, tuple[float, int]] = field(default_factory=dict)
    #: date text of each game won by the victory conditions
    victories: list[str] = field(default_factory=list)
    #: side -> hand-overs at which its capitals were left empty within an enemy's reach, over the games
    empty_capitals: dict[str, int] = field(default_factory=dict)
    #: games in which a capital was left so at least once
    games_with_empty_capital: int = 0
    #: side -> the same for its other home cities
    empty_home_cities: dict[str, int] = field(default_factory=dict)
    #: year -> side -> the most money held at that year's end, over the games, by countries
    #: whose pool it could have bought from (GameResult.idle_by_year)
    idle_by_year: dict[str, dict[str, int]] = field(default_factory=dict)
    #: side -> odds band -> [attacks, defenders' points lost, attackers' points lost], summed
    attacks: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    #: side -> its countries at war and not conquered when the game ended (what a victory
    #: by the rules still waited for)
    standing: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    def lines(self, players: dict[str, str]) -> list[str]:
        w = self.wins
        return [
            f"{self.games} games, axis={players['axis']} allies={players['allies']}",
            f"wins: axis {w['axis']}, allies {w['allies']}, draws {w['draw']}",
            f"territorial score (cities and resource hexes held at the end, mean): "
            f"axis {self.mean_held['axis']:.1f}, allies {self.mean_held['allies']:.1f}; "
            f"gained: axis {self.mean_gained['axis']:.1f}, allies {self.mean_gained['allies']:.1f}",
            "fallen: " + (", ".join(f"{c} in {n}" for c, n in sorted(self.fallen.items())) or "none"),
            "liberated: " + (", ".join(f"{c} in {n}" for c, n in sorted(self.liberated.items())) or "none"),
            "surrendered: " + (", ".join(f"{c} in {n}" for c, n in sorted(self.surrendered.items())) or "none"),
            f"Vichy France created in {self.vichy}",
            f"United States at war in {self.us_war}",
            "home cities all taken: " + (", ".join(f"{c} in {n}" for c, n in sorted(self.overrun.items())) or "none"),
            f"time per month: {self.seconds_per_month:.2f} s "
            f"(axis decisions {self.seconds_per_side_month['axis']:.2f} s, "
            f"allies {self.seconds_per_side_month['allies']:.2f} s)",
            "entered the war: " + (", ".join(self.entry_texts()) or "none"),
            "failed attempts: " + (", ".join(f"{c} in {n}" for c, n in sorted(self.failed_attempts.items())) or "none"),
            f"naval combats: axis {self.naval_combats['axis']}, allies {self.naval_combats['allies']}",
            f"convoy money delivered per game (mean): axis {self.mean_convoy_money.get('axis', 0.0):.0f}, "
            f"allies {self.mean_convoy_money.get('allies', 0.0):.0f}; most unspent at a year's end: "
            f"axis {self.max_year_end_money.get('axis', 0)}, allies {self.max_year_end_money.get('allies', 0)}",
            f"most unspent at each year's end (countries at war): {money_text(self.money_by_year)}",
            f"of which a pool could have bought with (the issue's measure): {money_text(self.idle_by_year)}",
            f"games stopped by an error: {self.errors}",
            air_text(self.air),
            landing_text(self.landings),
            attack_text(self.attacks),
            "territorial margin T (cities gained by the Axis minus by the Allies), mean: "
            + ", ".join(
                f"{m} {t:+.1f} ({n} games)" if n else f"{m} not reached" for m, (t, n) in self.mean_margin.items()
            ),
            "empty within an enemy's reach (as the enemy was to move, all games): capitals "
            + ", ".join(f"{s} {self.empty_capitals.get(s, 0)}" for s in SIDES)
            + f" (in {self.games_with_empty_capital} games); other home cities "
            + ", ".join(f"{s} {self.empty_home_cities.get(s, 0)}" for s in SIDES),
            f"won by the victory conditions in {len(self.victories)} games"
            + (f" ({', '.join(self.victories)})" if self.victories else ""),
        ]

    def entry_texts(self) -> list[str]:
        """``Italy (axis) in 3 games, 1940-06 to 1940-07`` for each country and side."""
        out = []
        for who, dates in sorted(self.entered.items(), key=lambda x: (min(x[1]), x[0])):
            span = dates[0] if min(dates) == max(dates) else f"{min(dates)} to {max(dates)}"
            out.append(f"{who} in {len(dates)} game{'s' if len(dates) != 1 else ''}, {span}")
        return out


def summarize(results: list[GameResult]) -> Summary:
    n = max(1, len(results))
    wins = {"axis": 0, "allies": 0, "draw": 0}
    fallen: dict[str, int] = {}
    overrun: dict[str, int] = {}
    liberated: dict[str, int] = {}
    surrendered: dict[str, int] = {}
    months = sum(len(r.month_seconds) for r in results) or 1
    entered: dict[str, list[str]] = {}
    failed: dict[str, int] = {}
    for r in results:
        wins[r.winner] += 1
        for c, (date, side) in r.entered.items():
            entered.setdefault(f"{c} ({side})", []).append(date)
        for c in r.failed_attempts:
            failed[c] = failed.get(c, 0) + 1
        for c in r.fallen:
            fallen[c] = fallen.get(c, 0) + 1
        for c in r.overrun:
            overrun[c] = overrun.get(c, 0) + 1
        for c in r.liberated:
            liberated[c] = liberated.get(c, 0) + 1
        for c in r.surrendered:
            surrendered[c] = surrendered.get(c, 0) + 1
    return Summary(
        games=len(results),
        wins=wins,
        mean_held={s: sum(r.held[s] for r in results) / n for s in SIDES},
        mean_gained={s: sum(r.gained[s] for r in results) / n for s in SIDES},
        fallen=fallen,
        overrun=overrun,
        liberated=liberated,
        surrendered=surrendered,
        vichy=sum(1 for r in results if r.vichy),
        seconds_per_month=sum(sum(r.month_seconds) for r in results) / months,
        seconds_per_side_month={s: sum(r.decide_seconds.get(s, 0.0) for r in results) / months for s in SIDES},
        errors=sum(1 for r in results if r.error),
        entered={k: sorted(v) for k, v in entered.items()},
        failed_attempts=failed,
        naval_combats={s: sum(r.naval_combats[s] for r in results) for s in SIDES},
        mean_convoy_money={s: sum(r.convoy_money.get(s, 0) for r in results) / n for s in SIDES},
        max_year_end_money={s: max((r.year_end_money.get(s, 0) for r in results), default=0) for s in SIDES},
        money_by_year={
            year: {s: max(r.money_by_year.get(year, {}).get(s, 0) for r in results) for s in SIDES}
            for year in sorted({y for r in results for y in r.money_by_year})
        },
        us_war=sum(1 for r in results if r.us_war),
        air={
            side: {event: sum(r.air.get(side, {}).get(event, 0) for r in results) for event in AIR_EVENTS}
            for side in SIDES
        },
        landings={
            side: {event: sum(r.landings.get(side, {}).get(event, 0) for r in results) for event in LANDING_EVENTS}
            for side in SIDES
        },
        mean_margin={
            m: _mean_count([r.margin.get(m) for r in results]) for m in sorted({m for r in results for m in r.margin})
        },
        victories=sorted(r.victory for r in results if r.victory),
        empty_capitals={s: sum(sum(r.empty_capitals.get(s, {}).values()) for r in results) for s in SIDES},
        games_with_empty_capital=sum(1 for r in results if any(r.empty_capitals.get(s) for s in SIDES)),
        empty_home_cities={s: sum(r.empty_home_cities.get(s, 0) for r in results) for s in SIDES},
        idle_by_year={
            year: {s: max(r.idle_by_year.get(year, {}).get(s, 0) for r in results) for s in SIDES}
            for year in sorted({y for r in results for y in r.idle_by_year})
        },
        attacks={
            side: {
                band: [sum(r.attacks.get(side, {}).get(band, [0, 0, 0])[i] for r in results) for i in range(3)]
                for _, band in ODDS_BANDS
            }
            for side in SIDES
        },
    )


def _mean_count(values: list[int | None]) -> tuple[float, int]:
    found = [v for v in values if v is not None]
    return (sum(found) / len(found) if found else 0.0, len(found))


def run(
    scenario: str | World,
    until: str,
    games: int,
    axis: str,
    allies: str,
    seed: int = 0,
    budget_s: float | None = None,
    report: Callable[[str], None] | None = None,
    setup: Callable[[GameState], None] | None = None,
    clock: Callable[[], float] = lambda: 0.0,
    on_game: Callable[[GameResult], None] | None = None,
    on_decision: Callable[[api.Decision, GameState], None] | None = None,
    decide_hidden: Decide | None = None,
) -> Summary:
    """Play ``games`` games with seeds ``seed``, ``seed + 1``, ...; report each result line
    and hand each result to ``on_game`` (each decision of a game to ``on_decision`` first)."""
    end = _checked(until, axis, allies)
    players = {"axis": axis, "allies": allies}
    results = []
    for i in range(games):
        r = play_game(
            scenario,
            end,
            players,
            seed + i,
            budget_s,
            setup=setup,
            clock=clock,
            on_decision=on_decision,
            decide_hidden=decide_hidden,
        )
        results.append(r)
        if on_game is not None:
            on_game(r)
        if report is not None:
            report(r.line())
    summary = summarize(results)
    if report is not None:
        for line in summary.lines(players):
            report(line)
    return summary


def _checked(until: str, *players: str) -> int:
    """The date ``until`` as a month number, once the players are known ones."""
    for p in players:
        if p not in ai.PLAYERS:
            raise EngineError(f"unknown player '{p}'; choose one of {', '.join(ai.PLAYERS)}")
    try:
        return parse_date(until)
    except ValueError as exc:
        raise EngineError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class Paired:
    """The mean of paired differences and its standard error (None with fewer than two pairs)."""

    mean: float
    se: float | None
    n: int

    @classmethod
    def of(cls, diffs: list[int]) -> Paired:
        n = len(diffs)
        mean = sum(diffs) / n
        if n < 2:
            return cls(mean, None, n)
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return cls(mean, math.sqrt(var / n), n)

    def text(self) -> str:
        se = "no standard error with one seed" if self.se is None else f"standard error {self.se:.1f}"
        return f"{self.mean:+.1f} ({se}, {self.n} seed{'s' if self.n != 1 else ''})"


@dataclass(slots=True)
class Comparison:
    """Players ``a`` and ``b``, each against the reference on the same seeds, on both sides."""

    a: str
    b: str
    reference: str
    seeds: list[int]
    marks: tuple[str, ...]
    #: side -> mark -> player -> its margins T against the reference, seed by seed (None: not reached)
    margins: dict[str, dict[str, dict[str, list[int | None]]]]

    def difference(self, side: str, mark: str) -> Paired | None:
        """Mean over the seeds of T(a) - T(b) with ``a`` and ``b`` playing ``side``."""
        rows = self.margins[side][mark]
        diffs = [x - y for x, y in zip(rows[self.a], rows[self.b], strict=True) if x is not None and y is not None]
        return Paired.of(diffs) if diffs else None

    def lines(self) -> list[str]:
        first, last = self.seeds[0], self.seeds[-1]
        out = [
            f"compare {self.a} with {self.b}, each against {self.reference} on seeds {first} to {last}: "
            "territorial margin T (cities gained by the Axis minus by the Allies; the Axis wants it high, "
            f"the Allies low), difference {self.a} - {self.b} paired by seed"
        ]
        for side in SIDES:
            other = "allies" if side == "axis" else "axis"
            parts = []
            for mark in self.marks:
                d = self.difference(side, mark)
                if d is None:
                    parts.append(f"{mark} not reached")
                    continue
                rows = self.margins[side][mark]
                means = ", ".join(f"{p} {_mean_count(rows[p])[0]:+.1f}" for p in (self.a, self.b))
                parts.append(f"{mark} {means}, difference {d.text()}")
            out.append(f"as the {side} (against {self.reference} as the {other}): " + "; ".join(parts))
        return out

    def to_json(self) -> dict[str, object]:
        differences = {
            side: {
                m: None if (d := self.difference(side, m)) is None else {"mean": d.mean, "se": d.se, "seeds": d.n}
                for m in self.marks
            }
            for side in SIDES
        }
        return {
            "a": self.a,
            "b": self.b,
            "reference": self.reference,
            "seeds": self.seeds,
            "marks": list(self.marks),
            "margins": self.margins,
            "difference": differences,
        }


def compare(
    scenario: str | World,
    until: str,
    games: int,
    a: str,
    b: str,
    seed: int = 0,
    budget_s: float | None = None,
    report: Callable[[str], None] | None = None,
    clock: Callable[[], float] = lambda: 0.0,
    on_game: Callable[[GameResult, dict[str, str]], None] | None = None,
    reference: str = REFERENCE,
    marks: tuple[str, ...] = MARKS,
    setup: Callable[[GameState], None] | None = None,
) -> Comparison:
    """Play ``a`` and ``b`` each against ``reference`` on seeds ``seed``, ``seed + 1``, ...
    (``games`` seeds), once as the Axis and once as the Allies; a game two pairings share
    (the reference against itself) is played once."""
    end = _checked(until, a, b, reference)
    if a == b:
        raise EngineError(f"compare two different players, not '{a}' with itself")
    seeds = list(range(seed, seed + games))
    played: dict[tuple[str, str, int], GameResult] = {}
    margins: dict[str, dict[str, dict[str, list[int | None]]]] = {
        side: {m: {a: [], b: []} for m in marks} for side in SIDES
    }
    for s in seeds:
        for p in (a, b):
            for side in SIDES:
                players = {"axis": reference, "allies": reference} | {side: p}
                key = (players["axis"], players["allies"], s)
                if key not in played:
                    played[key] = r = play_game(
                        scenario, end, players, s, budget_s, setup=setup, clock=clock, marks=marks
                    )
                    if on_game is not None:
                        on_game(r, players)
                    if report is not None:
                        report(f"axis={players['axis']} allies={players['allies']} " + r.line())
                for m in marks:
                    margins[side][m][p].append(played[key].margin.get(m))
    result = Comparison(a, b, reference, seeds, marks, margins)
    if report is not None:
        for line in result.lines():
            report(line)
    return result
