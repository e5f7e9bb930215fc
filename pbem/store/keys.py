"""Identities on disk: an Ed25519 key pair under a short name, kept in ``$PBEM_HOME``.

Layout of the identity directory (default: the platform's user config dir):

    <NAME>.key    the private key, mode 0600, optionally passphrase-encrypted (below)
    <NAME>.pub    the public key file (the same text ``pbem key export`` writes)
    <NAME>.json   small settings: e-mail, the env variable holding the passphrase

The public key file is a few lines of text a person can read and mail:

    pbem public key v1
    name: alice
    email: alice@example.org
    key: <base64 of the 32-byte Ed25519 public key>
    fingerprint: 1a2b 3c4d ... (first 16 bytes of a domain-separated SHA-256)

The private key file is text too:

    pbem private key v2
    public: <base64 of the public key>
    kdf: none | scrypt n=131072 r=8 p=1
    salt: <base64, 16 bytes>              (scrypt only)
    nonce: <base64, 12 bytes>             (scrypt only)
    secret: <base64>                      (the 32-byte seed, or its ChaCha20-Poly1305 sealing)

A passphrase goes through scrypt (128 MiB of memory, a few tenths of a second), so
guessing one from a stolen file costs that much per guess.  The sealing authenticates
the header and the public key: a damaged or edited file is refused, never loaded as
another key.  Whatever the format, the key must give back the public key written in it
and in ``<NAME>.pub``.  Files of the first format (PKCS#8 PEM) still load.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import platformdirs
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from pbem.errors import PbemError
from pbem.protocol.identity import NAME_RE as NAME_RE
from pbem.protocol.identity import PUB_HEADER as PUB_HEADER
from pbem.protocol.identity import Identity as Identity
from pbem.protocol.identity import PublicKey as PublicKey
from pbem.protocol.identity import check_email as check_email
from pbem.protocol.identity import check_name as check_name
from pbem.protocol.identity import fingerprint as fingerprint
from pbem.protocol.identity import given_fingerprint as given_fingerprint
from pbem.protocol.identity import parse_public_key as parse_public_key
from pbem.protocol.identity import private_seed, public_raw
from pbem.store.durable import atomic_write, make_dirs
from pbem.store.private import PRIVATE_DIR, PRIVATE_FILE
from pbem.store.private import check as check_private

KEY_HEADER = "pbem private key v2"
MAX_PUBFILE = 4096
MAX_KEYFILE = 4096
# scrypt's cost for passphrases: 2**17 x 128 x 8 bytes = 128 MiB per guess.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 1 << 17, 8, 1
SCRYPT_LIMIT = 1 << 20  # refuse files asking for more (a hostile file must not exhaust memory)


def home(path: Path | None = None) -> Path:
    """The identity directory: ``path``, else ``$PBEM_HOME``, else the user config dir."""
    if path is not None:
        return path
    env = os.environ.get("PBEM_HOME")
    return Path(env) if env else Path(platformdirs.user_config_dir("pbem"))


def read_public_key(path: Path) -> PublicKey:
    try:
        if path.is_dir() or path.stat().st_size > MAX_PUBFILE:
            raise PbemError(f"{path.name} is not a public key file", "key")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise PbemError(f"cannot read the public key file {path.name}", "key") from None
    return parse_public_key(text)


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
    make_dirs(d, PRIVATE_DIR)  # the directory of private keys: owner only
    check_private(d)
    key_path = d / f"{name}.key"
    if key_path.exists():
        raise PbemError(f"identity '{name}' already exists", "usage")
    private = Ed25519PrivateKey.from_private_bytes(seed) if seed else Ed25519PrivateKey.generate()
    ident = Identity(name, email, private)
    atomic_write(key_path, seal_private_key(private, passphrase).encode(), mode=PRIVATE_FILE)
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
            head = key_path.read_bytes()[:400]
            protected = b"ENCRYPTED" in head or b"kdf: scrypt" in head
        except (PbemError, OSError):
            continue
        found.append((pub, protected))
    return found


def load(name: str, directory: Path | None = None) -> Identity:
    """Load a stored identity; a protected key reads its passphrase from the env variable named at keygen.
    The key must match its public key file."""
    check_name(name)
    d = home(directory)
    key_path = d / f"{name}.key"
    check_private(d)
    check_private(key_path)
    try:
        if key_path.stat().st_size > MAX_KEYFILE:
            raise PbemError(f"identity '{name}': {key_path.name} is not a private key file", "key")
        data = key_path.read_bytes()
    except OSError:
        raise PbemError(f"no identity named '{name}' (create it with `pbem keygen {name}`)", "usage") from None
    try:
        settings = json.loads((d / f"{name}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        settings = {}
    env = settings.get("passphrase_env") or "PBEM_PASSPHRASE"

    def passphrase() -> bytes:
        secret = os.environ.get(env)
        if not secret:
            raise PbemError(f"identity '{name}' is passphrase-protected: put the passphrase in ${env}", "usage")
        return secret.encode()

    private = open_private_key(name, data, passphrase)
    ident = Identity(name, str(settings.get("email", "")), private)
    pub_path = d / f"{name}.pub"
    if pub_path.exists() and read_public_key(pub_path).raw != ident.public.raw:
        raise PbemError(
            f"identity '{name}': {name}.key and {name}.pub hold different keys; restore the pair from a backup",
            "key",
        )
    return ident


def seal_private_key(private: Ed25519PrivateKey, passphrase: str | None) -> str:
    """The text of a private key file (see the module docstring)."""
    seed, public = private_seed(private), public_raw(private)
    lines = [KEY_HEADER, f"public: {_b64(public)}"]
    if not passphrase:
        return "\n".join([*lines, "kdf: none", f"secret: {_b64(seed)}"]) + "\n"
    kdf = f"scrypt n={SCRYPT_N} r={SCRYPT_R} p={SCRYPT_P}"
    salt, nonce = os.urandom(16), os.urandom(12)
    lines += [f"kdf: {kdf}", f"salt: {_b64(salt)}", f"nonce: {_b64(nonce)}"]
    key = Scrypt(salt=salt, length=32, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P).derive(passphrase.encode())
    sealed = ChaCha20Poly1305(key).encrypt(nonce, seed, "\n".join(lines).encode())
    return "\n".join([*lines, f"secret: {_b64(sealed)}"]) + "\n"


def open_private_key(name: str, data: bytes, passphrase: Callable[[], bytes]) -> Ed25519PrivateKey:
    """The key in a private key file's bytes; ``passphrase`` is asked only if the file needs one."""
    damaged = PbemError(f"cannot open identity '{name}' (wrong passphrase or damaged key file)", "key")
    if data.startswith(b"-----BEGIN"):
        return _open_pem(name, data, passphrase, damaged)
    try:
        lines = data.decode("ascii").strip().split("\n")
    except UnicodeDecodeError:
        raise damaged from None
    if not lines or lines[0] != KEY_HEADER:
        raise damaged
    fields: dict[str, str] = {}
    for ln in lines[1:]:
        label, sep, value = ln.partition(": ")
        if not sep or label in fields or label not in ("public", "kdf", "salt", "nonce", "secret"):
            raise damaged
        fields[label] = value
    try:
        public = base64.b64decode(fields["public"], validate=True)
        secret = base64.b64decode(fields["secret"], validate=True)
        if fields["kdf"] == "none":
            seed = secret
        else:
            n, r, p = _scrypt_params(fields["kdf"])
            salt = base64.b64decode(fields["salt"], validate=True)
            nonce = base64.b64decode(fields["nonce"], validate=True)
            header = "\n".join(lines[: lines.index(f"secret: {fields['secret']}")]).encode()
            key = Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(passphrase())
            seed = ChaCha20Poly1305(key).decrypt(nonce, secret, header)
        private = Ed25519PrivateKey.from_private_bytes(seed)
    except (KeyError, ValueError, binascii.Error, InvalidTag):
        raise damaged from None
    if public_raw(private) != public:
        raise damaged
    return private


def _scrypt_params(text: str) -> tuple[int, int, int]:
    m = re.fullmatch(r"scrypt n=(\d{1,8}) r=(\d{1,3}) p=(\d{1,2})", text)
    if m is None:
        raise ValueError(text)
    n, r, p = (int(x) for x in m.groups())
    if n < 2 or n & (n - 1) or n * r > SCRYPT_LIMIT * 8 or p < 1 or r < 1:
        raise ValueError(text)
    return n, r, p


def _open_pem(name: str, pem: bytes, passphrase: Callable[[], bytes], damaged: PbemError) -> Ed25519PrivateKey:
    try:
        private = serialization.load_pem_private_key(pem, password=passphrase() if b"ENCRYPTED" in pem else None)
    except (ValueError, TypeError):
        raise damaged from None
    if not isinstance(private, Ed25519PrivateKey):
        raise PbemError(f"identity '{name}' is not an Ed25519 key", "key")
    return private


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()
