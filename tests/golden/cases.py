"""Golden positions: small positions with the number of legal orders each side has and
the rule slug of chosen refused orders (in the spirit of chess "perft" counts and the
Diplomacy adjudicator test cases).  Each case names the rulebook (or supplement)
section it checks.  A change in a count or a slug is a change of the rules: it must be
meant, and the case updated with the reason in the commit.

Each position is written in the position language of :mod:`engine.position`: the map
picture, then its units, step and date (Germany is at war with Poland unless a ``war``
line says otherwise; the step is the Axis's first movement unless a ``step`` line does).

Counts marked ``by hand`` were worked out from the rules on the picture; the others
were recorded from the engine and are kept to catch regressions.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Case:
    name: str
    section: str
    position: str
    side: str = "axis"
    #: how many orders of kind ``kind`` the side has, for unit #``unit`` (all units if 0)
    counts: dict[tuple[str, int], int] = field(default_factory=dict)
    #: order text -> the slug of the rule that refuses it
    refusals: dict[str, str] = field(default_factory=dict)


CASES = (
    Case(
        "armor and desert",
        'rulebook "Terrain": armor units may not enter desert hexes (supplement: nor icecap)',
        """
        G:c G:d G:c G:i G:c
        unit Germany armor 2,0
        """,
        counts={("move", 1): 0},  # by hand: both neighbours are barred
        refusals={"move #1 1,0": "terrain.armor", "move #1 3,0": "terrain.armor"},
    ),
    Case(
        "infantry in the desert",
        'rulebook "Terrain": only armor is barred from the desert',
        """
        G:c G:d G:c G:c
        unit Germany infantry 0,0
        """,
        counts={("move", 1): 3},  # by hand: 1,0 2,0 3,0 at 1, 2, 3 points
    ),
    Case(
        "tall mountain",
        'rulebook "Terrain": entering a tall mountain hex costs one extra movement point',
        """
        G:c G:M G:c G:c
        unit Germany infantry 0,0
        """,
        counts={("move", 1): 2},  # by hand: 1,0 costs 2, 2,0 costs 3, 3,0 is out of reach
        refusals={"move #1 3,0": "movement.unreachable"},
    ),
    Case(
        "the sea stops land units",
        'rulebook "Terrain": land units may not enter all-sea hexes nor cross all-sea hexsides',
        """
        G:c ~ G:c
        unit Germany infantry 0,0
        """,
        counts={("move", 1): 0},  # by hand
        refusals={"move #1 2,0": "movement.unreachable"},
    ),
    Case(
        "not my unit",
        'rulebook "Game Sequence": a side moves its own units',
        """
        G:c G:c P:c P:c
        unit Germany infantry 0,0
        unit Poland infantry 3,0
        """,
        refusals={"move #2 2,0": "unit.not-yours", "move #9 1,0": "unit.unknown"},
    ),
    Case(
        "control zone",
        'supplement "Control zones": a land unit entering an enemy control zone stops',
        """
        G:c G:c G:c P:c P:c
        unit Germany infantry 0,0
        unit Poland infantry 4,0
        """,
        counts={("move", 1): 3},  # by hand: 1,0 2,0, and 3,0 (Polish, empty, entered and stopped)
        refusals={"move #1 4,0": "movement.enemy-units"},
    ),
    Case(
        "stacking",
        'supplement "Stacking": at most two ordinary land units (and a paratrooper and a supply unit) a hex',
        """
        G:c G:c
        unit Germany infantry 0,0
        unit Germany infantry 1,0
        unit Germany infantry 1,0
        """,
        refusals={"move #1 1,0": "stacking.land"},
    ),
    Case(
        "combat: who may attack",
        'rulebook "Land Combat": land units attack adjacent enemy land units; supply units never attack',
        """
        G:c G:c P:c
        unit Germany infantry 1,0
        unit Germany supply 0,0
        unit Poland infantry 2,0
        step axis.combat
        """,
        counts={("attack", 0): 1},  # by hand: #1 alone against 2,0
        refusals={"attack 2,0 #2": "attack.supply-unit", "attack 1,0 #1": "attack.no-enemy"},
    ),
    Case(
        "overrun needs armor",
        'rulebook "Overrun": only armor units overrun',
        """
        G:c G:c P:c
        unit Germany infantry 1,0
        unit Poland infantry 2,0
        step axis.overrun
        """,
        counts={("overrun", 0): 0},
        refusals={"overrun 2,0 #1": "overrun.not-armor"},
    ),
)
