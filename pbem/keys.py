"""Identities: an Ed25519 key pair under a short name, kept in ``$PBEM_HOME``.

Layout of the identity directory (default: the platform's user config dir):

    <NAME>.key    PKCS#8 PEM private key, mode 0600, optionally passphrase-encrypted
    <NAME>.pub    the public key file (the same text ``pbem key export`` writes)
    <NAME>.json   small settings: e-mail, the env variable holding the passphrase

The public key file is a few lines of text a person can read and mail:

    pbem public key v1
    name: alice
    email: alice@example.org
    key: <base64 of the 32-byte Ed25519 public key>
    fingerprint: 1a2b 3c4d ... (first 16 bytes of a domain-separated SHA-256)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import platformdirs
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.durable import atomic_write
from pbem.errors import PbemError
from pbem.hashing import D_FINGERPRINT

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
EMAIL_RE = re.compile(r"^[^\s@]{1,64}@[^\s@]{1,190}$")
PUB_HEADER = "pbem public key v1"
MAX_PUBFILE = 4096


def home(path: Path | None = None) -> Path:
    """The identity directory: ``path``, else ``$PBEM_HOME``, else the user config dir."""
    if path is not None:
        return path
    env = os.environ.get("PBEM_HOME")
    return Path(env) if env else Path(platformdirs.user_config_dir("pbem"))


def fingerprint(public_raw: bytes) -> str:
    digest = hashlib.sha256(D_FINGERPRINT + public_raw).hexdigest()[:32]
    return " ".join(digest[i : i + 4] for i in range(0, 32, 4))


def check_name(name: str) -> str:
    if not NAME_RE.match(name):
        raise PbemError(f"'{name[:40]}' is not a valid identity name (letters, digits, '.', '_', '-')", "usage")
    return name


def check_email(email: str) -> str:
    if email and not EMAIL_RE.match(email):
        raise PbemError(f"'{email[:80]}' is not an e-mail address", "usage")
    return email


@dataclass(frozen=True)
class PublicKey:
    name: str
    email: str
    raw: bytes  # 32 bytes

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.raw)

    def to_text(self) -> str:
        key = base64.b64encode(self.raw).decode()
        return f"{PUB_HEADER}\nname: {self.name}\nemail: {self.email}\nkey: {key}\nfingerprint: {self.fingerprint}\n"

    def verify(self, signature: bytes, message: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(signature, message)
        except (InvalidSignature, ValueError):
            return False
        return True


def parse_public_key(text: str) -> PublicKey:
    """Read a public key file strictly: known lines only, fingerprint must match the key."""
    lines = [ln.strip() for ln in text.strip().splitlines()]
    if not lines or lines[0] != PUB_HEADER:
        raise PbemError("not a pbem public key file (first line must be 'pbem public key v1')", "key")
    fields: dict[str, str] = {}
    for ln in lines[1:]:
        key, sep, value = ln.partition(":")
        if not sep or key not in ("name", "email", "key", "fingerprint") or key in fields:
            raise PbemError(f"public key file: unexpected line '{ln[:40]}'", "key")
        fields[key] = value.strip()
    if "name" not in fields or "key" not in fields:
        raise PbemError("public key file: 'name' and 'key' lines are required", "key")
    try:
        raw = base64.b64decode(fields["key"], validate=True)
    except (binascii.Error, ValueError):
        raise PbemError("public key file: the key is not valid base64", "key") from None
    if len(raw) != 32:
        raise PbemError("public key file: an Ed25519 key is 32 bytes", "key")
    pub = PublicKey(check_name(fields["name"]), check_email(fields.get("email", "")), raw)
    if "fingerprint" in fields and fields["fingerprint"] != pub.fingerprint:
        raise PbemError("public key file: the fingerprint does not match the key", "key")
    return pub


def read_public_key(path: Path) -> PublicKey:
    try:
        if path.is_dir() or path.stat().st_size > MAX_PUBFILE:
            raise PbemError(f"{path.name} is not a public key file", "key")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise PbemError(f"cannot read the public key file {path.name}", "key") from None
    return parse_public_key(text)


@dataclass(frozen=True)
class Identity:
    """A private key with its name; derives the per-game secrets the protocol needs."""

    name: str
    email: str
    private: Ed25519PrivateKey

    @property
    def public(self) -> PublicKey:
        raw = self.private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return PublicKey(self.name, self.email, raw)

    def sign(self, message: bytes) -> bytes:
        return self.private.sign(message)

    def derive(self, purpose: str, context: bytes) -> bytes:
        """32 secret bytes for ``purpose``/``context``, recoverable from the key alone (HKDF-SHA256)."""
        raw = self.private.private_bytes(
            serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
        )
        hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=purpose.encode(), info=context)
        return hkdf.derive(raw)


def keygen(
    name: str,
    email: str = "",
    passphrase: str | None = None,
    directory: Path | None = None,
    passphrase_env: str = "",
    seed: bytes | None = None,
) -> Identity:
    """Create and store a new identity; refuses to overwrite an existing one.

    ``seed`` (32 bytes) makes the key deterministic; only self-play uses it, so
    its recorded games can be reproduced exactly.
    """
    check_name(name)
    check_email(email)
    d = home(directory)
    d.mkdir(parents=True, exist_ok=True, mode=0o700)  # the directory of private keys: owner only
    key_path = d / f"{name}.key"
    if key_path.exists():
        raise PbemError(f"identity '{name}' already exists", "usage")
    private = Ed25519PrivateKey.from_private_bytes(seed) if seed else Ed25519PrivateKey.generate()
    enc: serialization.KeySerializationEncryption = serialization.NoEncryption()
    if passphrase:
        enc = serialization.BestAvailableEncryption(passphrase.encode())
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, enc)
    ident = Identity(name, email, private)
    atomic_write(key_path, pem, mode=0o600)
    settings = {"name": name, "email": email, "passphrase_env": passphrase_env if passphrase else ""}
    atomic_write(d / f"{name}.json", json.dumps(settings, sort_keys=True).encode())
    atomic_write(d / f"{name}.pub", ident.public.to_text().encode())
    return ident


def identities(directory: Path | None = None) -> list[tuple[PublicKey, bool]]:
    """Every identity stored in the identity directory, by name, with whether its private
    key is protected by a passphrase (read from the public files: no passphrase needed)."""
    d = home(directory)
    found = []
    for pub_path in sorted(d.glob("*.pub")) if d.is_dir() else []:
        key_path = pub_path.with_suffix(".key")
        if not key_path.is_file():
            continue  # an opponent's public key kept here, not one of mine
        try:
            pub = read_public_key(pub_path)
            protected = b"ENCRYPTED" in key_path.read_bytes()[:200]
        except (PbemError, OSError):
            continue
        found.append((pub, protected))
    return found


def load(name: str, directory: Path | None = None) -> Identity:
    """Load a stored identity; a protected key reads its passphrase from the env variable named at keygen."""
    check_name(name)
    d = home(directory)
    key_path = d / f"{name}.key"
    try:
        pem = key_path.read_bytes()
    except OSError:
        raise PbemError(f"no identity named '{name}' (create it with `pbem keygen {name}`)", "usage") from None
    try:
        settings = json.loads((d / f"{name}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        settings = {}
    env = settings.get("passphrase_env") or "PBEM_PASSPHRASE"
    password = None
    if b"ENCRYPTED" in pem:
        secret = os.environ.get(env)
        if not secret:
            raise PbemError(f"identity '{name}' is passphrase-protected: put the passphrase in ${env}", "usage")
        password = secret.encode()
    try:
        private = serialization.load_pem_private_key(pem, password=password)
    except (ValueError, TypeError):
        raise PbemError(f"cannot open identity '{name}' (wrong passphrase or damaged key file)", "usage") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise PbemError(f"identity '{name}' is not an Ed25519 key", "usage")
    return Identity(name, str(settings.get("email", "")), private)
