"""OAuth 2.0 logins (XOAUTH2, OAUTHBEARER) against real Dovecot and Postfix.

Dovecot's oauth2 passdb asks a token endpoint served by the test whether a token is
active and whose it is; Postfix authenticates through Dovecot's SASL service, so one
endpoint decides for both. The token comes from ``token_command``: here a small script
that prints the next line of a file and records each time it ran.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Callable
from pathlib import Path

import fake_exchange as fx
import pytest
from mailservers import MailServers
from mailtesting import Player, wait_until, write_config
from tokenserver import TokenServer
from typer.testing import CliRunner

from pbem.cli.main import app

pytestmark = pytest.mark.mail
runner = CliRunner()
GAME = "0a2c0ffee0a2"
_counter = itertools.count(1)

# Prints line N of TOKENS on its N-th run (the last line once they are used up), so a
# test can give a stale token first and a refreshed one when it is asked again.
HELPER = """\
import pathlib, sys
folder = pathlib.Path(sys.argv[1])
runs = folder / "runs"
n = len(runs.read_text().splitlines()) if runs.exists() else 0
with runs.open("a") as f:
    f.write("run\\n")
if (folder / "fail").exists():
    print("refresh token revoked: sign in again", file=sys.stderr)
    sys.exit(3)
lines = (folder / "tokens").read_text().splitlines()
print(lines[min(n, len(lines) - 1)])
"""


class Helper:
    """One account's token command and what it has done."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True)
        (folder / "helper.py").write_text(HELPER)

    @property
    def command(self) -> str:
        return f"{sys.executable} {self.folder / 'helper.py'} {self.folder}"

    def will_print(self, *tokens: str) -> None:
        (self.folder / "tokens").write_text("".join(f"{t}\n" for t in tokens))

    def fail(self) -> None:
        (self.folder / "fail").write_text("")

    @property
    def runs(self) -> int:
        path = self.folder / "runs"
        return len(path.read_text().splitlines()) if path.exists() else 0


@pytest.fixture
def make_oauth_player(
    oauth_mail_servers: MailServers, token_server: TokenServer, tmp_path: Path
) -> Callable[..., tuple[Player, Helper]]:
    def make(name: str, imap_mech: str = "xoauth2", smtp_mech: str = "xoauth2") -> tuple[Player, Helper]:
        servers = oauth_mail_servers
        unique = f"{name}{next(_counter)}x{os.getpid()}"
        address = servers.add_user(unique)
        workspace = tmp_path / unique
        workspace.mkdir()
        config_path = tmp_path / f"{unique}.toml"
        write_config(config_path, servers, address, workspace)
        helper = Helper(tmp_path / f"{unique}-helper")
        token = f"tok-{unique}"
        token_server.grant(token, address)
        helper.will_print(token)
        text = config_path.read_text()
        head, _, smtp_part = text.partition("[smtp]")
        secret = f'password_file = "{config_path.parent / f"{config_path.stem}.password"}"'
        head = head.replace(secret, f'token_command = "{helper.command}"\noauth_mechanism = "{imap_mech}"')
        smtp_part = smtp_part.replace(secret, f'token_command = "{helper.command}"\noauth_mechanism = "{smtp_mech}"')
        config_path.write_text(f"{head}[smtp]{smtp_part}")
        assert "password_file" not in config_path.read_text()
        return Player(name, address, workspace, config_path, servers), helper

    return make


def check(config: Path) -> tuple[int, str]:
    result = runner.invoke(app, ["mail", "check", "--config", str(config)])
    return result.exit_code, result.output


@pytest.mark.parametrize("mechanism", ["xoauth2", "oauthbearer"])
def test_check_logs_in_with_a_token(make_oauth_player, token_server: TokenServer, mechanism: str) -> None:
    player, helper = make_oauth_player("alice", imap_mech=mechanism, smtp_mech=mechanism)
    code, out = check(player.config_path)
    assert code == 0, out
    assert "mail configuration OK" in out
    # One run per login (IMAP, then SMTP), and the endpoint saw that very token.
    assert helper.runs == 2
    assert f"tok-{player.address.partition('@')[0]}" in token_server.asked


def test_password_is_refused_where_only_the_token_is_known(make_oauth_player, token_server: TokenServer) -> None:
    # The static passdb of these servers knows the password "secret"; as a token it is refused.
    player, helper = make_oauth_player("alice")
    helper.will_print("secret")
    code, out = check(player.config_path)
    assert code != 0 and "Traceback" not in out
    imap_line, smtp_line = out.strip().splitlines()
    assert imap_line.startswith("IMAP server 127.0.0.1:") and "refused the login" in imap_line
    assert "imap.token_command" in imap_line
    assert smtp_line.startswith("SMTP server 127.0.0.1:") and "refused the login" in smtp_line
    assert "smtp.token_command" in smtp_line
    # Each server: refused once, asked again, got the same token: not tried a third time.
    assert helper.runs == 4
    assert "secret" in token_server.asked


@pytest.mark.parametrize("mechanism", ["xoauth2", "oauthbearer"])
def test_a_refused_token_is_asked_for_again(make_oauth_player, token_server: TokenServer, mechanism: str) -> None:
    # The refusal ends cleanly (the client answers the server's error challenge), so the
    # fresh token is tried on the same connection.
    player, helper = make_oauth_player("alice", imap_mech=mechanism, smtp_mech=mechanism)
    fresh = f"fresh-{player.address}"
    token_server.grant(fresh, player.address)
    helper.will_print("expired-token", fresh, "expired-token", fresh)
    code, out = check(player.config_path)
    assert code == 0, out
    assert helper.runs == 4  # IMAP: stale then fresh; SMTP: the same
    assert token_server.asked.count("expired-token") >= 2


def test_smtp_refusal_names_the_token_command(make_oauth_player, tmp_path: Path) -> None:
    player, helper = make_oauth_player("alice")
    smtp_helper = Helper(tmp_path / "smtp-helper")
    smtp_helper.will_print("not-a-token")
    text = player.config_path.read_text()
    head, _, smtp_part = text.partition("[smtp]")
    player.config_path.write_text(f"{head}[smtp]{smtp_part.replace(helper.command, smtp_helper.command)}")
    code, out = check(player.config_path)
    lines = out.strip().splitlines()
    assert code != 0 and len(lines) == 1, out
    assert lines[0].startswith("SMTP server 127.0.0.1:") and "refused the login" in lines[0], lines[0]
    assert "authentication failed" in lines[0] and "smtp.token_command" in lines[0]
    assert smtp_helper.runs == 2


def test_a_failing_token_command_is_one_line(make_oauth_player) -> None:
    player, helper = make_oauth_player("alice")
    helper.fail()
    code, out = check(player.config_path)
    assert code != 0
    assert "Traceback" not in out
    lines = out.strip().splitlines()
    assert lines, out
    for line in lines:
        assert "token_command" in line and "exit status 3" in line and "sign in again" in line, line


def test_turn_file_round_trip_with_tokens(make_oauth_player) -> None:
    # Alice uses XOAUTH2 everywhere, Bob OAUTHBEARER for IMAP and XOAUTH2 for Postfix.
    alice, alice_helper = make_oauth_player("alice")
    bob, _ = make_oauth_player("bob", imap_mech="oauthbearer")
    fx.new_game(alice.workspace, GAME, "axis", alice.address, bob.address)
    fx.new_game(bob.workspace, GAME, "allies", bob.address, alice.address, autoplay_until=2)

    def run_once(player: Player) -> str:
        result = runner.invoke(app, ["mail", "run", "--once", "--config", str(player.config_path)])
        assert result.exit_code == 0, result.output
        return result.output

    assert "queued 1, sent 1" in run_once(alice)
    wait_until(
        lambda: [e["seq"] for e in fx.ledger(bob.workspace)] == [1, 2],
        15,
        step=lambda: run_once(bob),
        what="bob to apply file 1 and answer",
    )
    wait_until(
        lambda: [e["seq"] for e in fx.ledger(alice.workspace)] == [1, 2],
        15,
        step=lambda: run_once(alice),
        what="alice to apply file 2",
    )
    assert (alice.workspace / "inbox" / f"{GAME}-00002-allies.pbem").exists()
    assert alice_helper.runs >= 2  # a token for every login, none kept
