"""The bot's choices about Vichy France, Finland's surrender and turning east."""

from __future__ import annotations

from engine import ai
from engine.actions import Action
from engine.ai import declare
from engine.position import begin_at
from engine.state import date_text
from tests.engine import test_surrender, test_vichy


def test_the_axis_bot_attempts_vichy_as_soon_as_paris_falls() -> None:
    state = test_vichy.at_war()
    test_vichy.paris_falls(state)
    orders = ai.decide(state, "axis", b"\0" * 32, "bot")
    assert Action("vichy", ()) in orders


def test_the_axis_bot_declares_war_on_vichy_france_the_month_after_its_creation() -> None:
    """Case Anton (style ``anton``): Vichy France's creation took France's army, pool and
    money, so the France a declaration brings back has nothing to hold its south with.
    v1 leaves Vichy France alone."""
    state = test_vichy.at_war()
    test_vichy.paris_falls(state)
    test_vichy.orders(state, [Action("vichy", ())])
    test_vichy.roll_until(state, True)
    begin_at(state, "war_declaration")
    assert declare.anton_due(state)
    assert Action("declare", ("France",)) in ai.decide(state, "axis", b"\0" * 32, "bot")
    assert Action("declare", ("France",)) not in ai.decide(state, "axis", b"\0" * 32, "v1")
    test_vichy.orders(state, [Action("declare", ("France",))])
    france = state.countries["France"]
    assert (france.side, france.at_war, france.conquered, france.pool_land) == ("allies", True, False, {})
    assert not declare.anton_due(state)  # France is no longer Vichy: nothing more to declare


def test_the_axis_bot_leaves_a_france_alone_that_is_not_vichy() -> None:
    state = test_vichy.at_war()
    test_vichy.paris_falls(state)
    assert not declare.anton_due(state)  # France still fights: not Vichy
    test_vichy.orders(state, [Action("vichy", ())])
    test_vichy.roll_until(state, False)
    begin_at(state, "war_declaration")
    assert not declare.anton_due(state)  # the attempt failed: France fights on


def test_the_soviet_side_has_finland_surrender_when_it_may() -> None:
    state = test_surrender.finland_at_war()
    begin_at(state, "war_declaration")
    assert Action("surrender", ()) in ai.decide(state, "allies", b"\0" * 32, "bot")


def test_france_counts_as_fallen_with_paris_lost_even_after_a_failed_vichy() -> None:
    """The Axis turns east once France is out: conquered, or its home cities all lost."""
    state = test_vichy.at_war()
    assert not declare.fallen(state, "France")
    state.set_controller(test_vichy.hx("2,0"), "Germany")
    state.set_controller(test_vichy.hx("3,1"), "Germany")
    assert declare.fallen(state, "France")


def test_the_arena_records_conquests_surrenders_liberations_vichy_and_war_on_the_soviet_union() -> None:
    from engine.ai import arena

    state = test_surrender.finland_at_war()
    state.countries["Finland"].flags.surrendered = True
    state.countries["Poland"].conquered = True
    fallen: dict[str, str] = {}
    liberated: dict[str, str] = {}
    surrendered: dict[str, str] = {}
    dates: dict[str, str] = {}
    arena.record_events(state, fallen, liberated, surrendered, dates)
    state.date += 1
    state.countries["Poland"].conquered, state.countries["Poland"].liberated = False, True
    arena.record_events(state, fallen, liberated, surrendered, dates)
    assert set(fallen) == {"Poland"} and set(surrendered) == {"Finland"} and set(liberated) == {"Poland"}
    assert fallen["Poland"] != liberated["Poland"]
    assert dates == {"soviet_war": fallen["Poland"]}
    france = test_vichy.at_war()
    france.countries["France"].flags.vichy_tried = True
    arena.record_events(france, {}, {}, {}, dates)
    assert dates["vichy_failed"] == date_text(france.date) and "vichy" not in dates
    result = arena.GameResult(0, "draw", "territory", "1941-01", {}, {}, fallen, {}, ("", 0), [], liberated=liberated,
                              surrendered=surrendered, vichy="1940-07")  # fmt: skip
    assert "Vichy France created 1940-07" in result.events() and "Finland surrendered" in result.events()


def test_the_arena_counts_a_surrender_to_an_atomic_bomb_as_a_surrender_not_a_conquest() -> None:
    from engine.ai import arena

    state = test_vichy.at_war()
    france = state.countries["France"]
    france.flags.atomic_surrender = "Germany"  # the bomb fell this month: conquered in the next
    fallen: dict[str, str] = {}
    surrendered: dict[str, str] = {}
    arena.record_events(state, fallen, {}, surrendered, {})
    state.date += 1
    france.conquered = True
    arena.record_events(state, fallen, {}, surrendered, {})
    assert surrendered == {"France": date_text(state.date - 1)} and "France" not in fallen
