"""The odds a player is shown before attacking are the odds the dice are rolled against
(rulebook "Land Combat": "The combat results are random and depend on the combat ratio").

Positions are those of recorded self-play games where a side is about to declare its
overruns or attacks (see :func:`_positions`); hypothesis picks one, an attack the engine offers there, some of the
bombers and warships that may support it, and the dice.  The preview of that attack
(``api.hex_report`` with its units) must give the strengths, modifiers and ratio that its
resolution then reports."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import api
from engine.combat import supporter_refusal
from engine.events import number_text
from engine.state import GameState
from tests import cache

GAMES = ("1937-seed3", "1939-seed7")
DECLARING = (".overrun", ".combat")
#: The steps of a main phase from which a position is played on to its declarations.
BEFORE_COMBAT = (".overrun", ".interception", ".interception_roll", ".amphibious", ".amphibious_roll", ".combat")
#: Steps a position is played on to find a declaration (a main phase has fewer than this).
MAX_STEPS = 30
DICE = bytes(range(32))
RECORDS = Path(__file__).resolve().parent / "data" / "records"


def _positions(factory: pytest.TempPathFactory) -> list[tuple[str, bytes]]:
    """Positions of the records' main phases where the side to move declares attacks it has
    on offer: from the position after each file that ends between the movement and the
    combat of a main phase, the game goes on with every decision passed and fixed dice
    until such a step (or another phase) comes.  Each is its scenario and its state's bytes."""
    found: dict[bytes, tuple[str, bytes]] = {}
    for game in GAMES:
        walk = cache.record_walk(factory, game)
        for i in range(len(walk.games)):
            state = walk.game(i).state
            if not api.decision(state).phase.endswith(BEFORE_COMBAT):
                continue  # a later file of the same main phase holds its real movements
            for _ in range(MAX_STEPS):
                d = api.decision(state)
                if d.kind == "chance":
                    api.apply_chance(state, DICE)
                    continue
                if d.kind != "sequential" or "." not in d.phase:
                    break
                side = d.sides[0]
                offered = d.phase.endswith(DECLARING) and not state.combats and api.legal_actions(state, side)
                if offered and any(a.kind in ("attack", "overrun") for a in offered):
                    found.setdefault(api.state_hash(state), (walk.scenario, api.serialize(state)))
                api.apply(state, side, api.Action("pass", ()))
    return list(found.values())


@pytest.fixture(scope="session")
def positions(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameState, ...]:
    """The positions of :func:`_positions`, found once for the run (both tests want them, on
    whichever workers they run)."""
    made = cache.shared(tmp_path_factory, "odds preview positions", lambda: _positions(tmp_path_factory), RECORDS)
    return tuple(api.deserialize(data, scenario=scenario) for scenario, data in made)


def test_the_record_has_positions_with_attacks_on_offer(positions: tuple[GameState, ...]) -> None:
    assert len(positions) >= 20


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_previewed_odds_and_modifiers_are_the_resolved_ones(
    positions: tuple[GameState, ...], data: st.DataObject
) -> None:
    state = data.draw(st.sampled_from(positions)).copy()
    side = api.decision(state).sides[0]
    attacks = [a for a in api.legal_actions(state, side) if a.kind in ("attack", "overrun")]
    attack = data.draw(st.sampled_from(attacks))
    h = int(attack.args[0])
    helpers = [] if attack.kind == "overrun" else [u.id for u in state.units_at(h) if not u.is_land]
    able = [i for i in helpers if not supporter_refusal(state, side, i, h)]
    supports = data.draw(st.lists(st.sampled_from(able), unique=True)) if able else []
    odds = api.hex_report(state, side, state.world.map.grid.label(h), [*attack.args[1:], *supports]).odds
    assert odds is not None
    for order in (attack, *(api.Action("support", (h, i)) for i in supports), api.Action("pass", ())):
        api.apply(state, side, order)
    assert api.decision(state).kind == "chance"
    events = api.apply_chance_events(state, data.draw(st.binary(min_size=32, max_size=32)))
    [report] = [e.combat for e in events if e.combat is not None and e.combat.hex == h]
    if report.outcome == "supply only":
        assert odds.ratio == "" and odds.notes == ("supply units alone",)
        return
    assert report.outcome == "resolved"
    assert sorted(odds.attackers) == sorted(report.attackers) and sorted(odds.supports) == sorted(report.supports)
    assert (odds.attack, odds.defence, odds.ratio) == (
        number_text(report.attack),
        number_text(report.defence),
        f"{float(report.odds):.2f}",
    )
    assert odds.notes == report.attack_mods + report.defence_mods
