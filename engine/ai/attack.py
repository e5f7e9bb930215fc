"""Attacks, overruns, advances after combat and standing orders.

An attack is worth making when the expected result, computed with the
supplement's combat formulas (:mod:`engine.ai.odds`) on the engine's own
modified strengths, is good: the combat ratio reaches a threshold, and what the
enemy is expected to lose (plus the value of the hex if it is emptied)
outweighs what we expect to lose.  Attackers are combined: one attack with
several units has the same odds as several small ones against the same stack
but risks the attacker's losses only once.  Targets are taken best ratio first,
each with the fewest units (strongest first) that reach a comfortable ratio, so
the rest stay free for the next target.

Our own stacks in cities, resource hexes and fortifications facing the enemy
get the standing order not to retreat (losses doubled, but the hex is held);
everything else retreats (the engine's default).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.ai import air_war, counter, garrison
from engine.ai.front import aims, stake_countries
from engine.ai.odds import Estimate, estimate
from engine.ai.picture import Picture
from engine.combat import attack_candidates, attack_strength, defence_strength
from engine.sides import other
from engine.state import NO_UNIT, GameState, Unit
from engine.supply import supply_of_side
from engine.units import UnitType

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Lowest combat ratio the bot attacks at, by situation.
MIN_RATIO = 1.5
MIN_RATIO_OBJECTIVE = 1.2  # a city or resource hex is worth some risk
MIN_RATIO_OFF_AIM = 2.0  # outside the countries we are attacking: only good odds
MIN_RATIO_OVERRUN = 2.5  # overruns cannot be supported
#: The Axis' main effort (the western campaign, :func:`engine.ai.front.main_effort`) accepts
#: even odds: from odds of 1 the attacker loses at most 3 points while the defender loses
#: more on average, so attacking every stack it can wears the defender down faster.
MIN_RATIO_MAIN_EFFORT = 1.0
#: Ratio at which an attack stops taking more units.
ENOUGH = 3.0
#: With the switch ``model_odds`` the thresholds above give way to the combat model's
#: expected exchange (docs/ai.md, "Combat"): from odds of 1 the attack table's band that
#: eliminates every attacker (chance 1 - odds) is closed, and the attackers expect to lose
#: 1.08 points whatever their number, while a defender of 4 points expects to lose 1.90
#: (2.33 if it stands) and to leave its hex with chance 2/3.  Below 1 the expected loss grows
#: with the attacking group (12 points at 0.9 expect 1.98), so 1 is the floor.
MODEL_MIN_RATIO = 1.0
#: With ``model_odds``: how many times the attackers' expected loss the attack must be
#: expected to gain (the defender's points lost plus the chance of emptying the hex times
#: one point more than the hex's worth), by situation.
EXCHANGE_AT_STAKE = 1.0  # the main effort, or a city or resource hex
EXCHANGE = 1.5  # a country we attack
EXCHANGE_OFF_AIM = 2.0  # outside the countries we attack


def overrun(turn: Turn) -> None:
    _attacks(turn, overrun=True)
    _stands(turn)


def combat(turn: Turn) -> None:
    _attacks(turn, overrun=False)
    air_war.combat_orders(turn)
    _stands(turn)


def advance(turn: Turn) -> None:
    """Advance into emptied hexes: two units into a city or resource hex, otherwise one,
    preferring a unit whose own hex keeps another defender (the front must not open); with
    ``capitals_ahead`` the last unit of one of our capitals never leaves it."""
    state = turn.state
    pic = Picture(state, turn.side)
    capitals = {h for h, capital in garrison.key_cities(pic).items() if capital} if turn.style.capitals_ahead else set()
    for right in state.memo.advances or ():
        h, eligible, done = right.hex, right.eligible, right.taken
        room = (2 if h in pic.objectives else 1) - done
        units = [state.units[i] for i in eligible if i in state.units]
        units.sort(
            key=lambda u: (
                pic.my_count_at.get(u.hex, 0) < 2 and u.hex in pic.frontier,
                u.type is not UnitType.ARMOR,
                -u.strength,
                u.id,
            )
        )
        chosen: list[int] = []
        for u in units:
            if len(chosen) >= room:
                break
            if u.hex in capitals and pic.my_count_at.get(u.hex, 0) <= 1:
                continue
            if turn.batch.offer(Action("advance", (h, u.id))):
                chosen.append(u.id)
                pic.my_count_at[u.hex] = pic.my_count_at.get(u.hex, 0) - 1
    _stands(turn)


# --- choosing attacks ----------------------------------------------------------------


class Judge:
    """Modified strengths from the engine's combat rules."""

    def __init__(self, state: GameState, side: str) -> None:
        self.state = state
        self.enemy_supply = supply_of_side(state, other(side))

    def attack(self, attackers: list[Unit], supports: list[Unit] | None = None) -> float:
        return float(attack_strength(self.state, attackers, supports or [])[0])

    def defence(self, h: int, defenders: list[Unit]) -> float:
        return float(defence_strength(self.state, h, defenders, self.enemy_supply)[0])

    def estimate(
        self, h: int, attackers: list[Unit], defenders: list[Unit], side: str, supports: list[Unit] | None = None
    ) -> Estimate:
        retreats = self.state.stands.get(h) != other(side)
        return estimate(
            self.attack(attackers, supports),
            self.defence(h, defenders),
            sum(u.strength for u in attackers),
            sum(u.strength for u in defenders if u.type is not UnitType.SUPPLY),
            retreats,
        )


def candidates(state: GameState, side: str, overrun: bool) -> dict[int, list[int]]:
    """Enemy hexes we may attack now, with the units that may attack each (the engine's list)."""
    return attack_candidates(state, side, overrun)


def _attacks(turn: Turn, overrun: bool) -> None:
    state = turn.state
    side = turn.side
    pic = Picture(state, side)
    targets_now = candidates(state, side, overrun)
    if not targets_now:
        return
    judge = Judge(state, side)
    east = turn.style.eastern_effort
    targets = aims(pic, east)
    main_effort = stake_countries(pic, east)
    # the Allies' counter-offensives: every enemy hex near one of their efforts is at stake
    near_effort = counter.sectors(pic, counter.effort_cities(pic)) if turn.style.allied_effort else set()
    enemy = other(side)
    plans = []
    for h, ids in targets_now.items():
        defenders = [
            u
            for u in state.units_at(h)
            if u.is_land and u.carrier == NO_UNIT and state.countries[u.country].side == enemy
        ]
        if not defenders:
            continue
        attackers = [state.units[i] for i in ids]
        supports = [] if overrun else _supports(state, side, h)
        plans.append((judge.estimate(h, attackers, defenders, side, supports).ratio, h, defenders, attackers, supports))
    plans.sort(key=lambda p: (-p[0], p[1]))
    used: set[int] = set()
    verb = "overrun" if overrun else "attack"
    for _, h, defenders, attackers, supports in plans[: turn.limits.attacks]:
        free = sorted((u for u in attackers if u.id not in used), key=lambda u: (-u.strength, u.id))
        if not free:
            continue
        value = pic.objectives.get(h, 0)
        if overrun:
            threshold = MIN_RATIO_OVERRUN
        elif state.controller_of(h) in main_effort:
            threshold = MIN_RATIO_MAIN_EFFORT
        elif value:
            threshold = MIN_RATIO_OBJECTIVE
        elif state.controller_of(h) in targets:
            threshold = MIN_RATIO
        else:
            threshold = MIN_RATIO_OFF_AIM
        exchange = 1.0
        if turn.style.model_odds and not overrun:
            threshold = MODEL_MIN_RATIO
            at_stake = value or state.controller_of(h) in main_effort or h in near_effort
            exchange = (
                EXCHANGE_AT_STAKE if at_stake else EXCHANGE if state.controller_of(h) in targets else EXCHANGE_OFF_AIM
            )
        threshold = max(threshold, turn.style.min_odds)
        group: list[Unit] = []
        for u in free:
            group.append(u)
            if judge.estimate(h, group, defenders, side, supports).ratio >= ENOUGH:
                break
        est = judge.estimate(h, group, defenders, side, supports)
        gain = est.defender_loss + est.p_clear * (1.0 + value)
        if est.ratio < threshold or gain <= exchange * est.attacker_loss:
            continue
        if turn.batch.offer(Action(verb, (h, *sorted(u.id for u in group)))):
            used.update(u.id for u in group)
            for u in supports:
                turn.batch.offer(Action("support", (h, u.id)))


def _supports(state: GameState, side: str, h: int) -> list[Unit]:
    """Our bombers (and warships) in hex ``h`` that can add to an attack on it."""
    out = []
    for u in state.units_at(h):
        if state.countries[u.country].side != side or u.carrier != NO_UNIT:
            continue
        if (u.is_air and u.bomber > 0 and not u.kamikaze and not air_war.is_atomic(state, u)) or (
            u.is_naval
            and u.attack > 0
            and u.type not in (UnitType.SUBMARINE, UnitType.CARRIER, UnitType.TRANSPORT, UnitType.CONVOY)
            and not u.in_port
        ):
            out.append(u)
    return sorted(out, key=lambda u: u.id)


def _stands(turn: Turn) -> None:
    """Hold cities, resource hexes and fortifications that face the enemy; retreat elsewhere."""
    state = turn.state
    pic = Picture(state, turn.side)
    for h in sorted(pic.my_at):
        facing = bool(pic.enemy_neighbours(h))
        hold = facing and (h in pic.objectives or state.forts.get(h) == 0)
        if hold != (state.stands.get(h) == turn.side):
            turn.batch.offer(Action("stand", (h, hold)))
