"""Sending over SMTP with aiosmtplib, and sorting failures into temporary and permanent.

RFC 5321 splits replies cleanly: 4xx means "try again later", 5xx means "this
will never work". Connection problems (refused, reset, timeout) are temporary
too. Authentication failures are a configuration problem, not a property of
the mail, so they never mark a mail as failed: the mail waits until the
password is fixed.
"""

from __future__ import annotations

import asyncio
import base64
import errno
import ssl
from dataclasses import dataclass
from email.message import EmailMessage

import aiosmtplib
from aiosmtplib import SMTPStatus

from pbem.errors import PbemError
from pbem.mail import oauth
from pbem.mail.config import ServerConfig

SENT, TEMPORARY, PERMANENT = "sent", "temporary", "permanent"


@dataclass(frozen=True)
class Outcome:
    status: str  # SENT | TEMPORARY | PERMANENT
    detail: str  # one line: the server's reply or the connection problem


class SmtpSetupError(Exception):
    """Connecting or logging in failed; nothing was sent in this batch."""

    def __init__(self, line: str, permanent_config: bool = False) -> None:
        super().__init__(line)
        self.permanent_config = permanent_config


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def _client(server: ServerConfig) -> aiosmtplib.SMTP:
    context = server.tls_context()
    return aiosmtplib.SMTP(
        hostname=server.host,
        port=server.port,
        timeout=server.timeout_seconds,
        use_tls=server.security == "tls",
        start_tls=(server.security == "starttls"),
        tls_context=context,
    )


def _refused(err: BaseException | None) -> bool:
    """aiosmtplib wraps the OS error; look through the chain for a refused connection."""
    for _ in range(6):
        if err is None:
            return False
        if isinstance(err, ConnectionRefusedError) or getattr(err, "errno", None) == errno.ECONNREFUSED:
            return True
        if "connect call failed" in str(err).lower():
            return True
        err = err.__cause__ or err.__context__
    return False


def _cert_untrusted(err: BaseException | None) -> bool:
    """aiosmtplib may wrap the verification error too; look through the chain."""
    for _ in range(6):
        if err is None:
            return False
        if isinstance(err, ssl.SSLCertVerificationError):
            return True
        err = err.__cause__ or err.__context__
    return False


def describe_connect_error(server: ServerConfig, err: BaseException) -> str:
    """One line naming the server, the problem and the setting to look at."""
    text = _one_line(err).lower()
    where = f"SMTP server {server.where}"
    if _refused(err):
        return f"cannot reach {where}: connection refused — check smtp.host/smtp.port"
    if isinstance(err, aiosmtplib.SMTPAuthenticationError):
        return (
            f"{where} refused the login of {server.user!r}: {_one_line(err.message)} — "
            f"check smtp.user and {server.secret_hint}"
        )
    if "refused" in text:
        return f"cannot reach {where}: connection refused — check smtp.host/smtp.port"
    if "timed out" in text or isinstance(err, (TimeoutError, aiosmtplib.SMTPTimeoutError)):
        return f"cannot reach {where}: no answer within {server.timeout_seconds:g} s — check smtp.host/smtp.port"
    if _cert_untrusted(err) or "certificate" in text:
        return (
            f"TLS with {where} failed: the server's certificate is not trusted ({_one_line(err)}) — "
            f"check smtp.host, or set smtp.ca_file to the certificate authority that signed it"
        )
    if isinstance(err, ssl.SSLError) or "ssl" in text or "tls" in text:
        return f"TLS with {where} failed: {_one_line(err)} — check smtp.security (tls, starttls or none)"
    if "name or service not known" in text or "nodename" in text or "getaddrinfo" in text:
        return f"cannot resolve SMTP host {server.host!r} — check smtp.host"
    return f"cannot use {where}: {_one_line(err)} — check the [smtp] section"


async def _login(client: aiosmtplib.SMTP, server: ServerConfig) -> None:
    """Log in with the password, or with an OAuth token; a refused token is asked for once
    more, and tried again if the command gives another (its helper may have refreshed it)."""
    if not server.uses_oauth:
        await client.login(server.user, server.password())
        return
    mechanism = server.oauth_mechanism
    if mechanism not in (m.lower() for m in client.server_auth_methods):
        raise SmtpSetupError(
            f"SMTP server {server.where} does not offer {mechanism.upper()} — check smtp.oauth_mechanism "
            f"(xoauth2 or oauthbearer) and smtp.security",
            permanent_config=True,
        )
    token = server.token()
    try:
        await _oauth(client, mechanism, server.user, token)
    except aiosmtplib.SMTPAuthenticationError:
        fresh = server.token()
        if fresh == token:
            raise
        await _oauth(client, mechanism, server.user, fresh)


async def _oauth(client: aiosmtplib.SMTP, mechanism: str, user: str, token: str) -> None:
    """AUTH with the initial response; the server's error challenge is answered so that it
    ends the exchange with its refusal (a 5xx whose text is shown to the user)."""
    first = base64.b64encode(oauth.initial_response(mechanism, user, token))
    response = await client.execute_command(b"AUTH", mechanism.upper().encode(), first)
    if response.code == SMTPStatus.auth_continue:
        response = await client.execute_command(base64.b64encode(oauth.error_reply(mechanism)))
    if response.code != SMTPStatus.auth_successful:
        raise aiosmtplib.SMTPAuthenticationError(response.code, response.message)


async def _open(server: ServerConfig) -> aiosmtplib.SMTP:
    client = _client(server)
    try:
        await client.connect()
        if client.is_ehlo_or_helo_needed:  # connect() alone does not greet; the AUTH check needs EHLO
            await client.ehlo()
        if server.user:
            if not client.supports_extension("auth"):
                raise SmtpSetupError(
                    f"SMTP server {server.where} offers no AUTH — clear smtp.user or use smtp.security = "
                    f'"starttls"/"tls"',
                    permanent_config=True,
                )
            await _login(client, server)
    except SmtpSetupError:
        client.close()
        raise
    except PbemError as err:  # the password or token could not be read
        client.close()
        raise SmtpSetupError(str(err), permanent_config=True) from err
    except (aiosmtplib.SMTPException, OSError, TimeoutError) as err:
        client.close()
        raise SmtpSetupError(
            describe_connect_error(server, err), permanent_config=isinstance(err, aiosmtplib.SMTPAuthenticationError)
        ) from err
    return client


def classify(err: BaseException) -> Outcome:
    """Map an exception raised while sending one mail to an outcome."""
    if isinstance(err, aiosmtplib.SMTPRecipientsRefused):
        codes = [r.code for r in err.recipients]
        detail = "; ".join(f"{r.recipient}: {r.code} {_one_line(r.message)}" for r in err.recipients)
        status = PERMANENT if codes and all(500 <= c < 600 for c in codes) else TEMPORARY
        return Outcome(status, detail)
    if isinstance(err, aiosmtplib.SMTPServerDisconnected):
        return Outcome(TEMPORARY, f"connection lost: {_one_line(err)}")
    if isinstance(err, aiosmtplib.SMTPResponseException):
        status = PERMANENT if 500 <= err.code < 600 else TEMPORARY
        return Outcome(status, f"{err.code} {_one_line(err.message)}")
    return Outcome(TEMPORARY, _one_line(err) or type(err).__name__)


async def send_batch_async(server: ServerConfig, messages: list[EmailMessage]) -> list[Outcome]:
    """Send messages over one connection; every message gets an outcome, in order."""
    outcomes: list[Outcome] = []
    try:
        client = await _open(server)
    except SmtpSetupError as err:
        return [Outcome(TEMPORARY, str(err)) for _ in messages]
    try:
        for msg in messages:
            if not client.is_connected:
                outcomes.append(Outcome(TEMPORARY, "connection lost earlier in this batch"))
                continue
            try:
                await client.send_message(msg)
                outcomes.append(Outcome(SENT, "250"))
            except (aiosmtplib.SMTPException, OSError, TimeoutError) as err:
                outcomes.append(classify(err))
                if client.is_connected:
                    try:  # a refused mail leaves the session mid-transaction; start clean
                        await client.rset()
                    except (aiosmtplib.SMTPException, OSError, TimeoutError):
                        client.close()
    finally:
        try:
            if client.is_connected:
                await client.quit()
        except (aiosmtplib.SMTPException, OSError, TimeoutError):
            client.close()
    return outcomes


def send_batch(server: ServerConfig, messages: list[EmailMessage]) -> list[Outcome]:
    if not messages:
        return []
    return asyncio.run(send_batch_async(server, messages))


async def _check(server: ServerConfig) -> str | None:
    try:
        client = await _open(server)
    except SmtpSetupError as err:
        return str(err)
    try:
        await client.quit()
    except (aiosmtplib.SMTPException, OSError, TimeoutError):
        client.close()
    return None


def check_smtp(server: ServerConfig) -> str | None:
    """Connect and log in; None when all is well, else one line saying what is wrong."""
    return asyncio.run(_check(server))
