"""OAuth 2.0 logins (XOAUTH2, OAUTHBEARER) with an access token printed by a command.

Large providers refuse plain passwords; their access tokens expire within the hour.
The program holds no OAuth client of its own: ``token_command`` names any helper
that prints a valid access token (and refreshes it when it has to), and the
command is run for every login, so a token is never kept past its use.
"""

from __future__ import annotations

import shlex
import subprocess

from pbem.errors import PbemError

MECHANISMS = ("xoauth2", "oauthbearer")
# How much of a failing command's error output goes into the one line shown.
STDERR_CHARS = 200


class TokenError(PbemError):
    """The token command could not be run, failed or printed nothing."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="mail-config")


def run_token_command(setting: str, command: str, timeout: float) -> str:
    """The access token the command prints (its first non-empty line); ``setting`` names
    the option (``imap.token_command``) in the one line raised when it fails."""
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise TokenError(f"{setting} cannot be read as a command: {err}") from None
    if not argv:
        raise TokenError(f"{setting} is empty")
    try:
        done = subprocess.run(
            argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout, check=False, text=True
        )
    except FileNotFoundError:
        raise TokenError(f"{setting}: program {argv[0]!r} not found") from None
    except PermissionError:
        raise TokenError(f"{setting}: program {argv[0]!r} cannot be run (permission denied)") from None
    except subprocess.TimeoutExpired:
        raise TokenError(f"{setting} ({argv[0]}) printed no token within {timeout:g} s") from None
    except OSError as err:
        raise TokenError(f"{setting}: cannot run {argv[0]!r}: {err.strerror or err}") from None
    if done.returncode != 0:
        said = " ".join(done.stderr.split())[:STDERR_CHARS]
        raise TokenError(
            f"{setting} ({argv[0]}) failed with exit status {done.returncode}" + (f": {said}" if said else "")
        )
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if not lines:
        raise TokenError(f"{setting} ({argv[0]}) printed no token")
    return lines[0]


def initial_response(mechanism: str, user: str, token: str) -> bytes:
    """The client's first SASL message: Google's XOAUTH2 format, or RFC 7628's OAUTHBEARER
    (whose authorization identity escapes ``,`` and ``=`` as RFC 5801 asks)."""
    if mechanism == "xoauth2":
        return f"user={user}\x01auth=Bearer {token}\x01\x01".encode()
    identity = user.replace("=", "=3D").replace(",", "=2C")
    return f"n,a={identity},\x01auth=Bearer {token}\x01\x01".encode()


def error_reply(mechanism: str) -> bytes:
    """What the client answers to the server's error challenge so the server can end the
    exchange with its refusal: nothing for XOAUTH2, a lone 0x01 for OAUTHBEARER (RFC 7628 3.2.3)."""
    return b"" if mechanism == "xoauth2" else b"\x01"


class ImapMechanism:
    """The callable imapclient's ``sasl_login`` asks for each server challenge."""

    def __init__(self, mechanism: str, user: str, token: str) -> None:
        self.mechanism = mechanism
        self.first = initial_response(mechanism, user, token)
        self.steps = 0

    def __call__(self, challenge: bytes) -> bytes:
        self.steps += 1
        return self.first if self.steps == 1 else error_reply(self.mechanism)
