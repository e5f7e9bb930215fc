"""China's hexes (rulebook "Chinese Exceptions": "The rule that China controls every hex in
China unless that hex is occupied by an Axis land unit still applies when China is
conquered"), conquered or not, in every phase."""

from __future__ import annotations

from engine import api
from engine.actions import Action
from engine.position import begin_at, parse
from engine.position import hex_at as hx
from engine.state import GameState

CHINA = """
J:c C:c C:c C:c C:c C:c
 J:c C:c C:c C:c C:c C:c
city Tokyo 0,0 capital
city Chongqing 5,1 capital
war axis Japan
war allies China
"""


def position(*lines: str) -> GameState:
    return parse(CHINA + "\n".join(lines))


def test_a_japanese_unit_holds_only_the_hex_it_stands_in() -> None:
    """A Japanese unit moving through China takes each hex as it goes (supplement "Hex
    control"), but every hex it left is China's again: China is not conquered and this
    is the movement phase, not the war declaration."""
    s = position("step axis.first_movement", "unit Japan infantry 1,0")
    api.apply(s, "axis", Action("move", (min(s.units), hx(s, "4,0"))))
    owners = {label: s.controller_of(hx(s, label)) for label in ("1,0", "2,0", "3,0", "4,0")}
    assert owners == {"1,0": "China", "2,0": "China", "3,0": "China", "4,0": "Japan"}


def test_a_hex_whose_japanese_unit_falls_goes_back_when_the_step_ends() -> None:
    """A unit gone by other ways than a move (here: out of supply in the supply phase, a
    1-point unit is eliminated) leaves its hex to China when the step ends."""
    s = position("step -", "unit Japan infantry 2,0 strength=1", "unit Japan infantry 3,0")
    for label in ("2,0", "3,0"):
        s.set_controller(hx(s, label), "Japan")
    begin_at(s, "supply")
    assert s.controller_of(hx(s, "2,0")) == "China"
    assert s.controller_of(hx(s, "3,0")) == "Japan"  # halved, still there


def test_the_1939_start_keeps_japans_part_of_china_until_its_first_deployment() -> None:
    """Supplement "Placing units": "In the first turn of the 1939 scenario, Japanese units may
    be placed in hexes in China that Japan controls" - so Japan holds its part of China
    until that deployment is over; then only the hexes with a Japanese land unit."""
    s = api.new_game("1939")
    china = s.world.map.hexes_of_territory["China"]
    japanese = sorted(h for h in china if s.controller_of(h) == "Japan")
    assert len(japanese) > 1
    api.apply_simultaneous(s, {"axis": [], "allies": []})
    assert api.decision(s).phase == "deployment"
    assert all(s.controller_of(h) == "Japan" for h in japanese)
    # Every order of the hidden list finds Japan's part whole, not only the first.
    keep = japanese[:2]
    orders = [Action("place_land", ("Japan", "infantry", 3, 1, h)) for h in keep]
    api.apply_simultaneous(s, {"axis": orders, "allies": []})
    assert api.decision(s).phase != "deployment"
    assert [h for h in china if s.controller_of(h) == "Japan"] == keep
