"""One notice per sitting: a notice is held, replaced by a newer one, dropped when I decided,
and sent once, naming the decision awaited when it falls due, across restarts too."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pbem.mail.config import MailConfig, MailConfigError, ServerConfig, parse_config
from pbem.mail.notify import Notifier
from pbem.mail.outqueue import PENDING, Entry, SendQueue
from pbem.mail.threads import ThreadBook

GAME, OTHER = "a1b2c3d4e5f6", "0f0f0f0f0f0f"


class Table:
    """A game layer whose state the test sets: whose move it is and the decision awaited."""

    def __init__(self) -> None:
        self.my_turn = True
        self.decision = "combat"
        self.broken = False

    def game_info(self, workspace: Path, game_id: str) -> Any:
        if self.broken:
            raise OSError("disk gone")
        return SimpleNamespace(
            my_side="axis", my_turn=self.my_turn, status_line="1939-09 axis", opponent_email="b@example.org"
        )

    def notice(self, workspace: Path, game_id: str) -> dict[str, Any]:
        return {"decision": self.decision, "status": "1939-09", "short": [], "full": ""}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def config(workspace: Path, hold: float) -> MailConfig:
    server = ServerConfig("smtp", "localhost", 25, "plain", "me")
    return MailConfig("a@example.org", workspace, server, server, notify_mail=True, notify_hold_seconds=hold)


def notifier(workspace: Path, table: Table, clock: Clock, hold: float = 300.0) -> Notifier:
    queue = SendQueue(workspace, 1, 8)
    found = Notifier(config(workspace, hold), table, queue, ThreadBook(workspace))  # type: ignore[arg-type]
    found.clock = clock
    return found


def received(seq: int, replies: tuple[int, ...] = ()) -> Any:
    return SimpleNamespace(seq=seq, report="", replies=[Path(f"outbox/{GAME}-{r:05d}-axis.pbem") for r in replies])


def seal(queue: SendQueue, seq: int, game: str = GAME) -> None:
    """My file ``seq`` of the game as the outbox queues it."""
    name = f"{game}-{seq:05d}-axis.pbem"
    queue.add(
        Entry(key=f"{name}:00", kind="turn", recipient="b@example.org", message_id="", references=[], filename=name)
    )


def notices(queue: SendQueue) -> list[Entry]:
    return [e for e in queue.entries.values() if e.kind == "notify"]


@pytest.fixture
def table() -> Table:
    return Table()


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_a_notice_is_held_then_sent_naming_the_decision_awaited_then(
    tmp_path: Path, table: Table, clock: Clock
) -> None:
    n = notifier(tmp_path, table, clock)
    n.after_import(GAME, "applied", received(4))
    assert n.queue.due(clock.now + 1000) == []  # held: the send loop never sees it as it was queued
    assert n.queue.next_due_at() == clock.now + 300  # but the daemon wakes when it falls due
    clock.now += 299
    n.release()
    assert notices(n.queue)[0].held_until  # not yet
    table.decision = "advance"
    clock.now += 1
    n.release()
    [notice] = n.queue.due(clock.now)
    assert "advance" in notice.subject and not notice.held_until
    n.release()  # released once: nothing changes any more
    assert n.queue.due(clock.now) == [notice]


def test_a_notice_is_dropped_when_i_sealed_a_file_of_the_game(tmp_path: Path, table: Table, clock: Clock) -> None:
    n = notifier(tmp_path, table, clock)
    n.after_import(GAME, "applied", received(4, replies=(5,)))
    n.after_import(OTHER, "applied", received(9))
    seal(n.queue, 5)  # my automatic answer to file 4, written with it: no decision
    seal(n.queue, 6, OTHER)  # a file of another game
    clock.now += 300
    n.release()
    assert [e.key for e in n.queue.due(clock.now) if e.kind == "notify"] == [
        f"notify:{GAME}:00004",
        f"notify:{OTHER}:00009",
    ]
    n.after_import(GAME, "applied", received(8))
    seal(n.queue, 9)  # my decision
    clock.now += 300
    n.release()
    assert [e.key for e in notices(n.queue)] == [f"notify:{GAME}:00004", f"notify:{OTHER}:00009"]


def test_a_notice_is_dropped_when_it_is_no_longer_my_move(tmp_path: Path, table: Table, clock: Clock) -> None:
    n = notifier(tmp_path, table, clock)
    n.after_import(GAME, "applied", received(4))
    table.my_turn = False
    clock.now += 300
    n.release()
    assert notices(n.queue) == []


def test_a_newer_notice_replaces_a_held_one_and_holds_again(tmp_path: Path, table: Table, clock: Clock) -> None:
    n = notifier(tmp_path, table, clock)
    n.after_import(GAME, "applied", received(4))
    clock.now += 200
    n.after_import(GAME, "applied", received(8))
    clock.now += 200  # the first notice's hold is over, the second's is not
    n.release()
    [held] = notices(n.queue)
    assert held.key == "notify:a1b2c3d4e5f6:00008" and held.held_until == clock.now + 100
    clock.now += 100
    n.release()
    assert [e.key for e in n.queue.due(clock.now)] == ["notify:a1b2c3d4e5f6:00008"]


def test_a_notice_already_released_is_not_replaced(tmp_path: Path, table: Table, clock: Clock) -> None:
    n = notifier(tmp_path, table, clock)
    n.after_import(GAME, "applied", received(4))
    clock.now += 300
    n.release()  # due now: it may be in an SMTP conversation already
    n.after_import(GAME, "applied", received(8))
    assert [e.key for e in notices(n.queue)] == ["notify:a1b2c3d4e5f6:00004", "notify:a1b2c3d4e5f6:00008"]


def test_a_held_notice_survives_a_restart_and_is_released_once(tmp_path: Path, table: Table, clock: Clock) -> None:
    n = notifier(tmp_path, table, clock)
    n.after_import(GAME, "applied", received(4))
    again = notifier(tmp_path, table, clock)
    [held] = notices(again.queue)
    assert held.held_until == clock.now + 300 and held.after_seq == 4 and held.status == PENDING
    clock.now += 300
    again.release()
    third = notifier(tmp_path, table, clock)  # restarted after the release: it is sent, not held again
    [notice] = third.queue.due(clock.now)
    assert notice.key == "notify:a1b2c3d4e5f6:00004" and not notice.held_until
    third.after_import(GAME, "duplicate", received(4))  # the file mailed again asks for nothing
    assert len(notices(third.queue)) == 1


def test_a_game_layer_in_trouble_never_leaves_me_unnotified(tmp_path: Path, table: Table, clock: Clock) -> None:
    n = notifier(tmp_path, table, clock)
    n.after_import(GAME, "applied", received(4))
    table.broken = True
    clock.now += 300
    n.release()
    [notice] = n.queue.due(clock.now)
    assert "combat" in notice.subject  # as it was queued


def test_no_hold_is_todays_behaviour(tmp_path: Path, table: Table, clock: Clock) -> None:
    n = notifier(tmp_path, table, clock, hold=0)
    n.after_import(GAME, "applied", received(4))
    n.after_import(GAME, "applied", received(8))
    assert [e.key for e in n.queue.due(clock.now)] == ["notify:a1b2c3d4e5f6:00004", "notify:a1b2c3d4e5f6:00008"]


def test_the_hold_is_read_from_the_notify_section(tmp_path: Path) -> None:
    base: dict[str, Any] = {
        "address": "a@example.org",
        "workspace": str(tmp_path),
        "imap": {"host": "localhost"},
        "smtp": {"host": "localhost"},
    }
    assert parse_config(base, tmp_path).notify_hold_seconds == 180
    assert parse_config({**base, "notify": {"hold_seconds": 5}}, tmp_path).notify_hold_seconds == 5
    for bad in (-1, 86401, "5", True):
        with pytest.raises(MailConfigError, match="hold_seconds"):
            parse_config({**base, "notify": {"hold_seconds": bad}}, tmp_path)
