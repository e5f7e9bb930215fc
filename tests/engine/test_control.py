"""Hex control (supplement: "Control zones and hex control")."""

from __future__ import annotations

from engine.control import resolve_pockets, take_control
from engine.position import hex_at as hx
from engine.position import put
from engine.position import setup as game
from engine.stacking import airbase_capacity


def test_take_control_destroys_the_other_sides_installations() -> None:
    """Rulebook "Terrain": the fortifications of the side losing the hex, built or under
    construction, and its airfields under construction are destroyed."""
    s = game("G:c P:c P:c G:c", fortifications=["1,0", "3,0"], airfields=["2,0"])
    s.airfields[hx(s, "2,0")] = 2
    take_control(s, hx(s, "1,0"), "Germany")
    take_control(s, hx(s, "2,0"), "Germany")
    assert hx(s, "1,0") not in s.forts and s.airfields == {}
    assert s.controller_of(hx(s, "1,0")) == "Germany"
    s.forts[hx(s, "3,0")] = 1  # a German fortification being built
    take_control(s, hx(s, "3,0"), "Poland")
    assert s.forts == {}


def test_a_built_airfield_passes_to_the_captor() -> None:
    """Rulebook "Terrain": "If an enemy country gains control of a hex with a friendly
    airfield which is under construction, the airfield is destroyed" - a built one is not:
    the captor takes it over, with its two air base places."""
    s = game("G:c P:c", airfields=["1,0"])
    h = hx(s, "1,0")
    assert airbase_capacity(s, h, "axis") == 0
    take_control(s, h, "Germany")
    assert s.airfields == {h: 0} and s.airfield_owner[h] == "Germany"
    assert airbase_capacity(s, h, "axis") == 2


def test_take_control_keeps_an_allys_installations() -> None:
    """An installation passing to a country of its own side is not the enemy's to destroy."""
    s = game("G:c I:c", axis=("Germany", "Italy"), fortifications=["1,0"])
    take_control(s, hx(s, "1,0"), "Germany")
    assert s.forts == {hx(s, "1,0"): 0}


POCKET = """
    G:c G:c G:c G:c G:c
     G:c P:c P:c G:c G:c
    G:c G:c G:c G:c G:c
    """
BERLIN = {"Berlin": "4,0"}


def test_pocket_flips_to_the_encircling_side() -> None:
    """Supplement "Hex control": a pocket of enemy hexes cut off from its side flips
    (docs/rules-decisions.md: a group without a city is cut off from its side)."""
    s = game(POCKET, cities=BERLIN)
    assert resolve_pockets(s) == sorted([hx(s, "1,1"), hx(s, "2,1")])
    assert s.controller_of(hx(s, "1,1")) == "Germany"


def test_pocket_with_city_resource_fort_airbase_or_unit_holds() -> None:
    """Supplement "Hex control": unless it holds a city, a resource hex, a fortification,
    an airbase or a defending unit."""
    for options in ({"cities": {"Lodz": "1,1", **BERLIN}}, {"resources": ["2,1"]}, {"fortifications": ["1,1"]},
                    {"airfields": ["2,1"]}):  # fmt: skip
        s = game(POCKET, **{"cities": BERLIN, **options})  # type: ignore[arg-type]
        assert resolve_pockets(s) == []
    s = game(POCKET, cities=BERLIN)
    put(s, "Poland", "infantry", "2,1")
    assert resolve_pockets(s) == []


def test_pocket_touching_a_neutral_or_its_own_side_holds() -> None:
    """A group bordering anyone but the enemy is not cut off (docs/rules-decisions.md)."""
    s = game(
        """
        G:c G:c G:c
         G:c P:c W:c
        G:c G:c G:c
        """,
        cities={"Berlin": "0,0"},
    )
    assert resolve_pockets(s) == []
    s = game(
        """
        G:c G:c G:c P:c
         G:c P:c P:c P:c
        G:c G:c G:c G:c
        """,
        cities={"Warsaw": "3,0", "Berlin": "0,0"},
    )
    assert resolve_pockets(s) == []


def test_pockets_of_both_sides_and_the_encircler() -> None:
    """The pocket goes to the enemy country holding most of its border (ties: by name)."""
    s = game(
        """
        G:c G:c I:c
         G:c P:c I:c
        I:c I:c I:c
        """,
        axis=("Germany", "Italy"),
        cities={"Berlin": "0,0", "Rome": "0,2"},
    )
    resolve_pockets(s)
    assert s.controller_of(hx(s, "1,1")) == "Italy"


def test_a_pocket_in_a_pocket_flips_and_the_ring_then_flips_with_it() -> None:
    """The Axis' pockets flip first; the Allies' pockets are then found on the map as it
    stands after them: a German hex inside a Polish ring inside Germany flips to Poland,
    and the ring, with it, is a Polish pocket that flips to Germany whole."""
    s = game(
        """
        G:c G:c G:c G:c G:c
         G:c P:c P:c G:c G:c
        G:c P:c G:c P:c G:c
         G:c P:c P:c G:c G:c
        G:c G:c G:c G:c G:c
        """,
        cities={"Berlin": "4,4"},
    )
    ring = [hx(s, h) for h in ("1,1", "2,1", "1,2", "3,2", "1,3", "2,3")]
    assert resolve_pockets(s) == sorted([*ring, hx(s, "2,2"), hx(s, "2,2")])  # it changed twice
    assert all(s.controller_of(h) == "Germany" for h in [*ring, hx(s, "2,2")])
