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
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import ai, api
from engine.actions import EngineError
from engine.sides import SIDES
from engine.state import GameState, date_text, parse_date
from engine.world import World

#: Countries whose fall the arena records (the bot-vs-bot acceptance questions).
WATCHED = ("Poland", "France", "Soviet Union", "China", "United Kingdom", "Germany", "Italy", "Japan")
#: Decisions without progress before a game is abandoned as stuck.
MAX_STALLS = 3


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
    error: str = ""
    #: country -> date text of its (first) liberation
    liberated: dict[str, str] = field(default_factory=dict)
    #: country -> date text of its surrender (Finland)
    surrendered: dict[str, str] = field(default_factory=dict)
    #: date text Vichy France was created ('' if it was not)
    vichy: str = ""
    #: date text the Axis was first at war with the Soviet Union ('' if not)
    soviet_war: str = ""
    #: date text the Vichy France attempt failed ('' if it did not)
    vichy_failed: str = ""

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
            f"{secs:.2f} s/month"
        )
        return text + (f"; ERROR: {self.error}" if self.error else "")


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


def _seed(game_seed: bytes, *parts: bytes | str | int) -> bytes:
    h = hashlib.sha256(game_seed)
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
    return h.digest()


def play_game(
    scenario: str | World,
    until: int,
    players: dict[str, str],
    seed: int,
    budget_s: float | None = None,
    on_month: Callable[[GameState], None] | None = None,
    setup: Callable[[GameState], None] | None = None,
    clock: Callable[[], float] = lambda: 0.0,
) -> GameResult:
    """Play one game from the scenario's start until the date ``until`` begins (or the game ends).

    ``setup`` may change the new game before play (tests on hand-made worlds).  The engine
    has no clock: timings are measured only with the ``clock`` the caller hands in."""
    state = api.new_game(scenario)
    if setup is not None:
        setup(state)
    game_seed = hashlib.sha256(b"pbem/arena/v1\0" + str(seed).encode()).digest()
    hexes = objective_hexes(state)
    start = {h: state.side_controlling(h) for h in hexes}
    fallen: dict[str, str] = {}
    liberated: dict[str, str] = {}
    surrendered: dict[str, str] = {}
    dates: dict[str, str] = {}
    overrun: dict[str, str] = {}
    furthest = (date_text(state.date), 0)
    month_seconds: list[float] = []
    decide_seconds: dict[str, float] = dict.fromkeys(SIDES, 0.0)
    decisions: dict[str, int] = dict.fromkeys(SIDES, 0)
    chance_no = 0
    decision_no = 0
    stalls = 0
    error = ""
    month = state.date
    month_start = clock()
    while state.date < until:
        d = api.decision(state)
        if d.kind == "end":
            break
        before = (state.step, state.date, tuple(state.acting))
        try:
            if d.kind == "chance":
                api.apply_chance(state, _seed(game_seed, chance_no.to_bytes(8, "big")))
                chance_no += 1
            elif d.kind == "simultaneous":
                orders: dict[str, list[api.Action]] = {}
                for side in d.sides:
                    t0 = clock()
                    orders[side] = ai.decide(
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
                    if side not in api.decision(state).sides:
                        break
        except api.EngineError as exc:
            error = f"{d.phase} {date_text(state.date)}: {exc}"
            break
        after = (state.step, state.date, tuple(state.acting))
        stalls = stalls + 1 if after == before and d.kind != "chance" else 0
        if stalls >= MAX_STALLS:
            error = f"no progress in {d.phase} {date_text(state.date)}"
            break
        # conquests happen in the war declaration phase: record the month they happen in
        record_events(state, fallen, liberated, surrendered, dates)
        if state.date != month:
            month_seconds.append(clock() - month_start)
            month_start = clock()
            month = state.date
            for c in WATCHED:
                if c not in overrun and home_taken(state, c):
                    overrun[c] = date_text(state.date)
            g = gained(state, hexes, start)["axis"]
            if g > furthest[1]:
                furthest = (date_text(state.date), g)
            if on_month is not None:
                on_month(state)
    holds, gains = held(state, hexes), gained(state, hexes, start)
    if state.winner:
        winner, by = state.winner, "engine"
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
        error,
        liberated,
        surrendered,
        dates.get("vichy", ""),
        dates.get("soviet_war", ""),
        dates.get("vichy_failed", ""),
    )


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
        if c.conquered and not c.flags.surrendered:
            fallen.setdefault(name, now)
        if c.liberated:
            liberated.setdefault(name, now)
        if c.flags.surrendered:
            surrendered.setdefault(name, now)
    france = state.countries.get("France")
    if france is not None and france.flags.vichy:
        dates.setdefault("vichy", now)
    elif france is not None and france.flags.vichy_tried:
        dates.setdefault("vichy_failed", now)
    soviet = state.countries.get("Soviet Union")
    if soviet is not None and soviet.at_war and soviet.side == "allies":
        dates.setdefault("soviet_war", now)


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
    results: list[GameResult] = field(default_factory=list)

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
            "home cities all taken: " + (", ".join(f"{c} in {n}" for c, n in sorted(self.overrun.items())) or "none"),
            f"time per month: {self.seconds_per_month:.2f} s "
            f"(axis decisions {self.seconds_per_side_month['axis']:.2f} s, "
            f"allies {self.seconds_per_side_month['allies']:.2f} s)",
            f"games stopped by an error: {self.errors}",
        ]


def summarize(results: list[GameResult]) -> Summary:
    n = max(1, len(results))
    wins = {"axis": 0, "allies": 0, "draw": 0}
    fallen: dict[str, int] = {}
    overrun: dict[str, int] = {}
    liberated: dict[str, int] = {}
    surrendered: dict[str, int] = {}
    months = sum(len(r.month_seconds) for r in results) or 1
    for r in results:
        wins[r.winner] += 1
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
        results=list(results),
    )


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
) -> Summary:
    """Play ``games`` games with seeds ``seed``, ``seed + 1``, ...; report each result line."""
    for p in (axis, allies):
        if p not in ai.PLAYERS:
            raise EngineError(f"unknown player '{p}'; choose one of {', '.join(ai.PLAYERS)}")
    try:
        end = parse_date(until)
    except ValueError as exc:
        raise EngineError(str(exc)) from None
    players = {"axis": axis, "allies": allies}
    results = []
    for i in range(games):
        r = play_game(scenario, end, players, seed + i, budget_s, setup=setup, clock=clock)
        results.append(r)
        if report is not None:
            report(r.line())
    summary = summarize(results)
    if report is not None:
        for line in summary.lines(players):
            report(line)
    return summary
