"""Commitments for hidden simultaneous decisions.

``commitment = H("pbem/commit/v1", game, seq, side, actions, salt)`` where
``seq`` is the sequence number of the file carrying the commitment, ``actions``
the wire form of the side's action list and ``salt`` 32 secret bytes.  The salt
is derived from the identity key (HKDF, purpose "pbem/commit-salt/v1", context
game id + seq): unpredictable to the opponent, recoverable by its owner.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence

from pbem.protocol.hashing import D_COMMIT, D_REACT, D_SEAL, h


def commitment(game: str, seq: int, side: str, actions: Sequence[object], salt: bytes) -> bytes:
    return h(D_COMMIT, game, seq, side, actions, salt)


def matches(expected: bytes, game: str, seq: int, side: str, actions: Sequence[object], salt: bytes) -> bool:
    return hmac.compare_digest(expected, commitment(game, seq, side, actions, salt))


def seal(game: str, seq: int, side: str, orders: Sequence[object], salt: bytes) -> bytes:
    """The commitment to reaction orders carried by file ``seq`` (section 5.8)."""
    return h(D_SEAL, game, seq, side, orders, salt)


def seal_matches(expected: bytes, game: str, seq: int, side: str, orders: Sequence[object], salt: bytes) -> bool:
    return hmac.compare_digest(expected, seal(game, seq, side, orders, salt))


def react_seed(game: str, seq: int, i: int, salt: bytes) -> bytes:
    """The computer player's seed for the ``i``-th call of the reaction orders opened in file
    ``seq``: secret until the opening (the salt), fixed by it, so anyone re-executes it."""
    return h(D_REACT, game, seq, i, salt)
