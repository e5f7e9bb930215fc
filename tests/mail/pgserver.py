"""A private PostgreSQL server for the tests of the bot service's database store.

It is Debian's ``postgresql`` package's server, started on a free loopback port
with its data in a temporary folder and stopped at the end; run as root (as the
mail servers are), the server runs as the ``postgres`` user, which it insists on.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
from pathlib import Path


def server_binaries() -> Path | None:
    """The folder of initdb and pg_ctl: the newest Debian cluster's, else the PATH's."""
    for found in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True):
        if (Path(found) / "initdb").is_file() and (Path(found) / "pg_ctl").is_file():
            return Path(found)
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    return Path(initdb).parent if initdb and pg_ctl else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    def __init__(self, root: Path, binaries: Path, fsync: bool = False) -> None:
        # Tests cut no power: without fsync they run faster; a benchmark wants the real cost.
        self.root, self.bin, self.fsync = root, binaries, fsync
        self.data = root / "data"
        self.port = free_port()
        self._as: list[str] = []
        if os.getuid() == 0:  # the server refuses to run as root
            user = pwd.getpwnam("postgres")
            os.chown(root, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self._as, *args], capture_output=True, timeout=120, cwd=self.root)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stderr.decode(errors='replace')[-800:]}")

    def start(self) -> None:
        if not self.data.exists():
            self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "pbem", "--auth=trust", "-E", "UTF8")
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c fsync={'on' if self.fsync else 'off'}"
        )
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start"
        )

    def stop(self, mode: str = "fast") -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://pbem@127.0.0.1:{self.port}/{database}"

    def new_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)
