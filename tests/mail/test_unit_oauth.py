"""OAuth settings and the token command, without a server: every mistake is one line."""

from __future__ import annotations

import base64
import sys
from pathlib import Path

import pytest
from test_unit_config import GOOD, write

from pbem.mail import oauth
from pbem.mail.config import MailConfigError, load_config

OAUTH = GOOD.replace('password_env = "PBEM_TEST_IMAP_PW"', 'token_command = "helper --account alice"')


def test_token_command_replaces_the_password(tmp_path: Path) -> None:
    cfg = load_config(write(tmp_path, OAUTH.replace("[smtp]", 'oauth_mechanism = "OAuthBearer"\n\n[smtp]')))
    assert cfg.imap.uses_oauth and cfg.imap.oauth_mechanism == "oauthbearer"
    assert cfg.imap.token_command == "helper --account alice"
    assert not cfg.smtp.uses_oauth and cfg.smtp.oauth_mechanism == "xoauth2"
    assert "imap.token_command" in cfg.imap.secret_hint and "password" in cfg.smtp.secret_hint


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("[smtp]", 'password_file = "p"\n\n[smtp]'), "imap: set one of password_env, password_file and token_command"),
        (("[smtp]", 'oauth_mechanism = "cram-md5"\n\n[smtp]'), "imap.oauth_mechanism must be xoauth2 or oauthbearer"),
        (('user = "alice"\ntoken', "token"), "imap.token_command is set but imap.user is not"),
        (
            ('password_file = "smtp.pw"', 'password_file = "smtp.pw"\noauth_mechanism = "xoauth2"'),
            "smtp.oauth_mechanism is set but smtp.token_command is not",
        ),
    ],
)
def test_oauth_mistakes_are_named(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    text = OAUTH.replace(*change)
    assert text != OAUTH
    with pytest.raises(MailConfigError) as caught:
        load_config(write(tmp_path, text))
    assert message in str(caught.value)


def helper(tmp_path: Path, body: str) -> str:
    script = tmp_path / "helper.py"
    script.write_text(body)
    return f"{sys.executable} {script}"


def test_the_command_prints_the_token(tmp_path: Path) -> None:
    command = helper(tmp_path, "print()\nprint('  ya29.token  ')\nprint('ignored')\n")
    assert oauth.run_token_command("imap.token_command", command, 10) == "ya29.token"


@pytest.mark.parametrize(
    ("body", "message", "within"),
    [
        (
            "import sys\nprint('invalid_grant: expired', file=sys.stderr)\nsys.exit(2)\n",
            "failed with exit status 2: invalid_grant: expired",
            30,
        ),
        ("print('')\n", "printed no token", 30),
        # Only the command that hangs is given a short time: an interpreter starting on a
        # busy machine can take longer than half a second to fail.
        ("import time\ntime.sleep(5)\n", "printed no token within 0.5 s", 0.5),
    ],
)
def test_a_failing_command_is_one_line(tmp_path: Path, body: str, message: str, within: float) -> None:
    with pytest.raises(oauth.TokenError) as caught:
        oauth.run_token_command("smtp.token_command", helper(tmp_path, body), within)
    text = str(caught.value)
    assert text.startswith("smtp.token_command") and message in text and "\n" not in text


def test_a_missing_program_or_bad_quoting(tmp_path: Path) -> None:
    with pytest.raises(oauth.TokenError, match="program 'no-such-oauth-helper' not found"):
        oauth.run_token_command("imap.token_command", "no-such-oauth-helper --x", 5)
    with pytest.raises(oauth.TokenError, match="cannot be read as a command"):
        oauth.run_token_command("imap.token_command", "helper 'unclosed", 5)


def test_sasl_messages() -> None:
    # Google's XOAUTH2 format and RFC 7628 section 3.1 (its example's shape, with , and = escaped).
    assert oauth.initial_response("xoauth2", "a@b.c", "T") == b"user=a@b.c\x01auth=Bearer T\x01\x01"
    assert oauth.initial_response("oauthbearer", "a=b,c@d", "T") == b"n,a=a=3Db=2Cc@d,\x01auth=Bearer T\x01\x01"
    assert base64.b64encode(oauth.error_reply("oauthbearer")) == b"AQ=="
    assert oauth.error_reply("xoauth2") == b""
    mech = oauth.ImapMechanism("xoauth2", "u", "T")
    assert mech(b"") == b"user=u\x01auth=Bearer T\x01\x01"
    assert mech(b'{"status":"401"}') == b""  # the server's error challenge gets the empty answer
