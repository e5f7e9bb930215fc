"""TLS and STARTTLS against real Dovecot and Postfix, with certificates from a throw-away CA.

With ``ca_file`` naming the test CA, `pbem mail check` and a turn file's way
through both daemons work over every secured mode; without it (the system's
trust store) the check fails with one line about the certificate.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from pathlib import Path

import fake_exchange as fx
import pytest
from mailservers import MailServers
from mailtesting import Player, wait_until, write_config
from typer.testing import CliRunner

from pbem.cli.main import app

pytestmark = pytest.mark.mail
runner = CliRunner()
GAME = "7e57c0ffee01"
_counter = itertools.count(1)


def _section_ports(servers: MailServers, security: str) -> tuple[int, int]:
    imap = servers.imaps_port if security == "tls" else servers.imap_port
    smtp = servers.smtps_port if security == "tls" else servers.smtp_port
    return imap, smtp


@pytest.fixture
def make_tls_player(tls_mail_servers: MailServers, tmp_path: Path) -> Callable[..., Player]:
    """A player on the TLS servers; each section gets its own security mode and, if trusted, ca_file."""

    def make(name: str, imap: str = "none", smtp: str = "none", trusted: bool = True) -> Player:
        servers = tls_mail_servers
        unique = f"{name}{next(_counter)}x{os.getpid()}"
        address = servers.add_user(unique)
        workspace = tmp_path / unique
        workspace.mkdir()
        config_path = tmp_path / f"{unique}.toml"
        write_config(
            config_path,
            servers,
            address,
            workspace,
            imap_port=_section_ports(servers, imap)[0],
            smtp_port=_section_ports(servers, smtp)[1],
        )
        head, _, smtp_part = config_path.read_text().partition("[smtp]")
        ca = f'\nca_file = "{servers.ca_file}"' if trusted else ""
        head = head.replace('security = "none"', f'security = "{imap}"' + (ca if imap != "none" else ""), 1)
        smtp_part = smtp_part.replace('security = "none"', f'security = "{smtp}"' + (ca if smtp != "none" else ""), 1)
        config_path.write_text(f"{head}[smtp]{smtp_part}")
        return Player(name, address, workspace, config_path, servers)

    return make


def check(config: Path) -> tuple[int, str]:
    result = runner.invoke(app, ["mail", "check", "--config", str(config)])
    return result.exit_code, result.output


MODES = [("imap", "tls"), ("imap", "starttls"), ("smtp", "tls"), ("smtp", "starttls")]


@pytest.mark.parametrize(("kind", "security"), MODES)
def test_check_succeeds_with_the_test_ca(make_tls_player, kind: str, security: str) -> None:
    player = make_tls_player("alice", **{kind: security})
    assert f'security = "{security}"' in player.config_path.read_text()
    code, out = check(player.config_path)
    assert code == 0, out
    assert "mail configuration OK" in out


@pytest.mark.parametrize(("kind", "security"), MODES)
def test_check_without_ca_file_names_the_certificate(make_tls_player, kind: str, security: str) -> None:
    player = make_tls_player("alice", trusted=False, **{kind: security})
    code, out = check(player.config_path)
    assert code != 0
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    line = lines[0]
    assert "Traceback" not in out
    assert "TLS" in line and "certificate" in line, line
    assert f"{kind.upper()} server 127.0.0.1:" in line and f"{kind}.ca_file" in line, line


def test_turn_file_round_trip_over_tls_and_starttls(make_tls_player) -> None:
    # Alice uses implicit TLS for both, Bob STARTTLS for both: every mode carries mail once.
    alice = make_tls_player("alice", imap="tls", smtp="tls")
    bob = make_tls_player("bob", imap="starttls", smtp="starttls")
    fx.new_game(alice.workspace, GAME, "axis", alice.address, bob.address)
    fx.new_game(bob.workspace, GAME, "allies", bob.address, alice.address, autoplay_until=2)

    def run_once(player: Player) -> str:
        result = runner.invoke(app, ["mail", "run", "--once", "--config", str(player.config_path)])
        assert result.exit_code == 0, result.output
        return result.output

    assert "queued 1, sent 1" in run_once(alice)
    # Bob fetches file 1 over IMAP STARTTLS and answers with file 2 over SMTP STARTTLS ...
    wait_until(
        lambda: [e["seq"] for e in fx.ledger(bob.workspace)] == [1, 2],
        15,
        step=lambda: run_once(bob),
        what="bob to apply file 1 and answer",
    )
    # ... which Alice fetches over IMAPS.
    wait_until(
        lambda: [e["seq"] for e in fx.ledger(alice.workspace)] == [1, 2],
        15,
        step=lambda: run_once(alice),
        what="alice to apply file 2",
    )
    assert (bob.workspace / "inbox" / f"{GAME}-00001-axis.pbem").exists()
    assert (alice.workspace / "inbox" / f"{GAME}-00002-allies.pbem").exists()


def test_ca_file_must_exist_and_keeps_host_checks(make_tls_player, tmp_path: Path) -> None:
    player = make_tls_player("alice", imap="tls")
    good = player.config_path.read_text()
    config = player.config
    context = config.imap.tls_context()
    assert context is not None and context.check_hostname and context.verify_mode.name == "CERT_REQUIRED"
    assert config.smtp.tls_context() is None  # security = "none"

    missing = tmp_path / "no-such-ca.pem"
    player.config_path.write_text(good.replace(str(player.servers.ca_file), str(missing)))
    code, out = check(player.config_path)
    assert code != 0 and len(out.strip().splitlines()) == 1, out
    assert "imap.ca_file" in out and "does not exist" in out and "Traceback" not in out

    not_pem = tmp_path / "not-a-ca.pem"
    not_pem.write_text("hello\n")
    player.config_path.write_text(good.replace(str(player.servers.ca_file), str(not_pem)))
    code, out = check(player.config_path)
    assert code != 0 and len(out.strip().splitlines()) == 1, out
    assert "imap.ca_file" in out and "PEM" in out
