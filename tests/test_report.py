"""The game log (engine/events.py, pbem/play/report.py, `pbem log`): complete over a recorded game.

The record is a self-play game of the 1939 scenario over five months.  Each check
compares the report with what can be seen independently: the states before and after
each file, and the orders the files carry.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from engine.hexgrid import NO_HEX
from engine.state import GameState
from pbem.cli.main import app
from pbem.play import history, report
from tests.cache import record_walk

RECORD = Path(__file__).resolve().parent / "data" / "records" / "1939-seed7"


def _events(r: report.FileReport) -> list[dict[str, Any]]:
    return [ev for e in r.entries for ev in e.data]


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[GameState, report.FileReport, GameState]]:
    """(state before, report, state after) for every turn file of the record."""
    walk = record_walk(tmp_path_factory, RECORD.name)
    states = [walk.game(i).state for i in range(len(walk.games))]
    return list(zip(states[:-1], walk.reports[1:], states[1:], strict=True))


def test_every_unit_that_disappears_is_reported_eliminated_arrived_or_merged(replay: Any) -> None:
    told = 0
    why: dict[str, int] = {"eliminated": 0, "arrived": 0, "merged": 0}
    for before, rep, after in replay:
        gone = set(before.units) - set(after.units)
        reported = {ev["units"][0] for ev in _events(rep) if ev["kind"] == "eliminated"}
        for ev in _events(rep):
            if ev["kind"] == "combat":
                c = ev["combat"]
                reported |= {h["unit"] for h in c["defender_hits"] + c["attacker_hits"] if h["eliminated"]}
        explained = {ev["units"][0] for ev in _events(rep) if ev["kind"] in ("arrived", "merged")}
        for ev in _events(rep):
            if ev["kind"] in why:
                why[ev["kind"]] += 1
        assert gone <= reported | explained, (
            f"file {rep.seq}: {sorted(gone - reported - explained)} vanished unreported"
        )
        # Nothing is reported eliminated that still exists, or that only arrived or merged.
        assert not reported & (set(after.units) | explained), f"file {rep.seq}"
        for uid in explained:
            # An arrival was a purchase off the map; a merge left a unit of its kind in its hex.
            assert before.units[uid].hex == NO_HEX or any(
                u.hex == before.units[uid].hex and u.type == before.units[uid].type for u in after.units.values()
            )
        told += len(gone)
    assert told > 10  # the record has real losses
    assert why["arrived"] > 0, why  # the record's purchases arrive


def test_every_declared_combat_is_reported_with_odds_dice_and_losses(replay: Any) -> None:
    files = history.record_files(RECORD)
    declared = sum(
        1
        for _, rep, _ in replay
        for rec in files[rep.seq].body["records"]
        if rec[0] == "act" and rec[1][0] in ("attack", "overrun")
    )
    combats = [ev["combat"] for _, rep, _ in replay for ev in _events(rep) if ev["kind"] == "combat"]
    assert declared > 20 and len(combats) == declared
    for c in combats:
        if c["outcome"] != "resolved":
            continue
        assert re.fullmatch(r"\d+/\d+", c["odds"]) and re.fullmatch(r"\d+/\d+", c["defender_draw"])
        assert re.fullmatch(r"\d+/\d+", c["attacker_draw"])
        taken = sum(h["points"] for h in c["defender_hits"] if h["points"])
        assert taken <= c["defender_points"]
        if c["attacker_loss"]:
            # The whole loss is taken, unless the attackers had fewer points than it asks.
            lost = sum(h["points"] for h in c["attacker_hits"])
            assert lost == c["attacker_loss"] or (
                lost < c["attacker_loss"] and all(h["eliminated"] for h in c["attacker_hits"])
            ), c


def test_strength_changes_are_reported_by_combat_or_as_changes(replay: Any) -> None:
    for before, rep, after in replay:
        told: dict[int, int] = {}
        for ev in _events(rep):
            if ev["kind"] == "strength":
                told[ev["units"][0]] = told.get(ev["units"][0], 0) + ev["numbers"][0] - ev["numbers"][1]
            elif ev["kind"] == "combat":
                for h in ev["combat"]["defender_hits"] + ev["combat"]["attacker_hits"]:
                    if not h["eliminated"]:
                        told[h["unit"]] = told.get(h["unit"], 0) + h["points"]
        for uid in set(before.units) & set(after.units):
            lost = before.units[uid].strength - after.units[uid].strength
            assert told.get(uid, 0) == lost, f"file {rep.seq}: unit {uid} lost {lost}, told {told.get(uid, 0)}"


def test_every_war_entry_and_placement_is_reported(replay: Any) -> None:
    wars = placed = 0
    for before, rep, after in replay:
        events = _events(rep)
        entered = {n for n, c in after.countries.items() if c.at_war and not before.countries[n].at_war}
        assert entered == {ev["country"] for ev in events if ev["kind"] == "war"}, f"file {rep.seq}"
        wars += len(entered)
        arrived = {
            u.id
            for u in after.units.values()
            if u.hex != NO_HEX and (u.id not in before.units or before.units[u.id].hex == NO_HEX)
        }
        told = {ev["units"][0] for ev in events if ev["kind"] in ("placed", "landed")}
        assert arrived <= told, f"file {rep.seq}: {sorted(arrived - told)} placed unreported"
        placed += len(arrived)
    assert wars >= 5 and placed > 100


def test_texts_write_hexes_as_players_do(replay: Any) -> None:
    _, rep, _ = next(x for x in replay if any(ev["kind"] == "combat" for ev in _events(x[1])))
    text = rep.text()
    assert re.search(r"attack on \d+,\d+", text) or re.search(r"overrun on \d+,\d+", text)
    assert "defender draw" in text and "attacker draw" in text
    json.dumps(rep.to_json())  # plain data


@pytest.mark.slow
def test_pbem_log_prints_every_combat_and_filters_by_month() -> None:
    runner = CliRunner()
    whole = runner.invoke(app, ["log", str(RECORD)])
    assert whole.exit_code == 0, whole.output
    assert whole.output.count("defender draw") + whole.output.count("supply units are eliminated") > 20
    october = runner.invoke(app, ["log", str(RECORD), "--month", "1939-10", "--json"])
    assert october.exit_code == 0, october.output
    doc = json.loads(october.output)
    assert doc and all(e["when"] == "1939-10" for f in doc for e in f["entries"])
    bad = runner.invoke(app, ["log", str(RECORD), "--month", "October"])
    assert bad.exit_code == 1 and "not a month" in bad.output
    mine = runner.invoke(app, ["log", str(RECORD), "--since-mine"])
    assert mine.exit_code == 1 and "record folder" in mine.output
