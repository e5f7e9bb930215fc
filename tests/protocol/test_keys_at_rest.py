"""Private keys at rest: a slow passphrase KDF, authenticated sealing, and a key that must
match its public key file (issue "Close the holes", keys at rest)."""

from __future__ import annotations

import base64
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import PbemError
from pbem.store import keys


def test_a_key_without_passphrase_round_trips(tmp_path: Path) -> None:
    made = keys.keygen("ann", "ann@example.org", directory=tmp_path)
    loaded = keys.load("ann", tmp_path)
    assert loaded.public.raw == made.public.raw
    assert loaded.derive("p", b"c") == made.derive("p", b"c")
    assert (tmp_path / "ann.key").stat().st_mode & 0o077 == 0


def test_a_passphrase_goes_through_scrypt_and_guards_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = keys.keygen("bob", passphrase="correct horse", directory=tmp_path, passphrase_env="BOB_PASS")
    text = (tmp_path / "bob.key").read_text()
    assert "kdf: scrypt n=131072 r=8 p=1" in text
    seed = made.private.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    assert base64.b64encode(seed).decode() not in text
    monkeypatch.setenv("BOB_PASS", "correct horse")
    start = time.perf_counter()
    assert keys.load("bob", tmp_path).public.raw == made.public.raw
    # The cost per guess is the point: far above the old 2,048 rounds of PBKDF2 (about a millisecond).
    assert time.perf_counter() - start > 0.05
    monkeypatch.setenv("BOB_PASS", "wrong")
    with pytest.raises(PbemError, match="wrong passphrase or damaged"):
        keys.load("bob", tmp_path)


@pytest.mark.parametrize("passphrase", [None, "pw"])
def test_every_single_byte_change_is_refused_never_another_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, passphrase: str | None
) -> None:
    made = keys.keygen("cy", passphrase=passphrase, directory=tmp_path, passphrase_env="CY_PASS")
    monkeypatch.setenv("CY_PASS", "pw")
    path = tmp_path / "cy.key"
    good = path.read_bytes()
    # Each line's value, changed in one base64 character: the public key, salt, nonce, secret.
    for line in good.decode().splitlines()[1:]:
        label, _, value = line.partition(": ")
        if label == "kdf":
            continue
        swapped = ("B" if value[5] == "A" else "A").join([value[:5], value[6:]])
        path.write_bytes(good.replace(f"{label}: {value}".encode(), f"{label}: {swapped}".encode()))
        try:
            loaded = keys.load("cy", tmp_path)
        except PbemError as exc:
            assert "damaged" in str(exc) or "different keys" in str(exc)
        else:  # pragma: no cover - the failure this test exists for
            pytest.fail(f"a changed {label} loaded as key {loaded.public.fingerprint} (made {made.public.fingerprint})")


def test_a_key_that_does_not_match_its_public_file_is_refused(tmp_path: Path) -> None:
    keys.keygen("dee", directory=tmp_path)
    other = tmp_path / "other"
    keys.keygen("dee", directory=other)
    (tmp_path / "dee.key").write_bytes((other / "dee.key").read_bytes())
    with pytest.raises(PbemError, match=r"dee.key and dee.pub hold different keys"):
        keys.load("dee", tmp_path)


def test_keys_of_the_first_format_still_load(tmp_path: Path) -> None:
    made = keys.keygen("old", directory=tmp_path)
    pem = made.private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    (tmp_path / "old.key").write_bytes(pem)
    assert keys.load("old", tmp_path).public.raw == made.public.raw


def test_a_hostile_kdf_cost_is_refused_without_running_it(tmp_path: Path) -> None:
    private = Ed25519PrivateKey.generate()
    text = keys.seal_private_key(private, "pw").replace("n=131072", "n=1073741824")
    with pytest.raises(PbemError, match="damaged"):
        keys.open_private_key("evil", text.encode(), lambda: b"pw")
