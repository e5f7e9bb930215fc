"""The only source of randomness in the engine.

A chance event is handed a 32-byte seed from outside (the protocol derives it
from both players' secrets).  :class:`Rng` expands that seed with SHAKE-256 in
counter mode, and draws integers by rejection sampling, so a draw is exactly
the same on every machine and Python version (the stdlib ``random`` module may
change its algorithms between versions, so it is never used).
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

SEED_BYTES = 32
_BLOCK = 64
_DOMAIN = b"pbem/rng/v1"


def _width(n: int) -> int:
    """Bytes read for one draw below ``n``: a byte more than ``n`` needs keeps rejections rare."""
    return (n.bit_length() + 7) // 8 + 1


class Rng:
    """Deterministic stream of random numbers from a 32-byte seed."""

    __slots__ = ("_buffer", "_counter", "_seed", "draws")

    def __init__(self, seed: bytes) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a chance seed must be {SEED_BYTES} bytes, got {len(seed)}")
        self._seed = bytes(seed)
        self._counter = 0
        self._buffer = b""
        self.draws = 0

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.shake_256(_DOMAIN + self._seed + self._counter.to_bytes(8, "big")).digest(_BLOCK)
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        self.draws += 1
        if n == 1:
            return 0
        nbytes = _width(n)
        space = 256**nbytes
        limit = space - space % n
        while True:
            x = int.from_bytes(self._bytes(nbytes), "big")
            if x < limit:
                return x % n

    def below_each(self, n: int, count: int) -> list[int]:
        """``count`` draws of :meth:`below` ``(n)``, the same numbers from the same stream.

        When ``n`` divides the space of its draw no draw is rejected, so the bytes of all of
        them are taken at once: the bot draws one per option it weighs, thousands a decision."""
        if n <= 1 or count <= 0:
            return [self.below(n) for _ in range(count)]
        nbytes = _width(n)
        if (256**nbytes) % n:
            return [self.below(n) for _ in range(count)]
        self.draws += count
        data = self._bytes(nbytes * count)
        return [int.from_bytes(data[i : i + nbytes], "big") % n for i in range(0, nbytes * count, nbytes)]

    # A fixed-point uniform draw: an exact rational in [0, 1) with 2**-48 resolution.
    # Rules compare it with probabilities computed from exact or float formulas;
    # keeping the draw exact makes the comparison the only float operation.
    _UNIT_BITS = 48

    def uniform(self) -> Fraction:
        return Fraction(self.below(1 << self._UNIT_BITS), 1 << self._UNIT_BITS)

    def chance(self, probability: float | Fraction) -> bool:
        """True with the given probability."""
        return self.uniform() < probability
