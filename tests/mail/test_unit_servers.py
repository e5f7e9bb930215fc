"""Mail tests on a machine without mail servers (issue "Close the holes", the fresh machine).

The README's test command installs Dovecot and Postfix first (tests/install-mail-servers);
run without them, the mail tests fail with one clear line naming what is missing and how
to install it, and never with a secondary traceback from cleaning up servers that never ran.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mailservers
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# Loaded with -p in a child pytest: a machine where no mail server program exists.
NO_SERVERS = "import mailservers\nmailservers.find_program = lambda name: None\n"


def test_stopping_servers_that_cannot_be_found_does_not_raise(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(mailservers, "find_program", lambda name: None)
    monkeypatch.setenv("PATH", str(tmp_path))
    mailservers.MailServers(tmp_path).stop()


def test_the_reason_names_what_is_missing_and_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mailservers, "find_program", lambda name: None if name == "postfix" else "/bin/true")
    reason = mailservers.servers_unavailable()
    assert "postfix not found" in reason
    assert "tests/install-mail-servers" in reason


def test_without_servers_the_mail_tests_fail_with_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "no_servers.py").write_text(NO_SERVERS)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(HERE), str(ROOT)]))
    test = HERE / "test_integration_basic.py"
    args = [sys.executable, "-m", "pytest", "-p", "no_servers", "-n", "0", "-q", "-m", "mail", "-x", str(test)]
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "dovecot, doveadm, postfix, postconf not found" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    assert "FileNotFoundError" not in done.stdout + done.stderr
