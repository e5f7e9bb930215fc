"""The order reference (`pbem help orders`, docs/orders.md) comes from the engine's own
table of order kinds: every kind is in it, its examples are orders the engine reads, and
the page in docs/ is the command's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import api
from engine.actions import KINDS, OrderError
from pbem.cli import help_cmd
from pbem.cli.main import app

DOC = Path(__file__).resolve().parent.parent / "docs" / "orders.md"


@pytest.fixture(scope="module")
def world_1939() -> api.GameState:
    return api.new_game("1939")


def test_every_kind_the_engine_accepts_is_documented_with_an_example_it_reads(world_1939: api.GameState) -> None:
    reference = api.order_reference()
    assert [k.kind for k in reference] == sorted(KINDS)
    for k in reference:
        action = api.parse_order(world_1939, "axis", k.example)
        assert action.kind == k.kind, k.example
        spec = KINDS[k.kind]
        assert len(spec.words) == len(spec.roles), f"{k.kind} names its arguments"
        assert [name for name, _ in k.arguments] == list(dict.fromkeys(spec.words))
        assert k.help and all(meaning for _, meaning in k.arguments)


def test_docs_orders_md_is_the_reference_of_today() -> None:
    assert DOC.read_text() == help_cmd.markdown_reference(), "run `pbem help orders --markdown > docs/orders.md`"


def test_help_orders_on_the_command_line() -> None:
    runner = CliRunner()
    listing = runner.invoke(app, ["help", "orders"])
    assert listing.exit_code == 0
    assert sum(1 for line in listing.output.splitlines() if line and not line.startswith("`")) == len(KINDS)
    one = runner.invoke(app, ["help", "orders", "place_land"])
    assert one.exit_code == 0
    lines = one.output.splitlines()
    assert lines[0] == "place_land COUNTRY TYPE MOVE POINTS HEX"
    assert [line.split()[0] for line in lines[2:7]] == ["COUNTRY", "TYPE", "MOVE", "POINTS", "HEX"]
    assert lines[-1].startswith("  e.g. place_land ")
    wrong = runner.invoke(app, ["help", "orders", "fly"])
    assert wrong.exit_code == 1 and wrong.output.startswith("error: there is no order 'fly'; orders are: advance,")


def test_a_wrong_argument_count_says_what_each_argument_means(world_1939: api.GameState) -> None:
    with pytest.raises(OrderError) as err:
        api.parse_order(world_1939, "axis", "place_land Germany infantry 3 [Berlin]")
    said = str(err.value)
    assert err.value.rule == "order.arguments"
    assert "place_land COUNTRY TYPE MOVE POINTS HEX" in said
    assert "TYPE is a land unit type: infantry, armor" in said and "POINTS is a number of strength points" in said


def test_a_city_name_with_spaces_in_brackets_needs_no_quotes(world_1939: api.GameState) -> None:
    quoted = api.parse_order(world_1939, "allies", 'fortify "[Hong Kong]"')
    assert api.parse_order(world_1939, "allies", "fortify [Hong Kong]") == quoted
    assert api.parse_order(world_1939, "allies", "move #5 [Hong Kong] [Berlin]").args[1:] == (
        quoted.args[0],
        api.parse_order(world_1939, "axis", "fortify [Berlin]").args[0],
    )
    with pytest.raises(OrderError, match="takes 1 arguments"):
        api.parse_order(world_1939, "allies", "fortify [Hong Kong] [Berlin]")
