"""Deterministic random streams for the computer players.

Every stream is an :class:`engine.rng.Rng` whose 32-byte seed is a hash of the
caller's seed and a label, so two decisions of one game never share a stream
and the same (state, side, seed) always gives the same choices.
"""

from __future__ import annotations

import hashlib

from engine.rng import Rng


def stream(seed: bytes, *labels: str | int) -> Rng:
    h = hashlib.sha256(b"pbem/ai/v1\0")
    h.update(len(seed).to_bytes(4, "big"))
    h.update(seed)
    for label in labels:
        text = str(label).encode()
        h.update(len(text).to_bytes(4, "big"))
        h.update(text)
    return Rng(h.digest())
