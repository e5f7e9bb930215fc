"""The sequence of play (rulebook: "Game Sequence"; supplement: "Sequence and who acts")."""

from engine import api
from engine.actions import PASS, Action, IllegalAction
from engine.mapbuilder import build_world

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
        assert "both sides at once" in str(exc)
    else:
        raise AssertionError("a sequential action was accepted in a simultaneous phase")
    try:
        api.apply_simultaneous(state, {"axis": [Action("bogus")], "allies": []})
    except IllegalAction as exc:
        assert "unknown action" in str(exc)
    else:
        raise AssertionError("an unknown action was accepted")


def test_standing_orders_are_accepted_in_any_decision_of_their_side() -> None:
    """Supplement "Retreat": willingness to retreat is a standing order the owner can
    change at any time before the roll - here during the simultaneous war declaration."""
    from engine.units import UnitProfile, UnitType

    state = api.new_game(WORLD)
    for name, side in (("Germany", "axis"), ("Poland", "allies")):
        c = state.countries[name]
        c.side, c.at_war, c.entered = side, True, state.date
    warsaw = WORLD.map.city_by_name["warsaw"].hex
    state.place(state.new_unit("Poland", UnitProfile(UnitType.INFANTRY, strength=3, move=3)), warsaw)
    hold = Action("stand", (warsaw, True))
    assert hold in api.standing_orders(state, "allies")
    api.check(state, "allies", hold)
    try:
        api.check(state, "axis", hold)
    except IllegalAction as exc:
        assert "no land units" in str(exc)
    else:
        raise AssertionError("a side gave a standing order to the enemy's stack")
    api.apply_simultaneous(state, {"axis": [], "allies": [hold]})
    assert state.stands[warsaw] == "allies"
