"""The engine's shortcuts against the long way, on the states of a real game.

``GameState.copy`` builds a copy directly instead of through the state's bytes: it must
give what loading the bytes gives, containers in the same order (a rule iterating them
behaves alike), or a game verified by one program could differ from the same game
verified through saved files.  ``HexSupply`` answers a combat's supply question by a
search from the defenders' hex: it must answer as the side's whole supply map.  The
states are those of the 1937 record under
tests/data/records, taken before every record of every file (orders, lists, reveals,
rolls), so mid-step memories (advances, paths, declared targets) are among them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.sides import SIDES
from engine.state import GameState
from engine.supply import HexSupply, supply_map
from pbem.play import audit
from pbem.protocol import machine, replay
from pbem.protocol.turnfile import TurnFile

RECORD = Path(__file__).resolve().parent / "data" / "records" / "1937-seed3"


def _record_states() -> Iterator[GameState]:
    """Every state of the record, each one before a record is applied to it (and the last)."""
    [(_, files)] = audit.game_files(RECORD).items()
    files.sort(key=lambda f: f.seq)
    seen: list[GameState] = []

    class EveryRecord(replay.Visitor):
        def before(self, game: machine.Game, tf: TurnFile) -> machine.Watcher:
            return lambda g, _wire: seen.append(g.state.copy())

    last: GameState | None = None
    for game in replay.walk(files, visitor=EveryRecord()):
        yield from seen
        seen.clear()
        last = game.state
    assert last is not None
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
