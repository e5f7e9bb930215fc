"""Helpers shared by the mail tests: players with their own mailbox, bounded waiting, subprocesses."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import fake_exchange
from mailservers import MailServers

from pbem.mail.config import MailConfig, load_config
from pbem.mail.daemon import MailDaemon

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


@dataclass
class Player:
    name: str
    address: str
    workspace: Path
    config_path: Path
    servers: MailServers

    @property
    def config(self) -> MailConfig:
        return load_config(self.config_path)

    def daemon(self) -> MailDaemon:
        return MailDaemon(self.config, exchange=fake_exchange)  # type: ignore[arg-type]


def write_config(
    path: Path,
    servers: MailServers,
    address: str,
    workspace: Path,
    extra: str = "",
    imap_extra: str = "",
    smtp_port: int | None = None,
    imap_port: int | None = None,
    exchange: str = "fake_exchange",
) -> None:
    secret = path.parent / f"{path.stem}.password"
    secret.write_text(servers.users[address] + "\n")
    path.write_text(f"""\
address = "{address}"
workspace = "{workspace}"
exchange = "{exchange}"
{extra}

[imap]
host = "127.0.0.1"
port = {imap_port or servers.imap_port}
security = "none"
user = "{address}"
password_file = "{secret}"
poll_seconds = 1
idle_seconds = 30
{imap_extra}

[smtp]
host = "127.0.0.1"
port = {smtp_port or servers.smtp_port}
security = "none"
user = "{address}"
password_file = "{secret}"
timeout_seconds = 10

[retry]
base_seconds = 0.2
max_seconds = 2
""")


def wait_until(
    predicate: Callable[[], bool], timeout: float, step: Callable[[], object] | None = None, what: str = "condition"
) -> None:
    """Poll (running ``step`` each round) until ``predicate`` holds; bounded in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if step is not None:
            step()
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), str(REPO), env.get("PYTHONPATH", "")])
    return env


def pbem_command(*args: str) -> list[str]:
    return [sys.executable, "-c", "from pbem.cli.main import run; run()", *args]
