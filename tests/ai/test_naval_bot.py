"""The bot at sea (engine/ai/naval.py) and the arena's count of naval combats."""

from __future__ import annotations

import pytest

from engine import ai, api
from engine.actions import MAX_ARGS, Action, IllegalAction
from engine.ai import naval as bot_naval
from engine.ai.arena import GameResult, summarize
from engine.ai.batch import Batch
from engine.position import hex_at, parse
from engine.state import Unit

SEA = """
G:c ~ ~ ~ P:c
 G:c ~ ~ ~ P:c
step axis.combat
"""


def _ships(text: str) -> tuple[list[Unit], list[Unit]]:
    s = parse(SEA + text)
    return s.units_of("Germany"), s.units_of("Poland")


def test_the_bot_attacks_a_weaker_stack_and_keeps_out_of_a_hopeless_fight() -> None:
    strong, weak = _ships("unit Germany destroyer 1,0 attack=6 defense=4\nunit Poland destroyer 2,0\n")
    assert bot_naval.favourable(strong, weak)
    assert not bot_naval.favourable(weak, strong)


def test_no_risk_makes_any_hit_worth_it() -> None:
    """A transport cannot hit back: attacking it risks nothing."""
    mine, theirs = _ships("unit Germany destroyer 1,0\nunit Poland transport 2,0\n")
    gain, ratio = bot_naval.judge(mine, theirs)
    assert gain > 0 and ratio == float("inf")


def _result(axis: int, allies: int) -> GameResult:
    return GameResult(
        1, "draw", "territory", "1940-01", {"axis": 0, "allies": 0}, {"axis": 0, "allies": 0}, {}, {}, ("", 0), [1.0],
        naval_combats={"axis": axis, "allies": allies},
    )  # fmt: skip


def test_the_arena_counts_naval_combats_per_game_and_in_the_summary() -> None:
    a, b = _result(1, 2), _result(0, 3)
    assert "naval combats axis 1 allies 2" in a.line()
    summary = summarize([a, b])
    assert summary.naval_combats == {"axis": 1, "allies": 5}
    assert any("naval combats: axis 1, allies 5" in line for line in summary.lines({"axis": "bot", "allies": "bot"}))


def test_the_bot_leaves_ships_inside_a_major_port_to_aircraft() -> None:
    """Rulebook "Terrain": ships inside a major port "can't be attacked by other naval
    units" - the bot orders the naval attack on the same ships in an ordinary port only."""
    for flags, attacked in (("port", False), ("", True)):
        s = parse(
            SEA
            + f"city Gdynia 4,0 {flags}\nunit Germany destroyer 3,0 attack=6\nunit Poland destroyer 4,0 in_port=yes\n"
        )
        orders = ai.decide(s, "axis", b"\x03" * 32)
        assert any(a.kind == "naval" for a in orders) is attacked


def test_a_voyage_of_a_whole_64_hex_allowance_goes_as_its_destination() -> None:
    """A file's action carries at most 64 arguments (docs/turn-file-format.md), and a path
    of 64 hexes with its unit is 65: a bot game stopped there ('action move has too many
    arguments', a 1941 self-play).  The batch sends such a voyage as its destination, whose
    route the engine finds, and the ship still arrives."""
    row = "G:c " + "~ " * 66 + "P:c"
    facts = "war axis Germany\nwar allies Poland\nstep axis.first_movement\nunit Germany carrier 1,0 move=64"
    s = parse(f"{row}\n{facts}\n")
    (ship,) = s.units_of("Germany")
    path = [hex_at(s, f"{col},0") for col in range(2, 66)]
    # The engine refuses in memory what no file carries, so an arena game finds it too.
    with pytest.raises(IllegalAction, match="too many arguments"):
        api.check(s, "axis", Action("move", (ship.id, *path)))
    batch = Batch(s, "axis")
    assert batch.offer(Action("move", (ship.id, *path)))
    sent = batch.actions[-1]
    assert sent == Action("move", (ship.id, path[-1])) and len(sent.args) <= MAX_ARGS
    assert Action.from_wire(sent.to_wire()) == sent
    assert batch.work.units[ship.id].hex == path[-1]
