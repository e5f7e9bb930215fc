"""What happened since my last decision, and the decision awaited, in a real 1939 game:
the mail that says it is my move, `pbem status` and `pbem log --since-mine` (pbem/play/since.py).

Two bots play the first month by files; after each delivery the side whose decision it is
is asked what its notice would say.  The subjects of the files' own reports, which notices
used before, are kept beside them: they name the step the file left the game in, before
the receiver's automatic records (a roll its own dice value finishes, its sealed deployment).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.play import exchange, history, report, since, status
from pbem.protocol import engine_link
from tests.protocol.conftest import Duo, make_duo

ADVANCE = "1939-09 Axis advance"


@dataclass
class Walk:
    duo: Duo
    #: (side, last accepted file) -> (the notice, the subject of that file's kept report)
    notices: dict[tuple[str, int], tuple[dict[str, Any], str]] = field(default_factory=dict)

    def ws(self, side: str) -> Path:
        return self.duo.player(side).ws.root


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Walk]:
    """The 1939 game played until the axis, its own dice value having finished its attacks'
    roll, must decide its advance: the moment the module's tests look at."""
    engine_link.use(None)
    found = Walk(make_duo(tmp_path_factory.mktemp("since"), "1939"))
    for _ in range(40):
        found.duo.step()
        for side in ("axis", "allies"):
            p = found.duo.player(side)
            info = exchange.game_info(p.ws.root, found.duo.gid, home=p.home)
            seq = found.duo.game(side).seq
            if info.my_turn and (side, seq) not in found.notices:
                note = exchange.notice(p.ws.root, found.duo.gid, home=p.home)
                kept = exchange.file_report(p.ws.root, found.duo.gid, seq, home=p.home)
                assert note is not None and kept is not None
                found.notices[side, seq] = (note, kept["subject"])
        if any(note["decision"] == ADVANCE for note, _ in found.notices.values()):
            yield found
            return
    raise AssertionError("the axis never had to decide an advance in 40 files")


def test_the_deployment_is_named_not_the_war_declaration(walk: Walk) -> None:
    # The allies receive the axis' war declarations; their own (sealed) ones go with their
    # deployment, so the deployment is the decision they face.
    (note, old) = next(v for (side, _), v in walk.notices.items() if side == "allies")
    assert old == "1939-09 War declaration"
    assert note["decision"] == "1939-09 Deployment"
    assert "Deployment" in note["status"] and "your move" in note["status"]


def test_the_advance_is_named_once_my_dice_finished_the_roll(walk: Walk) -> None:
    (seq, (note, old)) = next((s, v) for (side, s), v in walk.notices.items() if v[0]["decision"] == ADVANCE)
    assert old == "1939-09 Axis combat roll"  # what the allies' file left: the roll, before my dice
    # My own results are in it: the attacks my dice value decided, with odds, dice and losses.
    combats = [line for line in note["short"] if line.startswith("attack on ")]
    assert combats, note["short"]
    # A combat whose attackers or defenders were all gone before its dice (an earlier combat
    # emptied the hex, air losses took every attacker) has no odds; it says which happened.
    resolved = [c for c in combats if not c.endswith((": no attackers", ": no defenders", ": supply only"))]
    assert resolved, combats
    assert all(
        re.search(r"odds \d+\.\d\d, dice [01]\.\d{3} \(defender\) and [01]\.\d{3} \(attacker\)", c) for c in resolved
    )
    assert "your automatic answer (it goes out with your next file)" in note["full"]
    # The window opens after my last decision (my combat orders), nothing of before it.
    first = _last_decision(walk, seq) + 1
    assert note["full"].startswith(f"file {first} of game {walk.duo.gid}")


def test_status_opens_with_the_short_summary(walk: Walk) -> None:
    gid = walk.duo.gid
    out = CliRunner().invoke(app, ["status", gid[:6], "-w", str(walk.ws("axis"))])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    note = exchange.notice(walk.ws("axis"), gid)
    assert note is not None
    assert lines[0] == f"game {gid}: since your last decision:"
    assert lines[1 : 1 + len(note["short"])] == [f"  {line}" for line in note["short"]]
    assert lines[1 + len(note["short"])] == note["status"]
    # The daemon's status line and the lines of other commands do not carry it.
    assert status.lines(walk.duo.axis.ws, gid)[0] == note["status"]


def test_log_since_mine_is_the_same_window(walk: Walk) -> None:
    gid, ws = walk.duo.gid, walk.duo.axis.ws
    docs = json.loads(_log(ws.root, gid, "--json"))
    files = history.workspace_files(ws, gid)
    head = files[-1].seq
    stored = since.stored(ws.game_paths(gid), "axis", head)
    assert [d["seq"] for d in docs] == [doc["seq"] for _, doc in stored]
    assert docs[-1]["seq"] == head + 1  # my automatic records, waiting for my next file
    assert docs[0]["seq"] == _last_decision(walk, head) + 1
    text = _log(ws.root, gid)
    assert text.rstrip().endswith(stored[-1][0].rstrip())
    assert "attack on" in text and "odds" in text


def test_the_notice_picture_frames_what_happened(walk: Walk, monkeypatch: pytest.MonkeyPatch) -> None:
    p = walk.duo.axis
    found = exchange.notice_picture(p.ws.root, walk.duo.gid, home=p.home)
    assert found is not None
    name, png = found
    assert name == f"{walk.duo.gid}-{walk.duo.game('axis').seq:05d}-now.png"
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # Without the renderer the notice goes without a picture, and says nothing worse.
    from scenarios import gameview

    def missing(svg: str, fast: bool = False) -> bytes:
        raise ImportError("No module named 'resvg_py'")

    monkeypatch.setattr(gameview, "render_png", missing)
    assert exchange.notice_picture(p.ws.root, walk.duo.gid, home=p.home) is None


def _log(root: Path, gid: str, *more: str) -> str:
    out = CliRunner().invoke(app, ["log", gid, "--since-mine", *more, "-w", str(root)])
    assert out.exit_code == 0, out.output
    return out.output


def _last_decision(walk: Walk, head: int) -> int:
    """The axis' last file up to ``head`` with a decision of its own in it, by its kept report."""
    paths = walk.duo.axis.ws.game_paths(walk.duo.gid)
    for seq in range(head, 0, -1):
        doc = json.loads(paths.path(paths.report(seq)).read_text())
        if doc["report"]["side"] == "axis" and any(e["by"] == "person" for e in doc["report"]["entries"]):
            return seq
    return 0


def test_the_invitation_mail_says_how_to_install_and_join_as_the_readme_does() -> None:
    text = report.invitation("0123456789ab", "1939", "alice", "axis")["text"]
    install = f"    {report.INSTALL}\n"
    join = f"    {report.KEYGEN} && pbem join 0123456789ab-00000-axis.pbem --me YOUR-NAME\n"
    assert install in text and join in text
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert f"\n{report.INSTALL}\n" in readme
    assert f"\n{report.KEYGEN} && pbem join GAME-00000-SIDE.pbem --me YOUR-NAME\n" in readme


def test_the_short_form_counts_and_names_what_matters() -> None:
    combat = {
        "kind": "attack",
        "place": "166,56 (Krakow)",
        "side": "axis",
        "outcome": "resolved",
        "odds": "12/5",
        "defender_draw": "101/250",
        "attacker_draw": "431/1000",
        "defender_points": 5,
        "attacker_loss": 1,
        "defender_hits": [{"unit": 397, "points": 5, "eliminated": True}],
        "attacker_hits": [{"unit": 260, "points": 1, "eliminated": False}],
        "hex_taken": True,
    }
    events = [
        {"kind": "chance", "what": "weather 1939-10: polar zone: air units grounded", "text": "weather..."},
        {"kind": "chance", "what": "interception in 166,53: ...", "text": "interception in 166,53: ..."},
        {"kind": "combat", "combat": combat, "text": "attack on ..."},
        {"kind": "eliminated", "side": "allies", "units": [401], "text": "#401 eliminated"},
        {"kind": "moved", "side": "axis", "units": [260], "text": "#260 moved"},
        {"kind": "control", "country": "Germany", "what": "Poland", "hexes": ["165,55", "166,56", "165,48"],
         "text": "Germany takes control of 3 hexes from Poland: 165,55 (Katowice), 166,56 (Krakow), 165,48"},
        {"kind": "money", "side": "axis", "text": "Germany: money $1000B -> $2600B"},
        {"kind": "money", "side": "allies", "text": "France: money $600B -> $1700B"},
        {"kind": "conquered", "country": "Poland", "text": "Poland is conquered"},
    ]  # fmt: skip
    doc = {"seq": 5, "side": "allies", "entries": [{"by": "program", "events": events}]}
    assert since.short([doc], "axis") == [
        "weather...",
        "attack on 166,56 (Krakow) by the Axis: odds 2.40, dice 0.404 (defender) and 0.431 (attacker): "
        "defender loses 5, attacker loses 1; the hex is taken",
        "Germany takes 3 hexes from Poland (Katowice, Krakow)",
        "Poland is conquered",
        "your money: Germany $1000B -> $2600B",
        "units eliminated: 2 Allied",
    ]
    assert since.short([doc] * 5, "axis")[-1] == "and 11 more (`pbem log GAME --since-mine` tells all)"
    assert len(since.short([doc] * 5, "axis")) == since.SHORT_LINES
    assert since.short([], "axis") == []
