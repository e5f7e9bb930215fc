"""Joining shows who signed the invitation and wants that key confirmed.

An invitation's names and addresses are the inviter's claims: anyone can write an
invitation naming a friend of the joiner.  Only the key fingerprint, compared out of
band, tells them apart, so `pbem join` shows it and asks, or takes it on the command line.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.mail import botplayer
from pbem.play import games
from pbem.protocol import turnfile
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol.test_crash import RUN


@pytest.fixture
def invitation(tmp_path: Path) -> tuple[Path, str, Path]:
    """Ann (the real friend) invites bob; returns the invitation, ann's fingerprint and bob's home."""
    ha, hb = tmp_path / "ha", tmp_path / "hb"
    ann = keys.keygen("ann", "ann@example.org", directory=ha)
    keys.keygen("bob", directory=hb)
    bob = keys.read_public_key(hb / "bob.pub")
    _, path = games.new_game(Workspace(tmp_path / "wa"), "tiny", "axis", "ann", bob, home=ha)
    return path, ann.public.fingerprint, hb


def _impostor(tmp_path: Path, hb: Path) -> Path:
    """Eve's invitation to bob, claiming to be ann."""
    he = tmp_path / "he"
    keys.keygen("ann", "ann@example.org", directory=he)  # eve's own key, under ann's name
    bob = keys.read_public_key(hb / "bob.pub")
    _, path = games.new_game(Workspace(tmp_path / "we"), "tiny", "axis", "ann", bob, home=he)
    return path


def test_an_impostor_is_refused_by_the_expected_fingerprint(invitation: tuple[Path, str, Path], tmp_path: Path) -> None:
    _, ann_fp, hb = invitation
    fake = _impostor(tmp_path, hb)
    assert "ann <ann@example.org>" in games.inviter(fake).text()
    ws = Workspace(tmp_path / "wb")
    with pytest.raises(PbemError, match="not joined") as err:
        games.join(ws, fake, "bob", home=hb, expect_fingerprint=ann_fp)
    assert err.value.code == "fingerprint"
    assert ws.games() == [] and not ws.outbox.exists()


def test_the_expected_fingerprint_joins_however_it_is_typed(invitation: tuple[Path, str, Path], tmp_path: Path) -> None:
    path, ann_fp, hb = invitation
    typed = ann_fp.replace(" ", "").upper()
    gid, out = games.join(Workspace(tmp_path / "wb"), path, "bob", home=hb, expect_fingerprint=typed)
    assert out.is_file() and gid == turnfile.read(path).game
    with pytest.raises(PbemError, match="not a key fingerprint"):
        keys.given_fingerprint("5e4e 8351")


def test_the_inviter_is_shown_with_its_key(invitation: tuple[Path, str, Path]) -> None:
    path, ann_fp, _ = invitation
    text = games.inviter(path).text()
    assert "ann <ann@example.org>" in text and ann_fp in text


def test_control_characters_in_the_inviters_name_are_not_shown(invitation: tuple[Path, str, Path]) -> None:
    path, _, _ = invitation
    found = games.inviter(path)
    hostile = games.Inviter(found.gid, found.scenario, found.side, "ann\x1b[2K\rok", found.email, found.fingerprint)
    assert "\x1b" not in hostile.text() and "\r" not in hostile.text()


def _cli(args: list[str], home: Path, tty_answer: str | None) -> subprocess.CompletedProcess[bytes]:
    """`pbem ARGS`, its stdin a terminal in which ``tty_answer`` is typed (None: no terminal)."""
    env = dict(os.environ, PBEM_HOME=str(home))
    if tty_answer is None:
        return subprocess.run([sys.executable, str(RUN), *args], env=env, capture_output=True, stdin=subprocess.DEVNULL)
    master, slave = os.openpty()
    try:
        os.write(master, tty_answer.encode() + b"\n")
        return subprocess.run([sys.executable, str(RUN), *args], env=env, capture_output=True, stdin=slave, timeout=60)
    finally:
        os.close(slave)
        os.close(master)


def test_join_in_a_terminal_asks_and_joins_on_yes(invitation: tuple[Path, str, Path], tmp_path: Path) -> None:
    path, ann_fp, hb = invitation
    run = _cli(["join", str(path), "--me", "bob", "--workspace", str(tmp_path / "wb")], hb, "y")
    out = run.stdout.decode()
    assert run.returncode == 0, run.stderr
    assert "ann <ann@example.org>" in out and ann_fp in out and "joined game" in out
    assert b"Join this game?" in run.stderr


def test_join_in_a_terminal_refuses_without_a_yes(invitation: tuple[Path, str, Path], tmp_path: Path) -> None:
    path, _, hb = invitation
    run = _cli(["join", str(path), "--me", "bob", "--workspace", str(tmp_path / "wb")], hb, "n")
    assert run.returncode != 0
    err = run.stderr.decode().strip().splitlines()[-1]
    assert "not joined" in err and "Traceback" not in run.stderr.decode()
    assert Workspace(tmp_path / "wb").games() == []


def test_join_without_a_terminal_names_the_flag(invitation: tuple[Path, str, Path], tmp_path: Path) -> None:
    path, ann_fp, hb = invitation
    run = _cli(["join", str(path), "--me", "bob", "--workspace", str(tmp_path / "wb")], hb, None)
    err = run.stderr.decode().strip()
    assert run.returncode != 0 and "\n" not in err and "--expect-fingerprint" in err and ann_fp in err
    wrong = "0" * 32
    run = _cli(["join", str(path), "--me", "bob", "--expect-fingerprint", wrong, "-w", str(tmp_path / "wb")], hb, None)
    err = run.stderr.decode().strip()
    assert run.returncode != 0 and "\n" not in err and "not joined" in err
    assert Workspace(tmp_path / "wb").games() == []


def test_the_bot_mailbox_accepts_any_inviter(invitation: tuple[Path, str, Path], tmp_path: Path) -> None:
    """The bot mailbox joins whatever invitation its import kept, without a question."""
    path, _, hb = invitation
    ws = Workspace(tmp_path / "wb")
    gid = turnfile.read(path).game
    kept = ws.root / ws.invitation_rel(gid)
    kept.parent.mkdir(parents=True)
    kept.write_bytes(path.read_bytes())
    [answer] = botplayer.accept(ws.root, gid, "bob", hb)
    assert answer.is_file() and LocalGame.has_game(ws, gid)


def test_a_public_key_file_whose_key_changed_is_refused_with_or_without_its_fingerprint(tmp_path: Path) -> None:
    """The fingerprint line is what shows a changed key: a file without one is refused too."""
    ann = keys.keygen("ann", "ann@example.org", directory=tmp_path)
    mallory = keys.keygen("mallory", "", directory=tmp_path / "m")
    text = (tmp_path / "ann.pub").read_text()
    line = {
        p.fingerprint: next(ln for ln in p.to_text().splitlines() if ln.startswith("key: "))
        for p in (ann.public, mallory.public)
    }
    changed = text.replace(line[ann.public.fingerprint], line[mallory.public.fingerprint])
    assert changed != text
    for edited in (changed, "".join(ln for ln in changed.splitlines(True) if not ln.startswith("fingerprint:"))):
        path = tmp_path / "edited.pub"
        path.write_text(edited)
        with pytest.raises(PbemError) as err:
            keys.read_public_key(path)
        assert err.value.code == "key" and "fingerprint" in str(err.value)
    assert keys.read_public_key(tmp_path / "ann.pub").raw == ann.public.raw
