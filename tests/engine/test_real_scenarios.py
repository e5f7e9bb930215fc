"""Random legal play on the real scenarios (1937 and 1939 on the 55,500-hex world map).

The small-map property test (test_properties.py) exercises the rules; this one checks
that they also hold on the real data, where the countries, borders, ports, canals and
scenario pools are the ones players meet.  From the start of each scenario a seeded
random player plays about three game months, checking after every decision:

* the invariants of test_properties.check_invariants (stacking, no unit in a neutral
  hex, no negative money, land units on land and ships at sea, serialise round trip);
* that ``api.check`` accepts every sampled action of ``api.legal_actions`` (or of the
  phase's ``legal`` on a probe copy, for simultaneous decisions), and that its text
  order reads back as the same action;
* that mutated actions are refused with ``IllegalAction`` and one sentence (a hex off
  the map, another side's unit, a unit that does not exist) or, for another hex on the
  map, are legal or refused so - never with another exception;

that a simultaneous decision with one bad order is refused whole and changes nothing;
and at the end that replaying the recorded decisions and dice gives the same state hash.
A seeded ``engine.rng.Rng`` makes every run the same; the failing decision is printed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import numpy as np
import pytest

from engine import api, war
from engine.actions import KINDS, PASS, Action, IllegalAction
from engine.refusals import RULES
from engine.rng import Rng
from engine.sequence import current
from engine.sides import other
from engine.state import GameState, date_text
from tests.engine.test_properties import check_invariants

MONTHS = 3
#: Actions sampled per decision for check/legal agreement, and mutations tried.
AGREEMENT_SAMPLE = 6
MUTATIONS = 4
#: A sequential side passes with probability 1/PASS_ODDS, and after MAX_SEQUENTIAL actions.
PASS_ODDS = 10
MAX_SEQUENTIAL = 40
#: A sequential side gives a standing order (``stand``) with probability 1/STAND_ODDS.
STAND_ODDS = 12
#: Simultaneous decisions: orders tried per side (sampled from one legal list, each re-checked).
SIMULTANEOUS_TRIES = {"deployment": 100}
DEFAULT_TRIES = 4
#: Kinds preferred when listed, so that random play reaches combat within a few months.
PREFERRED = frozenset({"attack", "overrun", "support", "advance", "declare"})
#: Kinds preferred when they end next to the enemy (their last argument is the hex); none is in PREFERRED.
TOWARDS_FRONT = frozenset({"place", "place_land", "move", "rail"})


def _rng(label: str) -> Rng:
    return Rng(hashlib.sha256(b"pbem/tests/real/" + label.encode()).digest())


def _pick(rng: Rng, items: list[Action]) -> Action:
    return items[rng.below(len(items))]


def _mutations(state: GameState, side: str, action: Action, rng: Rng) -> list[tuple[Action, bool]]:
    """Variants of a legal action with a wrong hex or a wrong unit, each with whether it
    must be refused (a hex off the map, a unit that does not exist or is the enemy's)."""
    spec = KINDS[action.kind]
    roles = spec.roles_for(len(action.args))
    size = state.world.map.size
    enemy = [u.id for u in state.side_units(other(side))]
    out: list[tuple[Action, bool]] = []
    for i, role in enumerate(roles):
        if role == "hex":
            for h, refused in ((-1, True), (size, True), (rng.below(size), False)):
                out.append((Action(action.kind, (*action.args[:i], h, *action.args[i + 1 :])), refused))
        elif role == "unit":
            choices = [state.next_unit_id + 7, -3]
            if enemy:
                choices.append(enemy[rng.below(len(enemy))])
            for uid in choices:
                out.append((Action(action.kind, (*action.args[:i], uid, *action.args[i + 1 :])), True))
    return out


Check = Callable[[GameState, str, Action], None]


def _check_agreement(check: Check, state: GameState, side: str, legal: list[Action], rng: Rng, where: str) -> None:
    """Every listed action passes ``check`` and reads back from its text; mutated ones are
    refused with one sentence (or, for another hex on the map, may be legal), never
    with an exception other than IllegalAction."""
    sample = [_pick(rng, legal) for _ in range(min(AGREEMENT_SAMPLE, len(legal)))]
    for action in sample:
        try:
            check(state, side, action)
        except IllegalAction as exc:
            raise AssertionError(f"{where}: listed action {action} refused: {exc}") from None
        text = api.format_action(state, action)
        assert api.parse_order(state, side, text) == action, f"{where}: '{text}' does not read back as {action}"
        muts = _mutations(state, side, action, rng)
        for bad, must_refuse in [muts[rng.below(len(muts))] for _ in range(min(MUTATIONS, len(muts)))]:
            try:
                check(state, side, bad)
            except IllegalAction as exc:
                assert str(exc) and "\n" not in str(exc), f"{where}: unreadable refusal of {bad}"
                assert exc.rule in RULES, f"{where}: refusal of {bad} names no known rule: {exc}"
            except Exception as exc:  # pragma: no cover - the failure being looked for
                raise AssertionError(f"{where}: {bad} raised {type(exc).__name__}: {exc}") from exc
            else:
                assert not must_refuse, f"{where}: {bad} (mutated from {action}) was accepted"


def _sequential(state: GameState, side: str, rng: Rng, where: str, done: int) -> Action:
    legal = api.legal_actions(state, side)
    assert PASS in legal or any(a.kind == "end" for a in legal), f"{where}: no way to end the phase"
    _check_agreement(api.check, state, side, legal, rng, where)
    # Standing orders ("willing to retreat") are accepted in any decision of the side.
    standing = api.standing_orders(state, side)
    _check_agreement(api.check, state, side, standing, rng, f"{where} standing orders")
    moves = [a for a in legal if a.kind != "pass"]
    if standing and rng.below(STAND_ODDS) == 0:
        return _pick(rng, standing)
    if not moves or done >= MAX_SEQUENTIAL or rng.below(PASS_ODDS) == 0:
        return PASS
    return _pick(rng, _biased(_front(state, side), moves, rng))


def _front(state: GameState, side: str) -> set[int]:
    """Land hexes next to a hex held by a country of the other side at war."""
    hexmap = state.world.map
    names = state.world.country_names
    enemy = other(side)
    hostile = np.array([i > 0 and state.countries[n].side == enemy and state.countries[n].at_war
                        for i, n in enumerate(names)])  # fmt: skip
    held = np.flatnonzero(hostile[np.frombuffer(state.controller, dtype=np.uint8)])
    return {o for h in held.tolist() for o in hexmap.land_neighbours[h]}


def _biased(front: set[int], actions: list[Action], rng: Rng) -> list[Action]:
    """Most of the time, only actions that attack or go to the front (when there are any),
    so that random play reaches combat within a few months."""
    if rng.below(4) == 0:
        return actions
    # One pass for both filters: the world map lists up to 475,000 moves per decision.
    preferred: list[Action] = []
    near: list[Action] = []
    for a in actions:
        if a.kind in PREFERRED:
            preferred.append(a)
        elif a.kind in TOWARDS_FRONT and a.args[-1] in front:
            near.append(a)
    if preferred and rng.below(2):
        return preferred
    return near or preferred or actions


def _simultaneous(state: GameState, side: str, rng: Rng, where: str) -> list[Action]:
    """One side's list, built on a probe copy with the phase's own check and apply."""
    probe = state.copy()
    step = current(probe)
    legal = [a for a in step.legal(probe, side) if a.kind != "pass"]
    _check_agreement(step.check, probe, side, legal, rng, where)
    front = _front(probe, side)
    chosen: list[Action] = []
    tries = SIMULTANEOUS_TRIES.get(step.name, DEFAULT_TRIES)
    for _ in range(rng.below(tries + 1)):
        if not legal:
            break
        action = _pick(rng, _biased(front, legal, rng))
        # The list was made before the orders already chosen: re-check on the probe
        # (a refusal must be a readable IllegalAction, never another exception).
        try:
            step.check(probe, side, action)
        except IllegalAction as exc:
            assert exc.rule in RULES, f"refusal of {action} names no known rule: {exc}"
            continue
        step.apply(probe, side, action)
        chosen.append(action)
    return chosen


def _refused_whole(state: GameState, orders: dict[str, list[Action]], rng: Rng, where: str) -> None:
    """A simultaneous decision is all or nothing: one bad order (a unit that does not
    exist, a hex off the map) refuses both lists and leaves the state as it was."""
    side = sorted(orders)[rng.below(len(orders))]
    bad = [m for a in orders[side] for m, refused in _mutations(state, side, a, rng) if refused]
    if not bad:
        return
    before = api.state_hash(state)
    spoiled = dict(orders)
    spoiled[side] = [*orders[side], bad[rng.below(len(bad))]]
    with pytest.raises(IllegalAction):
        api.apply_simultaneous(state, spoiled)
    assert api.state_hash(state) == before, f"{where}: a refused decision changed the state"


Record = list[bytes | Action | dict[str, list[Action]]]


def play(scenario: str, months: int, label: str, record: Record | None = None) -> GameState:
    """Play ``months`` of seeded random legal play; every decision is appended to ``record``."""
    rng = _rng(label)
    state = api.new_game(scenario)
    check_invariants(state)
    end = state.date + months
    done = 0
    decisions = 0
    record = [] if record is None else record
    while state.date < end:
        d = api.decision(state)
        where = f"{label} decision {decisions} ({date_text(state.date)}, {d.phase})"
        if d.kind == "end":
            break
        if d.kind == "chance":
            seed = bytes(rng.below(256) for _ in range(32))
            record.append(seed)
            api.apply_chance(state, seed)
            done = 0
        elif d.kind == "sequential":
            side = d.sides[0]
            action = _sequential(state, side, rng, where, done)
            record.append(action)
            api.apply(state, side, action)
            done = 0 if action == PASS else done + 1
        else:
            orders = {side: _simultaneous(state, side, rng, f"{where} {side}") for side in d.sides}
            _refused_whole(state, orders, rng, where)
            record.append(orders)
            api.apply_simultaneous(state, orders)
        check_invariants(state)
        decisions += 1
    return state


def replay(scenario: str, record: Record) -> GameState:
    state = api.new_game(scenario)
    for item in record:
        if isinstance(item, bytes):
            api.apply_chance(state, item)
        elif isinstance(item, Action):
            api.apply(state, api.decision(state).sides[0], item)
        else:
            api.apply_simultaneous(state, item)
    return state


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["1939", "1937"])
def test_random_legal_play_on_real_scenario(scenario: str) -> None:
    record: Record = []
    state = play(scenario, MONTHS, f"{scenario}/v1", record)
    data = api.serialize(state)
    assert api.serialize(api.deserialize(data)) == data
    # The same decisions and dice give the same game.
    assert api.state_hash(replay(scenario, record)) == api.state_hash(state)


def test_1939_poland_partition_and_conquest_on_the_world_map() -> None:
    """Rulebook "War Declaration": the Axis war on Poland in September 1939 brings in the
    United Kingdom, France, Canada, Australia and New Zealand, and the neutral Soviet Union
    takes eastern Poland and the Baltic states; "Conquest": Poland falls when every Polish
    city is held by its enemies, the Soviet Union counting as one; Germany, holding Warsaw,
    takes the rest of western Poland and the Soviet Union keeps the east."""
    state = api.new_game("1939")
    assert state.countries["Germany"].at_war
    api.apply_simultaneous(state, {"axis": [Action("declare", ("Poland",))], "allies": []})
    for name in ("Poland", "United Kingdom", "France", "Canada", "Australia", "New Zealand"):
        assert state.countries[name].at_war and state.countries[name].side == "allies"
    hexmap = state.world.map
    soviet = state.countries["Soviet Union"]
    assert soviet.side == "neutral" and not soviet.at_war
    for border in ("poland_east", "baltic"):
        assert {state.controller_of(h) for h in hexmap.temp_borders[border]} == {"Soviet Union"}
    polish = [c.hex for c in hexmap.cities if hexmap.country_of[c.hex] == "Poland"]
    assert {state.controller_of(h) for h in polish} == {"Poland", "Soviet Union"}
    for h in polish:
        if state.controller_of(h) == "Poland":
            state.set_controller(h, "Germany")
    assert war.check_conquests(state) == ["Poland"]
    assert state.countries["Poland"].conquered
    east = set(hexmap.temp_borders["poland_east"])
    for h in hexmap.hexes_of_territory["Poland"]:
        assert state.controller_of(h) == ("Soviet Union" if h in east else "Germany")
