"""The private mail servers' ports: chosen where the suite's own connections cannot take
them, and chosen again when another process took one before the servers bound it."""

from __future__ import annotations

import shutil
import socket
import tempfile
from pathlib import Path

import mailservers
import pytest

pytestmark = pytest.mark.mail


def test_ports_are_chosen_below_the_range_of_outgoing_connections() -> None:
    ephemeral = mailservers._ephemeral_ports()
    ports = [mailservers.free_port() for _ in range(50)]
    assert not any(p in ephemeral for p in ports), ports
    # and an outgoing connection's port is in that range, as the kernel gives it
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        assert sock.getsockname()[1] in ephemeral


def test_a_port_taken_before_the_start_is_chosen_again() -> None:
    if reason := mailservers.servers_unavailable():
        pytest.fail(reason, pytrace=False)
    root = Path(tempfile.mkdtemp(prefix="pbem-mail-"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        servers = mailservers.MailServers(root, lmtp_port=port)
        try:
            servers.start()
            assert servers.lmtp_port != port
            with socket.create_connection(("127.0.0.1", servers.lmtp_port), timeout=2) as lmtp:
                assert lmtp.recv(200).startswith(b"220 ")  # Dovecot's LMTP greeting
        finally:
            servers.stop()
            shutil.rmtree(root, ignore_errors=True)
