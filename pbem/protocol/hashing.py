"""Domain-separated hashing over canonical msgpack.

Every hash the protocol uses is SHA-256 of the canonical encoding of a list
whose first element names its purpose, so a value computed for one purpose
can never be replayed as a value of another.
"""

from __future__ import annotations

import hashlib

from pbem.protocol import wire

# Every domain the protocol uses; documented in docs/turn-file-format.md.
D_FILE = "pbem/file/v1"
D_SIGN = b"pbem/sign/v1\x00"
D_COMMIT = "pbem/commit/v1"
D_SEAL = "pbem/seal/v1"
D_REACT = "pbem/react/v1"
D_CHAIN = b"pbem/chain/v1\x00"
D_SEED = "pbem/seed/v1"
D_FINGERPRINT = b"pbem/fingerprint/v1\x00"
D_CONTACT = b"pbem/contact/v1\x00"
D_BOT = "pbem/bot/v2"
D_HANDOVER = b"pbem/handover/v1\x00"
D_TERMS = b"pbem/terms/v1\x00"
D_GENESIS_BASE = "pbem/genesis-base/v1"
D_HANDOVER_BASE = "pbem/handover-base/v1"


def h(domain: str, *parts: object) -> bytes:
    """SHA-256 of ``pack([domain, *parts])``: 32 bytes."""
    return hashlib.sha256(wire.pack([domain, *parts])).digest()
