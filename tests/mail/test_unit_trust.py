"""What the mail daemon trusts, on the real game layer without mail servers: the bot's allow
list names keys (the From header is anyone's to write), log lines name the key that signed a
file, refused files never replace one another, and only accepted files thread a game's mail."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.mail import bot as bot_module
from pbem.mail.bot import BotMailbox
from pbem.mail.config import MailConfig, MailConfigError, load_config
from pbem.mail.daemon import CycleReport, MailDaemon
from pbem.play import games, mailcheck, passing, turn
from pbem.protocol import engine_link, turnfile, wire
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol import fakeengine
from tests.protocol.conftest import Duo, make_duo


@pytest.fixture(autouse=True)
def fake_engine() -> Iterator[None]:
    engine_link.use(fakeengine, fakeengine.ai)  # type: ignore[arg-type]
    yield
    engine_link.use(None)


def config(tmp_path: Path, address: str, workspace: Path, home: Path, extra: str = "") -> MailConfig:
    """A configuration whose servers are never reached: these tests hand mails to the daemon."""
    path = tmp_path / f"{address.split('@')[0]}.toml"
    path.write_text(f"""\
address = "{address}"
workspace = "{workspace}"
home = "{home}"
exchange = "pbem.play.exchange"
{extra}

[imap]
host = "127.0.0.1"
security = "none"
user = "{address}"
password_env = "PBEM_TEST_UNUSED"

[smtp]
host = "127.0.0.1"
security = "none"
""")
    return load_config(path)


def mail(sender: str, name: str, data: bytes, message_id: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, "bot@example.org", "turn", message_id
    msg.set_content("a turn file")
    msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    return msg.as_bytes()


def identity(tmp_path: Path, name: str) -> tuple[Path, keys.PublicKey]:
    home = tmp_path / f"home-{name}"
    keys.keygen(name, f"{name}@example.org", directory=home)
    return home, keys.read_public_key(home / f"{name}.pub")


def invitation(tmp_path: Path, name: str, home: Path, bot: keys.PublicKey) -> tuple[str, Path]:
    ws = Workspace(tmp_path / f"ws-{name}")
    gid, path = games.new_game(ws, "tiny", "axis", name, bot, opponent_email="bot@example.org", home=home)
    return gid, path


def test_the_allow_list_names_the_inviters_key_and_a_forged_from_gets_nothing_joined(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    alice_home, alice = identity(tmp_path, "alice")
    mallory_home, _ = identity(tmp_path, "mallory")
    bot_home, bot_key = identity(tmp_path, "bot")
    bot_ws = tmp_path / "ws-bot"
    bot_ws.mkdir()
    # Written as a person may copy it: upper case, no spaces.
    allowed = alice.fingerprint.replace(" ", "").upper()
    bot = BotMailbox(config(tmp_path, "bot@example.org", bot_ws, bot_home, f'[bot]\nallow = ["{allowed}"]'))
    mallory_gid, mallory_invite = invitation(tmp_path, "mallory", mallory_home, bot_key)
    alice_gid, alice_invite = invitation(tmp_path, "alice", alice_home, bot_key)

    # Mallory's own invitation under alice's address: refused, and the line names mallory's key.
    with caplog.at_level(logging.INFO, logger="pbem.mail"):
        raw = mail("alice@example.org", mallory_invite.name, mallory_invite.read_bytes(), "<m1@evil.example>")
        assert bot.handle_mail(raw, CycleReport()) == ""
        bot.play_pending()
    mallory_fp = keys.read_public_key(mallory_home / "mallory.pub").fingerprint
    refused = [r.getMessage() for r in caplog.records if "not in bot.allow" in r.getMessage()]
    assert len(refused) == 1 and mallory_fp in refused[0] and "alice@example.org" not in refused[0]
    assert not LocalGame.has_game(Workspace(bot_ws), mallory_gid)
    assert not (Workspace(bot_ws).root / Workspace(bot_ws).invitation_rel(mallory_gid)).exists()

    # Alice's invitation is joined whatever the From header says.
    raw = mail("mallory@evil.example", alice_invite.name, alice_invite.read_bytes(), "<a1@example.org>")
    assert bot.handle_mail(raw, CycleReport()) == ""
    assert LocalGame.has_game(Workspace(bot_ws), alice_gid)
    assert [p.name for p in (bot_ws / "outbox").glob(f"{alice_gid}-*.pbem")]


@pytest.mark.parametrize("entry", ["alice@example.org", "Alice <alice@example.org>", "1a2b 3c4d"])
def test_an_allow_entry_that_is_no_fingerprint_is_refused_with_one_line_saying_how(tmp_path: Path, entry: str) -> None:
    with pytest.raises(MailConfigError) as err:
        config(tmp_path, "bot@example.org", tmp_path, tmp_path, f'[bot]\nallow = ["{entry}"]')
    line = str(err.value)
    assert "\n" not in line and "fingerprint" in line and "pbem key list" in line and entry in line


def test_signer_names_only_keys_whose_signature_verifies(duo: Duo, tmp_path: Path) -> None:
    _, mallory = identity(tmp_path, "mallory")
    mallory_ident = keys.load("mallory", tmp_path / "home-mallory")
    body = duo.next_body("axis", [["commit", os.urandom(32)]])
    signed = duo.forge("axis", body)
    forged = duo.forge("axis", body, key=mallory_ident)
    axis_fp = keys.read_public_key(duo.axis.home / "axis-p.pub").fingerprint
    ws = duo.allies.ws.root
    assert mailcheck.signer(ws, signed.raw) == axis_fp
    assert mailcheck.signer(ws, forged.raw) is None  # mallory's key plays no side of this game
    assert mailcheck.signer(ws, b"garbage") is None
    assert mailcheck.signer(tmp_path, signed.raw) is None  # a workspace without the game cannot check
    assert mallory.fingerprint != axis_fp


@pytest.fixture
def duo(tmp_path: Path) -> Duo:
    return make_duo(tmp_path)


def test_refused_files_are_all_kept_named_by_their_signer_and_never_thread(
    duo: Duo, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    allies = duo.allies
    daemon = MailDaemon(config(tmp_path, "allies@example.org", allies.ws.root, allies.home))
    identity(tmp_path, "mallory")
    body = duo.next_body("axis", [["commit", os.urandom(32)]])
    by_axis = duo.forge("axis", body)  # the opponent's key, but out of turn: refused
    by_mallory = duo.forge("axis", body, key=keys.load("mallory", tmp_path / "home-mallory"))
    name = by_axis.name
    sent = [(by_mallory.raw, "<forged@evil.example>"), (b"later garbage", "<garbage@evil.example>")]
    sent.append((by_axis.raw, "<outofturn@example.org>"))
    with caplog.at_level(logging.INFO, logger="pbem.mail"):
        for data, message_id in sent:
            report = CycleReport()
            assert daemon.handle_mail(mail("axis@example.org", name, data, message_id), report) == ""
            assert report.statuses == {"rejected": 1}
    daemon.threads.flush()
    kept = {p.read_bytes() for p in (allies.ws.store / "rejected").iterdir()}
    assert kept == {by_mallory.raw, b"later garbage", by_axis.raw}
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith(f"{name} from ")]
    axis_fp = keys.read_public_key(duo.axis.home / "axis-p.pub").fingerprint
    assert len(lines) == 3 and not any("axis@example.org" in line for line in lines)
    assert lines[0].startswith(f"{name} from unsigned/unverifiable: rejected")
    assert lines[1].startswith(f"{name} from unsigned/unverifiable: rejected")
    assert lines[2].startswith(f"{name} from key {axis_fp}: rejected")
    references = daemon.threads.references(duo.gid)
    assert not any(mid in references for _, mid in sent)

    # The opponent's real next file threads the game's mail.
    while duo.to_move() != "axis":
        duo.step()
    genuine = turn.bot_play(duo.axis.ws, duo.gid, home=duo.axis.home)
    report = CycleReport()
    daemon.handle_mail(mail("axis@example.org", genuine.name, genuine.read_bytes(), "<real@example.org>"), report)
    daemon.threads.flush()
    assert report.statuses == {"applied": 1} and "<real@example.org>" in daemon.threads.references(duo.gid)

    # A hand-over offer is kept unverified ("duplicate" here: the game is held): it threads nothing.
    doc = wire.pack({"offer": {"game": duo.gid}, "from": "mallory@example.org"})
    offer = passing.OFFER_MAGIC + len(doc).to_bytes(4, "big") + doc
    report = CycleReport()
    daemon.handle_mail(mail("axis@example.org", f"{duo.gid}-00009-offer.pbem", offer, "<offer@evil.example>"), report)
    daemon.threads.flush()
    assert report.statuses == {"duplicate": 1} and "<offer@evil.example>" not in daemon.threads.references(duo.gid)


@pytest.mark.parametrize("allowed", ["axis", "allies"])
def test_a_side_offered_by_a_listed_key_is_taken_and_another_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, allowed: str
) -> None:
    """With an allow list, a hand-over offer (unsigned itself) is taken when a listed key
    holds the offered side in the game's files it carries: the key that must seal it."""
    duo = make_duo(tmp_path)
    while duo.to_move() != "axis":
        duo.step()
    bot_home, bot_key = identity(tmp_path, "bot")
    bot_ws = tmp_path / "ws-bot"
    bot_ws.mkdir()
    holder = keys.read_public_key(duo.player(allowed).home / f"{allowed}-p.pub").fingerprint
    bot = BotMailbox(config(tmp_path, "bot@example.org", bot_ws, bot_home, f'[bot]\nallow = ["{holder}"]'))
    offer = passing.offer_by_mail(duo.axis.ws, duo.gid, bot_key, home=duo.axis.home)
    axis_fp = keys.read_public_key(duo.axis.home / "axis-p.pub").fingerprint
    assert mailcheck.signer(bot_ws, offer.read_bytes()) == axis_fp  # the side's holder, from the files

    with caplog.at_level(logging.INFO, logger="pbem.mail"):
        raw = mail("someone@example.org", offer.name, offer.read_bytes(), "<o1@example.org>")
        assert bot.handle_mail(raw, CycleReport()) == ""
    accepted = list((bot_ws / "outbox").glob(f"{duo.gid}-*-accept.pbem"))
    refused = [r.getMessage() for r in caplog.records if "not in bot.allow" in r.getMessage()]
    if allowed == "axis":
        assert len(accepted) == 1 and not refused
        assert LocalGame.has_game(Workspace(bot_ws), duo.gid)
    else:  # allies' key is listed, but axis holds the side offered
        assert not accepted and len(refused) == 1
        assert f"a side offered by key {axis_fp}" in refused[0]
        assert not LocalGame.has_game(Workspace(bot_ws), duo.gid)


def test_an_offer_whose_files_are_not_signed_by_the_side_names_no_holder(duo: Duo, tmp_path: Path) -> None:
    """A side's key in force signs its files in the offer, else the offer has no holder."""
    while duo.to_move() != "axis" or duo.game("axis").seq < 4:  # axis has signed a turn
        duo.step()
    _, bot_key = identity(tmp_path, "bot")
    data = passing.offer_by_mail(duo.axis.ws, duo.gid, bot_key, home=duo.axis.home).read_bytes()
    body, sender, files = passing.read_offer(data, "offer")
    mallory = keys.load("mallory", identity(tmp_path, "mallory")[0])
    forged = [duo.forge("axis", f.body, key=mallory) if f.seq > 0 and f.side == "axis" else f for f in files]
    doc = wire.pack({passing.OFFER: body, passing.FROM: sender})
    bad = passing.OFFER_MAGIC + len(doc).to_bytes(4, "big") + doc + turnfile.join_files(forged)
    assert passing.offering_key(data, "offer") == keys.read_public_key(duo.axis.home / "axis-p.pub").raw
    assert any(f.seq > 0 and f.side == "axis" for f in files)
    assert passing.offering_key(bad, "offer") is None
    assert mailcheck.signer(tmp_path, bad) is None


@pytest.mark.parametrize(("every", "order"), [(0.0, ["a", "send", "b", "send", "send"]), (3600.0, ["a", "b", "send"])])
def test_answers_made_go_out_between_games_once_enough_play_has_passed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, every: float, order: list[str]
) -> None:
    """A cycle fetches, plays every game owed a look, then sends; the answers made before
    bot.SEND_EVERY seconds of play have passed wait for the end, later ones go out between
    two games (so an answer waits behind that much play, not behind every owed game)."""
    home, _ = identity(tmp_path, "bot")
    ws = tmp_path / "ws-bot"
    ws.mkdir()
    bot = BotMailbox(config(tmp_path, "bot@example.org", ws, home))
    seen: list[str] = []
    monkeypatch.setattr(bot_module, "SEND_EVERY", every)
    monkeypatch.setattr(bot_module, "owed_games", lambda _ws: [("a", 0.0), ("b", 0.0)])
    monkeypatch.setattr(bot, "fetch", lambda report: None)
    monkeypatch.setattr(bot, "_look", seen.append)
    monkeypatch.setattr(bot, "send", lambda report: seen.append("send"))
    bot.cycle()
    assert seen == order
