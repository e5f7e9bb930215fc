"""The rule-finding promise: docs/design.md "Where each rule lives" names the home of
every section of the rulebook and of its supplement, so a reader finds any rule's module
from the section's name."""

from __future__ import annotations

from pathlib import Path

import pytest

RULEBOOK = [
    "Game Sequence",
    "Victory Conditions",
    "War Declaration",
    "Other Ways of Entering the War",
    "Japanese/Soviet Relations",
    "Conquest",
    "Liberation",
    "Chinese Exceptions",
    "Colonies and Conquest",
    "Vichy France",
    "Italian Surrender",
    "Finnish Surrender",
    "Atomic Bomb",
    "Types of Units",
    "Land Units",
    "Naval Units",
    "Air units",
    "Buying Units",
    "Strength Points",
    "Buying Back Eliminated Units",
    "New Available Units",
    "Land Combat",
    "Overrun",
    "Supply Units in Combat",
    "Naval and Air Combat",
    "Interception",
    "Damaged Units",
    "Kamikaze",
    "Bombing",
    "Amphibious Assaults and Paradrops",
    "Supply",
    "Supply Sources",
    "Effects",
    "Terrain",
    "Weather Zones",
    "Weather Conditions",
    "Money",
    "Money Exchange",
    "Convoys",
]
SUPPLEMENT = [
    "Sequence and who acts",
    "Map facts",
    "Countries and sides at the start",
    "Placement",
    "Stacking",
    "Control zones and hex control",
    "Movement",
    "Combat mathematics",
    "Atomic bomb surrender",
]


def _table() -> str:
    design = (Path(__file__).parent.parent / "docs" / "design.md").read_text(encoding="utf-8")
    return design.split("## Where each rule lives", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize("section", RULEBOOK + SUPPLEMENT)
def test_every_rule_section_has_a_named_home(section: str) -> None:
    rows = [line for line in _table().splitlines() if line.startswith("| ") and section in line.split(" | ")[0]]
    assert rows, f'no row of "Where each rule lives" names the section "{section}"'
    assert any("engine/" in row or "scenarios/" in row for row in rows)
