"""Other ways of entering the war, and Japanese/Soviet relations (rulebook "Other Ways
of Entering the War", "Japanese/Soviet Relations")."""

from __future__ import annotations

import hashlib

import pytest

from engine import api, entries
from engine.actions import PASS, Action, IllegalAction, rule_of
from engine.combat import attacker_refusal, retreat_plan
from engine.position import begin_at, hex_at, parse
from engine.sequence import ADDED_LATER, PLAY, STEP_INDEX, STEPS
from engine.sides import ALLIES, AXIS
from engine.state import GameState
from engine.war import enter_war, japan_soviet_barred, may_enter_country

LEGEND = {"E": "Spain", "T": "Thailand", "B": "Bulgaria", "Q": "Greece", "A": "Afghanistan", "V": "Portugal"}

# Europe on row 0-1, Asia on rows 2-3.  Karachi (U) lies next to Afghanistan.
MAP = """
G:c G:c Y:c Q:c B:c R:c S:c S:c S:c
 I:c E:c H:c U:c F:c V:c S:c S:c S:c
C:c C:c T:c C:c A:c U:c S:c M:c J:c
 C:c C:c C:c C:c A:c U:c S:c M:c J:c
"""


def position(*facts: str, axis: str = "Germany Japan", allies: str = "China", date: str = "1940-06") -> GameState:
    text = "\n".join([MAP, "city Berlin 0,0 capital", "city Karachi 5,2", f"war axis {axis}",
                      f"war allies {allies}", f"date {date}", "step war_declaration", *facts])  # fmt: skip
    return parse(text, legend=LEGEND)


def offered(state: GameState, side: str) -> list[str]:
    return sorted(str(a.args[0]) for a in api.legal_actions(state, side) if a.kind == "enter")


def enter(state: GameState, side: str, country: str) -> None:
    other = ALLIES if side == AXIS else AXIS
    api.apply_simultaneous(state, {side: [Action("enter", (country,)), PASS], other: [PASS]})


def refused(state: GameState, side: str, country: str) -> str:
    with pytest.raises(IllegalAction) as exc:
        api.check(state, side, Action("enter", (country,)))
    return exc.value.rule


# ------------------------------------------------------------------------ Italy


def test_italy_enters_when_germany_is_at_war() -> None:
    """ "If Germany is at war and not conquered, the Axis may have Italy enter the war on
    their side during any war declaration phase they wish." """
    state = position()
    assert "Italy" in offered(state, AXIS)
    enter(state, AXIS, "Italy")
    italy = state.countries["Italy"]
    assert italy.at_war and italy.side == AXIS and italy.entered == state.date


def test_italy_waits_for_germany_and_only_the_axis_brings_it_in() -> None:
    # Before September 1939, when Germany enters by itself.
    state = position(axis="Japan", date="1939-06")
    assert "Italy" not in offered(state, AXIS)
    assert refused(state, AXIS, "Italy") == "entry.condition"
    assert refused(position(), ALLIES, "Italy") == "entry.wrong-side"
    state = position()
    state.countries["Germany"].conquered = True
    assert refused(state, AXIS, "Italy") == "entry.condition"


def test_an_entry_is_named_once_per_list() -> None:
    state = position()
    with pytest.raises(IllegalAction) as exc:
        api.apply_simultaneous(
            state, {AXIS: [Action("enter", ("Italy",)), Action("enter", ("Italy",))], ALLIES: [PASS]}
        )
    assert exc.value.rule == "war.declared-twice"


# ---------------------------------------------------------------------- Thailand


def test_thailand_needs_a_japanese_land_unit_next_to_it() -> None:
    """ "The Axis may have Thailand enter the war on their side during any war declaration
    phase where Japan has at least one land unit in a hex adjacent to Thailand." """
    assert "Thailand" not in offered(position("unit Japan infantry 0,3"), AXIS)
    state = position("unit Japan infantry 3,2")
    assert "Thailand" in offered(state, AXIS)
    enter(state, AXIS, "Thailand")
    assert state.countries["Thailand"].side == AXIS


# ------------------------------------------------------------------------- Spain


def roll_spain(state: GameState, seed: bytes) -> list[str]:
    enter(state, AXIS, "Spain")
    d = api.decision(state)
    assert d.kind == "chance" and d.chance == "spain_attempt"
    return api.apply_chance(state, seed)


def test_spain_attempt_is_a_fair_roll_of_one_in_four() -> None:
    """ "If Germany or Italy is at war and not conquered, the Axis may once in the game
    attempt to have Spain enter the war on their side, with a 25% chance of succeeding." """
    wins = 0
    for i in range(400):
        state = position()
        lines = roll_spain(state, hashlib.sha256(b"spain %d" % i).digest())
        assert len(lines) == 1 and "25% chance" in lines[0] and "rolled" in lines[0]
        spain = state.countries["Spain"]
        if spain.at_war:
            wins += 1
            assert spain.side == AXIS and "enters the war" in lines[0]
        else:
            assert spain.flags.entry_attempt == "failed" and "stays neutral" in lines[0]
        # The roll belongs to the war declaration phase: Spain's units deploy this month.
        assert api.decision(state).phase == "deployment" or not spain.at_war
    assert 70 <= wins <= 130  # 100 expected; the bounds are about 3.5 standard deviations


def test_spain_is_attempted_once_in_the_game() -> None:
    state = position()
    seed = next(s for s in (hashlib.sha256(b"%d" % i).digest() for i in range(50)) if _fails(s))
    roll_spain(state, seed)
    assert not state.countries["Spain"].at_war
    state.date += 1
    begin_at(state, "war_declaration")
    assert "Spain" not in offered(state, AXIS)
    assert refused(state, AXIS, "Spain") == "entry.condition"


def _fails(seed: bytes) -> bool:
    state = position()
    roll_spain(state, seed)
    return not state.countries["Spain"].at_war


def test_spain_needs_germany_or_italy_at_war() -> None:
    assert refused(position(axis="Japan", date="1939-06"), AXIS, "Spain") == "entry.condition"
    state = position(axis="Japan Italy", date="1939-06")
    assert "Spain" in offered(state, AXIS)


def test_spain_attempt_state_survives_the_wire() -> None:
    state = position()
    enter(state, AXIS, "Spain")
    again = api.deserialize(api.serialize(state), state.world)
    assert again.countries["Spain"].flags.entry_attempt == "pending"
    assert api.decision(again).chance == "spain_attempt"


# ------------------------------------------------------------- Hungary, Bulgaria


def test_hungary_needs_germans_in_yugoslavia() -> None:
    """ "The Axis may have Hungary enter the war on their side during any war declaration
    phase where Germany has at least one land unit in Yugoslavia." """
    assert "Hungary" not in offered(position("unit Germany infantry 3,0"), AXIS)  # Greece
    state = position("war allies Yugoslavia", "unit Germany infantry 2,0")
    assert "Hungary" in offered(state, AXIS)
    enter(state, AXIS, "Hungary")
    assert state.countries["Hungary"].side == AXIS


def test_bulgaria_needs_germans_in_yugoslavia_or_greece() -> None:
    """ "The Axis may have Bulgaria enter the war on their side during any war declaration
    phase where Germany has at least one land unit in Yugoslavia or Greece." """
    assert "Bulgaria" not in offered(position("unit Germany infantry 0,0"), AXIS)
    assert "Bulgaria" in offered(position("war allies Greece", "unit Germany infantry 3,0"), AXIS)
    assert "Bulgaria" in offered(position("war allies Yugoslavia", "unit Germany infantry 2,0"), AXIS)


def test_an_embarked_unit_is_not_in_the_country() -> None:
    state = position("war allies Greece", "unit Germany infantry 3,0")
    (u,) = state.units.values()
    u.carrier = 999
    assert "Bulgaria" not in offered(state, AXIS)


# ------------------------------------------------------------------------- Romania


def test_romania_for_the_axis() -> None:
    """ "If the Soviet Union is an Allied partner (conquered or not), the Axis may have
    Romania enter the war on their side during any war declaration phase where Germany has
    at least one land unit in the Soviet Union." """
    assert "Romania" not in offered(position("unit Germany infantry 6,0"), AXIS)  # Soviet Union neutral
    state = position("unit Germany infantry 6,0", allies='China "Soviet Union"')
    assert "Romania" in offered(state, AXIS)
    state.countries["Soviet Union"].conquered = True
    assert "Romania" in offered(state, AXIS)  # conquered or not
    enter(state, AXIS, "Romania")
    assert state.countries["Romania"].side == AXIS


def test_romania_for_the_allies() -> None:
    """ "If any of the Soviet Union, Hungary or Bulgaria is an Axis partner (conquered or
    not), the Allies may have Romania enter the war on their side during any war
    declaration phase where the United Kingdom has at least one land unit in that
    country." """
    state = position('unit "United Kingdom" infantry 2,1', axis="Germany Japan Hungary")
    assert "Romania" in offered(state, ALLIES)
    enter(state, ALLIES, "Romania")
    assert state.countries["Romania"].side == ALLIES
    # A British unit in a country that is not the Axis partner does not count.
    state = position('unit "United Kingdom" infantry 2,1', axis="Germany Japan Bulgaria")
    assert refused(state, ALLIES, "Romania") == "entry.condition"


def test_both_sides_bring_romania_in_the_axis_list_goes_first() -> None:
    state = position(
        "unit Germany infantry 6,0", "unit \"United Kingdom\" infantry 2,1",
        axis="Germany Japan Hungary", allies="China \"Soviet Union\"",
    )  # fmt: skip
    assert "Romania" in offered(state, AXIS) and "Romania" in offered(state, ALLIES)
    api.apply_simultaneous(
        state, {AXIS: [Action("enter", ("Romania",)), PASS], ALLIES: [Action("enter", ("Romania",)), PASS]}
    )
    assert state.countries["Romania"].side == AXIS


# ------------------------------------------------------------------------ Mongolia


def test_mongolia_for_the_axis() -> None:
    """ "As long as the Soviet Union is an unconquered Axis partner, the Axis player may
    have Mongolia enter the war on their side during any war declaration phase they wish." """
    state = position(axis='Germany Japan "Soviet Union"')
    assert "Mongolia" in offered(state, AXIS)
    state.countries["Soviet Union"].conquered = True
    assert "Mongolia" not in offered(state, AXIS)


def test_mongolia_for_the_allies() -> None:
    """ "As long as the Soviet Union is an unconquered Allied partner, the Allied player may
    have Mongolia enter the war on their side during any war declaration phase where
    Germany is conquered." """
    state = position(allies='China "Soviet Union"')
    assert refused(state, ALLIES, "Mongolia") == "entry.condition"
    state.countries["Germany"].conquered = True
    assert "Mongolia" in offered(state, ALLIES)
    enter(state, ALLIES, "Mongolia")
    assert state.countries["Mongolia"].side == ALLIES


# --------------------------------------------------------------------- Afghanistan


def test_afghanistan_needs_an_axis_city_around_it() -> None:
    """ "As long as the Soviet Union is *not* an unconquered Axis partner, the Axis may have
    Afghanistan enter the war on their side during any war declaration phase where the
    Axis controls at least one of Karachi, Urumchi, Ashkhabad or Tashkent." """
    state = position()
    assert "Afghanistan" not in offered(state, AXIS)
    state.set_controller(hex_at(state, "5,2"), "Japan")
    assert "Afghanistan" in offered(state, AXIS)
    state = position(axis='Germany Japan "Soviet Union"')
    state.set_controller(hex_at(state, "5,2"), "Japan")
    assert "Afghanistan" not in offered(state, AXIS)


def test_entries_of_a_country_no_longer_neutral_are_skipped() -> None:
    state = position()
    enter_war(state, "Italy", ALLIES)
    assert refused(state, AXIS, "Italy") == "war.not-neutral"
    assert refused(state, AXIS, "Portugal") == "entry.no-such-entry"


# ----------------------------------------------------------- the step's numbering


def test_the_attempts_are_rolled_after_the_declarations_and_numbered_last() -> None:
    labels = [p.label for p in PLAY]
    assert labels[:4] == ["war_declaration", "spain_attempt", "vichy_attempt", "deployment"]
    # Recorded states name their step by number: the steps known before keep theirs.
    assert [p.label for p in STEPS[-len(ADDED_LATER) :]] == list(ADDED_LATER) and STEP_INDEX["deployment"] == 1
    assert ADDED_LATER[0] == "spain_attempt" and "vichy_attempt" in ADDED_LATER
    assert {p.label for p in PLAY} == {p.label for p in STEPS}


# ------------------------------------------------------- Japanese/Soviet relations

# Deserts around 1,1 leave a Soviet armor unit there no retreat but into Manchukuo.
JS_MAP = """
S:c S:d J:c J:c
 S:d C:c J:c J:c
M:c M:c C:d C:c
"""


def js_position(*facts: str, step: str = "allies.first_movement") -> GameState:
    text = "\n".join(
        [
            JS_MAP,
            "city Moscow 0,0 capital",
            "city Tokyo 3,1 capital",
            "resource 3,1",
            "war axis Japan",
            'war allies "Soviet Union" China',
            f"step {step}",
            *facts,
        ]
    )
    return parse(text, colonies={"Manchukuo": "Japan"}, colony_hexes={"Manchukuo": ["2,0", "2,1"]})


def test_soviet_units_stay_out_of_japan_and_its_colonies_while_mongolia_is_neutral() -> None:
    """ "As long as Mongolia is neutral and Japan and the Soviet Union are members of
    opposing partnerships, ... Soviet units may not enter or attack into Japan or its
    colonies." """
    state = js_position('unit "Soviet Union" infantry 1,0')
    (u,) = state.units.values()
    manchukuo = hex_at(state, "2,0")
    assert japan_soviet_barred(state, u, manchukuo)
    assert not may_enter_country(state, u, manchukuo)
    with pytest.raises(IllegalAction) as exc:
        api.check(state, ALLIES, Action("move", (u.id, manchukuo)))
    assert exc.value.rule == "war.japan-soviet"
    moves = [a for a in api.legal_actions(state, ALLIES) if a.kind == "move" and a.args[0] == u.id]
    assert moves and all(state.world.map.country_of[int(a.args[-1])] != "Japan" for a in moves)
    # Third countries stay open: China's hex next door.
    api.check(state, ALLIES, Action("move", (u.id, hex_at(state, "1,1"))))


def test_the_legal_list_bars_japanese_land_to_soviet_units_beside_chinese_ones() -> None:
    """The bar is the Soviet Union's, not its side's: a Chinese unit searched first may
    enter Manchukuo, and what it learnt of those hexes must not open them to the Soviets."""
    state = js_position("unit China infantry 1,1", 'unit "Soviet Union" infantry 1,0')
    chinese, soviet = sorted(state.units.values(), key=lambda u: u.id)
    assert chinese.country == "China" and soviet.country == "Soviet Union"
    moves = api.legal_actions(state, ALLIES)
    japanese = {hex_at(state, "2,0"), hex_at(state, "2,1")}
    assert {a.args[-1] for a in moves if a.kind == "move" and a.args[0] == chinese.id} & japanese
    assert not {a.args[-1] for a in moves if a.kind == "move" and a.args[0] == soviet.id} & japanese


def test_the_restriction_is_lifted_when_mongolia_enters() -> None:
    """ "When Mongolia enters the war, this restriction is lifted." """
    state = js_position('unit "Soviet Union" infantry 1,0')
    (u,) = state.units.values()
    enter_war(state, "Mongolia", ALLIES)
    manchukuo = hex_at(state, "2,0")
    assert not japan_soviet_barred(state, u, manchukuo)
    api.check(state, ALLIES, Action("move", (u.id, manchukuo)))


def test_japanese_units_may_not_attack_into_the_soviet_union_but_may_in_china() -> None:
    """ "Japanese units may not enter or attack into the Soviet Union ... They may however
    attack each other's units in third party countries." """
    state = js_position(
        "unit Japan infantry 2,0", 'unit "Soviet Union" infantry 1,0', 'unit "Soviet Union" infantry 1,1',
        step="axis.combat",
    )  # fmt: skip
    japanese = next(u for u in state.units.values() if u.country == "Japan")
    why = attacker_refusal(state, AXIS, japanese, japanese.id, hex_at(state, "1,0"), False)
    assert rule_of(why) == "war.japan-soviet"
    assert attacker_refusal(state, AXIS, japanese, japanese.id, hex_at(state, "1,1"), False) == ""


def test_a_soviet_unit_does_not_retreat_into_japanese_land() -> None:
    state = js_position('unit "Soviet Union" armor 1,1', step="axis.combat")
    (armor,) = state.units.values()
    here = hex_at(state, "1,1")
    assert retreat_plan(state, ALLIES, here, [armor], []) is None
    enter_war(state, "Mongolia", ALLIES)
    assert retreat_plan(state, ALLIES, here, [armor], []) == {armor.id: hex_at(state, "2,0")}


def test_the_bar_does_not_apply_between_partners() -> None:
    state = js_position('unit "Soviet Union" infantry 1,0')
    (u,) = state.units.values()
    state.countries["Soviet Union"].side = AXIS
    assert not japan_soviet_barred(state, u, hex_at(state, "2,0"))


def test_entries_module_lists_every_country_of_the_rulebook() -> None:
    assert set(entries.ENTRIES) == {
        "Thailand", "Italy", "Spain", "Hungary", "Bulgaria", "Romania", "Mongolia", "Afghanistan",
    }  # fmt: skip
