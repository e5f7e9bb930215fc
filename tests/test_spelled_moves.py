"""Moves written with their whole path: the same move as by its destination, cheaper to
verify (engine.api.spelled_out, pbem.protocol.machine.build_turn).

A move given by its destination alone makes whoever re-executes it search for the path
the rules choose; the writer of a turn file knows that path already and writes it, so the
receiver checks the path hex by hex.  These tests hold the two forms to the same result on
every move of the stored records, and a flight's quick path check to the search it
replaces."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from engine import api
from engine.actions import MAX_ARGS, Action, IllegalAction
from engine.hexgrid import NO_HEX
from engine.position import put, setup
from engine.reach import air_search, flight_is_open
from engine.state import GameState
from pbem.play import audit
from pbem.play.memplay import MemoryMatch
from pbem.protocol import machine, replay, turnfile
from pbem.protocol.records import Act, Record
from pbem.protocol.turnfile import TurnFile

RECORDS = Path(__file__).resolve().parent / "data" / "records"


def _walk(record: str, watch: Callable[[machine.Game, Record], None], files: int | None = None) -> None:
    """Replay a stored record, calling ``watch`` before each record of its first ``files`` files."""
    [(_, found)] = audit.game_files(RECORDS / record).items()
    found.sort(key=lambda f: f.seq)

    class Every(replay.Visitor):
        def before(self, game: machine.Game, tf: TurnFile) -> machine.Watcher:
            return watch

    for _ in replay.walk(found[:files], visitor=Every()):
        pass


@pytest.mark.parametrize(
    ("record", "files", "ships"), [("1937-seed3", None, 0), ("1939-seed7", None, 10), ("1939-air-seed1", 60, 5)]
)
def test_every_move_by_destination_in_the_records_spelled_out_leaves_the_same_state(
    record: str, files: int | None, ships: int
) -> None:
    spelled: dict[str, int] = {"land": 0, "naval": 0, "air": 0}

    def watch(game: machine.Game, rec: Record) -> None:
        exp = machine.expected(game)
        if not (isinstance(rec, Act) and rec.action[0] == "move" and len(rec.action) == 3):
            return
        assert exp is not None and exp.kind == "act"
        state, action = game.state, Action.from_wire(rec.action)
        written = api.spelled_out(state, exp.side, action)
        if written == action:
            return  # a one-hex move is its own path
        u = state.units[int(action.args[0])]
        spelled["land" if u.is_land else "naval" if u.is_naval else "air"] += 1
        assert written.args[0] == u.id and written.args[-1] == action.args[1]
        by_destination, by_path = state.copy(), state.copy()
        api.apply(by_destination, exp.side, action)
        api.apply(by_path, exp.side, written)
        assert api.serialize(by_path) == api.serialize(by_destination), str(action)

    _walk(record, watch, files)
    assert spelled["land"] >= 100 and spelled["air"] >= 10 and spelled["naval"] >= ships, spelled


def test_a_flight_s_path_check_accepts_exactly_the_paths_the_search_reaches() -> None:
    """Every air unit of the air record's first months, on shortest flights to hexes of its
    reach and on paths spoiled one way each: back over the start, a hex skipped, one hex too
    many, into a grounded or closed hex.  flight_is_open agrees with the search's rule:
    every hex in the unit's whole reach, each next to the one before, within the allowance."""
    rng = random.Random(7)
    seen = {True: 0, False: 0}

    def reference(state: GameState, u_id: int, path: list[int], allowance: int) -> bool:
        u = state.units[u_id]
        reach = air_search(state, u, allowance).cost
        nbr = state.world.map.neighbours
        prev = u.hex
        for h in path:
            if h not in nbr[prev * 6 : prev * 6 + 6] or h not in reach:
                return False
            prev = h
        return len(path) <= allowance

    def watch(game: machine.Game, rec: Record) -> None:
        state = game.state
        if not (isinstance(rec, Act) and rec.action[0] == "move"):
            return
        u = state.units.get(int(rec.action[1]))
        if u is None or not u.is_air or u.hex == NO_HEX:
            return
        allowance = max(0, u.move - u.mp_used)
        search = air_search(state, u, allowance)
        if not search.cost:
            return
        nbr = state.world.map.neighbours
        for dest in rng.sample(sorted(search.cost), min(4, len(search.cost))):
            path = search.path(dest)
            beyond = [h for h in nbr[path[-1] * 6 : path[-1] * 6 + 6] if h != NO_HEX]
            closed = [h for h in beyond if h not in search.cost and h != u.hex]
            tries = [
                path,
                [*path, u.hex],
                path[1:] if len(path) > 1 else [dest, dest],
                [*path, rng.choice(beyond)],
                *([[*path, closed[0]]] if closed else []),
            ]
            for p in tries:
                want = reference(state, u.id, p, allowance)
                assert flight_is_open(state, u, p, allowance) == want, (u.label(), p)
                seen[want] += 1

    _walk("1939-air-seed1", watch, 40)
    assert seen[True] >= 100 and seen[False] >= 100, seen


def test_a_path_longer_than_an_order_holds_stays_a_move_by_destination() -> None:
    sea = " ".join(["~"] * (MAX_ARGS + 4))
    state = setup(f"G:c {sea} P:c")
    ship = put(state, "Germany", "transport", "1,0", move=MAX_ARGS + 4)
    far, near = state.world.map.grid.hex_id(MAX_ARGS + 2, 0), state.world.map.grid.hex_id(9, 0)
    long_way = Action("move", (ship.id, far))
    assert api.spelled_out(state, "axis", long_way) == long_way
    assert api.spelled_out(state, "axis", Action("move", (ship.id, near))).args == (ship.id, *range(2, 10))
    api.apply(state, "axis", long_way)
    assert ship.hex == far


def test_an_order_the_rules_refuse_is_left_as_given() -> None:
    state = setup("G:c G:c ~ P:c")
    tank = put(state, "Germany", "armor", "0,0")
    nowhere = Action("move", (tank.id, state.world.map.grid.hex_id(3, 0)))
    assert api.spelled_out(state, "axis", nowhere) == nowhere
    assert api.spelled_out(state, "allies", Action("move", (tank.id, 1))) == Action("move", (tank.id, 1))
    with pytest.raises(IllegalAction):
        api.apply(state, "axis", nowhere)


def test_a_turn_file_carries_each_move_with_its_path_and_its_receiver_accepts_it() -> None:
    match = MemoryMatch("1939", seed=3)
    match.play(lambda g: machine.expected(g) == machine.Expectation("axis", "act"), max_files=40)
    game = match.game
    before = game.to_bytes()
    # The Axis passes its steps up to its first movement, then gives three far moves by
    # their destinations, as a player types them.
    work = machine.Game.from_bytes(before)
    records: list[Record] = []
    while "first_movement" not in api.decision(work.state).phase:
        records.append(Act(["pass"]))
        machine.apply_record(work, "axis", game.seq + 1, records[-1])
    far: dict[int, Action] = {}
    state = work.state
    for a in api.legal_actions(state, "axis"):
        if a.kind != "move" or not state.units[int(a.args[0])].is_land:
            continue
        if len(api.spelled_out(state, "axis", a).args) > 3:
            far.setdefault(int(a.args[0]), a)
    chosen = list(far.values())[:3]
    assert len(chosen) == 3
    records += [Act(a.to_wire()) for a in chosen]
    tf = machine.build_turn(game, "axis", records, match.ids["axis"].sign)
    sealed = tf.body["records"][-3:]
    for given, wire in zip(chosen, sealed, strict=True):
        assert wire[0] == "act" and wire[1][:2] == ["move", given.args[0]]
        assert len(wire[1]) > 4 and wire[1][-1] == given.args[1], wire
    receiver = machine.Game.from_bytes(before)
    machine.apply_turn(receiver, machine.authenticate(receiver.genesis, turnfile.parse(tf.raw), receiver))
    assert receiver.hashes == game.hashes
    assert api.serialize(receiver.state) == api.serialize(game.state)
