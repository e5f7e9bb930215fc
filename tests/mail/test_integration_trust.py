"""What one mailbox may take, on real Dovecot and Postfix: a dead worker's claims come back
after the claim timeout even to a worker idle on a quiet mailbox, and a daemon serving a
fresh mailbox first leaves another workspace's turns where they are."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import fake_exchange as fx
import pytest
from imaphelp import count, folder_flags, imap, send_raw, turn_mail
from mailtesting import Player, wait_until

from pbem.errors import PbemError
from pbem.mail.bot import BotMailbox
from pbem.mail.daemon import MailDaemon
from pbem.mail.health import measure
from pbem.play import games
from pbem.protocol import engine_link
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol import fakeengine

pytestmark = pytest.mark.mail
BOT_EXTRA = '[bot]\nplayer = "fake_exchange"'


def test_a_dead_workers_claims_come_back_after_the_claim_timeout_to_an_idle_worker(make_player) -> None:
    """The live worker waits in IDLE (renewed every 30 s here): the claims of a worker that died
    holding them come back within the claim timeout, not at the next renewal."""
    timeout = 2.0
    alice, bot_player = make_player("alice"), make_player("bot", extra=BOT_EXTRA)
    fx.new_game(alice.workspace, "ad0000000001", "axis", alice.address, bot_player.address, 2, opponent_autoplay=0)
    alice.daemon().cycle()
    dead = BotMailbox(bot_player.config, exchange=fx, player=fx, worker="dead", claim_timeout=timeout)  # type: ignore[arg-type]
    dead.mailbox.connect()
    wait_until(lambda: dead.mailbox.has_new(), 10, what="the invitation")
    candidates, _ = dead.mailbox.candidates()
    dead.mailbox.claim([c.uid for c in candidates])
    dead.heartbeat()  # its last sign of life: from now on it is silent
    died = time.monotonic()
    dead.mailbox.close()
    assert count(bot_player, "pbem-claim-dead") == 1
    live = BotMailbox(bot_player.config, exchange=fx, player=fx, worker="live", claim_timeout=timeout)  # type: ignore[arg-type]
    assert live.config.imap_options.idle_seconds == 30 and live.config.imap_options.idle
    worker = threading.Thread(target=live.run, kwargs={"max_seconds": 120}, daemon=True)
    worker.start()
    try:
        wait_until(lambda: len(fx.ledger(bot_player.workspace)) == 2, 25, what="the taken-back invitation")
        took = time.monotonic() - died
    finally:
        live.stopping = True
        worker.join(timeout=30)
    assert took < 15, f"the claims came back after {took:.1f} s"
    assert count(bot_player, "pbem-claim-dead") == 0


@pytest.fixture
def fake_engine() -> Iterator[None]:
    engine_link.use(fakeengine, fakeengine.ai)  # type: ignore[arg-type]
    yield
    engine_link.use(None)


def test_the_first_daemon_on_a_fresh_mailbox_leaves_another_workspaces_turn_for_it(
    make_player, tmp_path: Path, fake_engine: None, caplog: pytest.LogCaptureFixture
) -> None:
    home_a = tmp_path / "home-a"
    alice = make_player("alice", extra=f'home = "{home_a}"', exchange="pbem.play.exchange")
    keys.keygen("alice", alice.address, directory=home_a)
    keys.keygen("bob", "bob@example.org", directory=tmp_path / "home-b")
    bob_pub = keys.read_public_key(tmp_path / "home-b" / "bob.pub")
    gid, invite = games.new_game(Workspace(alice.workspace), "tiny", "axis", "alice", bob_pub, home=home_a)
    _, join = games.join(Workspace(tmp_path / "ws-bob"), invite, "bob", home=tmp_path / "home-b")
    # A second workspace pointed at the same mailbox, whose daemon happens to run first.
    other_ws = tmp_path / "other-workspace"
    other_ws.mkdir()
    other_path = alice.config_path.with_name("other.toml")
    other_path.write_text(
        alice.config_path.read_text().replace(f'workspace = "{alice.workspace}"', f'workspace = "{other_ws}"')
    )
    other = Player("other", alice.address, other_ws, other_path, alice.servers)
    send_raw(alice, alice.address, turn_mail("bob@example.org", alice.address, join.name, join.read_bytes()))
    wait_until(lambda: count(alice) == 1, 10, what="bob's join file in the mailbox")

    with caplog.at_level(logging.INFO, logger="pbem.mail"):
        report = MailDaemon(other.config).run(once=True)
    assert report.fetched == 0 and report.statuses == {}
    assert not (other_ws / ".pbem" / "rejected").exists() and not list((other_ws / "inbox").iterdir())
    assert [b"\\Seen" in flags for flags in folder_flags(alice)] == [False]  # still there, unread
    assert "left in the folder for the workspace that holds its game" in caplog.text
    assert measure(other.config).waiting == 0  # no work of this service: no health alarm for ever

    # The workspace holding the game is refused while the other owns the mailbox ...
    with pytest.raises(PbemError, match="already serves another workspace"):
        MailDaemon(alice.config).run(once=True)
    # ... and, once the other is gone, finds its turn where it was left.
    with imap(alice) as client:
        for _flags, _sep, name in client.list_folders(pattern="pbem-owner-*"):
            client.delete_folder(name)
    report = MailDaemon(alice.config).run(once=True)
    assert report.statuses == {"applied": 1}
    assert LocalGame(Workspace(alice.workspace), gid, home_a).game() is not None
