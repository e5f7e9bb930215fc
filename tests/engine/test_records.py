"""The state's records write exactly the wire forms the recorded games were made with.

Each record is read from the dicts and lists the engine wrote before the records
existed and must write them back unchanged: the canonical bytes, and so every state
hash of a game in progress, depend on it.
"""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from engine import api
from engine.state import AdvanceRight, CountryFlags, LandKey, StepMemo, UnitIds
from engine.units import UnitType

#: a step memory holding every fact a step has ever recorded, in the old bag's form
FULL_MEMO: dict[str, Any] = {
    "advance": [[17, [3, 9], 1], [4, [12], 0]],
    "base": {"Germany": 120, "Italy": 40},
    "declared": {"axis": ["Poland", "Denmark"]},
    "ids": {"allies": 1, "axis": 2, "base": 140},
    "paths": {"10": [5, 6], "9": [7]},
    "rail_used": {"Germany": 2},
    "sent": {"Germany": 10},
}


def _packed(x: Any) -> bytes:
    return bytes(msgpack.packb(x, use_bin_type=True))


def test_the_step_memo_writes_back_the_bag_it_was_read_from() -> None:
    memo = StepMemo.from_wire(FULL_MEMO)
    assert memo.advances == [AdvanceRight(17, [3, 9], 1), AdvanceRight(4, [12], 0)]
    assert memo.paths == {10: [5, 6], 9: [7]}  # unit ids are numbers in the record
    assert memo.ids == UnitIds(140, {"axis": 2, "allies": 1})
    assert memo.income_base == {"Germany": 120, "Italy": 40}
    assert _packed(memo.to_wire()) == _packed(FULL_MEMO)


def test_an_empty_memo_and_one_with_empty_facts_differ_on_the_wire() -> None:
    assert StepMemo().to_wire() == {}
    # Income starts with nothing sent: the key is there, empty, as before.
    assert StepMemo(income_base={"Germany": 1}, sent={}).to_wire() == {"base": {"Germany": 1}, "sent": {}}


def test_paths_keep_the_string_order_of_their_keys() -> None:
    assert list(StepMemo(paths={9: [1], 10: [2]}).to_wire()["paths"]) == ["10", "9"]


def test_an_unknown_step_fact_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown step memory"):
        StepMemo.from_wire({"advnace": []})


def test_country_flags_write_back_their_pairs() -> None:
    pairs = [["had_infantry", 1], ["joins_at_start", 2], ["place:Baltic", 474], ["place:Poland", 476]]
    flags = CountryFlags.from_wire(pairs)
    assert flags.had_infantry and flags.joins == "allies"
    assert flags.placements == {"Baltic": 474, "Poland": 476}
    assert flags.to_wire() == pairs
    assert CountryFlags(joins="axis", axis_war=480).to_wire() == [["axis_war", 480], ["joins_at_start", 1]]
    assert CountryFlags().to_wire() == []


def test_an_unknown_country_flag_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown country flag"):
        CountryFlags.from_wire([["had_infanty", 1]])


def test_land_keys_are_written_as_type_slash_move_in_the_old_order() -> None:
    key = LandKey.from_wire("infantry/3")
    assert key == LandKey(UnitType.INFANTRY, 3) and key.to_wire() == "infantry/3"
    state = api.new_game("1939")
    state.countries["Germany"].pool_land = {LandKey(UnitType.INFANTRY, 3): 4, LandKey(UnitType.INFANTRY, 12): 1}
    # The wire keeps the order of the strings ("infantry/12" before "infantry/3").
    germany = next(row for row in state.to_doc()["countries"] if row[0] == "Germany")
    assert germany[8] == [["infantry/12", 1], ["infantry/3", 4]]
    assert api.deserialize(api.serialize(state)).countries["Germany"].pool_land == {
        LandKey(UnitType.INFANTRY, 3): 4,
        LandKey(UnitType.INFANTRY, 12): 1,
    }


def test_a_loaded_unit_has_a_unit_type_and_packs_as_its_name() -> None:
    state = api.new_game("1939")
    u = next(iter(state.units.values()))
    assert isinstance(u.type, UnitType)
    loaded = api.deserialize(api.serialize(state))
    assert all(isinstance(v.type, UnitType) for v in loaded.units.values())
    row = state.to_doc()["units"][0]
    assert type(msgpack.unpackb(_packed(row))[2]) is str  # the wire holds the plain name


def test_interceptions_and_assaults_are_written_only_when_recorded() -> None:
    from engine.state import Assault, Intercept

    assert StepMemo().to_wire() == {}
    memo = StepMemo(intercepts=[Intercept(3, 7, 40, 0)], intercept_round=1, assaults=[Assault(41, [5, 6], True, False)])
    wire = memo.to_wire()
    assert wire == {
        "assaults": [[41, [5, 6], True, False, "declared"]],
        "intercept_round": 1,
        "intercepts": [[3, 7, 40, 0]],
    }
    back = StepMemo.from_wire(wire)
    assert back.intercepts == memo.intercepts and back.assaults == memo.assaults and back.intercept_round == 1
