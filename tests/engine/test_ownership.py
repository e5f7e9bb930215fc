"""Whose unit an order names (engine.ownership): the refusals every unit order shares."""

from __future__ import annotations

from engine.actions import IllegalAction, Refusal, rule_of
from engine.ownership import no_unit, owned
from engine.position import put
from engine.position import setup as game


def test_own_unit_on_the_map_is_returned() -> None:
    s = game("G:c P:c")
    inf = put(s, "Germany", "infantry", "0,0")
    assert owned(s, "axis", inf.id, inf) is inf
    assert owned(s, "axis", inf.id, inf, on_map=True) is inf


def test_missing_unit_is_refused() -> None:
    s = game("G:c P:c")
    why = owned(s, "axis", 99, s.units.get(99))
    assert isinstance(why, Refusal)
    assert (rule_of(why), str(why)) == ("unit.unknown", "there is no unit #99")


def test_unit_off_the_map_counts_as_missing_only_when_asked() -> None:
    s = game("G:c P:c")
    kept = put(s, "Germany", "infantry", None)
    assert owned(s, "axis", kept.id, kept) is kept
    why = owned(s, "axis", kept.id, kept, on_map=True)
    assert (rule_of(why), str(why)) == ("unit.unknown", f"there is no unit #{kept.id} on the map")


def test_enemy_unit_is_not_yours() -> None:
    s = game("G:c P:c")
    pole = put(s, "Poland", "infantry", "1,0")
    why = owned(s, "axis", pole.id, pole)
    assert (rule_of(why), str(why)) == ("unit.not-yours", f"{pole.label()} is not yours")


def test_refusal_keeps_its_slug_when_raised() -> None:
    assert IllegalAction(no_unit(7)).rule == "unit.unknown"
