"""`pbem import` reports what arrived in full, and keeps each file's report for its mail."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.mail.message import TurnName
from pbem.mail.notify import turn_mail_text
from pbem.play import exchange, turn
from pbem.protocol import machine
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo


def test_import_reports_the_file_and_my_automatic_answer(duo: Duo) -> None:
    turn.bot_play(duo.allies.ws, duo.gid, home=duo.allies.home)
    duo.deliver("axis")
    turn.bot_play(duo.axis.ws, duo.gid, home=duo.axis.home)
    (res,) = duo.deliver("allies")
    assert res.status == "applied" and len(res.replies) == 1
    # The received file's report (the axis list in the clear), then my automatic answer's:
    # my hidden list opened, which is when both lists take effect.
    received, answered = res.report.split("\nfile ")
    assert received.startswith(f"file {res.seq} of game {duo.gid} (axis)")
    assert "axis hand in their orders in the clear" in received
    assert answered.startswith(f"{res.seq + 1} of game {duo.gid} (allies)") and "allies orders revealed" in answered


def test_import_reports_moves_and_dice(duo: Duo) -> None:
    seen = []
    for _ in range(12):
        side = duo.to_move()
        assert side is not None
        me = duo.player(side)
        exp = machine.expected(turn.my_turn(LocalGame(me.ws, duo.gid, me.home)).work)
        if exp is not None and exp.side == side:
            turn.bot_play(me.ws, duo.gid, home=me.home)
        seen += [r.report for r in duo.deliver("allies" if side == "axis" else "axis")]
        seen += [r.report for r in duo.deliver(side)]
    text = "\n".join(seen)
    assert "rolled " in text and "axis: money" in text and "allies: money" in text
    # The stand-in's players may step back and forth: a side whose position ended
    # elsewhere than it started was reported moving.
    final = duo.game("axis").state.d["pos"]
    for side, start in (("axis", 5), ("allies", 15)):
        assert final[side] == start or f"{side} moved" in text


def test_the_mail_of_a_file_names_the_awaited_phase_and_carries_its_report(duo: Duo) -> None:
    turn.bot_play(duo.allies.ws, duo.gid, home=duo.allies.home)
    (sent,) = duo.outbox("allies")
    seq = int(sent.name.split("-")[1])
    kept = exchange.file_report(duo.allies.ws.root, duo.gid, seq, home=duo.allies.home)
    assert kept is not None and kept["text"].startswith(f"file {seq} of game {duo.gid}")
    subject, body = turn_mail_text(
        exchange, duo.allies.ws.root, TurnName(duo.gid, seq, "allies"), {"home": duo.allies.home}
    )
    assert subject == f"[pbem] {kept['subject']} - game {duo.gid}" and kept["subject"][:4].isdigit()
    assert kept["text"] in body and "pbem import" in body


def test_the_invitation_mail_says_what_it_is_and_how_to_join(duo: Duo) -> None:
    mine = duo.player("axis")
    subject, body = turn_mail_text(exchange, mine.ws.root, TurnName(duo.gid, 0, "axis"), {"home": mine.home})
    assert subject.startswith("[pbem] invitation to a tiny game") and subject.endswith(duo.gid)
    assert f"pbem join .pbem/invitations/{duo.gid}.pbem --me" in body


def test_pbem_log_since_mine_starts_after_my_last_decision(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 12)
    me = duo.player("axis")
    runner = CliRunner()
    whole = json.loads(runner.invoke(app, ["log", duo.gid, "--json", "-w", str(me.ws.root)]).output)
    assert [f["seq"] for f in whole] == list(range(1, duo.game("axis").seq + 1))
    decided = [f["seq"] for f in whole if f["side"] == "axis" and any(e["by"] == "person" for e in f["entries"])]
    automatic = [f["seq"] for f in whole if f["side"] == "axis" and f["seq"] > max(decided)]
    args = ["log", duo.gid[:6], "--since-mine", "--json", "-w", str(me.ws.root)]
    doc = json.loads(runner.invoke(app, args).output)
    head = duo.game("axis").seq
    # My automatic files after my last decision are in the window; my unsent automatic records close it.
    assert [f["seq"] for f in doc if f["seq"] <= head] == list(range(max(decided) + 1, head + 1))
    assert all(seq in [f["seq"] for f in doc] for seq in automatic)
    assert all(f["seq"] == head + 1 and f["side"] == "axis" for f in doc if f["seq"] > head)
    assert all(f["side"] in ("axis", "allies") and f["entries"] for f in whole)
