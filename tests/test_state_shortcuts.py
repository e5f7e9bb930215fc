"""The engine's shortcuts against the long way, on the states of a real game.

``GameState.copy`` builds a copy directly instead of through the state's bytes: it must
give what loading the bytes gives, containers in the same order (a rule iterating them
behaves alike), or a game verified by one program could differ from the same game
verified through saved files.  ``GameState.to_bytes`` takes the rows that earlier states
packed (engine/packed.py): it must write msgpack's bytes of the state's document.
``HexSupply`` answers a combat's supply question by a search from the defenders' hex: it
must answer as the side's whole supply map; a side's map searched by extending its last
search must be the map searched whole.  The states are those of the 1937 record under
tests/data/records, taken before every record of every file (orders, lists, reveals,
rolls), so mid-step memories (advances, paths, declared targets) are among them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack
import numpy as np
import pytest

from engine import (
    api,
    assaults,
    combat,
    control,
    deployment,
    interception,
    lost_bases,
    movement,
    sea_room,
    sequence,
    stacking,
    supply,
)
from engine import state as state_module
from engine.actions import Action, StateError
from engine.deployment import Deployment, home_area
from engine.hexgrid import NO_HEX, HexGrid
from engine.position import hex_at as position_hex
from engine.position import put as position_put
from engine.position import setup as position_setup
from engine.reach import air_search
from engine.sides import ALLIES, AXIS, NEUTRAL, SIDES
from engine.state import NO_UNIT, CountryFlags, GameState, LandKey, Unit
from engine.supply import HexSupply, SupplyMap, supply_map
from engine.units import UnitProfile, UnitType
from engine.weather import frozen_zones
from pbem.play import audit
from pbem.protocol import machine, replay
from pbem.protocol.records import Record, Reveal, Sim
from pbem.protocol.turnfile import TurnFile

RECORD = Path(__file__).resolve().parent / "data" / "records" / "1937-seed3"
AIR_RECORD = RECORD.parent / "1939-air-seed1"


def _record_states(
    record: Path = RECORD, wanted: Callable[[GameState], bool] = lambda _: True, months: int | None = None
) -> Iterator[GameState]:
    """Every state of the record (or of its first ``months`` months) that is ``wanted``, each
    one before a record is applied to it, and the last; only those are copied."""
    [(_, files)] = audit.game_files(record).items()
    files.sort(key=lambda f: f.seq)
    seen: list[GameState] = []

    def watch(g: machine.Game, _wire: object) -> None:
        if wanted(g.state):
            seen.append(g.state.copy())

    class EveryRecord(replay.Visitor):
        def before(self, game: machine.Game, tf: TurnFile) -> machine.Watcher:
            return watch

    last: GameState | None = None
    start: int | None = None
    for game in replay.walk(files, visitor=EveryRecord()):
        yield from seen
        seen.clear()
        last = game.state
        start = last.date if start is None else start
        if months is not None and last.date >= start + months:
            return
    assert last is not None
    if wanted(last):
        yield last


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    return list(_record_states())


def _shape(x: Any) -> Any:
    """``x`` as nested tuples that keep every container's order and every value's type
    (a str enum counts as its string: it compares, hashes and packs as one)."""
    if isinstance(x, dict):
        return ("dict", tuple((_shape(k), _shape(v)) for k, v in x.items()))
    if isinstance(x, set | frozenset):
        return ("set", tuple(_shape(v) for v in x))
    if isinstance(x, list | tuple):
        return (type(x).__name__, tuple(_shape(v) for v in x))
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, tuple((f.name, _shape(getattr(x, f.name))) for f in dataclasses.fields(x)))
    if isinstance(x, bytearray):
        return ("bytearray", bytes(x))
    if isinstance(x, str):
        return ("str", str.__str__(x))
    return (type(x).__name__, x)


def _state_shape(s: GameState) -> Any:
    facts = {k: v for k, v in vars(s).items() if k not in ("world", "_by_hex", "derived_tables")}
    return _shape(facts), _shape(s.occupied_hexes())


def test_the_states_cover_mid_step_memories(states: list[GameState]) -> None:
    """The states below are worth checking: they hold what a step remembers between orders."""
    assert len(states) > 200
    assert any(s.memo.advances for s in states)
    assert any(s.memo.paths for s in states)
    assert any(s.combats for s in states)


def test_a_copy_is_what_loading_the_bytes_gives(states: list[GameState]) -> None:
    # Every fourth state, which still holds each kind of step memory and combats: a copy's
    # shape depends on what a state holds, not on how many states hold it.
    chosen = [(i, s) for i, s in enumerate(states) if i % 4 == 0]
    assert all(any(has(s) for _, s in chosen) for has in (lambda s: s.memo.advances, lambda s: s.memo.paths,
                                                          lambda s: s.combats))  # fmt: skip
    for i, state in chosen:
        loaded = GameState.from_bytes(state.to_bytes(), state.world)
        copy = state.copy()
        assert _state_shape(copy) == _state_shape(loaded), f"state {i}"
        assert copy.to_bytes() == state.to_bytes()
        assert not copy.derived_tables


def test_a_copy_shares_nothing_mutable_with_its_original(states: list[GameState]) -> None:
    state = next(s for s in states if s.memo.advances and s.units)
    copy = state.copy()
    before = state.to_bytes()
    for u in copy.units.values():
        u.strength += 1
    for c in copy.countries.values():
        c.money += 1
        c.flags.placements["test"] = 1
    assert copy.memo.advances is not None
    copy.memo.advances[0].eligible.append(-1)
    copy.controller[0] ^= 1
    assert state.to_bytes() == before


def test_a_hex_supply_answers_as_the_side_s_supply_map(states: list[GameState]) -> None:
    """A combat's supply of its defenders (a search from their hex) against the side's
    whole supply map (the searches from every source), for every unit on the map."""
    answers = set()
    for state in states[::12]:
        for side in SIDES:
            whole = supply_map(state, side)
            for h, ids in state.occupied_hexes().items():
                units = [state.units[i] for i in ids if state.side_of(state.units[i].country) == side]
                if units:
                    one = HexSupply(state, side, h)
                    for u in units:
                        answer = whole.in_supply(u)
                        assert one.in_supply(u) == answer, (state.date, side, u.label())
                        answers.add(answer)
    assert answers == {True, False}


def _deployment_lists(record: Path) -> Iterator[tuple[GameState, str, list[Action]]]:
    """The hidden lists of a record's first deployment, each with the state it was given on."""
    [(_, files)] = audit.game_files(record).items()
    files.sort(key=lambda f: f.seq)
    found: list[tuple[GameState, str, list[Action]]] = []

    class Lists(replay.Visitor):
        def before(self, game: machine.Game, tf: TurnFile) -> machine.Watcher:
            def watch(g: machine.Game, rec: Record) -> None:
                state = g.state
                assert isinstance(state, GameState)
                if isinstance(rec, Sim | Reveal) and isinstance(sequence.current(state), Deployment):
                    found.append((state.copy(), tf.side, [Action.from_wire(w) for w in rec.actions]))

            return watch

    for _ in replay.walk(files, visitor=Lists()):
        if len(found) >= 2:
            break
    yield from found


def test_a_reveal_continued_from_a_side_s_draft_is_the_reveal_on_a_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step whose lists are carried out one after the other continues the reveal from
    the first side's draft (engine.api._revealed) instead of carrying out both lists
    again on a new copy.  Every simultaneous decision of the 1939 record's first three
    months (war declarations, deployments, incomes, builds), revealed both ways: the same
    state, containers in the same order."""
    given: list[tuple[GameState, dict[str, list[Action]]]] = []
    reveal = api.apply_simultaneous

    def keeping(state: GameState, orders: dict[str, list[Action]]) -> None:
        given.append((state.copy(), {side: list(actions) for side, actions in orders.items()}))
        reveal(state, orders)

    monkeypatch.setattr(api, "apply_simultaneous", keeping)
    [(_, files)] = audit.game_files(RECORD.parent / "1939-seed7").items()
    files.sort(key=lambda f: f.seq)
    start: int | None = None
    for game in replay.walk(files):
        start = game.state.date if start is None else start
        if game.state.date > start + 2:
            break
    continued = set()
    for state, orders in given:
        step = sequence.current(state)
        fast = state.copy()
        reveal(fast, orders)
        slow = state.copy()
        sequence.give_lists(slow, orders)
        assert _state_shape(fast) == _state_shape(slow), step.label
        assert fast.to_bytes() == slow.to_bytes()
        listed = [side for side, actions in orders.items() if any(a.kind != "pass" for a in actions)]
        if step.lists_in_turn and listed:
            continued.add((step.label, len(listed)))
    assert {("deployment", 2), ("build", 2), ("income", 1)} <= continued


def test_a_side_s_supply_search_extended_by_new_sources_is_the_whole_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A side's supply search extends its last one when only sources were added over
    the same hexes (a deployment's supply units).  Along the first deployment's lists of
    the 1939 record, then each supply point of the pools placed across its country's
    area (that record's players placed none), the map that may extend is compared with
    one searched whole, from every source."""
    extended = 0
    extend = supply._extend

    def counting(*args: Any) -> Any:
        nonlocal extended
        extended += bool(args[-1].any())  # new sources were added
        return extend(*args)

    monkeypatch.setattr(supply, "_extend", counting)
    compared = 0

    def compare(state: GameState, side: str) -> None:
        nonlocal compared
        kept = SupplyMap(state, side)
        supply._last_search.clear()
        whole = SupplyMap(state, side)
        assert sorted(kept.full) == sorted(whole.full)
        for cls in whole.full:
            assert np.array_equal(kept.full[cls], whole.full[cls]), (side, cls)
            assert np.array_equal(kept.cities[cls], whole.cities[cls]), (side, cls)
        compared += 1

    for state, side, actions in _deployment_lists(RECORD.parent / "1939-seed7"):
        draft = api.draft(state, side)
        for i, action in enumerate(a for a in actions if a.kind != "pass"):  # supply units follow
            draft.offer(action)
            if i % 8 == 0:
                compare(draft.state, side)
        for name, c in sorted(draft.state.countries.items()):
            points = sum(n for key, n in c.free_land.items() if key.type == UnitType.SUPPLY) if c.side == side else 0
            area = sorted(home_area(draft.state, name)) if points else []
            for h in area[:: len(area) // points + 1] if area else ():
                key = next(k for k in c.free_land if k.type == UnitType.SUPPLY)
                draft.offer(Action("place_land", (name, "supply", key.move, 1, h)))
                compare(draft.state, side)
    assert compared > 50
    assert extended > 10


def test_a_placement_area_kept_from_earlier_in_the_list_answers_as_one_searched_now(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A country's placement area is searched once for a list and kept while the list's
    orders only widen it (engine.deployment.in_home_area).  Along the first deployment's
    lists of the 1939 record (some 400 placements): the whole lists need about a search
    per country, not one per unit; and before every eighth order each country's answer
    for every hex of its land is the same as from an area searched on the draft as it
    stands."""
    lists = list(_deployment_lists(RECORD.parent / "1939-seed7"))
    searched = offered = 0
    compute = deployment._compute_area

    def counting(state: GameState, country: str) -> frozenset[int]:
        nonlocal searched
        searched += 1
        return compute(state, country)

    with monkeypatch.context() as m:
        m.setattr(deployment, "_compute_area", counting)
        for state, side, actions in lists:
            draft = api.draft(state, side)
            for action in actions:
                draft.offer(action)
                offered += 1
    countries = sum(1 for state, side, _ in lists for c in state.countries.values() if c.side == side and c.active)
    assert offered > 300 and searched <= countries + 2, (searched, countries, offered)

    compared = 0
    for state, side, actions in lists:
        draft = api.draft(state, side)
        names = sorted(n for n, c in state.countries.items() if c.side == side and c.active)
        for i, action in enumerate(actions):
            if i % 8 == 0:
                for name in names:
                    now = compute(draft.state, name)
                    land = draft.state.world.map.hexes_of_territory.get(name, ())
                    kept = [h for h in land if deployment.in_home_area(draft.state, name, h)]
                    assert kept == [h for h in land if h in now], (side, i, name)
                    compared += 1
            draft.offer(action)
    assert compared > 50


def test_a_supply_unit_out_of_reach_extends_the_search_as_a_whole_search(states: list[GameState]) -> None:
    """The same where a new source reaches new hexes: a supply unit put (by hand, not by
    the rules) in hexes the side may pass but its supply does not reach, one after the
    other, in every 24th state of the 1937 record."""
    grew = 0
    for state in states[::24]:
        for side in SIDES:
            supply._last_search.clear()
            country = next((u.country for u in state.side_units(side) if u.is_land), None)
            if country is None:
                continue
            cls = supply.supply_class(country)
            whole = SupplyMap(state, side)
            if cls not in whole.full:
                continue
            lone = np.flatnonzero(whole.passable[:-1] & ~whole.full[cls][:-1]).tolist()
            trial = state.copy()
            for h in lone[:: len(lone) // 4 + 1]:
                before = int(SupplyMap(trial, side).full[cls].sum())
                trial.place(trial.new_unit(country, UnitProfile(UnitType.SUPPLY, strength=0, move=3)), h)
                kept = SupplyMap(trial, side)
                supply._last_search.clear()
                fresh = SupplyMap(trial, side)
                for c in fresh.full:
                    assert np.array_equal(kept.full[c], fresh.full[c]), (state.date, side, h, c)
                    assert np.array_equal(kept.cities[c], fresh.cities[c]), (state.date, side, h, c)
                grew += int(fresh.full[cls].sum()) > before + 1
    assert grew > 5


def _msgpack_bytes(s: GameState) -> bytes:
    return bytes(msgpack.packb(s.to_doc(), use_bin_type=True))


def test_the_kept_rows_give_msgpack_s_bytes(states: list[GameState]) -> None:
    """Every state in the order of the game, each one's rows found among those kept from
    the states before it, as a receiver's program finds them; and every value has the type
    its field declares (the kept rows are right only for such values)."""
    for i, state in enumerate(states):
        assert state.to_bytes() == _msgpack_bytes(state), f"state {i}"
        assert all(map(state_module._unit_canonical, map(state_module._unit_facts, state.units.values()))), i
        assert all(map(state_module._country_canonical, map(state_module._country_key, state.countries.values()))), i


def _other(value: object) -> object:
    """Another value of the same plain type (None for a container)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    return None


def _changes(state: GameState) -> list[tuple[str, object]]:
    """One change of each fact of a unit and of a country, in place as the rules make them."""
    unit = next(u for u in state.units.values() if u.on_map)
    country = state.countries["Germany"]
    profile = UnitProfile(UnitType("infantry"), strength=3, move=3)
    out: list[tuple[str, object]] = []
    for f in dataclasses.fields(unit):
        value = getattr(unit, f.name)
        new = UnitType("armor") if f.name == "type" else _other(value)
        out.append((f"unit.{f.name}", lambda f=f, new=new: setattr(unit, f.name, new)))
    for f in dataclasses.fields(country):
        value = getattr(country, f.name)
        if f.name in ("name", "flags"):
            continue
        new = ("allies" if value != "allies" else "axis") if f.name == "side" else _other(value)
        if new is not None:
            out.append((f"country.{f.name}", lambda f=f, new=new: setattr(country, f.name, new)))
    key = LandKey(UnitType("infantry"), 3)
    out += [
        ("pool_land", lambda: country.pool_land.__setitem__(key, country.pool_land.get(key, 0) + 1)),
        ("pool_units", lambda: country.pool_units.append(profile)),
        ("free_land", lambda: country.free_land.__setitem__(key, 2)),
        ("free_units", lambda: country.free_units.append(unit.id)),
        ("transit", lambda: country.transit.append((state.date + 1, unit.id))),
        ("placements", lambda: country.flags.placements.__setitem__("test", state.date)),
        ("control", lambda: state.controller.__setitem__(0, state.controller[0] ^ 1)),
    ]
    for f in dataclasses.fields(country.flags):
        value = getattr(country.flags, f.name)
        new = {"joins": ALLIES, "axis_war": state.date if value is None else None}.get(f.name, _other(value))
        if new is not None:
            out.append((f"flags.{f.name}", lambda f=f, new=new: setattr(country.flags, f.name, new)))
    return out


def test_every_fact_changed_in_place_changes_the_bytes(states: list[GameState]) -> None:
    """A change to any fact of a unit or a country, or to a hex's control, made in place
    after the state was packed, is in the next bytes (nothing is taken as unchanged)."""
    state = states[-1].copy()
    for name, change in _changes(state):
        before = state.to_bytes()
        change()
        assert state.to_bytes() != before, name
        assert state.to_bytes() == _msgpack_bytes(state), name


def test_a_state_with_every_fact_changed_loads_and_packs_alike(states: list[GameState]) -> None:
    """The check of the types on loading takes every value the rules write (a side where a
    country joins, a date of the Axis' declaration of war, set flags and full pools)."""
    state = states[-1].copy()
    for name, change in _changes(state):
        if name != "unit.id":  # another unit's id: the state would hold it twice
            change()
    loaded = GameState.from_bytes(state.to_bytes(), state.world)
    assert loaded.countries["Germany"].flags.joins == ALLIES
    assert loaded.to_bytes() == state.to_bytes() == _msgpack_bytes(loaded)


def test_loading_refuses_values_of_other_types(states: list[GameState]) -> None:
    """A 1 for a True packs otherwise than the True of a kept row equal to it: a state's
    bytes holding one are refused, not loaded to hash otherwise than they were written."""
    state = states[-1]
    doc = msgpack.unpackb(state.to_bytes(), raw=False, strict_map_key=False)
    moved = state_module._UNIT_FIELDS.index("moved")
    countries = [row[0] for row in doc["countries"]]
    germany = countries.index("Germany")
    bad_rows = [
        ("units", 0, moved, int(doc["units"][0][moved])),
        ("units", 0, 0, float(doc["units"][0][0])),
        ("countries", germany, 2, int(doc["countries"][germany][2])),
        ("countries", germany, 7, bool(doc["countries"][germany][7])),
    ]
    assert doc["countries"][germany][9], "Germany has ships or aircraft to buy"
    for part, row, at, value in bad_rows:
        bad = msgpack.unpackb(state.to_bytes(), raw=False, strict_map_key=False)
        bad[part][row][at] = value
        with pytest.raises(StateError, match="not of their types"):
            GameState.from_bytes(msgpack.packb(bad, use_bin_type=True), state.world)
    bad = msgpack.unpackb(state.to_bytes(), raw=False, strict_map_key=False)
    bad["countries"][germany][9][0][8] = 0  # a profile's carrier_based
    with pytest.raises(StateError, match="not of their types"):
        GameState.from_bytes(msgpack.packb(bad, use_bin_type=True), state.world)


def test_a_row_of_other_types_is_packed_as_it_is_and_not_kept(states: list[GameState]) -> None:
    """Values the rules never write (a 1 for a True, set by hand) still pack as msgpack
    packs them, and do not stand in for the equal row of the right types afterwards."""
    state = states[-1].copy()
    unit = next(u for u in state.units.values() if u.on_map)
    unit.mp_used = 7_777  # a row no state had
    for moved in (1, True, 0, False):
        unit.moved = moved
        assert state.to_bytes() == _msgpack_bytes(state), repr(moved)


def _rule_changes(state: GameState, rng: random.Random) -> list[Callable[[], object]]:
    """Changes as the rules make them, to units and countries picked by ``rng``: moves,
    strength, embarking and landing, a phase's flags, units bought, destroyed and taken
    off the map, money, sides, pools, transit and country flags, each fact also set back
    to a value it had (whose row a unit or country may still hold from before)."""
    units = sorted(state.units)
    unit = state.units[rng.choice(units)] if units else None
    other = state.units[rng.choice(units)] if units else None
    country = state.countries[rng.choice(sorted(state.countries))]
    profile = rng.choice(
        [UnitProfile(UnitType("infantry"), strength=3, move=3), UnitProfile(UnitType("armor"), strength=2, move=5)]
    )
    changes: list[Callable[[], object]] = [
        lambda: state.place(state.new_unit(country.name, profile), rng.choice(list(state.occupied_hexes()))),
        lambda: setattr(country, "money", max(0, country.money + rng.choice((-3, 1, 5)))),
        lambda: setattr(country, "side", rng.choice((AXIS, ALLIES, NEUTRAL))),
        lambda: setattr(country, "at_war", not country.at_war),
        lambda: country.pool_land.__setitem__(LandKey(UnitType("infantry"), 3), rng.randrange(3)),
        lambda: country.pool_units.append(profile),
        lambda: country.pool_units and country.pool_units.pop(rng.randrange(len(country.pool_units))),
        lambda: country.transit.append((state.date + rng.randrange(1, 4), rng.randrange(1, 99))),
        lambda: country.transit and country.transit.pop(),
        lambda: country.free_units.append(rng.randrange(1, 99)),
        lambda: setattr(country.flags, "atomic_bombs", rng.randrange(2)),
        lambda: setattr(country.flags, "axis_war", rng.choice((None, state.date))),
        lambda: country.flags.placements.__setitem__("border", rng.randrange(2)),
        lambda: setattr(country, "flags", CountryFlags(had_infantry=rng.random() < 0.5)),
        lambda: state.controller.__setitem__(rng.randrange(len(state.controller)), rng.randrange(1, 5)),
    ]
    if unit is not None and other is not None:
        changes += [
            lambda: state.place(unit, other.hex),
            lambda: setattr(unit, "strength", max(1, unit.strength + rng.choice((-1, 1)))),
            lambda: setattr(unit, "carrier", rng.choice((NO_UNIT, other.id))),
            lambda: setattr(
                unit, rng.choice(("moved", "attacked", "overran", "railed", "supplied", "damaged")), rng.random() < 0.5
            ),
            lambda: setattr(unit, "mp_used", rng.randrange(3)),
            lambda: setattr(unit, "origin", unit.hex),
            lambda: setattr(unit, "unsupplied", rng.randrange(2)),
            lambda: (
                setattr(unit, "cargo", rng.randrange(2)),
                setattr(unit, "cargo_to", rng.choice(("", country.name))),
            ),
            lambda: state.remove(unit),
            lambda: state.destroy(unit),
            # a unit replaced by another object with its facts, as a rule building units by hand would
            lambda: state.units.__setitem__(unit.id, dataclasses.replace(unit, strength=unit.strength + 1)),
            lambda: state.units.__setitem__(unit.id, Unit(*state_module._unit_facts(unit))),
        ]
    return changes


def _walk(state: GameState, seed: int, steps: int) -> None:
    """``steps`` rounds of one to three changes on ``state``, its bytes checked against
    msgpack's after each round, and its hash against the bytes' (each also twice in a row,
    the second taking every row the first kept)."""
    rng = random.Random(seed)
    for step in range(steps):
        for _ in range(rng.randint(1, 3)):
            rng.choice(_rule_changes(state, rng))()
        expected = _msgpack_bytes(state)
        assert state.to_bytes() == expected, (seed, step)
        assert api.state_hash(state) == hashlib.sha256(expected).digest(), (seed, step)


def test_the_bytes_of_a_state_changed_by_the_rules_between_its_hashes_are_msgpack_s(states: list[GameState]) -> None:
    """One state hashed again and again while units and countries change as the rules
    change them: a row kept by a unit or a country from before a change is never taken.
    A copy's units and a loaded state's are watched as the original's."""
    original = states[-1].copy()
    original.to_bytes()  # every unit and country keeps its row
    _walk(original, 1, 300)
    loaded = GameState.from_bytes(states[-1].to_bytes(), states[-1].world)
    _walk(loaded, 2, 100)
    copy = loaded.copy()
    before = loaded.to_bytes()
    _walk(copy, 3, 100)
    assert loaded.to_bytes() == before == _msgpack_bytes(loaded)


def test_threads_hashing_their_own_states_take_only_their_rows(states: list[GameState], fast_switching: None) -> None:
    """The rows shared between states (found again by their values) under four threads,
    each changing and hashing its own copy of a state, switching every microsecond."""
    errors: list[str] = []

    def walk(state: GameState, seed: int) -> None:
        try:
            _walk(state, seed, 60)
        except Exception as exc:
            errors.append(repr(exc))

    threads = [threading.Thread(target=walk, args=(states[-1].copy(), 10 + i)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_the_kept_winter_neighbour_table_is_the_land_steps_and_the_frozen_crossings(states: list[GameState]) -> None:
    """The supply searches' neighbour table of each month's frozen zones, kept per map,
    against each hex's land neighbours and its icecap crossings with both ends frozen,
    read from the map hex by hex."""
    hexmap = states[0].world.map
    n = hexmap.size
    crossings = 0
    for zones in {frozen_zones(month) for month in range(12)}:
        table = supply._neighbour_table(hexmap, zones)
        weather = hexmap.weather
        for h in range(n):
            frozen = {o for o in hexmap.frozen_neighbours[h] if weather[h] in zones and weather[o] in zones}
            crossings += len(frozen)
            assert set(table[h].tolist()) - {n} == set(hexmap.land_neighbours[h]) | frozen, (sorted(zones), h)
        assert set(table[n].tolist()) == {n}
    assert crossings > 0


def _with_winter(states: list[GameState]) -> Iterator[GameState]:
    for state in states:
        yield state
        january = state.copy()
        january.date += 12 - january.date % 12
        assert frozen_zones(january.date)
        yield january


def test_a_side_s_supply_searched_again_over_the_same_hexes_and_sources_is_the_whole_search(
    states: list[GameState], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A side's map made again where nothing it searches changed (an interception moves
    only aircraft) returns the last search's result without a step: in every 12th state of
    the 1937 record, winter months among them, a map made after one of the same state (and
    after one of the state with a fighter moved) against one searched whole.  The record
    has no severe winter, so each state is also searched as it stands put in January (its
    date moved by hand), when icecap crossings join the neighbours."""
    repeated = 0
    extend = supply._extend

    def no_extension(*args: Any) -> Any:
        assert args[-1].any(), "an extension with no new source"
        return extend(*args)

    monkeypatch.setattr(supply, "_extend", no_extension)
    winters = 0
    for state in _with_winter(states[::12]):
        winters += bool(frozen_zones(state.date))
        for side in SIDES:
            supply._last_search.clear()
            first = SupplyMap(state, side)
            kept = supply._last_search.get(state.world, {}).get(side)
            if kept is None:  # the side has no units to search for
                continue
            trial = state.copy()
            air = next((u for u in trial.side_units(side) if u.type in supply.AIR_TYPES and u.hex != NO_HEX), None)
            if air is not None:  # moved to a hex of its side's units: the same hexes pass
                air.hex = next(u.hex for u in trial.side_units(side) if u.hex != NO_HEX and u.id != air.id)
            again = [SupplyMap(state, side), SupplyMap(trial, side)]
            repeated += supply._last_search[state.world][side] is kept
            supply._last_search.clear()
            whole = SupplyMap(state, side)
            for smap in [first, *again]:
                assert sorted(smap.full) == sorted(whole.full)
                for cls in whole.full:
                    assert np.array_equal(smap.full[cls], whole.full[cls]), (state.date, side, cls)
                    assert np.array_equal(smap.cities[cls], whole.cities[cls]), (state.date, side, cls)
    assert winters > 0
    assert repeated > 20


def test_a_side_s_map_searches_every_class_of_its_countries_each_as_alone(states: list[GameState]) -> None:
    """A side's map searches every supply class of its countries in one sweep, whether its
    units are on the map yet or not (so that a deployment's maps extend one search): each
    class's hexes must be those of a map made for that class alone, in every 24th state of
    the 1937 record and its first states, before and while the first units are placed."""
    without_units = 0
    for state in states[:6] + states[::24]:
        for side in SIDES:
            supply._last_search.clear()
            whole = SupplyMap(state, side)
            countries = [name for name, c in state.countries.items() if c.side == side]
            assert sorted(whole.full) == sorted({supply.supply_class(name) for name in countries})
            on_map = {supply.supply_class(u.country) for u in state.side_units(side) if u.hex != NO_HEX}
            for cls in whole.full:
                without_units += cls not in on_map
                supply._last_search.clear()
                alone = SupplyMap(state, side, frozenset({cls}))
                assert np.array_equal(whole.full[cls], alone.full[cls]), (state.date, side, cls)
                assert np.array_equal(whole.cities[cls], alone.cities[cls]), (state.date, side, cls)
    assert without_units > 0


def _may_intercept(state: GameState) -> bool:
    """Is it an interception step where the side to declare may intercept something?"""
    return (
        sequence.current(state).name == "interception"
        and bool(state.acting)
        and bool(interception.targets(state, state.acting[0]))
    )


def test_interceptions_found_near_the_targets_are_those_every_search_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The interceptions a side may declare, searched only by the air units with a target
    hex within their allowance, against a search by every air unit, at every interception
    step of the first month of the air war's record."""
    searches = 0

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal searches
        searches += 1
        return air_search(*args, **kwargs)

    monkeypatch.setattr(interception, "air_search", counted)
    states = _record_states(AIR_RECORD, _may_intercept, months=1)
    chosen = [(state, side, interception.actions(state, side)) for state in states for side in state.acting[:1]]
    assert len(chosen) > 15 and all(found for *_, found in chosen)
    near = searches
    # The long way: every target counts as near every air unit, so each one searches.
    monkeypatch.setattr(HexGrid, "distances", lambda self, a, hexes: np.zeros(len(hexes), dtype=np.int64))
    for state, side, found in chosen:
        assert interception.actions(state, side) == found
    assert near < searches - near  # the shortcut spared searches


@pytest.mark.parametrize("record", ["1937-seed3", "1939-seed7", "1939-air-seed1"])
def test_a_pockets_check_from_the_hexes_changed_since_a_calm_one_is_the_whole_check(
    record: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a pockets check that flipped nothing, the next one searches only from the hexes
    whose side or anchor changed and their neighbours (engine.control).  Every check of a
    stored record's combats, movements and assaults, made both ways: the short way on the
    game's own state, the whole check on a copy (which keeps no earlier check's inputs);
    the same hexes flipped, in the same order (the states' bytes)."""
    check = control.resolve_pockets
    short = whole = 0

    def both(state: GameState) -> list[int]:
        nonlocal short, whole
        other = state.copy()
        short += control._CALM in state.derived_tables
        got = check(state)
        assert control._CALM not in other.derived_tables
        assert check(other) == got
        assert other.to_bytes() == state.to_bytes()
        whole += 1
        return got

    for module in (combat, movement, assaults):
        monkeypatch.setattr(module, "resolve_pockets", both)
    [(_, files)] = audit.game_files(RECORD.parent / record).items()
    files.sort(key=lambda f: f.seq)
    for _ in replay.walk(files):
        pass
    assert short > whole // 3


def test_a_pockets_check_after_a_calm_one_finds_the_pockets_made_since() -> None:
    """The short way must not miss a pocket made between two checks in any way the check
    reads: a defending unit destroyed (an anchor lost, as by a combat that takes no hex,
    after which no check runs), a hex taken, a neutral neighbour joining the enemy."""
    ring = """
        G:c G:c G:c G:c G:c
         G:c P:c P:c G:c G:c
        G:c G:c G:c G:c G:c
        """
    pocket = ("1,1", "2,1")
    for change in ("unit destroyed", "hex taken"):
        s = position_setup(ring, cities={"Berlin": "4,0"})
        defender = position_put(s, "Poland", "infantry", "2,1")
        assert control.resolve_pockets(s) == [] and control._CALM in s.derived_tables
        if change == "unit destroyed":
            s.destroy(defender)
            flipped = sorted(position_hex(s, h) for h in pocket)
        else:
            s.place(defender, position_hex(s, "1,1"))  # retreats; its hex is taken
            s.set_controller(position_hex(s, "2,1"), "Germany")
            assert control.resolve_pockets(s) == [] and control._CALM in s.derived_tables
            s.destroy(defender)  # and is destroyed in its next combat
            flipped = [position_hex(s, "1,1")]
        assert control._CALM in s.derived_tables
        assert control.resolve_pockets(s) == flipped, change
        assert all(s.controller_of(h) == "Germany" for h in flipped)
        assert control._CALM not in s.derived_tables  # a check that flipped keeps nothing

    s = position_setup(
        """
        G:c G:c G:c
         G:c P:c W:c
        G:c G:c G:c
        """,
        cities={"Berlin": "0,0"},
    )
    assert control.resolve_pockets(s) == [] and control._CALM in s.derived_tables  # Sweden borders it
    s.countries["Sweden"].side = AXIS
    assert control.resolve_pockets(s) == [position_hex(s, "1,1")]


def _nearest_base_the_long_way(state: GameState, u: Unit, side: str) -> int | None:
    hexmap = state.world.map
    best: tuple[int, int] | None = None
    for h in set(hexmap.city_at) | set(hexmap.resources) | set(state.airfields):
        d = hexmap.grid.distance(u.hex, h)
        if h == u.hex or d > u.move or (best is not None and (d, h) > best):
            continue
        if sea_room.not_neutral(state, u, h) and stacking.air_room(state, h, side) > 0:
            best = (d, h)
    return None if best is None else best[1]


def test_an_air_unit_s_new_base_is_the_nearest_place_every_distance_finds(states: list[GameState]) -> None:
    """An air unit whose base falls flies to the nearest place within its allowance that
    may take it (engine.lost_bases, which now takes the distances of every place at once
    and tries the places nearest first): against every place's distance asked one by one,
    for every air unit on the map in every 6th state of the 1937 record, with its allowance
    and with a short one (nowhere to go, or only a place at the edge of its reach)."""
    answers = []
    for state in states[::6]:
        for u in [u for u in state.units.values() if u.is_air and u.on_map]:
            side = state.side_of(u.country)
            for allowance in (u.move, 1, 3):
                trial = dataclasses.replace(u, move=allowance)
                found = lost_bases._new_base(state, trial, side)
                assert found == _nearest_base_the_long_way(state, trial, side), (state.date, u.label(), allowance)
                answers.append(found)
    assert None in answers and len({a for a in answers if a is not None}) >= 10


def _hex_supply_both_ways(
    state: GameState, side: str, h: int, ignoring: frozenset[int], monkeypatch: pytest.MonkeyPatch
) -> list[bool]:
    """Whether each unit of ``side`` in ``h`` is in supply, by the search near the hex and by
    the whole-map arrays (the search given no hexes to visit), which must agree."""
    units = [u for u in state.units_at(h) if state.side_of(u.country) == side]
    near = HexSupply(state, side, h, ignoring)
    with monkeypatch.context() as m:
        m.setattr(supply, "_NEAR_LIMIT", -1)
        whole = HexSupply(state, side, h, ignoring)
    answers = [near.in_supply(u) for u in units]
    assert answers == [whole.in_supply(u) for u in units], (state.date, side, h)
    return answers


def test_a_hex_supply_searched_near_the_hex_is_the_search_over_the_whole_map_arrays(
    states: list[GameState], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A combat's supply of its defenders is searched from their hex over the hexes
    themselves (engine.supply._Near), each judged as the whole-map arrays judge it: every
    stack of either side in every 4th state of the 1937 record, also with the enemy's
    aircraft and ships next to it ignored (as supporting units are), against the search over
    the arrays; then with a limit of 20 hexes, past which the arrays answer."""
    answers: set[bool] = set()
    given_up = near_answers = 0
    searched = supply._Near.bits_at

    def counting(self: Any, h: int, wanted: list[str]) -> int | None:
        nonlocal given_up, near_answers
        bits = searched(self, h, wanted)
        if supply._NEAR_LIMIT >= 0:  # not the whole-map search of the comparison
            given_up += bits is None
            near_answers += bits is not None
        return bits

    monkeypatch.setattr(supply._Near, "bits_at", counting)
    for state in states[::4]:
        for side in SIDES:
            for h in sorted(state.occupied_hexes()):
                if not any(state.side_of(u.country) == side for u in state.units_at(h)):
                    continue
                answers.update(_hex_supply_both_ways(state, side, h, frozenset(), monkeypatch))
                near = {h, *state.world.map.land_neighbours[h]}
                support = frozenset(
                    u.id for x in near for u in state.units_at(x) if not u.is_land and state.side_of(u.country) != side
                )
                if support:
                    _hex_supply_both_ways(state, side, h, support, monkeypatch)
    assert answers == {True, False}
    assert near_answers > 1000
    monkeypatch.setattr(supply, "_NEAR_LIMIT", 20)
    for state in states[::8]:
        for side in SIDES:
            for h in sorted(state.occupied_hexes()):
                if any(state.side_of(u.country) == side for u in state.units_at(h)):
                    _hex_supply_both_ways(state, side, h, frozenset(), monkeypatch)
    assert given_up > 100


@pytest.mark.parametrize("record", ["1937-seed3", "1939-seed7"])
def test_every_combat_s_hex_supply_searched_near_the_hex_is_the_whole_map_search(
    record: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for the defenders of every combat of a stored record, with the supporting
    units the combat ignored, on the state the combat was resolved on."""
    made = HexSupply
    combats = 0

    def both(state: GameState, side: str, h: int, ignoring: frozenset[int] = frozenset()) -> HexSupply:
        nonlocal combats
        _hex_supply_both_ways(state, side, h, ignoring, monkeypatch)
        combats += 1
        return made(state, side, h, ignoring)

    monkeypatch.setattr(combat, "HexSupply", both)
    [(_, files)] = audit.game_files(RECORD.parent / record).items()
    files.sort(key=lambda f: f.seq)
    for _ in replay.walk(files):
        pass
    assert combats > 5


def test_a_hex_supply_near_the_hex_on_positions_changed_by_hand(
    states: list[GameState], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Positions the records rarely hold, made by hand on every 24th state: an enemy land
    unit put next to stacks (its control zone), a fortification in it, a supply unit in a
    stack's hex, a stack's land units marked embarked (they no longer open their hex),
    the enemy in a neighbour with an embarked unit only; the search near the hex against
    the search over the whole map's arrays."""
    rng = random.Random(25)
    answers: set[bool] = set()
    judged: set[bool] = set()
    for state in states[::24]:
        for side in SIDES:
            enemy_country = next((u.country for u in state.side_units(SIDES[1 - SIDES.index(side)]) if u.is_land), None)
            own_country = next((u.country for u in state.side_units(side) if u.is_land), None)
            if enemy_country is None or own_country is None:
                continue
            trial = state.copy()
            stacks = [
                h
                for h in sorted(trial.occupied_hexes())
                if any(trial.side_of(u.country) == side and u.is_land for u in trial.units_at(h))
            ]
            for h in rng.sample(stacks, min(12, len(stacks))):
                steps = trial.world.map.land_neighbours[h]
                if not steps:
                    continue
                change = rng.randrange(4)
                if change == 0:
                    near = rng.choice(steps)
                    trial.place(trial.new_unit(enemy_country, UnitProfile(UnitType.INFANTRY, strength=2, move=3)), near)
                    if rng.random() < 0.5:
                        trial.controller[near] = trial.world.country_no[enemy_country]
                elif change == 1 and len(steps) > 1:  # a fortification in the enemy's new control zone
                    fort, near = rng.sample(steps, 2)
                    trial.forts[fort] = 0
                    trial.place(trial.new_unit(enemy_country, UnitProfile(UnitType.INFANTRY, strength=2, move=3)), near)
                    trial.controller[near] = trial.world.country_no[enemy_country]
                elif change == 2:
                    for u in trial.units_at(h):
                        if u.is_land and rng.random() < 0.7:
                            u.carrier = 10**6  # aboard a carrier the rules would name
                else:
                    trial.place(trial.new_unit(own_country, UnitProfile(UnitType.SUPPLY, strength=0, move=3)), h)
            for h in stacks:
                answers.update(_hex_supply_both_ways(trial, side, h, frozenset(), monkeypatch))
            # Each hex judged near the stacks as the whole map judges it.
            whole = SupplyMap(trial, side).passable
            near = supply._Near(trial, side, frozenset())
            around = {x for h in stacks for o in trial.world.map.land_neighbours[h] for x in (o, h)}
            for x in sorted(around):
                judged.add(near._passable(x))
                assert near._passable(x) == whole[x], (trial.date, side, x)
    assert answers == {True, False} and judged == {True, False}


def test_the_packaged_map_s_land_steps_are_symmetric() -> None:
    """The search near a hex finds the control zones over a hex from the units in its own
    land neighbours, which is where the whole map's arrays spread them from each unit only
    if every land step can be taken back."""
    from engine.newgame import world_map

    hexmap = world_map()
    rows = hexmap.land_neighbours
    assert sum(map(len, rows)) > 100_000
    assert all(h in rows[o] for h, row in enumerate(rows) for o in row)


def _found_whole(state: GameState, side: str) -> supply._Found:
    supply._last_found.clear()
    supply._last_search.clear()
    return SupplyMap(state, side).found()


def _same_found(a: supply._Found, b: supply._Found) -> bool:
    return (
        sorted(a.full) == sorted(b.full)
        and all(np.array_equal(a.full[c], b.full[c]) and np.array_equal(a.cities[c], b.cities[c]) for c in a.full)
        and a.forts == b.forts
        and np.array_equal(a.passable, b.passable)
    )


def test_a_side_s_map_found_again_from_the_same_inputs_is_the_map_searched_whole(
    states: list[GameState], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A side's map whose inputs (the units' rows, control, sides, fortifications, the date)
    are those of its last one is that one (engine.supply._search_side).  Along the
    interception steps of the air record's first month, and in every 6th state of the
    1937 record with each side's aircraft moved (their own map's inputs do not change)
    and then the enemy's (they do), against the map searched whole."""
    built = 0
    build = SupplyMap._build

    def counting(self: SupplyMap, *args: Any) -> None:
        nonlocal built
        built += 1
        build(self, *args)

    monkeypatch.setattr(SupplyMap, "_build", counting)
    asked: list[tuple[GameState, str, supply._Found]] = []
    reused = 0
    for state in [*_record_states(AIR_RECORD, _may_intercept, months=1), *states[::6]]:
        for side in SIDES:
            state.derived_tables.clear()  # the stamp's table would answer before the inputs are compared
            before = built
            asked.append((state, side, supply._search_side(state, side)))
            reused += built == before
    for state, side, kept in asked:
        assert _same_found(kept, _found_whole(state, side)), (state.date, side)
    assert reused >= 20
    moved = changed = 0
    for state in states[::6]:
        for side in SIDES:
            planes = [u for u in state.side_units(side) if u.is_air and u.carrier == NO_UNIT]
            if not planes:
                continue
            enemy = SIDES[1 - SIDES.index(side)]
            trial = state.copy()
            first = supply._search_side(trial, side)
            theirs = supply._search_side(trial, enemy)
            open_to_them = theirs.passable[:-1].nonzero()[0]
            if not open_to_them.size:
                continue
            trial.place(trial.units[planes[0].id], open_to_them[len(open_to_them) // 2].item())
            before = built
            assert supply._search_side(trial, side) is first and built == before  # own aircraft: nothing read
            moved += 1
            again = supply._search_side(trial, enemy)  # an enemy unit in a hex they could pass
            assert built > before and _same_found(again, _found_whole(trial, enemy))
            changed += not _same_found(again, theirs)
    assert moved > 5 and changed == moved
