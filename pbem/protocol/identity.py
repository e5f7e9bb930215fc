"""Identities as the protocol knows them: a name, an e-mail address and an Ed25519 key;
fingerprints, public key files read strictly, signing and the derivation of a game's
secrets.  Where keys are kept on disk is :mod:`pbem.store.store.keys`."""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.errors import PbemError
from pbem.protocol.address import is_address
from pbem.protocol.hashing import D_FINGERPRINT

PUB_HEADER = "pbem public key v1"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def fingerprint(public_raw: bytes) -> str:
    digest = hashlib.sha256(D_FINGERPRINT + public_raw).hexdigest()[:32]
    return " ".join(digest[i : i + 4] for i in range(0, 32, 4))


def given_fingerprint(text: str) -> str:
    """A fingerprint as a person typed it (any spacing, any case), in the shown form."""
    digits = "".join(text.split()).lower()
    if not re.fullmatch(r"[0-9a-f]{32}", digits):
        raise PbemError(f"'{text[:60]}' is not a key fingerprint (32 hex digits, as `pbem key list` shows it)", "usage")
    return " ".join(digits[i : i + 4] for i in range(0, 32, 4))


def check_name(name: str) -> str:
    if not NAME_RE.match(name):
        raise PbemError(f"'{name[:40]}' is not a valid identity name (letters, digits, '.', '_', '-')", "usage")
    return name


def check_email(email: str) -> str:
    if email and not is_address(email):
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
    if "name" not in fields or "key" not in fields or "fingerprint" not in fields:
        # Without the fingerprint line a changed key would go unnoticed: pbem always writes it.
        raise PbemError(
            "public key file: 'name', 'key' and 'fingerprint' lines are required; "
            "ask its owner for the file `pbem key export` writes",
            "key",
        )
    try:
        raw = base64.b64decode(fields["key"], validate=True)
    except (binascii.Error, ValueError):
        raise PbemError("public key file: the key is not valid base64", "key") from None
    if len(raw) != 32:
        raise PbemError("public key file: an Ed25519 key is 32 bytes", "key")
    pub = PublicKey(check_name(fields["name"]), check_email(fields.get("email", "")), raw)
    if fields["fingerprint"] != pub.fingerprint:
        raise PbemError("public key file: the fingerprint does not match the key", "key")
    return pub


@dataclass(frozen=True)
class Identity:
    """A private key with its name; derives the per-game secrets the protocol needs."""

    name: str
    email: str
    private: Ed25519PrivateKey

    @property
    def public(self) -> PublicKey:
        return PublicKey(self.name, self.email, public_raw(self.private))

    def sign(self, message: bytes) -> bytes:
        return self.private.sign(message)

    def derive(self, purpose: str, context: bytes) -> bytes:
        """32 secret bytes for ``purpose``/``context``, recoverable from the key alone (HKDF-SHA256)."""
        hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=purpose.encode(), info=context)
        return hkdf.derive(private_seed(self.private))


def private_seed(private: Ed25519PrivateKey) -> bytes:
    raw = serialization.Encoding.Raw
    return private.private_bytes(raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())


def public_raw(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
