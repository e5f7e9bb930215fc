"""What the page is told (pbem/web/desk.py): orders split into hexes and groups, the
hex under a point of the map, history, reports, and the map of the game as it stands."""

from __future__ import annotations

from typing import Any

import pytest

from engine import api
from pbem.errors import PbemError
from pbem.play import turn
from pbem.play.status import Standing
from pbem.store.localgame import LocalGame
from pbem.web.desk import MAX_LISTED, Desk, Filter, added_text, board_status, order_words, parse_window
from pbem.web.timeline import Happened
from scenarios import gameview
from tests.protocol.conftest import Duo
from tests.web.conftest import INCOME, bot_answers, branch_duo


@pytest.fixture(scope="module")
def desk(game_1939: Duo) -> Desk:
    return Desk(game_1939.axis.ws, game_1939.gid, game_1939.axis.home)


def test_an_order_names_its_hexes_and_units_and_its_group_leaves_the_hexes_out() -> None:
    assert order_words("move #254 166,48") == (["166,48"], [254], "move #254")
    assert order_words("attack 164,50 #256 #258") == (["164,50"], [256, 258], "attack #256 #258")
    assert order_words("place_land Germany armor 5 10 164,54") == (["164,54"], [], "place_land Germany armor 5 10")
    assert order_words("declare 'Costa Rica'") == ([], [], "declare 'Costa Rica'")


def test_the_status_line_names_no_command_to_type() -> None:
    head = "game 3e81 (axis), file 3, 1939-10, axis.landing"
    unsent = Standing("3e81", head, ": 4 orders not sent", step="send")
    assert board_status(unsent) == f"{head}: 4 orders not sent yet: press Send"
    waiting = Standing("3e81", head, ": waiting for the Allies' orders", "allies", "import-theirs")
    assert board_status(waiting) == f"{head} (draw offered by allies): waiting for the Allies' orders"


def test_the_page_says_which_orders_were_added() -> None:
    assert added_text(["move #3 4,5", "move #6 7,8"]) == "added move #3 4,5; move #6 7,8"
    assert added_text(["place_land Germany armor 5 1 164,54"] * 4) == "added 4 × place_land Germany armor 5 1 164,54"
    assert added_text([f"move #{i} 1,1" for i in range(250)]) == "added 250 orders"


def test_a_window_is_checked_against_the_map() -> None:
    grid = api.new_game("1939").world.map.grid
    assert parse_window("290,10,309,40", grid) == gameview.Window(290, 10, 309, 40)  # across the date line
    for bad in ("1,2,3", "a,b,c,d", f"{grid.width},0,{grid.width + 1},1", "10,40,20,30", "5,0,4,1"):
        with pytest.raises(PbemError):
            parse_window(bad, grid)


def test_the_hex_under_a_point_is_the_one_drawn_there(desk: Desk) -> None:
    m = desk.map("europe", None)
    assert 'data-date="1939-09"' in m["svg"]
    scale, centres = desk.centres(m["window"])
    for label in ("170,50", "157,49"):
        x, y = centres[label]
        assert desk.hex_at(m["window"], x, y) == label
        assert desk.hex_at(m["window"], x + scale * 0.3, y) == label
    assert desk.hex_at(m["window"], -500, -500) is None


def test_legal_orders_come_with_where_their_hexes_are_drawn(desk: Desk, game_1939: Duo) -> None:
    window = desk.map("europe", None)["window"]
    found = desk.legal(Filter(kinds=("declare",)), window)
    texts = [o["text"] for o in found["orders"]]
    assert "declare Poland" in texts and all(t.startswith("declare ") for t in texts)
    assert found["marks"] == {} and found["left_out"] == 0
    # the war declaration names no hex; a whole list of every kind still has the pass
    everything = desk.legal(Filter(), window)
    assert any(o["text"] == "pass" for o in everything["orders"])


def test_a_hex_report_and_its_units(desk: Desk) -> None:
    r = desk.hex_info("Warsaw")
    # Poland stays neutral until someone declares war on it
    assert r["city"] == "Warsaw" and r["controller"] == "Poland" and r["control_side"] == "neutral"
    with pytest.raises(PbemError, match="Atlantis"):
        desk.hex_info("Atlantis")
    with pytest.raises(PbemError, match="not an attack"):
        desk.odds("move #1 2,3")


def test_history_and_reports_replay_the_files(desk: Desk, game_1939: Duo) -> None:
    reports = desk.reports()
    assert [r["seq"] for r in reports] == list(range(1, game_1939.game("axis").seq + 1))
    assert "the game begins: scenario 1939" in reports[0]["text"]
    first = desk.map(None, None, at=1)
    assert first["at"] == 1 and "<svg" in first["svg"]
    version = desk.version()
    assert desk.version() == version
    desk.give(["declare Poland"])
    assert desk.version() != version
    desk.undo()


def test_the_offers_are_the_kinds_the_decision_accepts_with_their_legal_counts(desk: Desk, game_1939: Duo) -> None:
    kinds = {k["kind"]: k for k in desk.offers()["kinds"]}
    lg = game_1939.axis
    lg_state = turn.my_turn(LocalGame(lg.ws, game_1939.gid, lg.home)).work.state
    declares = api.legal_matching(lg_state, "axis", kinds=["declare"])
    assert kinds["declare"]["count"] == len(declares) > 0
    assert kinds["stand"]["count"] == len(api.standing_orders(lg_state, "axis"))
    assert "pass" not in kinds and "move" not in kinds
    assert "declare war" in kinds["declare"]["help"]


def test_taking_back_an_order_in_the_middle_gives_the_later_ones_again(desk: Desk) -> None:
    desk.give(["declare Poland", "declare Denmark", "declare Norway"])
    try:
        said = desk.take_back(1)
        assert said["dropped"] == [] and said["message"].startswith("took back declare Denmark; 1 order(s)")
        assert desk.overview()["pending"] == ["declare Poland", "declare Norway"]
        with pytest.raises(PbemError, match="no pending order 3"):
            desk.take_back(2)
    finally:
        while desk.overview()["pending"]:
            desk.undo()


@pytest.fixture(scope="module")
def deploy_desk(deploying: Duo) -> Desk:
    return Desk(deploying.axis.ws, deploying.gid, deploying.axis.home)


def test_orders_that_rely_on_the_one_taken_back_are_dropped_with_the_engine_s_reason(deploy_desk: Desk) -> None:
    desk = deploy_desk
    place = next(
        o["text"] for o in desk.legal(Filter(kinds=("place_land",)), None)["orders"] if o["text"].startswith(
            "place_land Germany infantry 3 4 ")
    )  # fmt: skip
    desk.give([place])
    split = next(o["text"] for o in desk.legal(Filter(kinds=("split",)), None)["orders"])
    desk.give([split])
    try:
        assert desk.overview()["pending"] == [place, split]
        said = desk.take_back(0)
        assert desk.overview()["pending"] == []
        (dropped,) = said["dropped"]
        assert dropped.startswith(split + ": ") and "dropped 1 the engine now refuses" in said["message"]
    finally:
        while desk.overview()["pending"]:
            desk.undo()


def test_a_picture_the_page_has_is_not_sent_again_until_it_changes(deploy_desk: Desk) -> None:
    desk = deploy_desk
    first = desk.map("europe", None)
    assert first["svg"] and first["digest"]
    again = desk.map(None, first["window"], have=first["digest"])
    assert again["svg"] is None and again["digest"] == first["digest"] and again["window"] == first["window"]
    # another picture than the page's: sent whole
    assert desk.map("world", None, have=first["digest"])["svg"]
    # a placement draws a counter: the picture is sent again
    place = next(
        o["text"] for o in desk.legal(Filter(kinds=("place_land",)), first["window"])["orders"]
        if o["text"].startswith("place_land Germany infantry 3 ")
    )  # fmt: skip
    desk.give([place])
    try:
        changed = desk.map(None, first["window"], have=first["digest"])
        assert changed["svg"] and changed["digest"] != first["digest"]
    finally:
        desk.undo()
    assert desk.map(None, first["window"], have=first["digest"])["svg"] is None


def test_orders_with_an_amount_are_grouped_whatever_the_amount(deploy_desk: Desk) -> None:
    orders = deploy_desk.legal(Filter(kinds=("place_land",), countries=("Germany",)), None)["orders"]
    infantry = [o for o in orders if o["group"] == "place_land Germany infantry 3 N"]
    amounts = {o["amount"] for o in infantry}
    # the pool's infantry points, each amount the engine offers, in one group
    assert len(amounts) > 1 and min(amounts) == 1
    for o in infantry:
        assert o["text"] == f"place_land Germany infantry 3 {o['amount']} {o['hexes'][0]}"
    forts = deploy_desk.legal(Filter(kinds=("fortify",)), None)["orders"]
    assert forts and all(o["amount"] is None for o in forts)


def test_purchases_come_with_the_engine_s_price_and_the_money_left(building: Duo) -> None:
    desk = Desk(building.axis.ws, building.gid, building.axis.home)
    assert "Build" in desk.overview()["phase"]
    found = desk.purchases()
    items = {i["group"]: i for i in found["items"]}
    armor = items["buy Germany armor 5"]
    assert armor["kind"] == "buy" and armor["price"] > 0
    amounts = sorted(armor["orders"])
    assert amounts[0] == 1 and armor["orders"][2] == "buy Germany armor 5 2"
    # the most offered is what the money or the pool allows, as the engine lists it
    assert amounts[-1] * armor["price"] <= found["money"]["Germany"]
    desk.give([armor["orders"][2]])
    try:
        assert desk.purchases()["money"]["Germany"] == found["money"]["Germany"] - 2 * armor["price"]
    finally:
        desk.undo()
    # a repair names its unit as the map's counter does, and where it is
    repairs = [i for i in found["items"] if i["kind"] == "repair"]
    assert repairs and all(i["price"] > 0 for i in repairs)
    game = LocalGame(building.axis.ws, building.gid, building.axis.home).game()
    assert game is not None
    board = api.board(game.state, "axis")
    for item in repairs:
        (order,) = item["orders"].values()
        unit = next(u for u in board.units if f"repair #{u.id}" == order)
        assert (
            unit.damaged
            and item["unit"].startswith(f"{unit.label}, ")
            and board.map.grid.label(unit.hex) in item["unit"]
        )


def test_the_page_is_told_which_orders_were_added_without_the_command_line_s_next_commands(desk: Desk) -> None:
    said = desk.give(["declare Poland"])
    assert said == "added declare Poland"  # the status line is beside the map already
    assert "`pbem" not in said and "next:" not in said
    undone = desk.undo()
    assert undone and "`pbem orders" not in undone
    # Comments and blank lines of a pasted file are not orders, and are not counted as added.
    assert desk.give(["# the war in the east", "", "declare Poland"]) == "added declare Poland"


def test_every_kind_a_deployment_offers_is_given_through_the_page(deploy_desk: Desk) -> None:
    """The page's one path for any kind (its list of legal orders, then the order given)
    serves each kind the deployment offers: land and other placements, fortifications,
    airfields, and, once two units stand together, a merge (rulebook "Deployment")."""
    desk = deploy_desk
    offered = {k["kind"]: k["count"] for k in desk.offers()["kinds"]}
    assert {"place_land", "place", "fortify", "build_airfield"} <= {k for k, n in offered.items() if n}
    for kind, count in offered.items():
        if not count or kind == "stand":
            continue
        listed = desk.legal(Filter(kinds=(kind,)), None)["orders"]
        assert len(listed) == min(count, MAX_LISTED), kind
        order = listed[0]["text"]
        assert desk.give([order]) == f"added {order}"
        try:
            assert desk.overview()["pending"] == [order]
        finally:
            desk.undo()
    # Two units placed in one hex: the merge is offered, and given the same way.
    place = next(
        o["text"] for o in desk.legal(Filter(kinds=("place_land",)), None)["orders"]
        if o["text"].startswith("place_land Germany infantry 3 1 ")
    )  # fmt: skip
    desk.give([place, place])
    try:
        counts = {k["kind"]: k["count"] for k in desk.offers()["kinds"]}
        merges = desk.legal(Filter(kinds=("merge",)), None)["orders"]
        assert counts["merge"] == len(merges) > 0
        desk.give([merges[0]["text"]])
        assert desk.overview()["pending"] == [place, place, merges[0]["text"]]
    finally:
        while desk.overview()["pending"]:
            desk.undo()


#: The recorded game after the Axis interceptions of 1939-10: its file 41 resolves the land
#: attacks declared before, on 157,58 and 156,57 (and a naval one declared before the branch
#: too, whose result is a line of text, not a combat of the engine's events: not drawn).
BEFORE_THE_AXIS_COMBAT = (INCOME[0], 39)


def test_the_changes_since_my_last_file_are_the_attacks_and_the_hexes_taken_after_it(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    duo = branch_duo(tmp_path_factory.mktemp("combat"), *BEFORE_THE_AXIS_COMBAT, person="allies")
    bot_answers(duo, person="allies")
    p = duo.allies
    desk = Desk(p.ws, duo.gid, p.home)
    window = desk.map("western-europe", None)["window"]
    c = desk.changes(window)
    mine = [r["seq"] for r in desk.reports() if r["side"] == "allies"]
    assert c["since"] == max(mine) and c["since"] < LocalGame(p.ws, duo.gid, p.home).head()
    attacked = {a["hex"] for a in c["attacks"]}
    assert attacked == {"157,58", "156,57"} and {a["side"] for a in c["attacks"]} == {"axis"}
    # A hex taken changed its controller from the position after my last file to now.
    before = desk._after(c["since"]).state
    now = turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).work.state
    assert c["hands"]
    for h in c["hands"]:
        assert h["side"] == "axis" and h["hex"] in c["at"]
        was, is_ = (api.hex_report(s, "allies", h["hex"]).controller for s in (before, now))
        assert was != is_ == h["country"], (h, was, is_)
    assert set(c["at"]) >= attacked


def test_the_changes_draw_a_unit_once_from_its_first_hex_and_the_attacks_its_side_ordered(game_1939: Duo) -> None:
    """After my last file: #7 moved twice, #8 went and came back, an attack and a naval attack
    were declared (the naval one resolved as a line of text), a declaration names no hex."""
    desk = Desk(game_1939.axis.ws, game_1939.gid, game_1939.axis.home)
    desk.reports()
    after = max(f.seq for f in desk._timeline.happened) + 1

    def moved(unit: int, frm: str, to: str) -> dict[str, Any]:
        return {"kind": "moved", "side": "allies", "units": [unit], "hexes": [frm, to], "what": f"#{unit}"}

    events = [moved(7, "160,50", "161,50"), moved(8, "162,50", "163,50"), moved(7, "161,50", "161,51")]
    events.append(moved(8, "163,50", "162,50"))
    orders = ["attack 164,50 #256 #258", "naval 151,54 #68", "declare Poland"]
    desk._timeline.happened.append(Happened(after, "allies", events, orders))
    window = desk.map("europe", None)["window"]
    c = desk.changes(window)
    assert [(m["unit"], m["from"], m["to"]) for m in c["moves"]] == [(7, "160,50", "161,51")]
    assert [(a["hex"], a["side"], a["text"]) for a in c["attacks"]] == [
        ("164,50", "allies", "attack 164,50 #256 #258"),
        ("151,54", "allies", "naval 151,54 #68"),
    ]
    assert set(c["at"]) == {"160,50", "161,51", "164,50", "151,54"}


def test_the_units_waiting_to_be_placed_follow_the_orders_given(deploy_desk: Desk) -> None:
    def infantry() -> dict[str, Any]:
        found = [w for p in deploy_desk.free(None)["placings"] for w in p["waiting"]]
        (w,) = [w for w in found if w["label"].startswith("Germany infantry move 3:")]
        return w

    before = infantry()
    hex_, most = next(iter(before["points"].items()))
    order = before["order"].replace("POINTS", str(most)).replace("HEX", hex_)
    deploy_desk.give([order])
    try:
        placed = int(order.split()[-2])
        points = int(before["label"].split(": ")[1].split()[0])
        after = infantry()
        assert after["label"] == f"Germany infantry move 3: {points - placed} points"
        # the page knows the points by what they are, whatever their count
        assert after["key"] == before["key"] == "place_land Germany infantry 3"
    finally:
        deploy_desk.undo()
    assert infantry() == before


def test_one_standing_is_said_by_each_face_in_its_own_words() -> None:
    from pbem.play.status import said

    head = "game 3e81 (axis), file 3, 1939-10, axis.first_movement"
    mine = Standing("3e81", head, ": your move: move", "allies", "orders")
    cli = said(mine)
    assert cli.startswith(f"{head} (draw offered by allies: `pbem accept-draw 3e81` or `pbem decline-draw 3e81`)")
    assert cli.endswith("; next: `pbem orders 3e81 FILE` then `pbem send 3e81`, or `pbem bot play 3e81`")
    assert board_status(mine) == f"{head} (draw offered by allies): your move: move"
