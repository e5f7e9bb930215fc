"""Canonical msgpack and strict, bounded decoding of untrusted bytes.

Files come from strangers by mail.  Before msgpack builds a single Python
object we walk the raw bytes once, without recursion, and check nesting
depth, element counts and declared lengths against hard limits; ext types,
floats and the reserved byte are refused outright, and the walk must end
exactly at the last byte (no trailing data).  Only then is the buffer decoded,
and the result must re-encode to the very same bytes, so one content has one
encoding and one hash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack

from pbem.errors import PbemError


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 4 * 1024 * 1024
    max_depth: int = 8
    max_items: int = 400_000  # every array element and map key/value counts
    max_str: int = 4096
    max_bin: int = 4096
    max_array: int = 100_000
    max_map: int = 64


DEFAULT_LIMITS = Limits()


def _sorted(obj: object) -> object:
    if isinstance(obj, dict):
        return {k: _sorted(obj[k]) for k in sorted(obj)}
    if isinstance(obj, list | tuple):
        return [_sorted(x) for x in obj]
    return obj


def pack(obj: object) -> bytes:
    """Canonical encoding: maps with sorted keys, bin for bytes, smallest ints."""
    packed: bytes = msgpack.packb(_sorted(obj), use_bin_type=True)
    return packed


# (header size, how the length is read) for the length-prefixed types.
_FIXED_SCALARS = {0xC0: 0, 0xC2: 0, 0xC3: 0, 0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8, 0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8}


def _scan(data: bytes, lim: Limits) -> None:
    """Walk the msgpack structure of ``data`` and raise on anything out of bounds."""
    pos, n = 0, len(data)
    stack: list[int] = []  # elements still expected at each open container
    items = 0
    roots = 0

    def need(k: int) -> None:
        if pos + k > n:
            raise PbemError("the file is truncated (a declared length runs past its end)", "parse")

    while True:
        if not stack:
            if roots == 1:
                break
            roots += 1
        need(1)
        b = data[pos]
        pos += 1
        count = 0  # children this element opens
        if b <= 0x7F or b >= 0xE0:
            pass
        elif 0x80 <= b <= 0x8F:
            count = 2 * (b & 0x0F)
            if b & 0x0F > lim.max_map:
                raise PbemError("the file holds a map that is too large", "parse")
        elif 0x90 <= b <= 0x9F:
            count = b & 0x0F
        elif 0xA0 <= b <= 0xBF:
            ln = b & 0x1F
            need(ln)
            pos += ln
        elif b in _FIXED_SCALARS:
            k = _FIXED_SCALARS[b]
            need(k)
            pos += k
        elif b in (0xC4, 0xC5, 0xC6, 0xD9, 0xDA, 0xDB):
            k = {0xC4: 1, 0xC5: 2, 0xC6: 4, 0xD9: 1, 0xDA: 2, 0xDB: 4}[b]
            need(k)
            ln = int.from_bytes(data[pos : pos + k], "big")
            pos += k
            limit = lim.max_bin if b <= 0xC6 else lim.max_str
            if ln > limit:
                what = "binary" if b <= 0xC6 else "string"
                raise PbemError(f"the file holds a {what} field that is too long", "parse")
            need(ln)
            pos += ln
        elif b in (0xDC, 0xDD, 0xDE, 0xDF):
            k = 2 if b in (0xDC, 0xDE) else 4
            need(k)
            ln = int.from_bytes(data[pos : pos + k], "big")
            pos += k
            if b in (0xDE, 0xDF):
                if ln > lim.max_map:
                    raise PbemError("the file holds a map that is too large", "parse")
                count = 2 * ln
            else:
                if ln > lim.max_array:
                    raise PbemError("the file holds a list that is too long", "parse")
                count = ln
        elif b in (0xCA, 0xCB):
            raise PbemError("the file holds a floating-point number, which the format never uses", "parse")
        else:  # 0xC1 (never used) and the ext family
            raise PbemError("the file holds a msgpack type the format never uses", "parse")
        items += 1
        if items > lim.max_items:
            raise PbemError("the file holds too many elements", "parse")
        if stack:
            stack[-1] -= 1
        if count:
            if len(stack) >= lim.max_depth:
                raise PbemError("the file is nested too deeply", "parse")
            stack.append(count)
        while stack and stack[-1] == 0:
            stack.pop()
    if pos != n:
        raise PbemError("the file has trailing bytes after its content", "parse")


def unpack(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Any:
    """Decode untrusted canonical msgpack; raises :class:`PbemError` on anything else."""
    if len(data) > limits.max_bytes:
        raise PbemError(f"the content is larger than {limits.max_bytes} bytes", "parse")
    _scan(data, limits)
    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=True,
        use_list=True,
        max_buffer_size=max(len(data), 1),
        max_str_len=limits.max_str,
        max_bin_len=limits.max_bin,
        max_array_len=limits.max_array,
        max_map_len=limits.max_map,
        max_ext_len=0,
    )
    try:
        unpacker.feed(data)
        obj = unpacker.unpack()
        if unpacker.tell() != len(data):
            raise ValueError("trailing bytes")
    except (ValueError, TypeError, msgpack.UnpackException, msgpack.OutOfData, UnicodeDecodeError) as exc:
        raise PbemError(f"the content is not valid msgpack ({type(exc).__name__})", "parse") from None
    try:
        canonical = pack(obj)
    except (TypeError, ValueError):
        raise PbemError("the content cannot be re-encoded", "parse") from None
    if canonical != data:
        raise PbemError("the content is not in canonical form (unsorted keys or non-minimal encoding)", "parse")
    return obj
