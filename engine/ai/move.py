"""Land movement and rail: fill the front, bring reserves up, take what lies open.

One greedy pass over our land units.  Each unit weighs the destinations the
engine offers it (plus staying where it is) with a simple score:

* strength it adds where the front still needs it (:func:`engine.ai.front.need_map`),
* enemy land it takes by walking in, much more for an undefended city or
  resource hex,
* minus the distance from the front for hexes behind it (reserves move up).

Units nearest the front choose first, so the front is filled from close by and
the rear feeds whatever gaps are left.  Rail (second movement only) is used by
units far behind the front to reach a gap directly.  Bombers fly out to support
attacks and back again (:mod:`engine.ai.air`); landings (:mod:`engine.ai.landings`) board
and sail first, escorts (:mod:`engine.ai.intercept`) fly last.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.ai import air, air_war, barbarossa, convoys, counter, ferry, garrison, intercept, landings, naval, staging
from engine.ai.front import MAIN_PULL, PULL, main_effort, need_map, objective_distance, soviet_war
from engine.ai.odds import terrain_factor
from engine.ai.picture import Picture
from engine.ai.style import LATEST, Style
from engine.reach import SideMemo, land_reach, rail_search
from engine.state import Unit
from engine.units import UnitType
from engine.war import JAPAN_SOVIET

if TYPE_CHECKING:
    from engine.ai.turn import Turn

#: Units at least this far behind the front prefer rail to marching.
RAIL_DISTANCE = 4
#: Weight of one hex of distance from the front for units in the rear.
DISTANCE_WEIGHT = 0.35
FAR = 40
#: How far the pull towards the Soviet border reaches: across Europe, from the Atlantic coast.
ACROSS = 120
#: What the last unit of a key city an enemy could reach gains by staying in it: more than
#: any move can offer, so the garrison holds (:mod:`engine.ai.garrison`).
LAST_GUARD = 20.0


def first_movement(turn: Turn) -> None:
    naval.sortie(turn)
    if turn.style.shuttle:
        ferry.shuttle(turn)
    if turn.style.landings:
        landings.prepare(turn)
    ferry.sail(turn, staging.ports)
    if turn.style.channel:
        ferry.channel(turn)
    staging.gather(turn)
    _move_land(turn, second=False)
    air_war.send_atomic(turn)
    air.send_bombers(turn)
    convoys.sail(turn)
    air_war.send_raiders(turn)
    intercept.escort(turn)


def second_movement(turn: Turn) -> None:
    air_war.rebase_atomic(turn)
    air.return_aircraft(turn)
    staging.station(turn)
    naval.shelter(turn)
    if turn.style.shuttle:
        ferry.shuttle(turn)
    if turn.style.channel:
        ferry.channel(turn)
    ferry.home(turn, staging.ports)
    _move_land(turn, second=True)
    convoys.sail(turn)


def landing(turn: Turn) -> None:
    """Aircraft of ours still in the air (they should not be) fly back to a base."""
    air.return_aircraft(turn)


def is_rail(action: Action) -> bool:
    return "rail" in action.kind


class Plan:
    """Bookkeeping of strength per hex while units are being moved."""

    def __init__(self, pic: Picture, style: Style = LATEST) -> None:
        self.pic = pic
        #: our capitals in danger (:func:`engine.ai.garrison.endangered`), with ``capitals_ahead``
        self.danger = garrison.endangered(pic) if style.capitals_ahead else []
        hold = garrison.hold(pic, self.danger) if style.garrisons else {}
        self.need = need_map(pic, hold, style.shuttle, east=style.eastern_effort)
        self._stage(pic, barbarossa.stage(pic) if style.ready_offensives else {})
        # key cities whose last unit stays
        self.guarded = set(hold)
        self.have: dict[int, float] = {h: float(s) for h, s in pic.my_at.items()}
        self.count: dict[int, int] = dict(pic.my_count_at)
        # land without a front: the distance to a ferry port stands in for the distance to the front
        self.to_front = {**ferry.to_ferry(pic, style.shuttle), **pic.to_front}
        self.objectives = pic.objectives
        self.to_goal = objective_distance(pic, style.eastern_effort)
        self.pull = PULL.get(pic.side, 0.5)
        self.to_capital = main_effort(pic, style.eastern_effort)
        # the Soviet campaign's main effort draws the units that staged for it
        self.east = not self.to_capital and style.eastern_effort and soviet_war(pic.state)
        if self.east:
            self.to_capital = barbarossa.effort(pic)
            self.kept = barbarossa.kept(pic)
        # the Allies' counter-offensives draw each unit to the nearest of their efforts
        self.to_effort, self.to_effort_truce = (
            counter.pulls(pic, counter.effort_cities(pic)) if style.allied_effort else ({}, {})
        )

    def _stage(self, pic: Picture, stage: dict[int, float]) -> None:
        """Raise the need on the Soviet border to ``stage``, remembering the need before
        (what a unit kept for the Balkans sees), and pull the units not kept towards it."""
        self.before_stage: dict[int, float] = {}
        for h, want in stage.items():
            if want > self.need.get(h, 0.0):
                self.before_stage[h] = self.need.get(h, 0.0)
                self.need[h] = want
        self.kept = barbarossa.kept(pic) if stage else frozenset()
        self.to_border = pic.distances(stage, limit=ACROSS, passable="mine") if stage else {}

    def gap(self, h: int, u: Unit | None = None) -> float:
        need = self.need.get(h, 0.0)
        if u is not None and h in self.before_stage and not self.stages(u):
            need = self.before_stage[h]
        return max(0.0, need - self.have.get(h, 0.0))

    def stages(self, u: Unit) -> bool:
        """Does ``u`` join the massing on the Soviet border: not kept for the Balkans, and
        not Japan's (its war is in Asia, under the truce)?"""
        return u.hex not in self.kept and u.country not in JAPAN_SOVIET

    def goal(self, u: Unit, h: int) -> int:
        """Hexes from ``h`` to the nearest enemy objective of our aims, or, for a unit
        not kept for the Balkans while the Axis masses against the Soviet Union, to the
        Soviet border if that is nearer."""
        if self.to_border and self.stages(u):
            return min(self.to_goal.get(h, ACROSS), self.to_border.get(h, ACROSS))
        return self.to_goal.get(h, FAR)

    def value(self, u: Unit, h: int, staying: bool) -> float:
        s = float(max(u.strength, 1))
        pic = self.pic
        if staying:
            # what the unit is worth where it stands: the gap it would leave, which
            # matters little where no enemy is near and nothing of value is at stake
            have = self.have.get(h, 0.0) - s
            score = min(s, max(0.0, self.need.get(h, 0.0) - have))
            if not pic.threat.get(h) and h not in self.objectives:
                score *= 0.2
            if h in self.guarded and self.count.get(h, 0) <= 1 and u.type is not UnitType.SUPPLY:
                score += LAST_GUARD
        else:
            if self.count.get(h, 0) >= 2:
                return -1e9  # two ordinary land units per hex
            score = min(s, self.gap(h, u))
        role = pic.role(h)
        if not staying and not pic.supplied_near(u.country, h):
            score -= 4.0  # out of supply a unit cannot attack and withers away
        if role == "enemy" and not staying:
            score += 1.5 + 2.0 * self.objectives.get(h, 0)
        if self.to_goal or self.to_border:
            # drawn towards the enemy's cities and resources (measured from the unit's own hex)
            score -= self.pull * self.goal(u, h)
        if self.to_capital and (not self.east or self.stages(u)):
            score -= MAIN_PULL * self.to_capital.get(h, FAR)
        if self.to_effort:
            to_effort = self.to_effort_truce if u.country in pic.truce else self.to_effort
            score -= MAIN_PULL * to_effort.get(h, FAR)
        if h not in self.need and role == "mine":
            score -= DISTANCE_WEIGHT * self.to_front.get(h, FAR)
        score += 0.05 * terrain_factor(pic.state, h)
        return score

    def moved(self, u: Unit, src: int, dst: int) -> None:
        s = float(u.strength)
        self.have[src] = self.have.get(src, 0.0) - s
        self.have[dst] = self.have.get(dst, 0.0) + s
        self.count[src] = self.count.get(src, 0) - 1
        self.count[dst] = self.count.get(dst, 0) + 1


def _options(turn: Turn, pic: Picture, second: bool) -> dict[int, dict[int, Action]]:
    """Per land unit of ours, the moves worth proposing, by destination.

    They come from the engine's own reach searches for our land units only (the full
    list of legal actions would also search every ship and aircraft).  Whatever is
    proposed is still checked by the batch, so a unit wrongly thought able to move
    is simply refused.
    """
    state = turn.state
    out: dict[int, dict[int, Action]] = {}
    # per-hex facts shared by the searches of one country's units (its neutrality and
    # Japanese/Soviet bars are the country's own); the state does not change meanwhile
    memos: dict[str, SideMemo] = {}
    for u in pic.my_land:
        if u.type is UnitType.SUPPLY or u.strength <= 0:
            continue
        if second and (u.moved or u.railed or (u.attacked and u.type is not UnitType.ARMOR)):
            continue
        if u.type is UnitType.PARATROOPER and (u.moved or staging.stationed(state, u)):
            continue  # waits with its transport aircraft for a drop, or marches to one
        per: dict[int, Action] = {}
        memo = memos.setdefault(u.country, SideMemo())
        for h in land_reach(state, u, ignore_zoc=None if not second else False, memo=memo):
            if h != u.hex:
                per[h] = Action("move", (u.id, h))
        far = pic.to_front.get(u.hex, FAR) >= RAIL_DISTANCE and u.hex not in pic.frontier
        if second and far and not u.attacked and not u.mp_used and state.world.info[u.country].rail_capacity > 0:
            for h in rail_search(state, u, memo).cost:
                if h != u.hex and h not in per:
                    per[h] = Action("rail", (u.id, h))
        if per:
            out[u.id] = per
    return out


def _guard_capitals(turn: Turn, pic: Picture, plan: Plan, options: dict[int, dict[int, Action]]) -> None:
    """Each of our capitals left empty while an enemy land unit could walk into it within a
    month (:func:`engine.ai.garrison.exposed`) gets a unit before anything else moves: the
    weakest that can get there (a capital lost ends a country's war), by march or by rail.
    With ``capitals_ahead`` the capitals in danger (:func:`engine.ai.garrison.endangered`)
    follow, and the last unit of a city that is not a capital may go to a capital within an
    enemy's reach when no other unit can.
    The plan's last-guard bonus then keeps it there.  Units that move are taken out of
    ``options``."""
    ahead = turn.style.capitals_ahead
    targets = [h for h, capital in sorted(garrison.exposed(pic).items()) if capital]
    in_reach = set(targets)
    if ahead:
        targets += [h for h in plan.danger if h not in in_reach]
    capitals = {h for h, capital in garrison.key_cities(pic).items() if capital}
    for h in targets:
        if plan.count.get(h, 0):
            continue
        able = []
        for uid, acts in options.items():
            u = turn.state.units[uid]
            if h not in acts or u.type in (UnitType.SUPPLY, UnitType.PARATROOPER):
                continue
            last = _last_guard(plan, u.hex)
            # a lesser city's last unit goes only to a capital an enemy could walk into now
            if last and (not ahead or u.hex in capitals or h not in in_reach):
                continue
            able.append((last, max(u.strength, 1), is_rail(acts[h]), uid))
        for *_, uid in sorted(able):
            u = turn.state.units[uid]
            src = u.hex
            if turn.batch.offer(options[uid][h]):
                plan.moved(u, src, h)
                del options[uid]
                break


def _last_guard(plan: Plan, h: int) -> bool:
    """Is hex ``h`` a key city the plan guards whose last unit would leave?"""
    return h in plan.guarded and plan.count.get(h, 0) <= 1


def _better(a: Action, b: Action) -> bool:
    """Prefer marching to rail (rail capacity is scarce), then the shorter order."""
    if is_rail(a) != is_rail(b):
        return not is_rail(a)
    return (len(a.args), a.to_wire().__repr__()) < (len(b.args), b.to_wire().__repr__())


def _move_land(turn: Turn, second: bool) -> None:
    pic = Picture(turn.state, turn.side)
    options = _options(turn, pic, second)
    if not options:
        return
    plan = Plan(pic, turn.style)
    state = turn.state
    if turn.style.capital_guard:
        _guard_capitals(turn, pic, plan, options)
    units = [state.units[uid] for uid in options]
    units.sort(key=lambda u: (plan.to_front.get(u.hex, 0 if u.hex in plan.need else FAR), u.id))
    limits = turn.limits
    refusals = 0
    for u in units[: limits.units_per_phase]:
        src = u.hex
        here = plan.value(u, src, staying=True)
        far_behind = plan.to_front.get(src, FAR) >= RAIL_DISTANCE and src not in plan.need
        scored = []
        for dst, action in options[u.id].items():
            if is_rail(action) and not far_behind:
                continue
            scored.append((plan.value(u, dst, staying=False), dst, action))
        scored.sort(key=lambda t: (-t[0], t[1]))
        for score, dst, action in scored[: limits.moves_per_unit]:
            if score <= here + 0.01:
                break
            if turn.batch.offer(action):
                plan.moved(u, src, dst)
                break
            refusals += 1
            if refusals > limits.refusals:
                return
