"""Deterministic random streams for the computer players.

Every stream is an :class:`engine.rng.Rng` whose 32-byte seed is a hash of the
caller's seed and a label, so two decisions of one game never share a stream
and the same (state, side, seed) always gives the same choices.

:func:`mixed_order` is how the bot draws among options its own scoring rates
close: a hidden list it commits to must not be computable from the public state
by an opponent who knows the bot (docs/ai.md, "Mixed strategy").
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import TypeVar

from engine.rng import Rng

T = TypeVar("T")

#: Resolution of a draw in :func:`mixed_order`.
_STEPS = 1 << 16


def stream(seed: bytes, *labels: str | int) -> Rng:
    h = hashlib.sha256(b"pbem/ai/v1\0")
    h.update(len(seed).to_bytes(4, "big"))
    h.update(seed)
    for label in labels:
        text = str(label).encode()
        h.update(len(text).to_bytes(4, "big"))
        h.update(text)
    return Rng(h.digest())


def mixed_order(rng: Rng, options: Iterable[T], cost: Callable[[T], float], margin: float) -> list[T]:
    """``options`` cheapest first by ``cost`` plus a draw from ``rng`` in [0, ``margin``):
    options whose costs differ by less than ``margin`` come in a random order, options
    further apart keep their order.  Equal keys keep the order ``options`` came in."""
    listed = list(options)
    draws = rng.below_each(_STEPS, len(listed))
    keyed = [(cost(o) + d * margin / _STEPS, i, o) for i, (d, o) in enumerate(zip(draws, listed, strict=True))]
    keyed.sort(key=lambda k: (k[0], k[1]))
    return [o for _, _, o in keyed]
