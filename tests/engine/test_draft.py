"""A hidden list is checked as it grows (engine.api.Draft): each order against the state the
orders before it made, one copy of the state for the whole list."""

from __future__ import annotations

import pytest

from engine import api
from engine.actions import PASS, Action, IllegalAction
from engine.state import GameState, LandKey
from engine.units import UnitType
from tests.engine.test_deployment import deployment, hx
from tests.engine.test_movement import goto

PLACE = Action("place_land", ("Germany", "infantry", 3, 4, hx("6,1")))


def _stands(count: int) -> list[Action]:
    """Standing orders for one stack, changed back and forth: each legal only after the one before."""
    return [Action("stand", (hx("6,1"), i % 2 == 0)) for i in range(count)]


def test_a_250_order_list_takes_one_copy_of_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    state = deployment(Germany={LandKey(UnitType.INFANTRY, 3): 8})
    copies = [0]
    real_copy = GameState.copy

    def counted(self: GameState) -> GameState:
        copies[0] += 1
        return real_copy(self)

    monkeypatch.setattr(GameState, "copy", counted)
    draft = api.draft(state, "axis")
    orders = [PLACE, *_stands(248), PASS]
    for action in orders:
        draft.offer(action)
    assert copies[0] == 1
    assert draft.actions == orders
    assert draft.state.stands == {}  # 248 changes: back where it started
    assert state.units_at(hx("6,1")) == []  # the state itself never changes


def test_a_refused_order_is_located_and_leaves_the_draft_as_it_was() -> None:
    state = deployment(Germany={LandKey(UnitType.INFANTRY, 3): 8})
    draft = api.draft(state, "axis")
    draft.offer(PLACE)
    before = draft.state.digest()
    with pytest.raises(IllegalAction) as err:
        draft.offer(Action("stand", (hx("6,1"), False)))  # the stack already retreats
    assert (err.value.rule, err.value.side, err.value.index) == ("stand.unchanged", "axis", 1)
    assert str(err.value).startswith("axis order 2 (stand 6,1 no): ")
    with pytest.raises(IllegalAction) as err:
        draft.offer(Action("no_such_order", ()))
    assert (err.value.rule, err.value.index) == ("action.unknown", 1)
    assert draft.state.digest() == before and draft.actions == [PLACE]
    draft.offer(Action("stand", (hx("6,1"), True)))
    assert draft.actions == [PLACE, Action("stand", (hx("6,1"), True))]


def test_preview_and_apply_simultaneous_agree_with_the_draft() -> None:
    state = deployment(Germany={LandKey(UnitType.INFANTRY, 3): 8})
    orders = [PLACE, *_stands(3)]
    draft = api.draft(state, "axis")
    for action in orders:
        draft.offer(action)
    assert api.preview(state, "axis", orders).digest() == draft.state.digest()
    with pytest.raises(IllegalAction) as err:
        api.apply_simultaneous(state, {"axis": [PLACE, *_stands(1), *_stands(1)], "allies": [PASS]})
    assert (err.value.side, err.value.index, err.value.rule) == ("axis", 2, "stand.unchanged")
    api.apply_simultaneous(state, {"axis": [*orders, PASS], "allies": [PASS]})
    assert state.stands == {hx("6,1"): "axis"}


def test_no_draft_for_a_side_without_hidden_orders() -> None:
    state = deployment()
    with pytest.raises(IllegalAction) as err:
        api.draft(state, "nobody")
    assert err.value.rule == "side.unknown"
    goto(state, "axis.first_movement")
    assert api.decision(state).kind == "sequential"
    with pytest.raises(IllegalAction) as err:
        api.draft(state, "axis")
    assert err.value.rule == "decision.no-hidden-orders"


def test_a_pass_ends_the_list() -> None:
    """A second pass, or any order after a pass, is refused: it would be carried out at the
    reveal although the player who passed believed the list closed."""
    state = deployment(Germany={LandKey(UnitType.INFANTRY, 3): 8})
    draft = api.draft(state, "axis")
    draft.offer(PASS)
    for late in (PLACE, PASS):
        with pytest.raises(IllegalAction) as err:
            draft.offer(late)
        assert (err.value.rule, err.value.side, err.value.index) == ("decision.list-ended", "axis", 1)
    assert draft.actions == [PASS]
    with pytest.raises(IllegalAction) as err:
        api.apply_simultaneous(state, {"axis": [PASS, PLACE], "allies": [PASS]})
    assert err.value.rule == "decision.list-ended"
    assert state.units_at(hx("6,1")) == []
