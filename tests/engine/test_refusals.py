"""Refusals carry a stable slug naming their rule (engine/refusals.py), and the table of
slugs is exactly what the engine uses."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine import api
from engine.actions import Action, IllegalAction, OrderError, Refusal, prefixed
from engine.refusals import RULES

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _slugs_in_code() -> set[str]:
    found: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "Refusal" and node.args and isinstance(node.args[0], ast.Constant):
                found.add(node.args[0].value)
            found.update(k.value.value for k in node.keywords if k.arg == "rule" and isinstance(k.value, ast.Constant))
    return found


def test_every_slug_in_the_engine_is_in_the_table_and_every_entry_is_used() -> None:
    used = _slugs_in_code()
    assert used - set(RULES) == set()
    assert set(RULES) - used == set()


def test_slugs_are_dotted_lowercase_words() -> None:
    for slug, section in RULES.items():
        area, _, rule = slug.partition(".")
        assert area and rule and slug == slug.lower() and " " not in slug, slug
        assert section, slug


def test_a_refusal_keeps_its_rule_through_a_prefix_and_into_the_exception() -> None:
    why = Refusal("terrain.armor", "may not enter desert hex 1,0")
    exc = IllegalAction(prefixed("#1 German armor 8-5 ", why))
    assert exc.rule == "terrain.armor"
    assert str(exc) == "#1 German armor 8-5 may not enter desert hex 1,0"
    assert not Refusal("x.y", "")


def test_refusals_on_the_real_scenario_carry_their_rule() -> None:
    state = api.new_game("1939")
    side = api.decision(state).sides[0]
    with pytest.raises(IllegalAction) as exc:
        api.check(state, side, Action("declare", ("Atlantis",)))
    assert exc.value.rule == "country.unknown"
    with pytest.raises(OrderError) as order:
        api.parse_order(state, side, "move #1 [Atlantis]")
    assert order.value.rule == "order.unknown-place"
    with pytest.raises(IllegalAction) as nobody:
        api.check(state, "neutral", Action("pass"))
    assert nobody.value.rule == "side.unknown"


def test_a_misspelt_city_gets_a_suggestion_and_a_refused_list_shows_hexes_as_players_write_them() -> None:
    """Errors speak the order language: close city names are offered, and a refused order
    of a hidden list is quoted as text with COL,ROW hexes, never internal hex numbers."""
    state = api.new_game("1939")
    with pytest.raises(OrderError, match="did you mean Warsaw"):
        api.parse_order(state, "axis", "move #12 [Warsw]")
    berlin = api.parse_order(state, "axis", "move #12 [Berlin]")
    with pytest.raises(IllegalAction) as err:
        api.preview(state, "axis", [berlin])
    assert "(move #12 161,52)" in str(err.value) and str(berlin.args[1]) not in str(err.value)
    assert err.value.side == "axis" and err.value.index == 0


@pytest.mark.parametrize(
    ("wire", "why"),
    [
        (["place_land", "Germany", "infantry", 3, 4, 2**31], "argument 5 of 'place_land' is out of range"),
        (["place_land", "Germany", "infantry", 3, 4, -(2**31) - 1], "argument 5 of 'place_land' is out of range"),
        (["place_land", "Germany", "infantry", True, 4, 7], "argument 3 of 'place_land' must be a whole number"),
        (["place_land", "Germany", "infantry", 3, 4, "7"], "argument 5 of 'place_land' must be a hex number"),
        (["place_land", "G" * 201, "infantry", 3, 4, 7], "argument 1 of 'place_land' is too long"),
        (["place_land", "Germany", "infantry", 3, 4], "action 'place_land' takes 5 arguments, got 4"),
        (["split", 14, 2.0], "argument 2 of 'split' must be a whole number"),
    ],
)
def test_an_order_of_the_wrong_shape_is_refused_naming_its_argument(wire: list[object], why: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        Action.from_wire(wire)
    assert refused.value.rule == "action.shape" and why in str(refused.value)


def test_an_order_of_the_right_shape_passes_whatever_str_or_int_it_holds() -> None:
    class Name(str):
        """A str of another class (as a side's name is): checked by the slower path, still a str."""

    for wire in (
        ["place_land", "Germany", "infantry", 3, 4, 2**31 - 1],
        ["place_land", "G" * 200, "infantry", 3, 4, -(2**31)],
        ["place_land", Name("Germany"), "infantry", 3, 4, 7],
    ):
        assert Action.from_wire(wire).to_wire() == wire
