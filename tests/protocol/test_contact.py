"""A new e-mail address reaches the opponent as a statement signed with the identity key;
a forged, foreign or replayed statement is refused; the mail daemon will not serve a
mailbox whose address differs from its identity's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.mail.bot import BotMailbox
from pbem.mail.config import load_config
from pbem.mail.daemon import MailDaemon
from pbem.mail.message import parse_turn_name
from pbem.play import contact, exchange
from pbem.store import keys
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo


def test_set_email_changes_the_key_email_and_counts_statements(tmp_path: Path) -> None:
    keys.keygen("carol", "carol@old.example", directory=tmp_path)
    first = contact.set_email("carol", "carol@new.example", tmp_path)
    assert keys.load("carol", tmp_path).email == "carol@new.example"
    assert keys.read_public_key(tmp_path / "carol.pub").email == "carol@new.example"
    assert [p.email for p, _ in keys.identities(tmp_path)] == ["carol@new.example"]
    second = contact.set_email("carol", "carol@third.example", tmp_path)
    assert (first.counter, second.counter) == (1, 2)
    parsed = contact.parse(second.raw)
    assert (parsed.email, parsed.counter, parsed.key) == (
        "carol@third.example",
        2,
        keys.load("carol", tmp_path).public.raw,
    )
    with pytest.raises(PbemError, match="not an e-mail address"):
        contact.set_email("carol", "no-at-sign", tmp_path)


def publish(duo: Duo, side: str, email: str) -> Path:
    p = duo.player(side)
    statement = contact.set_email(p.name, email, p.home)
    assert contact.publish(p.ws, p.name, statement) == [duo.gid]
    assert LocalGame(p.ws, duo.gid, p.home).meta["my_email"] == email
    path = p.ws.outbox / contact.outbox_name(duo.gid, statement.counter)
    assert path.read_bytes() == statement.raw
    # the mail daemon carries it like a turn file of that game
    name = parse_turn_name(path.name)
    assert name is not None and name.game_id == duo.gid
    return path


def receive(duo: Duo, side: str, path: Path) -> exchange.ImportResult:
    me = duo.player(side)
    return exchange.import_file(me.ws.root, path, home=me.home)


def test_the_statement_updates_the_opponent_address_in_the_game(duo: Duo) -> None:
    path = publish(duo, "allies", "allies@moved.example")
    res = receive(duo, "axis", path)
    assert res.status == "applied", res.message
    assert "now writes from allies@moved.example" in res.message
    assert exchange.game_info(duo.axis.ws.root, duo.gid, home=duo.axis.home).opponent_email == "allies@moved.example"


def test_a_replayed_or_older_statement_is_refused(duo: Duo) -> None:
    old = publish(duo, "allies", "allies@one.example").read_bytes()
    new = publish(duo, "allies", "allies@two.example")
    assert receive(duo, "axis", new).status == "applied"
    replay = duo.out / "replayed.pbem"
    replay.write_bytes(new.read_bytes())
    assert receive(duo, "axis", replay).status == "duplicate"  # another game's copy of it: no change
    replay.write_bytes(old)
    res = receive(duo, "axis", replay)
    assert res.status == "rejected" and res.code == "contact" and "not newer" in res.message
    assert exchange.game_info(duo.axis.ws.root, duo.gid, home=duo.axis.home).opponent_email == "allies@two.example"


def test_a_forged_or_foreign_statement_is_refused(duo: Duo, tmp_path: Path) -> None:
    path = publish(duo, "allies", "allies@real.example")
    raw = path.read_bytes()
    forged = duo.out / "forged.pbem"
    forged.write_bytes(raw.replace(b"allies@real.example", b"mallor@evil.example"))
    res = receive(duo, "axis", forged)
    assert res.status == "rejected" and res.code == "signature"
    # Signed correctly, but by a key this game does not know.
    keys.keygen("mallory", "mallory@evil.example", directory=tmp_path / "mallory")
    mallory = keys.load("mallory", tmp_path / "mallory")
    foreign = duo.out / "foreign.pbem"
    foreign.write_bytes(contact.seal(mallory, "mallory@evil.example", 99).raw)
    res = receive(duo, "axis", foreign)
    assert res.status == "rejected" and res.code == "contact" and "no game here plays against" in res.message
    # The axis' own statement is not about the opponent either.
    mine = contact.seal(duo.axis.ident(), "axis@else.example", 5)
    foreign.write_bytes(mine.raw)
    assert receive(duo, "axis", foreign).code == "contact"
    assert exchange.game_info(duo.axis.ws.root, duo.gid, home=duo.axis.home).opponent_email == "allies@example.org"


def test_key_set_email_on_the_command_line(duo: Duo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_HOME", str(duo.allies.home))
    result = CliRunner().invoke(app, ["--workspace", str(duo.allies.ws.root), "key", "set-email", "allies-p",
                                      "allies@cli.example"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "statement 1" in result.output and f"outbox/ for game(s) {duo.gid}" in result.output
    assert (duo.allies.ws.outbox / contact.outbox_name(duo.gid, 1)).is_file()
    listed = CliRunner().invoke(app, ["key", "list"]).output
    assert "allies@cli.example" in listed


MAIL = """\
address = "{address}"
workspace = "{workspace}"
home = "{home}"

[imap]
host = "127.0.0.1"
user = "x"
password_env = "PBEM_TEST_NO_PASSWORD"
security = "none"

[smtp]
host = "127.0.0.1"
user = "x"
password_env = "PBEM_TEST_NO_PASSWORD"
security = "none"
"""


def mail_config(tmp_path: Path, address: str, workspace: Path, home: Path, bot: str = "") -> Path:
    path = tmp_path / "mail.toml"
    text = MAIL.format(address=address, workspace=workspace, home=home)
    path.write_text(text + (f'\n[bot]\nidentity = "{bot}"\n' if bot else ""))
    return path


def test_the_daemon_refuses_a_mailbox_that_is_not_its_identity_address(duo: Duo, tmp_path: Path) -> None:
    ws, home = duo.axis.ws.root, duo.axis.home
    with pytest.raises(PbemError) as refused:
        MailDaemon(load_config(mail_config(tmp_path, "someone@else.example", ws, home)))
    line = str(refused.value)
    assert line == (
        "identity axis-p has the e-mail axis@example.org but this mailbox is someone@else.example: "
        "run `pbem key set-email axis-p someone@else.example` or correct the address in mail.toml"
    )
    assert refused.value.code == "mail-config"
    # The address the key states (any case) is served.
    MailDaemon(load_config(mail_config(tmp_path, "AXIS@example.org", ws, home)))
    # On the command line: one line, exit status 1.
    mail_config(tmp_path, "someone@else.example", ws, home)
    result = CliRunner().invoke(app, ["mail", "run", "--once", "--config", str(tmp_path / "mail.toml")])
    assert result.exit_code == 1 and result.output.strip() == f"error: {line}"


def test_the_bot_mailbox_checks_its_own_identity(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    keys.keygen("robot", "robot@old.example", directory=home)
    with pytest.raises(PbemError, match=r"identity robot has the e-mail robot@old\.example"):
        BotMailbox(load_config(mail_config(tmp_path, "robot@new.example", ws, home, bot="robot")))
    contact.set_email("robot", "robot@new.example", home)
    assert json.loads((home / "robot.json").read_text())["email"] == "robot@new.example"
    BotMailbox(load_config(mail_config(tmp_path, "robot@new.example", ws, home, bot="robot")))
