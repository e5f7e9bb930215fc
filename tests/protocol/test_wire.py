"""Hostile bytes: bounded before decoding, strict after, one line every time."""

from __future__ import annotations

import contextlib
import os
from typing import Any

import msgpack
import pytest

from pbem.errors import PbemError
from pbem.protocol import turnfile, wire


def body(**over: Any) -> dict[str, Any]:
    b = {
        "v": 1,
        "type": "turn",
        "game": "0123456789ab",
        "seq": 2,
        "prev": bytes(32),
        "side": "axis",
        "records": [["act", ["pass"]]],
        "state": bytes(32),
    }
    b.update(over)
    return b


def framed(content: bytes) -> bytes:
    return turnfile.MAGIC + len(content).to_bytes(4, "big") + content + bytes(64)


def refused(data: bytes, code: str | None = None) -> PbemError:
    with pytest.raises(PbemError) as err:
        turnfile.parse(data)
    assert "\n" not in str(err.value)
    if code:
        assert err.value.code == code, str(err.value)
    return err.value


def test_deep_nesting_is_refused_before_decoding() -> None:
    deep = b"\x91" * 100_000 + b"\xc0"  # a hundred thousand nested one-element lists
    assert "nested" in str(refused(framed(deep), "parse"))


def test_huge_declared_lengths_are_refused_before_allocating() -> None:
    for data in (
        b"\xdd\xff\xff\xff\xff",
        b"\xdf\xff\xff\xff\xff",
        b"\xdb\xff\xff\xff\xff",
        b"\xc6\x7f\xff\xff\xff",
        b"\xdc\xff\xff" + b"\xc0" * 10,
    ):
        refused(framed(data), "parse")


def test_too_many_elements() -> None:
    many = msgpack.packb([[0] * 60_000] * 8)
    refused(framed(many), "parse")


def test_trailing_bytes_and_truncation() -> None:
    good = wire.pack(body())
    refused(framed(good + b"\xc0"), "parse")
    refused(framed(good[:-1]), "parse")
    data = framed(good)
    refused(data + b"x", "parse")
    refused(data[:-1], "parse")


def test_forbidden_types() -> None:
    for bad in (1.5, msgpack.ExtType(1, b"x")):
        refused(framed(msgpack.packb(body(seq=bad))), "parse")
    refused(framed(b"\xc1"), "parse")
    refused(framed(wire.pack(body())[:-40] + b"\xff" * 40))  # invalid utf-8 or garbage


def test_non_canonical_encoding() -> None:
    b = body()
    unsorted = msgpack.packb(dict(reversed(list(b.items()))), use_bin_type=True)
    refused(framed(unsorted), "parse")
    wide_int = wire.pack(body()).replace(b"\xa3seq\x02", b"\xa3seq\xcd\x00\x02")
    refused(framed(wide_int), "parse")


@pytest.mark.parametrize(
    "over",
    [
        {"extra": 1},
        {"v": 2},
        {"v": True},
        {"game": "XYZ"},
        {"game": 5},
        {"seq": -1},
        {"seq": "2"},
        {"seq": True},
        {"prev": b"short"},
        {"side": "neutral"},
        {"records": []},
        {"records": "pass"},
        {"records": [["fly"]]},
        {"records": [["act", "pass"]]},
        {"records": [["act", [1]]]},
        {"records": [["act", ["x", 1.0]]]},
        {"records": [["dice", 0, bytes(32)]]},
        {"records": [["commit", b"x"]]},
        {"records": [["reveal", [], b"s"]]},
        {"state": None},
        {"type": "genesis"},
        {"type": "other"},
        {"seq": 1},
    ],
)
def test_schema_is_strict(over: dict[str, Any]) -> None:
    refused(framed(wire.pack(body(**over))))


def test_missing_field() -> None:
    b = body()
    del b["state"]
    refused(framed(wire.pack(b)), "schema")


def test_garbage_and_empty() -> None:
    refused(b"", "parse")
    refused(os.urandom(3000), "parse")
    refused(turnfile.MAGIC + b"\xff\xff\xff\xff", "parse")


def test_random_mutations_never_escape_as_other_exceptions() -> None:
    good = framed(wire.pack(body()))
    rnd = __import__("random").Random(7)  # test data only: which bytes to mutate
    for _ in range(3000):
        data = bytearray(good)
        for _ in range(rnd.randint(1, 4)):
            data[rnd.randrange(len(data))] = rnd.randrange(256)
        with contextlib.suppress(PbemError):
            turnfile.parse(bytes(data))


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

values = st.recursive(
    st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20) | st.binary(max_size=40) | st.booleans() | st.none(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(values)
def test_canonical_round_trip(value: Any) -> None:
    data = wire.pack(value)
    try:
        back = wire.unpack(data)
    except PbemError as exc:  # only depth may exceed the limit for these sizes
        assert "nested" in str(exc)
        return
    assert wire.pack(back) == data
