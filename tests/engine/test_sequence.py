"""The sequence of play (rulebook: "Game Sequence"; supplement: "Sequence and who acts")."""

from engine import api
from engine.actions import PASS, Action, IllegalAction
from engine.position import AT_START, build_world, put, setup

WORLD = build_world(
    """
    G:c G:c P:c P:c ~
     G:c G:c P:c P:c ~
    """,
    cities={"Berlin": "0,0 capital", "Warsaw": "3,0 capital"},
)


def test_new_game_starts_at_the_war_declaration_phase() -> None:
    state = api.new_game(WORLD)
    d = api.decision(state)
    assert d.phase == "war_declaration"
    assert d.kind == "simultaneous"
    assert d.sides == ("axis", "allies")


def test_serialise_round_trip_is_byte_identical() -> None:
    state = api.new_game(WORLD)
    data = api.serialize(state)
    again = api.deserialize(data, WORLD)
    assert api.serialize(again) == data
    assert api.state_hash(again) == api.state_hash(state)


def test_wrong_side_and_wrong_phase_are_refused_with_a_reason() -> None:
    state = api.new_game(WORLD)
    try:
        api.apply(state, "axis", PASS)
    except IllegalAction as exc:
        assert exc.rule == "decision.simultaneous"
    else:
        raise AssertionError("a sequential action was accepted in a simultaneous phase")
    try:
        api.apply_simultaneous(state, {"axis": [Action("bogus")], "allies": []})
    except IllegalAction as exc:
        assert exc.rule == "action.unknown"
    else:
        raise AssertionError("an unknown action was accepted")


def test_standing_orders_are_accepted_in_any_decision_of_their_side() -> None:
    """Supplement "Retreat": willingness to retreat is a standing order the owner can
    change at any time before the roll - here during the simultaneous war declaration."""
    state = setup(WORLD, **AT_START)
    warsaw = put(state, "Poland", "infantry", "3,0").hex
    hold = Action("stand", (warsaw, True))
    assert hold in api.standing_orders(state, "allies")
    api.check(state, "allies", hold)
    try:
        api.check(state, "axis", hold)
    except IllegalAction as exc:
        assert exc.rule == "stand.no-units"
    else:
        raise AssertionError("a side gave a standing order to the enemy's stack")
    api.apply_simultaneous(state, {"axis": [], "allies": [hold]})
    assert state.stands[warsaw] == "allies"


def test_every_action_kind_is_declared_once_by_the_steps_that_accept_it() -> None:
    from engine.actions import KINDS
    from engine.sequence import STANDING, STEP_INDEX, STEPS

    declared = {spec.name for step in STEPS for spec in step.orders} | {s.name for s in STANDING.kinds()}
    assert declared == set(KINDS)
    # one KindSpec object per kind, shared by every step that accepts it
    for step in STEPS:
        assert all(KINDS[spec.name] is spec for spec in step.orders)
    first, second = STEPS[STEP_INDEX["axis.first_movement"]], STEPS[STEP_INDEX["axis.second_movement"]]
    assert not first.accepts("rail") and second.accepts("rail")
    assert STEPS[STEP_INDEX["allies.landing"]].accepts("move")
    assert not STEPS[STEP_INDEX["allies.landing"]].accepts("embark")


def test_reading_orders_knows_every_kind_whatever_was_imported_before() -> None:
    """The order parser imports the sequence, so no caller has to import it first."""
    import subprocess
    import sys

    code = "from engine import actions, orders; print(' '.join(sorted(actions.KINDS)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert {"pass", "stand", "move", "rail", "declare", "place_land", "buy", "advance"} <= set(out)


def test_a_kind_declared_twice_differently_or_with_an_unknown_role_is_refused() -> None:
    import pytest

    from engine.actions import KindSpec, declare_kinds

    with pytest.raises(ValueError, match="declared twice"):
        declare_kinds([KindSpec("move", ("unit",))])
    with pytest.raises(ValueError, match="unknown argument role"):
        KindSpec("teleport", ("planet",))
