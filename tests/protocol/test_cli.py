"""The command line: one line and a non-zero exit for every refusal; audit of a recorded game."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from pbem.store import keys
from tests.protocol.test_crash import cli


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rec = tmp_path_factory.mktemp("rec")
    run = cli(
        ["selfplay", "--scenario", "tiny", "--until", "1939-11", "--seed", "1", "--out", str(rec)],
        rec.parent / "nohome",
    )
    assert run.returncode == 0, run.stderr
    assert "files exchanged and verified" in run.stdout
    return rec


def one_line_failure(run: object) -> str:
    assert run.returncode != 0  # type: ignore[attr-defined]
    err = run.stderr.strip()  # type: ignore[attr-defined]
    assert err and "\n" not in err and "Traceback" not in err, err
    return err


def test_audit_of_a_selfplay_record(recorded: Path, tmp_path: Path) -> None:
    run = cli(["audit", str(recorded)], tmp_path)
    assert run.returncode == 0, run.stderr
    assert "audit OK" in run.stdout and "rolls" in run.stdout


def test_a_selfplay_record_played_to_the_end_holds_its_last_file(tmp_path: Path) -> None:
    # The game may end with an automatic answer made by the import of the opponent's file:
    # without it the record stopped one file short and its audit found the game unfinished.
    rec = tmp_path / "rec"
    run = cli(["selfplay", "--scenario", "tiny", "--until", "1950-01", "--seed", "1", "--out", str(rec)], tmp_path)
    assert run.returncode == 0 and "game over" in run.stdout, run.stdout + run.stderr
    audited = cli(["audit", str(rec)], tmp_path)
    assert audited.returncode == 0 and audited.stdout.rstrip().endswith("game over"), audited.stdout
    assert f"{len(list(rec.glob('*.pbem')))} files exchanged" in run.stdout


def test_audit_names_the_file_for_any_flipped_byte(recorded: Path, tmp_path: Path) -> None:
    files = sorted(recorded.glob("*.pbem"))
    rnd = random.Random(3)  # test data only: a sample of (file, byte) positions
    picks = [(f, i) for f in files for i in range(f.stat().st_size)]
    for victim, i in rnd.sample(picks, 12):
        d = tmp_path / f"flip-{victim.name}-{i}"
        shutil.copytree(recorded, d)
        raw = bytearray((d / victim.name).read_bytes())
        raw[i] ^= 0x10
        (d / victim.name).write_bytes(bytes(raw))
        err = one_line_failure(cli(["audit", str(d)], tmp_path))
        assert victim.name in err, err


def test_audit_detects_missing_and_foreign_files(recorded: Path, tmp_path: Path) -> None:
    d = tmp_path / "gap"
    shutil.copytree(recorded, d)
    middle = sorted(d.glob("*.pbem"))[5]
    middle.unlink()
    assert "missing" in one_line_failure(cli(["audit", str(d)], tmp_path))


@pytest.mark.parametrize(
    "content", [b"", b"garbage\n" * 10, random.Random(62).randbytes(500), None], ids=["empty", "text", "noise", "dir"]
)
def test_verify_garbage_empty_or_directory(content: bytes | None, tmp_path: Path) -> None:
    target = tmp_path / "thing.pbem"
    if content is None:
        target.mkdir()
    else:
        target.write_bytes(content)
    one_line_failure(cli(["verify", str(target), "--workspace", str(tmp_path)], tmp_path))
    one_line_failure(cli(["import", str(target), "--workspace", str(tmp_path)], tmp_path))


def test_verify_a_good_file_changes_nothing(recorded: Path, tmp_path: Path) -> None:
    genesis = sorted(recorded.glob("*-00000-*.pbem"))[0]
    run = cli(["verify", str(genesis), "--workspace", str(tmp_path)], tmp_path)
    assert run.returncode == 0 and "valid invitation" in run.stdout, run.stderr
    assert not (tmp_path / ".pbem" / "games").exists()


def test_person_plays_through_the_cli(tmp_path: Path) -> None:
    ha, hb = tmp_path / "ha", tmp_path / "hb"
    wa, wb = tmp_path / "wa", tmp_path / "wb"
    assert cli(["keygen", "ann", "--email", "ann@example.org"], ha).returncode == 0
    os.environ["BOB_PASS"] = "correct horse"
    try:
        assert cli(["keygen", "bob", "--passphrase-env", "BOB_PASS"], hb).returncode == 0
        assert (ha / "ann.key").stat().st_mode & 0o777 == 0o600
        assert b"kdf: scrypt" in (hb / "bob.key").read_bytes()
        assert cli(["key", "export", "bob", "-o", str(tmp_path / "bob.pub")], hb).returncode == 0
        assert one_line_failure(cli(["keygen", "ann"], ha))
        # `key list` shows my identities with their fingerprints, without asking for a passphrase.
        (hb / "ann.pub").write_text((ha / "ann.pub").read_text())  # an opponent's key kept beside mine
        listed = cli(["key", "list"], hb).stdout.splitlines()
        assert len(listed) == 1 and listed[0].startswith("bob") and "(passphrase)" in listed[0], listed
        ann = cli(["key", "list"], ha).stdout
        assert "ann@example.org" in ann and "(no passphrase)" in ann
        new = cli(
            [
                "new",
                "--scenario",
                "tiny",
                "--side",
                "axis",
                "--me",
                "ann",
                "--opponent",
                str(tmp_path / "bob.pub"),
                "--workspace",
                str(wa),
            ],
            ha,
        )
        assert new.returncode == 0, new.stderr
        gid = new.stdout.strip()
        invite = next((wa / "outbox").glob("*.pbem"))
        # Without a terminal to ask in, joining needs the inviter's fingerprint, given out of band.
        refused = one_line_failure(cli(["join", str(invite), "--me", "bob", "--workspace", str(wb)], hb))
        assert "--expect-fingerprint" in refused and "ann@example.org" in refused
        ann_fp = keys.read_public_key(ha / "ann.pub").fingerprint
        joined = ["join", str(invite), "--me", "bob", "--expect-fingerprint", ann_fp, "--workspace", str(wb)]
        assert cli(joined, hb).returncode == 0
        (wa / "inbox").mkdir()
        for f in (wb / "outbox").glob("*.pbem"):
            shutil.copy(f, wa / "inbox" / f.name)
        assert cli(["import", "--workspace", str(wa)], ha).returncode == 0
        st = cli(["status", gid, "--workspace", str(wb)], hb)
        assert "your move" in st.stdout and f"pbem orders {gid}" in st.stdout
        (tmp_path / "o.txt").write_text("declare 1\nnonsense here\n")
        err = one_line_failure(cli(["orders", gid, str(tmp_path / "o.txt"), "--workspace", str(wb)], hb))
        assert "line 2" in err
        # Without the passphrase the protected identity cannot sign.
        del os.environ["BOB_PASS"]
        assert "passphrase" in one_line_failure(cli(["bot", "play", gid, "--workspace", str(wb)], hb))
        os.environ["BOB_PASS"] = "correct horse"
        assert cli(["bot", "play", gid, "--workspace", str(wb)], hb).returncode == 0
        assert len(list((wb / "outbox").glob("*.pbem"))) == 2
        assert "not your turn" in one_line_failure(cli(["bot", "play", gid, "--workspace", str(wb)], hb))
    finally:
        os.environ.pop("BOB_PASS", None)


def test_every_byte_of_genesis_and_a_turn_file(recorded: Path, tmp_path: Path) -> None:
    from pbem.errors import PbemError
    from pbem.play import audit

    d = tmp_path / "all"
    shutil.copytree(recorded, d)
    files = sorted(d.glob("*.pbem"))
    for victim in (files[0], files[3]):
        good = victim.read_bytes()
        for i in range(len(good)):
            raw = bytearray(good)
            raw[i] ^= 0x80
            victim.write_bytes(bytes(raw))
            with pytest.raises(PbemError) as err:
                audit.audit_dir(d)
            assert victim.name in str(err.value), (i, str(err.value))
        victim.write_bytes(good)
    assert audit.audit_dir(d)[0].files == len(files)
