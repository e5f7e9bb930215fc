"""The README's test command on a machine without mail servers (issue: tests on a fresh machine).

Where Dovecot and Postfix are missing, the integration tests are skipped with the reason
and the command to install them, and the run passes; under CI (which installs them) a
missing server fails the run instead, so coverage cannot quietly disappear there.
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
    assert "apt-get install" in reason


def _child(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess[str]:
    (tmp_path / "no_servers.py").write_text(NO_SERVERS)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(HERE), str(ROOT)])
    if ci:
        env["CI"] = "true"
    test = HERE / "test_integration_basic.py"
    args = [sys.executable, "-m", "pytest", "-p", "no_servers", "-n", "0", "-q", "-rs", "-m", "mail", str(test)]
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_without_servers_the_mail_tests_are_skipped_with_their_reason(tmp_path: Path) -> None:
    done = _child(tmp_path, ci=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SKIPPED" in done.stdout
    assert "dovecot" in done.stdout and "not found" in done.stdout


def test_under_ci_missing_servers_fail_the_run(tmp_path: Path) -> None:
    done = _child(tmp_path, ci=True)
    assert done.returncode != 0
    assert "not found" in done.stdout
