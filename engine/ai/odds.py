"""Expected results of a land attack, from the supplement's "Combat mathematics".

The bot uses these to decide whether an attack is worth it.  They are estimates
for planning only; the engine rolls the real dice.  Floats are fine here: they
never enter the game state and every caller compares them with fixed
thresholds, so a decision only depends on the state (and the float arithmetic
of IEEE doubles, which is the same everywhere Python runs).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.hexmap import Terrain, WeatherZone
from engine.state import GameState, Unit
from engine.terrain import TERRAIN

#: Months (0 = January) with spring / monsoon conditions per weather zone (rulebook "Weather").
_SPRING = {
    WeatherZone.POLAR: (2, 3, 4),
    WeatherZone.NORTH_TEMPERATE: (2, 3, 4),
    WeatherZone.SOUTH_TEMPERATE: (8, 9, 10),
    WeatherZone.TROPICAL: (5, 6, 7),  # monsoon: same effect on land combat as spring
}


def doubled_by_weather(state: GameState, h: int) -> bool:
    """Does spring or monsoon double the defence in hex ``h`` this month?"""
    zone = WeatherZone(state.world.map.weather[h])
    return state.date % 12 in _SPRING.get(zone, ())


def terrain_factor(state: GameState, h: int) -> float:
    return float(TERRAIN[Terrain(state.world.map.terrain[h])].defence)


def defence_strength(state: GameState, h: int, defenders: list[Unit]) -> float:
    """Modified defence of a stack (supplement: "Land defence strength")."""
    base = 0.0
    for u in defenders:
        s = float(u.strength)
        if not u.supplied:
            s /= 2  # out of supply halves each unit
        base += s
    factor = terrain_factor(state, h)
    if state.forts.get(h, -1) == 0:
        factor *= 2
    if doubled_by_weather(state, h):
        factor *= 2
    return base * factor


def p_loss_at_least(s: int, r: float) -> float:
    """Probability that the defender loses at least ``s`` points at ratio ``r``."""
    if s <= 0:
        return 1.0
    if r <= 0:
        return 0.0
    return 1.0 - float((1.0 + 2.0 / s) ** (-r))


def expected_defender_loss(r: float, points: int, doubled: bool) -> float:
    """Expected strength points the defender loses (capped by what it has)."""
    total = 0.0
    for s in range(1, points + 1):
        # with doubled losses, losing s points needs a draw of at least ceil(s / 2)
        need = (s + 1) // 2 if doubled else s
        total += p_loss_at_least(need, r)
    return total


def expected_attacker_loss(r: float, points: int) -> float:
    """Expected strength points the attacker loses (supplement: "Attacker losses")."""
    wipe = max(0.0, 1.0 - r)
    # bands of the draw u in [wipe, 1): [.., 1/4) -> 3, [1/4, 1/3) -> 2, [1/3, 1/2) -> 1
    bands = ((0.0, 0.25, 3), (0.25, 1 / 3, 2), (1 / 3, 0.5, 1))
    loss = wipe * points
    for lo, hi, pts in bands:
        width = max(0.0, hi - max(lo, wipe))
        loss += width * min(pts, points)
    return loss


@dataclass(frozen=True, slots=True)
class Estimate:
    ratio: float
    defender_loss: float
    attacker_loss: float
    p_clear: float  # the hex is emptied (defender retreats or dies)


def estimate(
    attack: float, defence: float, attackers_points: int, defender_points: int, defender_retreats: bool
) -> Estimate:
    """Expected outcome of attacking a stack of ``defender_points`` with ``attack`` strength."""
    if defence <= 0:
        return Estimate(99.0, float(defender_points), 0.0, 1.0)
    r = attack / defence
    if defender_retreats:
        p_clear = p_loss_at_least(1, r)  # any loss makes a willing defender retreat
        d_loss = expected_defender_loss(r, defender_points, doubled=False)
    else:
        p_clear = p_loss_at_least((defender_points + 1) // 2, r)
        d_loss = expected_defender_loss(r, defender_points, doubled=True)
    return Estimate(r, d_loss, expected_attacker_loss(r, attackers_points), p_clear)
