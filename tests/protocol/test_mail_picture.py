"""The picture of the front a turn mail carries: framed around what the file did, as its
receiver sees the position, made once per mail, and switched off by ``attach_map``."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest

from pbem.mail import smtp
from pbem.mail.config import parse_config
from pbem.mail.message import TurnName, parse_turn_name, sha256_hex
from pbem.mail.outbox import Outbox
from pbem.mail.outqueue import Entry, SendQueue
from pbem.mail.threads import ThreadBook
from pbem.play import exchange, gamemap, history, turn
from pbem.protocol import machine
from pbem.protocol.turnfile import other
from scenarios import gameview
from tests.protocol.conftest import Duo

RECORD = Path(__file__).resolve().parents[1] / "data" / "records" / "1939-seed7"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_picture_is_a_screenful_around_the_places(monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.protocol import engine_link

    engine_link.use(None)  # this test draws a real 1939 position
    game = history.position(history.record_files(RECORD), at=12)
    windows: list[gameview.Window] = []
    real_svg = gameview.render_svg
    monkeypatch.setattr(gameview, "render_svg", lambda board, w: windows.append(w) or real_svg(board, w))
    # Two places in Poland and one in China: the larger group is framed.
    png = gamemap.mail_picture(game, "allies", ["164,49", "165,51", "251,73", "no hex"])
    assert png is not None
    (window,) = windows
    assert (window.cols, window.rows) == (gamemap.MAIL_COLS, gamemap.MAIL_ROWS)
    assert window.col0 <= 164 and window.col1 >= 165 and window.row0 <= 49 and window.row1 >= 51
    width, height = png_size(png)
    # About 1400 by 1000 pixels: the Europe view has seven times the pixels, and raster time follows them.
    assert 1000 <= width <= 1500 and 700 <= height <= 1100
    assert gamemap.mail_picture(game, "allies", ["far,away"]) is None


def rewrite_report(duo: Duo, side: str, seq: int, places: list[str]) -> None:
    """Give the kept report of a file an event with places (the stand-in engine has no map)."""
    path = duo.player(side).ws.game_dir(duo.gid) / "reports" / f"{seq:05d}.json"
    doc = json.loads(path.read_text())
    doc["report"]["entries"][0]["events"].append({"kind": "moved", "text": "x", "hexes": places})
    path.write_text(json.dumps(doc))


def test_exchange_draws_the_receivers_view_of_the_files_position(duo: Duo, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[int, str, list[str]]] = []
    monkeypatch.setattr(
        gamemap, "mail_picture", lambda game, side, places: drawn.append((game.seq, side, places)) or b"PNG"
    )
    turn.bot_play(duo.allies.ws, duo.gid, home=duo.allies.home)
    sent = max(duo.allies.ws.outbox.glob("*.pbem"))  # not taken from the duo: deliver() sends it below
    seq = int(sent.name.split("-")[1])
    where = (duo.allies.ws.root, duo.gid, seq)
    # A file that moved nothing on the map gets no picture.
    assert exchange.file_picture(*where, home=duo.allies.home) is None and not drawn
    rewrite_report(duo, "allies", seq, ["12,7", "3,4", "12,7"])
    found = exchange.file_picture(*where, home=duo.allies.home)
    assert found == (f"{duo.gid}-{seq:05d}-front.png", b"PNG")
    assert drawn == [(seq, "axis", ["12,7", "3,4"])]  # the receiver's side, each place once
    # Once the game has gone past the file, its picture would show a later position.
    duo.deliver("axis")
    turn.bot_play(duo.axis.ws, duo.gid, home=duo.axis.home)
    duo.deliver("allies")
    assert exchange.file_picture(*where, home=duo.allies.home) is None


class PictureExchange:
    """The game layer as the outbox sees it, counting the pictures it is asked for."""

    def __init__(self) -> None:
        self.asked = 0

    def import_file(self, workspace: Path, path: Path) -> Any:
        raise AssertionError("not used")

    def game_info(self, workspace: Path, game_id: str) -> Any:
        raise AssertionError("not used")

    def file_picture(self, workspace: Path, game_id: str, seq: int) -> tuple[str, bytes]:
        self.asked += 1
        return f"{game_id}-{seq:05d}-front.png", b"\x89PNG picture"


def outbox(tmp_path: Path, attach_map: bool) -> tuple[Outbox, PictureExchange, Entry]:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    raw = {
        "address": "me@example.org",
        "workspace": str(workspace),
        "attach_map": attach_map,
        "imap": {"host": "imap.example.org"},
        "smtp": {"host": "smtp.example.org"},
    }
    config = parse_config(raw, tmp_path)
    fx = PictureExchange()
    box = Outbox(config, fx, SendQueue(workspace, 1, 2), ThreadBook(workspace), {})  # type: ignore[arg-type]
    name = "0123456789ab-00007-axis.pbem"
    (box.outbox / name).write_bytes(b"turn file")
    entry = Entry(key=f"{name}:x", kind="turn", recipient="you@example.org", message_id="<m@x>", references=[])
    entry.filename, entry.sha256 = name, sha256_hex(b"turn file")
    return box, fx, entry


def attachments(msg: Any) -> list[tuple[str, str]]:
    return [(part.get_filename(), part.get_content_type()) for part in msg.iter_attachments()]


def test_the_turn_mail_carries_the_picture_after_the_file(tmp_path: Path) -> None:
    box, fx, entry = outbox(tmp_path, attach_map=True)
    msg = box.build(entry)
    assert attachments(msg) == [
        ("0123456789ab-00007-axis.pbem", "application/x-pbem"),
        ("0123456789ab-00007-front.png", "image/png"),
    ]
    box.build(entry)  # a retry sends the same picture without drawing it again
    assert fx.asked == 1
    turn_name = parse_turn_name(entry.filename)
    assert turn_name is not None and box.picture("other", TurnName(turn_name.game_id, 3, "contact")) == []


def test_attach_map_false_sends_the_file_alone(tmp_path: Path) -> None:
    box, fx, entry = outbox(tmp_path, attach_map=False)
    assert attachments(box.build(entry)) == [("0123456789ab-00007-axis.pbem", "application/x-pbem")]
    assert fx.asked == 0


def test_no_picture_for_a_file_that_awaits_the_receivers_dice(duo: Duo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gamemap, "mail_picture", lambda game, side, places: b"PNG")
    for _ in range(40):
        side = duo.to_move()
        assert side is not None
        me = duo.player(side)
        turn.bot_play(me.ws, duo.gid, home=me.home)
        game = duo.game(side)
        exp = machine.expected(game)
        assert exp is not None
        if exp.kind == "dice" and exp.side != side:
            break
        duo.deliver(other(side))
        duo.deliver(side)
    else:
        raise AssertionError("no file of the stand-in game triggered a roll")
    rewrite_report(duo, side, game.seq, ["4,4"])
    # The receiver's client answers with its value at once; the next mail shows the roll.
    assert exchange.file_picture(me.ws.root, duo.gid, game.seq, home=me.home) is None
    monkeypatch.setattr(machine, "expected", lambda g: machine.Expectation(side, "act"))
    assert exchange.file_picture(me.ws.root, duo.gid, game.seq, home=me.home) is not None


def test_the_picture_is_kept_for_a_retry_and_dropped_once_sent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    box, fx, entry = outbox(tmp_path, attach_map=True)
    box.queue.add(entry)
    sent: list[list[str]] = []
    outcomes = iter([smtp.Outcome(smtp.TEMPORARY, "451 later"), smtp.Outcome(smtp.SENT, "250")])

    def send_batch(server: Any, messages: list[Any]) -> list[smtp.Outcome]:
        sent.append([name for name, _ in attachments(messages[0])])
        return [next(outcomes)]

    monkeypatch.setattr(smtp, "send_batch", send_batch)
    box.send_due(lambda what: None)
    with box.queue.locked():  # the queue on disk is the shared one: make the mail due again at once there
        box.queue.entries[entry.key].next_at = 0.0
    box.send_due(lambda what: None)
    assert sent == [[entry.filename, "0123456789ab-00007-front.png"]] * 2
    assert fx.asked == 1 and box.queue.entries[entry.key].sent_at and not box._pictures
