"""The msgpack bytes of a state's rows kept between states, so that the state hash packs
only what changed.

A state's bytes are msgpack of one document (engine/state.py); most of them are the
units' and the countries' rows, and most rows are the same from one state to the next
(a file moves a few units).  Packing them is most of the state hash's time, so the bytes
of each row are kept here, found again by the row's own values: equal values pack to
equal bytes, so a row found here is the row msgpack would write.  Nothing here changes
which bytes a state has; tests/test_state_shortcuts.py compares these bytes with
msgpack's over every state of a recorded game, in the game's order.

Equal values pack alike only when their types are alike (``True == 1`` but packs
otherwise): a row is kept only if every value has the type its field declares
(:func:`exact`), and the state's values have them, which loading a state checks
(engine/state.py) and the type checker checks of the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Generic, TypeVar

import msgpack

#: rows kept at most, per kind (tens of megabytes at most); past it the kept rows are dropped and
#: packed again as they are met
LIMIT = 50_000

T = TypeVar("T")
#: the values a row is made of (hashable: numbers, strings and tuples of them)
Key = tuple[object, ...]


def exact(values: Sequence[object], types: Sequence[type]) -> bool:
    """Does each value have exactly its type?  A bool is not taken for an int, nor an int
    for a float: they compare equal and pack otherwise.  Any string is taken for a string
    (a str enum compares, hashes and packs as its text)."""
    return len(values) == len(types) and all(
        type(v) is t or (t is str and isinstance(v, str)) for v, t in zip(values, types, strict=True)
    )


class RowBytes(Generic[T]):
    """The packed rows of records of one kind, kept by a hashable key made of the values
    the row is made of.

    ``key`` gives a record's key, ``wire`` its row (what msgpack packs); ``canonical``
    tells whether a key's values have their declared types, and only such rows are kept."""

    def __init__(self, key: Callable[[T], Key], wire: Callable[[T], object], canonical: Callable[[Key], bool]) -> None:
        self._kept: dict[Key, bytes] = {}
        self._key = key
        self._wire = wire
        self._canonical = canonical

    def array(self, records: Sequence[T]) -> bytes:
        """The msgpack array of the rows of ``records``, in their order."""
        return array_of(self.rows(records))

    def rows(self, records: Sequence[T]) -> list[bytes]:
        """The packed rows of ``records``, in their order."""
        keys = list(map(self._key, records))
        found = list(map(self._kept.get, keys))
        if None in found:
            packer = msgpack.Packer(use_bin_type=True)
            found = [
                b if b is not None else self._pack(packer, k, r) for k, r, b in zip(keys, records, found, strict=True)
            ]
        return found  # type: ignore[return-value]  # no None left

    def _pack(self, packer: msgpack.Packer, key: Key, record: T) -> bytes:
        packed: bytes = packer.pack(self._wire(record))
        if self._canonical(key):
            if len(self._kept) >= LIMIT:
                self._kept.clear()
            self._kept[key] = packed
        return packed


class SameBytes:
    """The packed bytes of one value per place (a world's control changes), kept with the
    exact bytes they were made from: found again only for the very same bytes."""

    def __init__(self, places: int = 8) -> None:
        self._kept: dict[Hashable, tuple[bytes, bytes]] = {}
        self._places = places

    def packed(self, place: Hashable, now: bytes | bytearray, pack: Callable[[], bytes]) -> bytes:
        kept = self._kept.get(place)
        if kept is not None and kept[0] == now:
            return kept[1]
        packed = pack()
        if len(self._kept) >= self._places:
            self._kept.clear()
        self._kept[place] = (bytes(now), packed)
        return packed


def array_of(rows: Sequence[bytes]) -> bytes:
    """The msgpack array of rows already packed."""
    header: bytes = msgpack.Packer(use_bin_type=True).pack_array_header(len(rows))
    return header + b"".join(rows)


def packed_map(items: Iterable[tuple[str, object]], raw: dict[str, bytes], size: int) -> bytes:
    """msgpack of a map of ``size`` entries, in the order given, whose entries named in
    ``raw`` are already packed."""
    packer = msgpack.Packer(use_bin_type=True)
    out = [packer.pack_map_header(size)]
    for key, value in items:
        out.append(packer.pack(key))
        out.append(raw[key] if key in raw else packer.pack(value))
    return b"".join(out)
