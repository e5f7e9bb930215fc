"""Where our land strength is needed: the front line, threatened objectives, and,
for a side on the offensive, the hexes from which to strike its aims; and the ports
where troops gather for landings (:mod:`engine.ai.staging`).

``need[h]`` is the land strength (in strength points) we would like to have in
hex ``h`` at the end of our movement.  Movement, rail and deployment all fill
the same map, which is what keeps the front without gaps: every front hex asks
for at least a minimal garrison, and more where the enemy is strong or a city is
at stake.
"""

from __future__ import annotations

from engine.ai import ferry, staging
from engine.ai.odds import defence_strength
from engine.ai.picture import Picture
from engine.state import NO_UNIT, GameState

#: Strength asked of every front hex, whatever the threat (a front without gaps).
MIN_HOLD = 2
#: Extra strength asked per point of nearby enemy strength.
THREAT_SHARE = 0.6
#: Attack ratio the offensive side wants to assemble against a target stack.
WANTED_RATIO = 2.0


#: The Axis' second stage: France, and the neutrals on the way to it.
WEST = ("France", "Belgium", "Netherlands", "Luxembourg", "Denmark", "Norway")


def fallen(state: GameState, country: str) -> bool:
    """Is ``country`` out of the fight: conquered (Vichy France included), or its home
    cities all held by its enemy (France after a failed Vichy attempt counts as conquered
    only with its colonies, yet no longer holds a front)?"""
    c = state.countries[country]
    if c.conquered:
        return True
    cities = state.world.home_cities_of.get(country, ())
    return c.at_war and bool(cities) and all(state.enemies(country, state.controller_of(h)) for h in cities)


def soviet_war(state: GameState) -> bool:
    """Is Germany at war with the Soviet Union (Barbarossa under way)?"""
    soviet, germany = state.countries.get("Soviet Union"), state.countries.get("Germany")
    if soviet is None or germany is None or not germany.active:
        return False
    return soviet.at_war and soviet.side == "allies" and not soviet.conquered


def aims(pic: Picture, east: bool = False) -> set[str]:
    """Enemy countries our side is attacking now (historical aims; see docs/ai.md).

    The Axis takes Poland first, then France and the countries on the way, then
    whoever else it is at war with; Japan always fights China.  The Allies
    counter-attack wherever the enemy is weak: every enemy is an aim, and the odds
    thresholds keep the attacks to the good ones.  ``east`` is the style switch
    ``eastern_effort``: at war with the Soviet Union the western stage is over (France has
    fallen) and every enemy is an aim; without it France, Norway or the Netherlands, still
    at war through a colony or a last city, held the Axis to the western stage and left the
    Soviet Union no aim at all."""
    state = pic.state
    enemies = {n for n, c in state.countries.items() if c.at_war and not c.conquered and c.side == pic.enemy}
    if pic.side != "axis":
        return enemies
    if east and soviet_war(state):
        return enemies
    if "Poland" in enemies:
        chosen = {"Poland"}
    elif enemies & set(WEST):
        chosen = enemies & set(WEST)
    else:
        chosen = set(enemies)
    if "China" in enemies:
        chosen.add("China")  # Japan's own war
    return chosen


def need_map(
    pic: Picture,
    garrisons: dict[int, float] | None = None,
    shuttle: bool = False,
    stage: dict[int, float] | None = None,
    east: bool = False,
) -> dict[int, float]:
    """Strength wanted per hex at the end of our movement, at least ``garrisons`` (in our
    capitals and home cities against what could reach them, :func:`engine.ai.garrison.hold`)
    and ``stage`` (on the Soviet border before Barbarossa, :func:`engine.ai.barbarossa.stage`);
    ``shuttle`` and ``east`` are style switches (:func:`engine.ai.ferry.ports`, :func:`aims`)."""
    need: dict[int, float] = {}
    threat = pic.threat
    objectives = pic.objectives
    for h in pic.frontier:
        want = MIN_HOLD + THREAT_SHARE * threat.get(h, 0.0)
        if h in objectives:
            want += objectives[h] * 0.5
        need[h] = want
    # threatened objectives anywhere (behind the line too): a garrison, so that an enemy
    # unit slipping through cannot walk into a city and cut our supply
    for h, value in objectives.items():
        if pic.role(h) == "mine" and threat.get(h, 0.0) > 0:
            need[h] = max(need.get(h, 0.0), MIN_HOLD + value * 0.5 + THREAT_SHARE * threat[h])
    for h, want in staging.ports(pic).items():
        need[h] = max(need.get(h, 0.0), want)
    for h, want in ferry.need(pic, shuttle).items():
        need[h] = max(need.get(h, 0.0), want)
    for floors in (garrisons or {}, stage or {}):
        for h, want in floors.items():
            need[h] = max(need.get(h, 0.0), want)
    targets = aims(pic, east)
    if not targets:
        return need
    state = pic.state
    for h in pic.enemy_at:
        owner = state.controller_of(h)
        if owner not in targets:
            continue
        defenders = [u for u in state.units_at(h) if u.is_land and u.carrier == NO_UNIT]
        d = defence_strength(state, h, defenders)
        bonus = objectives.get(h, 0) * 0.5
        spots = [o for o in pic.nbr[h] if pic.role(o) == "mine" and o not in pic.enemy_at]
        if not spots:
            continue
        share = (WANTED_RATIO * d + bonus) / len(spots)
        for o in spots:
            need[o] = max(need.get(o, 0.0), MIN_HOLD) + share
    return need


#: How strongly each side is drawn towards enemy objectives (hexes gained per move).
PULL = {"axis": 0.8, "allies": 0.5}
#: How strongly the Axis is also drawn towards the capital of its main effort in the west.
MAIN_PULL = 1.0


def main_effort(pic: Picture, east: bool = False) -> dict[int, int]:
    """The Axis' main effort in the west: land distance, through land that is not
    neutral, to the enemy-held capital of the largest western country it attacks (most
    home cities): Paris, whose fall lets the Axis attempt Vichy France.

    The nearest-objective pull alone spreads the army over every city along the front;
    a strong player concentrates on the capital whose fall decides the campaign.  The
    Allies, who counter-attack where the enemy is weak, have none; Japan's war in China is
    left as it was (see docs/ai.md, "The main effort")."""
    world = pic.state.world
    capitals = []
    for country in main_effort_countries(pic, east):
        cities = world.home_cities_of.get(country, ())
        capitals += [(-len(cities), h) for h in cities if world.map.city_at[h].capital and pic.role(h) == "enemy"]
    if not capitals:
        return {}
    return pic.distances([min(capitals)[1]], limit=60, passable="not_neutral")


def main_effort_countries(pic: Picture, east: bool = False) -> set[str]:
    """The countries the Axis attacks in its main effort (the western campaign; over once at
    war with the Soviet Union under the switch ``east``)."""
    if pic.side != "axis" or (east and soviet_war(pic.state)):
        return set()
    return aims(pic, east) & set(WEST)


def stake_countries(pic: Picture, east: bool = False) -> set[str]:
    """The countries whose every hex is at stake for our attacks: those of the main effort
    (:func:`main_effort_countries`), or, at war with the Soviet Union under the switch
    ``east``, the Soviet Union, whose city the Axis then drives at
    (:func:`engine.ai.barbarossa.effort_city`)."""
    if east and pic.side == "axis" and soviet_war(pic.state):
        return {"Soviet Union"}
    return main_effort_countries(pic, east)


def objective_distance(pic: Picture, east: bool = False) -> dict[int, int]:
    """Land distance to the nearest enemy-held city or resource hex of the countries we
    attack (our aims), through land that is not neutral."""
    targets = aims(pic, east)
    state = pic.state
    sources = [h for h in pic.objectives if pic.role(h) == "enemy" and state.controller_of(h) in targets]
    if not sources:
        return {}
    return pic.distances(sources, limit=60, passable="not_neutral")
