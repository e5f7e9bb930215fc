"""Control zones (supplement: "Control zones and hex control"; rulebook: "Terrain")."""

from __future__ import annotations

from engine.hexmap import Side
from engine.position import hex_at as hx
from engine.position import put
from engine.position import setup as game
from engine.zoc import (
    enemy_land_units_hexes,
    has_enemy_land_unit,
    in_enemy_land_zoc,
    in_enemy_naval_zoc,
    land_zoc,
    naval_zoc,
)

MAP = """
    G:c G:c G:c P:c P:c
     G:c G:c G:c P:c P:c
    G:c G:c G:c P:c P:c
    """


def labels(state, hexes) -> set[str]:  # type: ignore[no-untyped-def]
    return {state.world.map.grid.label(h) for h in hexes}


def test_land_zone_is_the_unit_hex_and_adjacent_land_hexes() -> None:
    """Supplement "Land control zone": a land unit's own hex and the adjacent land hexes."""
    s = game(MAP)
    put(s, "Germany", "infantry", "1,1")
    assert labels(s, land_zoc(s, "axis")) == {"1,1", "2,1", "2,0", "1,0", "0,1", "1,2", "2,2"}
    assert land_zoc(s, "allies") == set()


def test_no_zone_while_the_unit_hex_is_held_by_the_other_side() -> None:
    """Supplement: a zone exists only while the unit's own hex is controlled by its side."""
    s = game(MAP)
    put(s, "Germany", "infantry", "3,1")  # a Polish hex
    assert land_zoc(s, "axis") == set()
    s.set_controller(hx(s, "3,1"), "Germany")
    assert hx(s, "4,1") in land_zoc(s, "axis")


def test_supply_and_embarked_units_exert_no_zone() -> None:
    """Supplement: supply units exert no control zone; embarked units are cargo
    (docs/rules-decisions.md)."""
    s = game(MAP)
    put(s, "Germany", "supply", "1,1")
    tr = put(s, "Germany", "transport", "0,0")
    put(s, "Germany", "infantry", "0,0", carrier=tr.id)
    assert land_zoc(s, "axis") == set()


def test_zone_does_not_extend_into_enemy_fortifications() -> None:
    """Supplement: control zones do not extend into enemy fortifications (built ones)."""
    s = game(MAP, fortifications=["3,1"])
    put(s, "Germany", "infantry", "2,1")
    assert hx(s, "3,1") not in land_zoc(s, "axis")
    s.forts[hx(s, "3,1")] = 2  # still being built: no protection yet
    assert hx(s, "3,1") in land_zoc(s, "axis")


def test_zone_does_not_cross_all_sea_hexsides() -> None:
    """docs/rules-decisions.md: a land zone reaches only hexes a land unit could
    step to (not across all-sea hexsides)."""
    s = game("G:c G:c P:c", sides={("1,0", "2,0"): Side.SEA})
    put(s, "Germany", "infantry", "1,0")
    assert labels(s, land_zoc(s, "axis")) == {"0,0", "1,0"}


def test_local_predicate_agrees_with_the_side_set() -> None:
    """The per-hex test used by searches gives the same zone as the whole-side set."""
    s = game(MAP, fortifications=["2,2"])
    s.fort_owner[hx(s, "2,2")] = "Germany"
    put(s, "Poland", "infantry", "3,1")
    put(s, "Poland", "armor", "4,2")
    put(s, "Poland", "supply", "3,0")
    put(s, "Germany", "infantry", "0,0")
    for side in ("axis", "allies"):
        enemy = "allies" if side == "axis" else "axis"
        zone = land_zoc(s, enemy)
        assert {h for h in range(s.world.map.size) if in_enemy_land_zoc(s, side, h)} == zone
    assert hx(s, "2,2") not in land_zoc(s, "allies")  # the German fortification


def test_enemy_land_unit_hexes() -> None:
    """Supplement "Movement": hexes with enemy land units cannot be entered."""
    s = game(MAP)
    put(s, "Poland", "infantry", "3,1")
    put(s, "Poland", "destroyer", "4,0")
    assert labels(s, enemy_land_units_hexes(s, "axis")) == {"3,1"}
    assert has_enemy_land_unit(s, "axis", hx(s, "3,1"))
    assert not has_enemy_land_unit(s, "allies", hx(s, "3,1"))


def test_naval_zone_needs_an_attack_and_never_crosses_a_canal() -> None:
    """Supplement "Naval control zone": own hex and adjacent sea hexes, only ships with a
    surface attack (submarines: a submarine attack); "Canals": never across a canal."""
    pic = """
        ~ ~ G:c ~ ~
         ~ ~ G:c ~ ~
        """
    s = game(pic, canals={"Kiel": ("2,0", "2,1")})
    put(s, "Poland", "transport", "0,0")
    assert naval_zoc(s, "allies") == set()
    put(s, "Poland", "destroyer", "2,0")
    zone = labels(s, naval_zoc(s, "allies"))
    assert "2,0" in zone and "1,0" in zone and "3,0" in zone
    assert "2,1" not in zone  # the other hex of the canal
    assert in_enemy_naval_zoc(s, "axis", hx(s, "1,0"))
    s2 = game("~ ~ ~ ~")
    put(s2, "Poland", "submarine", "0,0", sub_attack=0)
    assert naval_zoc(s2, "allies") == set()
    put(s2, "Poland", "submarine", "3,0")
    assert labels(s2, naval_zoc(s2, "allies")) == {"2,0", "3,0"}
