"""Run the golden positions of tests/golden/cases.py, and the legal-order counts of the
real scenarios at their start."""

from __future__ import annotations

import pytest

from engine import api
from engine.actions import IllegalAction, OrderError
from engine.position import parse
from tests.golden.cases import CASES, Case

#: The first decision of each packaged scenario ("War Declaration") and the number of
#: legal orders per side (recorded from the engine; passing included).
SCENARIO_STARTS = {
    "1937": ("war_declaration", {"axis": 54, "allies": 4}),
    # In 1939 Germany is at war: the Axis may also have Italy enter, or try Spain.
    "1939": ("war_declaration", {"axis": 56, "allies": 4}),
}


def _count(state: api.GameState, side: str, kind: str, unit: int) -> int:
    return sum(
        1
        for a in api.legal_actions(state, side)
        if a.kind == kind and (unit == 0 or (a.args and a.args[0] == unit) or (kind != "move" and unit in a.args))
    )


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden_position(case: Case) -> None:
    state = parse(case.position)
    assert case.section
    for (kind, unit), expected in case.counts.items():
        assert _count(state, case.side, kind, unit) == expected, (kind, unit)
    for text, slug in case.refusals.items():
        with pytest.raises((IllegalAction, OrderError)) as err:
            api.check(state, case.side, api.parse_order(state, case.side, text))
        assert err.value.rule == slug, f"{text}: {err.value}"


@pytest.mark.parametrize("name", sorted(SCENARIO_STARTS))
def test_legal_orders_at_the_start_of_each_scenario(name: str) -> None:
    phase, counts = SCENARIO_STARTS[name]
    state = api.new_game(name)
    assert api.decision(state).phase == phase
    assert {side: len(api.legal_actions(state, side)) for side in counts} == counts
