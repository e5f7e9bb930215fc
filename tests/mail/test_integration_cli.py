"""`pbem mail check` and `pbem mail run --once` against the real servers."""

from __future__ import annotations

import json
import shutil

import fake_exchange as fx
import pytest
from mailservers import free_port
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.mail.store import workspace_lock
from pbem.store import keys

pytestmark = pytest.mark.mail
runner = CliRunner()


def check(config) -> tuple[int, str]:
    result = runner.invoke(app, ["mail", "check", "--config", str(config)])
    return result.exit_code, result.output


def test_check_accepts_a_good_configuration(make_player) -> None:
    code, out = check(make_player("alice").config_path)
    assert code == 0, out
    assert "mail configuration OK" in out


def test_check_names_the_problem_in_one_line(make_player, monkeypatch) -> None:
    alice = make_player("alice")
    good = alice.config_path.read_text()
    port = free_port()

    alice.config_path.write_text(good.replace(f"port = {alice.servers.imap_port}", f"port = {port}"))
    code, out = check(alice.config_path)
    assert code == 1
    assert out.strip() == f"cannot reach IMAP server 127.0.0.1:{port}: connection refused — check imap.host/imap.port"

    alice.config_path.write_text(good.replace(f"port = {alice.servers.smtp_port}", f"port = {port}"))
    code, out = check(alice.config_path)
    assert out.strip() == f"cannot reach SMTP server 127.0.0.1:{port}: connection refused — check smtp.host/smtp.port"

    wrong = alice.config_path.parent / "wrong.password"
    wrong.write_text("not-the-password\n")
    alice.config_path.write_text(good.replace('password_file = "', f'password_file = "{wrong}" # "', 1))
    code, out = check(alice.config_path)
    assert code == 1 and "refused the login" in out and "imap.password_env/password_file" in out

    monkeypatch.delenv("PBEM_TEST_NO_SUCH_VAR", raising=False)
    alice.config_path.write_text(good.replace('password_file = "', 'password_env = "PBEM_TEST_NO_SUCH_VAR" # "', 1))
    code, out = check(alice.config_path)
    assert "environment variable PBEM_TEST_NO_SUCH_VAR is not set" in out

    alice.config_path.write_text(good + '\npassword = "oops"\n')
    code, out = check(alice.config_path)
    assert code == 1 and len(out.strip().splitlines()) == 1


def test_run_once(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    fx.new_game(alice.workspace, "c0ffee000001", "axis", alice.address, bob.address)
    result = runner.invoke(app, ["mail", "run", "--once", "--config", str(alice.config_path)])
    assert result.exit_code == 0, result.output
    assert "queued 1, sent 1" in result.output
    result = runner.invoke(app, ["mail", "status", "--config", str(alice.config_path)])
    assert "1 mail(s) sent, 0 pending, 0 failed" in result.output


def run_once(config) -> tuple[int, str]:
    result = runner.invoke(app, ["mail", "run", "--once", "--config", str(config)])
    return result.exit_code, result.output


def both_refuse(config, line: str) -> None:
    code, out = check(config)
    assert code == 1 and line in out, out
    code, out = run_once(config)
    assert code == 1 and line in out, out


def test_check_refuses_what_run_refuses(make_player, tmp_path) -> None:
    """Each set-up `pbem mail run` refuses at its start, `pbem mail check` finds, in the same words."""
    alice = make_player("alice")
    good = alice.config_path.read_text()
    # The key's e-mail differs from the mailbox: the opponent would write to the key's address.
    home = tmp_path / "home"
    keys.keygen("alice-key", "alice@elsewhere.example", directory=home)
    game = alice.workspace / ".pbem" / "games" / "0123456789ab"
    game.mkdir(parents=True)
    (game / "meta.json").write_text(json.dumps({"me": "alice-key", "side": "axis"}))
    alice.config_path.write_text(good.replace('exchange = "', f'home = "{home}"\nexchange = "', 1))
    both_refuse(
        alice.config_path,
        f"identity alice-key has the e-mail alice@elsewhere.example but this mailbox is {alice.address}",
    )
    shutil.rmtree(game)
    # A game layer that does not load.
    alice.config_path.write_text(good.replace('exchange = "fake_exchange"', 'exchange = "no_such_game_layer"'))
    both_refuse(alice.config_path, "cannot load the game layer 'no_such_game_layer'")
    # Another daemon runs for the workspace.
    alice.config_path.write_text(good)
    with workspace_lock(alice.workspace):
        both_refuse(alice.config_path, f"another mail daemon is already running for {alice.workspace}")
    # The mailbox serves another workspace already.
    assert run_once(alice.config_path)[0] == 0
    second = tmp_path / "second-workspace"
    second.mkdir()
    alice.config_path.write_text(good.replace(f'workspace = "{alice.workspace}"', f'workspace = "{second}"'))
    both_refuse(alice.config_path, f"the mailbox {alice.address} already serves another workspace")
    alice.config_path.write_text(good)
    code, out = check(alice.config_path)
    assert code == 0, out
