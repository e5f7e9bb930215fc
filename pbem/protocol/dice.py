"""Referee-free fair dice: per-side hash chains and the seed of each chance event.

Each side owns a hash chain ``v[N] = s``, ``v[i-1] = H(v[i])`` whose secret
``s`` is derived (HKDF) from its private key and the game id, so it can be
recovered from the identity alone.  The anchor ``v[0] = H^N(s)`` is pinned in
genesis (creator) and in the join file (joiner).  Chance event ``k`` (1, 2, ...)
uses each side's ``v[k]``, which is checked by hashing it once onto the
previously revealed value.  Both values are fixed since the start of the game,
so nobody can grind; see docs/turn-file-format.md for the order of reveals.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from pbem.errors import PbemError
from pbem.protocol.hashing import D_CHAIN, D_SEED, h

DEFAULT_LENGTH = 16384  # chance events a game may hold; a month uses a handful


def step(value: bytes) -> bytes:
    return hashlib.sha256(D_CHAIN + value).digest()


@lru_cache(maxsize=8)
def _chain(secret: bytes, length: int) -> tuple[bytes, ...]:
    # Computed once per process and game: values[i] = v[i].
    values = [secret]
    for _ in range(length):
        values.append(step(values[-1]))
    values.reverse()
    return tuple(values)


def anchor(secret: bytes, length: int) -> bytes:
    return _chain(secret, length)[0]


def value(secret: bytes, length: int, k: int) -> bytes:
    """``v[k]``, the value a side reveals for chance event ``k``."""
    if not 1 <= k <= length:
        raise PbemError(f"the dice chain is used up (event {k} of {length})", "chain")
    return _chain(secret, length)[k]


def check_reveal(previous: bytes, revealed: bytes) -> bool:
    """A reveal is genuine iff it hashes onto the value revealed before it (or the anchor)."""
    return step(revealed) == previous


def seed(game: str, k: int, trigger_hash: bytes, axis_value: bytes, allies_value: bytes) -> bytes:
    """The 32-byte seed of chance event ``k``, handed to ``api.apply_chance``."""
    return h(D_SEED, game, k, trigger_hash, axis_value, allies_value)
