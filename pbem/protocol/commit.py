"""Commitments for hidden simultaneous decisions.

``commitment = H("pbem/commit/v1", game, seq, side, actions, salt)`` where
``seq`` is the sequence number of the file carrying the commitment, ``actions``
the wire form of the side's action list and ``salt`` 32 secret bytes.  The salt
is derived from the identity key (HKDF, purpose "pbem/commit-salt/v1", context
game id + seq): unpredictable to the opponent, recoverable by its owner.
"""

from __future__ import annotations

import hmac
from typing import Any

from pbem.protocol.hashing import D_COMMIT, h


def commitment(game: str, seq: int, side: str, actions: list[Any], salt: bytes) -> bytes:
    return h(D_COMMIT, game, seq, side, actions, salt)


def matches(expected: bytes, game: str, seq: int, side: str, actions: list[Any], salt: bytes) -> bool:
    return hmac.compare_digest(expected, commitment(game, seq, side, actions, salt))
