"""Fixtures for the mail tests: real private mail servers and ready-made players.

The servers are started once per test session (about two seconds) and every
test gets fresh mailboxes, so tests never see each other's mail.
"""

from __future__ import annotations

import itertools
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mailservers import MailServerError, MailServers, servers_unavailable
from mailtesting import Player, write_config
from pgserver import PgServer, server_binaries
from tokenserver import TokenServer

_counter = itertools.count(1)


def _running_servers(tls: bool, oauth_url: str = "") -> Iterator[MailServers]:
    # Not under pytest's tmp_path: its parents are private (0700) and the postfix
    # user must be able to reach its data directory.
    unavailable = servers_unavailable()
    if unavailable:
        # One clear line, never a skip: the README's test command installs the servers first.
        pytest.fail(unavailable, pytrace=False)
    root = Path(tempfile.mkdtemp(prefix="pbem-mail-"))
    servers = MailServers(root, tls=tls, oauth_url=oauth_url)
    try:
        servers.start()
    except MailServerError as err:
        servers.stop()
        shutil.rmtree(root, ignore_errors=True)
        pytest.fail(str(err), pytrace=False)
    yield servers
    servers.stop()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def mail_servers() -> Iterator[MailServers]:
    yield from _running_servers(tls=False)


@pytest.fixture(scope="session")
def tls_mail_servers() -> Iterator[MailServers]:
    """A second pair with TLS: imaps/smtps listeners and STARTTLS, certificates from a test CA (ca_file)."""
    yield from _running_servers(tls=True)


@pytest.fixture(scope="session")
def token_server() -> Iterator[TokenServer]:
    server = TokenServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def oauth_mail_servers(token_server: TokenServer) -> Iterator[MailServers]:
    """A third pair whose Dovecot takes OAuth 2.0 tokens, checked at ``token_server``."""
    yield from _running_servers(tls=False, oauth_url=token_server.url)


@pytest.fixture
def make_player(mail_servers: MailServers, tmp_path: Path) -> Callable[..., Player]:
    def make(name: str, extra: str = "", imap_extra: str = "", exchange: str = "fake_exchange") -> Player:
        unique = f"{name}{next(_counter)}x{os.getpid()}"
        address = mail_servers.add_user(unique)
        workspace = tmp_path / unique
        workspace.mkdir()
        config_path = tmp_path / f"{unique}.toml"
        write_config(config_path, mail_servers, address, workspace, extra, imap_extra, exchange=exchange)
        return Player(name, address, workspace, config_path, mail_servers)

    return make


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A private PostgreSQL for the bot service's database store, started once per session."""
    pytest.importorskip("psycopg", reason="the PostgreSQL store's tests need psycopg: pip install -e '.[service]'")
    binaries = server_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) not found: install Debian's postgresql package")
    root = Path(tempfile.mkdtemp(prefix="pbem-pg-"))
    server = PgServer(root, binaries)
    try:
        server.start()
    except RuntimeError as err:
        server.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)
        pytest.fail(str(err), pytrace=False)
    yield server
    server.stop("immediate")
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A fresh, empty database on the private server, for one test."""
    return pg_server.new_database(f"t{next(_counter)}x{os.getpid()}")


@pytest.fixture(autouse=True)
def _mail_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="pbem.mail")


@pytest.fixture
def engine_double() -> Iterator[None]:
    """The protocol tests' engine double in this process (daemons run as subprocesses load it
    through their configuration)."""
    from pbem.protocol import engine_link
    from tests.protocol import fakeengine

    engine_link.use(fakeengine, fakeengine.ai)  # type: ignore[arg-type]
    yield
    engine_link.use(None)
