"""The play server's guards (token, host, origin, JSON orders, loopback only), what never
reaches the page, and orders given through it as `pbem orders` would take them."""

from __future__ import annotations

import base64
import http.client
import json
import socket
from typing import Any

import pytest

from engine import api
from pbem.errors import PbemError
from pbem.play import reactions, turn
from pbem.protocol import engine_link
from pbem.store.localgame import LocalGame
from pbem.web.server import PlayServer
from tests.protocol.conftest import Duo
from tests.web.conftest import INCOME, bot_answers, branch_duo, read_only, served


def request(
    server: PlayServer,
    path: str,
    *,
    token: str | None = "",
    method: str = "GET",
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, bytes]:
    """One request as a browser would send it; ``token=""`` means the right one."""
    sent = {"Host": f"127.0.0.1:{server.port}"}
    if token is not None:
        sent["X-Pbem-Token"] = token or server.token
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    sent.update(headers or {})
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request(method, path, body=data, headers=sent)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def test_the_right_token_opens_the_page_and_its_answers(server: PlayServer) -> None:
    status, body = request(server, f"/?token={server.token}", token=None)
    assert status == 200 and b"<title>pbem play</title>" in body and server.token.encode() in body
    status, body = request(server, "/api/overview")
    doc = json.loads(body)
    assert status == 200 and doc["side"] == "axis" and doc["date"] == "1939-09" and doc["my_move"] is True


@pytest.mark.parametrize(
    ("path", "token"),
    [
        ("/", None),
        ("/?token=wrong", None),
        ("/static/play.js", None),
        ("/api/overview", None),
        ("/api/overview", "not-the-token"),
    ],
)
def test_a_request_without_the_token_is_refused(server: PlayServer, path: str, token: str | None) -> None:
    status, body = request(server, path, token=token)
    assert status == 403 and b"token" in body


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({"Host": "attacker.example:80"}, b"unknown host"),  # a DNS name rebound to 127.0.0.1
        ({"Origin": "http://attacker.example"}, b"cross-origin"),
        ({"Origin": "null"}, b"cross-origin"),
        ({"Sec-Fetch-Site": "cross-site"}, b"cross-site"),
    ],
)
def test_a_request_from_another_site_is_refused_even_with_the_token(
    server: PlayServer, headers: dict[str, str], why: bytes
) -> None:
    status, body = request(server, "/api/overview", headers=headers)
    assert status == 403 and why in body


def test_the_page_s_own_origin_is_accepted(server: PlayServer) -> None:
    status, _ = request(server, "/api/overview", headers={"Origin": f"http://127.0.0.1:{server.port}"})
    assert status == 200


def test_an_order_sent_as_a_form_is_refused_and_changes_nothing(server: PlayServer, game_1939: Duo) -> None:
    before = read_only(game_1939)
    status, body = request(
        server,
        "/api/orders",
        method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert status == 403 and b"JSON" in body
    assert read_only(game_1939) == before


def test_the_server_listens_on_127_0_0_1_only(server: PlayServer) -> None:
    assert server.server_address[0] == "127.0.0.1"
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.2", server.port), timeout=5).close()


def test_a_refused_order_says_why_and_names_its_rule(server: PlayServer, game_1939: Duo) -> None:
    before = read_only(game_1939)
    status, body = request(server, "/api/orders", method="POST", body={"lines": ["declare Atlantis"]})
    doc = json.loads(body)
    assert status == 400 and "there is no country named Atlantis" in doc["error"] and doc["rule"] == "country.unknown"
    assert read_only(game_1939) == before


def test_an_order_given_and_taken_back(server: PlayServer) -> None:
    status, body = request(server, "/api/orders", method="POST", body={"lines": ["declare Poland"]})
    assert status == 200 and json.loads(body)["message"] == "added declare Poland"
    assert json.loads(request(server, "/api/overview")[1])["pending"] == ["declare Poland"]
    status, body = request(server, "/api/undo", method="POST", body={})
    assert status == 200 and json.loads(body)["message"] == "took back declare Poland"
    assert json.loads(request(server, "/api/overview")[1])["pending"] == []


def test_any_pending_order_is_taken_back_by_its_number(server: PlayServer) -> None:
    request(server, "/api/orders", method="POST", body={"lines": ["declare Poland", "declare Denmark"]})
    status, body = request(server, "/api/takeback", method="POST", body={"index": 0})
    doc = json.loads(body)
    assert status == 200 and doc["message"].startswith("took back declare Poland") and doc["dropped"] == []
    assert json.loads(request(server, "/api/overview")[1])["pending"] == ["declare Denmark"]
    for bad in ({"index": "0"}, {"index": True}, {}):
        status, body = request(server, "/api/takeback", method="POST", body=bad)
        assert status == 400 and b"which pending order" in body
    request(server, "/api/undo", method="POST", body={})
    assert json.loads(request(server, "/api/overview")[1])["pending"] == []


def test_the_kinds_on_offer_and_no_purchase_in_a_war_declaration(server: PlayServer) -> None:
    kinds = [k["kind"] for k in json.loads(request(server, "/api/offers")[1])["kinds"]]
    assert kinds[:4] == ["declare", "vichy", "surrender", "enter"] and "stand" in kinds
    assert json.loads(request(server, "/api/purchases")[1])["items"] == []


def test_no_key_and_no_sealed_commitment_reach_the_page(server: PlayServer, game_1939: Duo) -> None:
    pages = [
        request(server, p)[1]
        for p in (
            f"/?token={server.token}",
            "/api/overview",
            "/api/map?region=europe",
            "/api/reports",
            "/api/legal?kind=declare",
            "/api/hex?where=Warsaw",
            "/api/suggestion",
            "/api/offers",
            "/api/purchases",
        )
    ]
    secrets = [
        line.removeprefix("secret:").strip().encode()
        for f in sorted(game_1939.axis.home.glob("*.key"))
        for line in f.read_text().splitlines()
        if line.startswith("secret:")
    ]
    assert len(secrets) == 1
    # The allies sealed their war declaration: only its commitment travelled, and even
    # that digest is no business of the page.
    sealed = LocalGame(game_1939.axis.ws, game_1939.gid, game_1939.axis.home).history_file(2)
    assert sealed is not None
    (record,) = sealed.body["records"]
    assert record[0] == "commit"
    digest = bytes(record[1])
    secrets += [digest.hex().encode(), base64.b64encode(digest)]
    for page in pages:
        for secret in secrets:
            assert secret not in page


def test_launch_is_entered_from_outside_with_the_token_only_and_leads_on_to_the_page(server: PlayServer) -> None:
    """The launch file is a page of no origin of ours, so /launch takes a cross-site
    navigation; it still wants the token and this server's name, and answers nothing but
    the way on: the API stays closed to cross-site requests, token or not."""
    cross = {"Sec-Fetch-Site": "cross-site"}
    status, body = request(server, f"/launch?token={server.token}", token=None, headers=cross)
    assert status == 200 and f'url=/?token={server.token}"'.encode() in body and b"<script" not in body
    assert request(server, "/launch?token=wrong", token=None, headers=cross)[0] == 403
    assert request(server, "/launch", token=None, headers=cross)[0] == 403
    rebound = {**cross, "Host": f"evil.example:{server.port}"}
    assert request(server, f"/launch?token={server.token}", token=None, headers=rebound)[0] == 403
    assert request(server, f"/api/overview?token={server.token}", token=None, headers=cross)[0] == 403
    assert request(server, "/launch", method="POST", body={}, headers=cross)[0] == 403


def test_reaction_orders_are_set_from_the_page_and_a_wrong_mode_is_refused(server: PlayServer) -> None:
    doc = json.loads(request(server, "/api/overview")[1])
    assert doc["reactions"]["intercept"] == doc["reactions"]["land"] == "ask"
    status, body = request(server, "/api/react", method="POST", body={"intercept": "bot", "land": "bot"})
    assert status == 200 and "interception: the computer decides" in json.loads(body)["message"]
    doc = json.loads(request(server, "/api/overview")[1])
    assert (doc["reactions"]["intercept"], doc["reactions"]["land"]) == ("bot", "bot")
    assert "landing of your aircraft: the computer decides" in doc["reactions"]["words"]
    status, body = request(server, "/api/react", method="POST", body={"land": "pass"})
    assert status == 400 and "landing: 'pass' is not one of ask, bot" in json.loads(body)["error"]
    status, body = request(server, "/api/react", method="POST", body={"intercept": 3})
    assert status == 400 and json.loads(body)["error"] == "intercept is text: ask, bot or pass"
    assert json.loads(request(server, "/api/overview")[1])["reactions"]["land"] == "bot"


def test_the_page_gives_the_retreat_order_and_the_interceptors_as_pbem_react_does(game_1939: Duo) -> None:
    p = game_1939.axis
    with served(game_1939) as server:
        status, body = request(
            server,
            "/api/react",
            method="POST",
            body={"intercept": "bot", "land": "bot", "only": "#7, 31", "retreat": "toward:Warsaw"},
        )
        assert status == 200, body
        said = json.loads(body)["message"]
        assert "with #7, #31 only" in said and "retreats: toward " in said and "(Warsaw)" in said
        doc = json.loads(request(server, "/api/overview")[1])["reactions"]
        assert (doc["retreat"], doc["only"]) == ("toward", [7, 31]) and doc["words"] == said
        # sealed as `pbem react` seals: the same orders, in the same form, in the store
        by_page = reactions.of(LocalGame(p.ws, game_1939.gid, p.home))
        warsaw = engine_link.api().parse_order(
            turn.my_turn(LocalGame(p.ws, game_1939.gid, p.home)).work.state, "axis", "retreat [Warsaw]"
        )
        assert by_page.to_wire() == ["bot", "bot", [7, 31], [int(warsaw.args[0])]]
        # wrong words get one line each, and nothing changes
        for field, value, error in (
            ("retreat", "toward:", "retreat: 'toward:' is not ask, bot or toward:PLACE"),
            ("retreat", "toward:Atlantis", "retreat: there is no city named Atlantis"),
            ("only", "#7 seven", "aircraft: 'seven' is not a unit number like #7"),
            ("retreat", 5, "retreat is text: ask, bot or toward:PLACE"),
        ):
            status, body = request(server, "/api/react", method="POST", body={field: value})
            assert status == 400 and json.loads(body)["error"].startswith(error), body
        assert reactions.of(LocalGame(p.ws, game_1939.gid, p.home)) == by_page
        # every part back to "I decide": nothing is left to seal
        status, body = request(
            server, "/api/react", method="POST", body={"intercept": "ask", "land": "ask", "only": "", "retreat": "ask"}
        )
        assert status == 200 and reactions.of(LocalGame(p.ws, game_1939.gid, p.home)).silent()


def test_orders_given_ahead_are_kept_and_taken_back_and_a_wrong_line_is_named(server: PlayServer) -> None:
    doc = json.loads(request(server, "/api/ahead")[1])
    assert [s["step"] for s in doc["steps"]] == ["deployment", "build"] and doc["notes"] == []
    status, body = request(server, "/api/ahead/suggestion?step=deployment")
    proposal = json.loads(body)["text"].splitlines()
    assert status == 200 and proposal[0].startswith("place_land Germany ")
    assert "pbem" not in json.loads(body)["about"]
    given = {"step": "deployment", "lines": [proposal[0], "place_land Germany armor 5 10 1,1"], "fallback": "none"}
    status, body = request(server, "/api/ahead", method="POST", body=given)
    assert status == 400 and json.loads(body)["error"] == "line 2: hex 1,1 has no land"
    refusals = {
        "War declaration is the decision now: give its orders under My turn": {"step": "war_declaration", "lines": []},
        "the fallback must be one of ask, bot, none, not 'maybe'": {"step": "build", "lines": [], "fallback": "maybe"},
        "say which coming step the orders are for": {"lines": []},
        "orders come as a list of lines": {"step": "build", "lines": "pass"},
    }
    for said, body_ in refusals.items():
        status, body = request(server, "/api/ahead", method="POST", body=body_)
        assert status == 400 and json.loads(body)["error"] == said
    assert json.loads(request(server, "/api/ahead")[1])["steps"][0]["kept"] is None
    status, body = request(server, "/api/ahead", method="POST", body=given | {"lines": proposal[:1]})
    assert status == 200 and json.loads(body)["message"].startswith("1 order(s) kept for the deployment of 1939-09")
    (step, _) = json.loads(request(server, "/api/ahead")[1])["steps"]
    assert (step["kept"], step["fallback"]) == ([proposal[0].split("  # ")[0]], "none")
    status, body = request(server, "/api/ahead", method="POST", body={"step": "deployment", "lines": []})
    assert status == 200 and "taken back" in json.loads(body)["message"]
    assert json.loads(request(server, "/api/ahead")[1])["steps"][0]["kept"] is None


def test_the_changes_since_my_last_move_name_their_hexes_and_refuse_a_wrong_window(server: PlayServer) -> None:
    window = json.loads(request(server, "/api/map?region=europe")[1])["window"]
    status, body = request(server, f"/api/changes?window={window}")
    doc = json.loads(body)
    assert status == 200 and set(doc) == {"since", "moves", "attacks", "hands", "at", "scale"}
    assert doc["scale"] > 0 and set(doc["at"]) <= {h for m in doc["moves"] for h in (m["from"], m["to"])} | {
        x["hex"] for x in doc["attacks"] + doc["hands"]
    }
    status, body = request(server, "/api/changes?window=1,2,3")
    assert status == 400 and json.loads(body)["error"] == "'1,2,3' is not a window; write COL0,ROW0,COL1,ROW1"


def test_the_help_lists_every_order_the_engine_knows_and_marks_those_of_the_decision_now(server: PlayServer) -> None:
    from engine import api

    doc = json.loads(request(server, "/api/help")[1])
    kinds = {k["kind"]: k for k in doc["kinds"]}
    assert list(kinds) == [k.kind for k in api.order_reference()]  # the engine's own reference, whole
    # The game waits for the Axis's war declarations: `declare` is on offer, `move` is not.
    assert kinds["declare"]["now"] and not kinds["move"]["now"]
    assert kinds["move"]["example"].startswith("move ") and kinds["move"]["arguments"]


def test_the_help_gives_the_rules_with_the_topic_of_the_step_awaited(server: PlayServer) -> None:
    from pbem.play import rules_reference

    rules = json.loads(request(server, "/api/help")[1])["rules"]
    # The game waits for the war declarations: their rules come first in the panel.
    assert rules["now"] == "war-declaration"
    assert [t["slug"] for t in rules["topics"]] == [t.slug for t in rules_reference.topics()]
    declaring = next(t for t in rules["topics"] if t["slug"] == "war-declaration")
    assert declaring["title"] == "War declaration"
    assert declaring["blocks"][0] == {"kind": "p", "text": "In the engine: engine/war.py"}


def test_the_free_hexes_of_each_waiting_group_are_the_engine_s_legal_placing_orders(deploying: Duo) -> None:
    with served(deploying) as server:
        window = json.loads(request(server, "/api/map?region=world")[1])["window"]
        status, body = request(server, f"/api/free?window={window}")
        doc = json.loads(body)
        p = deploying.axis
        state = turn.list_draft(turn.my_turn(LocalGame(p.ws, deploying.gid, p.home))).state
        legal = [api.format_action(state, a) for a in api.legal_matching(state, "axis", kinds=("place", "place_land"))]
        assert status == 200 and doc["placings"] and doc["scale"] > 0
        for placing in doc["placings"]:
            lit = {r["hex"] for r in placing["hexes"]}
            assert lit <= set(doc["marks"])
            for w in placing["waiting"]:
                # the order written once, filled for each lit hex, gives exactly the unit's
                # legal placing orders (land points: the most the engine accepts in that hex)
                head = w["order"].removesuffix(" HEX").removesuffix(" POINTS")
                own = [o for o in legal if o.rsplit(" ", 1 if w["id"] is not None else 2)[0] == head]
                assert lit == {o.rsplit(" ", 1)[1] for o in own}
                if w["id"] is None:
                    assert w["order"].endswith(" POINTS HEX") and set(w["points"]) == lit
                    for hex_, points in w["points"].items():
                        most = max(int(o.split()[-2]) for o in own if o.endswith(f" {hex_}"))
                        assert points == most
                        assert w["order"].replace("POINTS", str(points)).replace("HEX", hex_) in own
                else:
                    assert w["order"].endswith(" HEX") and w["points"] is None
                    assert {w["order"].replace("HEX", h) for h in lit} == set(own)
            assert all(r["limit"] is None or r["used"] <= r["limit"] for r in placing["hexes"])
        land = [w for p in doc["placings"] for w in p["waiting"] if w["id"] is None]
        assert land and all(" points" in w["label"] for w in land)
        status, body = request(server, "/api/free?window=nowhere")
        assert status == 400 and "window" in json.loads(body)["error"]


def test_nothing_waits_to_be_placed_in_a_war_declaration(server: PlayServer) -> None:
    status, body = request(server, "/api/free")
    assert status == 200 and json.loads(body) == {"placings": [], "marks": {}, "scale": 0}


def _axis_now(duo: Duo) -> api.GameState:
    p = duo.axis
    return turn.my_turn(LocalGame(p.ws, duo.gid, p.home)).work.state


def test_the_stack_viewer_lists_every_unit_of_a_hex_as_the_engine_reads_it(moving: Duo) -> None:
    state = _axis_now(moving)
    board = api.board(state, "axis")
    by_hex: dict[int, list[Any]] = {}
    for u in board.units:
        by_hex.setdefault(u.hex, []).append(u)
    h, units = max(by_hex.items(), key=lambda kv: (len(kv[1]), -kv[0]))
    where = board.map.grid.label(h)
    with served(moving) as server:
        status, body = request(server, f"/api/stack?where={where}")
        doc = json.loads(body)
        assert status == 200 and doc["hex"] == where and len(doc["units"]) > 1
        assert sorted(u["id"] for u in doc["units"]) == sorted(u.id for u in units)
        report = {u.label: u for u in api.hex_report(state, "axis", where).units}
        for u in doc["units"]:
            assert u["label"] in report and u["supply"] == report[u["label"]].supply
            assert u["mine"] == (u["side"] == "axis") and u["label"].startswith(f"#{u['id']} {u['country']} ")
            assert u["counter"] in u["label"] and u["kind"] and u["numbers"]
            if u["kind"] in ("infantry", "armor"):
                strength, move = u["counter"].split("-")
                assert u["numbers"] == f"strength {strength}, movement {move}"
        # what a ship carries is listed with it
        carried = [u for u in board.units if u.aboard >= 0]
        if carried:
            c = carried[0]
            ship = json.loads(request(server, f"/api/stack?where={board.map.grid.label(c.hex)}")[1])
            (carrier,) = [u for u in ship["units"] if u["id"] == c.aboard]
            assert c.label in carrier["cargo"]
        status, body = request(server, "/api/stack?where=[Atlantis]")
        assert status == 400 and "Atlantis" in json.loads(body)["error"]


@pytest.fixture(scope="module")
def second_moving(tmp_path_factory: pytest.TempPathFactory) -> Duo:
    """The axis (the person) in its second movement of 1939-10, when land units go by rail."""
    duo = branch_duo(tmp_path_factory.mktemp("rail"), *INCOME)
    bot_answers(duo)
    p = duo.axis
    while api.decision(_axis_now(duo)).phase != "axis.second_movement":
        turn.orders(p.ws, duo.gid, ["pass"], p.home, True)
        try:
            turn.send(p.ws, duo.gid, p.home)
        except PbemError as exc:
            assert "decision is not finished" in str(exc)  # the next phase is mine too: same file
            continue
        bot_answers(duo)
    return duo


def test_a_drop_where_no_move_fits_offers_the_engine_s_rail_order_there(second_moving: Duo) -> None:
    state = _axis_now(second_moving)
    grid = state.world.map.grid
    german = sorted(
        (u for u in state.units.values() if u.country == "Germany" and u.is_land and u.on_map and u.carrier < 0),
        key=lambda u: u.id,
    )
    found = None
    for u in german:
        rails = {int(a.args[-1]) for a in api.legal_matching(state, "axis", units=(u.id,), kinds=("rail",))}
        moves = {int(a.args[-1]) for a in api.legal_matching(state, "axis", units=(u.id,), kinds=("move",))}
        if rails - moves and moves & rails:
            found = u, min(rails - moves), min(moves & rails)
            break
    assert found is not None, "no German land unit may go by rail where it cannot walk"
    unit, by_rail, both = found
    far, near = grid.label(by_rail), grid.label(both)
    with pytest.raises(api.IllegalAction):
        api.check(state, "axis", api.Action("move", (unit.id, by_rail)))
    with served(second_moving) as server:
        before = read_only(second_moving)
        doc = json.loads(request(server, f"/api/drop?unit={unit.id}&to={far}")[1])
        assert doc["orders"] == [f"rail #{unit.id} {far}"] and doc["refused"] == []
        # a plain move is offered first wherever one fits, rail only when none does
        doc = json.loads(request(server, f"/api/drop?unit={unit.id}&to={near}")[1])
        assert doc["orders"] == [f"move #{unit.id} {near}"]
        # where nothing of the unit's fits, the move's own reason, in one line
        sea = next(h for h in range(state.world.map.size) if not state.world.map.has_land(h))
        doc = json.loads(request(server, f"/api/drop?unit={unit.id}&to={grid.label(sea)}")[1])
        (why,) = doc["refused"]
        assert doc["orders"] == [] and why.startswith(f"#{unit.id} ") and "\n" not in why
        assert read_only(second_moving) == before  # asking orders nothing
        # the order offered is one the engine takes, and the unit then stands there
        status, body = request(server, "/api/orders", method="POST", body={"lines": [f"rail #{unit.id} {far}"]})
        assert status == 200, body
        assert _axis_now(second_moving).units[unit.id].hex == by_rail
        assert request(server, "/api/undo", method="POST", body={})[0] == 200


def test_a_drop_gives_the_engine_s_move_there_or_its_reason_in_one_line(moving: Duo) -> None:
    state = _axis_now(moving)
    board = api.board(state, "axis")
    grid = board.map.grid
    german = [u for u in board.units if u.country == "Germany" and u.domain == "land" and u.aboard < 0]
    moves = {}
    for u in german[:6]:
        found = [a for a in api.legal_matching(state, "axis", units=(u.id,), kinds=("move",)) if a.args[-1] != u.hex]
        if found:
            moves[u.id] = found[0]
    assert moves, "no German land unit may move"
    uid, legal = next(iter(moves.items()))
    target = grid.label(int(legal.args[-1]))
    unit = next(u for u in german if u.id == uid)
    far = next(h for h in range(board.map.size) if grid.distance(h, unit.hex) > 30 and board.map.has_land(h))
    with served(moving) as server:
        before = read_only(moving)
        status, body = request(server, f"/api/drop?unit={uid}&to={target}")
        doc = json.loads(body)
        assert status == 200 and doc["orders"] == [f"move #{uid} {target}"] and doc["refused"] == []
        assert doc["hex"] == target and doc["at"] == {}  # no map named: nothing to draw
        window = json.loads(request(server, "/api/map?region=world")[1])["window"]
        doc = json.loads(request(server, f"/api/drop?unit={uid}&to={target}&window={window}")[1])
        assert doc["at"] == {target: list(server.desk.centres(window)[1][target])} and doc["scale"] > 0
        status, body = request(server, f"/api/drop?unit={uid}&to={grid.label(far)}")
        doc = json.loads(body)
        assert status == 200 and doc["orders"] == []
        (why,) = doc["refused"]
        with pytest.raises(api.IllegalAction) as refusal:
            api.check(state, "axis", api.Action("move", (uid, far)))
        assert why == str(refusal.value) and why.startswith(f"#{uid} ") and "\n" not in why
        status, body = request(server, f"/api/drop?unit={uid}&to={grid.label(unit.hex)}")
        assert "already in hex" in json.loads(body)["refused"][0]
        # an enemy unit is refused with the engine's words, the stack's others still offered
        enemy = next(u for u in board.units if u.side == "allies")
        status, body = request(server, f"/api/drop?unit={uid},{enemy.id}&to={target}")
        doc = json.loads(body)
        assert doc["orders"] == [f"move #{uid} {target}"] and "not a unit of the axis" in doc["refused"][0]
        assert read_only(moving) == before  # asking what a drop orders orders nothing
        # the order offered is one the engine takes
        status, body = request(server, "/api/orders", method="POST", body={"lines": [f"move #{uid} {target}"]})
        assert status == 200, body
        assert request(server, "/api/undo", method="POST", body={})[0] == 200
        assert request(server, "/api/drop?unit=&to=1,1")[0] == 400
