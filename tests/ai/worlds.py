"""Small hand-made worlds for the computer player's tests."""

from __future__ import annotations

from engine import ai, api
from engine.position import AT_START, build_world, open_step, parse, put, setup
from engine.state import GameState, LandKey
from engine.war import enter_war
from engine.world import CountryInfo, World

# Germany (west) against Poland (east), a strip of forest in Poland, the sea to the north.
FRONT_WORLD = build_world(
    """
    ~   ~   ~   ~   ~   ~   ~   ~
     G:c G:c G:c P:c P:c P:c P:c P:c
    G:c G:c G:c P:c P:f P:c P:c P:c
     G:c G:c G:c P:c P:f P:c P:c P:c
    G:c G:c G:c P:c P:c P:c P:c P:c
     G:c G:c G:c P:c P:c P:c P:c P:c
    """,
    cities={"Berlin": "0,2 capital", "Breslau": "2,5", "Warsaw": "6,2 capital", "Krakow": "5,5"},
    resources=["2,5", "6,2", "5,5", "1,1"],
)


def at_war(world: World = FRONT_WORLD) -> GameState:
    """A new game on ``world`` with Germany (Axis) and Poland (Allies) at war."""
    return setup(world, **AT_START)


def infantry(state: GameState, country: str, label: str, strength: int = 3) -> int:
    return put(state, country, "infantry", label, strength=strength).id


def armor(state: GameState, country: str, label: str, strength: int = 6) -> int:
    return put(state, country, "armor", label, strength=strength).id


def _long_picture() -> str:
    rows = []
    for r in range(5):
        rows.append(("  " if r % 2 else "") + " ".join(["G:c"] * 10 + ["P:c"] * 4))
    return "\n".join(rows)


# A long Germany (rail everywhere, six rail moves a turn) next to a narrow Poland.
LONG_WORLD = build_world(
    _long_picture(),
    cities={"Berlin": "1,2 capital", "Posen": "8,1", "Warsaw": "12,2 capital"},
    resources=["1,2", "8,1", "12,2"],
    countries=[CountryInfo("Germany", rail_capacity=6), CountryInfo("Poland", rail_capacity=1)],
)


def play_phase(state: GameState, side: str, player: str, seed: bytes, step: str | None = None) -> None:
    """``player`` makes ``side``'s decisions of the phase open in ``state`` (first opened
    at ``step``, when given) until the phase ends."""
    if step is not None:
        open_step(state, step)
    phase = api.decision(state).phase
    for action in ai.decide(state, side, seed, player):
        api.apply(state, side, action)
        if api.decision(state).phase != phase:
            break


def advance_to(state: GameState, phase: str, seed: bytes = b"\x00" * 32) -> None:
    """Move the game on to the step ``phase``, both sides doing nothing on the way."""
    for _ in range(80):
        d = api.decision(state)
        if d.phase == phase:
            return
        if d.kind == "chance":
            api.apply_chance(state, seed)
        elif d.kind == "simultaneous":
            api.apply_simultaneous(state, {s: [] for s in d.sides})
        elif d.kind == "sequential":
            api.apply(state, d.sides[0], api.Action("pass"))
        else:
            break
    raise AssertionError(f"the game never reached {phase}")


def _europe_picture() -> str:
    """France | Germany | Poland | Soviet Union, west to east, with the sea to the north."""
    bands = [("F", 10), ("G", 12), ("P", 8), ("S", 12)]
    rows = []
    for r in range(12):
        if r == 0:
            rows.append(" ".join(["~"] * 42))
            continue
        row = []
        for letter, width in bands:
            for i in range(width):
                terrain = "f" if (i * 5 + r * 3) % 13 == 0 else "m" if (i + r * 7) % 17 == 0 else "c"
                row.append(f"{letter}:{terrain}")
        rows.append(("  " if r % 2 else "") + " ".join(row))
    return "\n".join(rows)


EUROPE_WORLD = build_world(
    _europe_picture(),
    cities={
        "Paris": "3,5 capital",
        "Lyon": "6,9",
        "Lille": "8,2",
        "Berlin": "15,3 capital",
        "Munich": "13,9",
        "Breslau": "20,7",
        "Hamburg": "12,1",
        "Warsaw": "26,5 capital",
        "Krakow": "24,9",
        "Danzig": "23,1",
        "Moscow": "38,5 capital",
        "Kiev": "33,9",
        "Minsk": "32,4",
    },
    resources=["3,5", "8,2", "15,3", "13,9", "20,7", "12,1", "26,5", "24,9", "38,5", "33,9", "6,9"],
    countries=[
        CountryInfo("France", leans_allied=True, rail_capacity=3),
        CountryInfo("Germany", rail_capacity=6),
        CountryInfo("Poland", leans_allied=True),
        CountryInfo("Soviet Union", rail_capacity=8),
    ],
)


def europe_1939(state: GameState) -> None:
    """Germany at war in September 1939 with its army placed; the others neutral with pools."""
    state.date = 1939 * 12 + 8
    pools = {
        "Germany": {"infantry/3": 60, "armor/5": 30},
        "Poland": {"infantry/3": 30},
        "France": {"infantry/3": 70},
        "Soviet Union": {"infantry/3": 80, "armor/5": 10},
    }
    for name, pool in pools.items():
        state.countries[name].pool_land = {LandKey.from_wire(k): n for k, n in pool.items()}
    enter_war(state, "Germany", "axis")
    state.countries["Germany"].money = 1000


# Japan's islands (west), a strait, Japan's land on the mainland and China (east).
STRAIT = """
J:c J:c ~ ~ ~ J:c C:c C:c
 J:c J:c ~ ~ ~ J:c C:c C:c
J:c J:c ~ ~ ~ J:c C:c C:c
"""


def strait(date: str, pacific: bool = False) -> GameState:
    """Japan against China across the strait at ``date``, China's infantry on each hex of its
    front (no empty Chinese hex to land on), no step open; ``pacific``: with the United States
    (a sea and a column of land to the east) at war too."""
    world = STRAIT if not pacific else "\n".join(row + " ~ A:c" for row in STRAIT.strip("\n").splitlines())
    lines = [
        world,
        "city Tokyo 0,0 capital",
        "city Osaka 1,1",
        "city Pusan 5,1",
        "city Chungking 7,1 capital",
        *(['city "San Francisco" 9,1 capital'] if pacific else []),
        "resource 0,0 5,1 7,1",
        "war axis Japan",
        "war allies China",
        *(['war allies "United States"'] if pacific else []),
        f"date {date}",
        "step -",
    ]
    state = parse("\n".join(lines))
    for label in ("6,0", "6,1", "6,2"):
        put(state, "China", "infantry", label)
    return state


def units(country: str, strength: int, *at: str, kind: str = "infantry") -> list[str]:
    """Position lines (:func:`engine.position.parse`) for a unit of ``country`` in each hex of ``at``."""
    return [f'unit "{country}" {kind} {h} strength={strength}' for h in at]
