"""``api.order_kinds``: the kinds of order a decision accepts, for a page that offers them."""

from __future__ import annotations

from engine import api


def test_the_kinds_are_those_of_the_current_decision_with_the_standing_ones() -> None:
    state = api.new_game("1939")
    kinds = [k.name for k in api.order_kinds(state)]
    assert kinds == ["declare", "vichy", "surrender", "enter", "pass", "stand", "retreat"]
    # every legal order of the decision is of one of these kinds
    assert {a.kind for a in api.legal_actions(state, "axis")} <= set(kinds)
    declare = next(k for k in api.order_kinds(state) if k.name == "declare")
    assert declare.roles == ("country",) and "declare" in declare.help
