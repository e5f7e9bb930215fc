"""Every worked example of docs/turn-file-format.md, recomputed from the numbers its text
gives (seeds, salts, sizes, bytes) with the constructions the text describes, so that no
example can go stale when a file it names changes.

Each example is found by the words that open it; a value is read from the text, not from
the program, and the program is only the source of the files the text names (the vectors
and the packaged scenario data).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from importlib import resources

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.protocol import spec_verify
from pbem.protocol.spec_verify import h, pack, step
from tests.spec.make_vectors import OUT, ROOT

DOC = (ROOT / "docs" / "turn-file-format.md").read_text()
HEX = r"`([0-9a-f]{64})`"


def _example(opening: str) -> str:
    """The paragraph (up to the next heading or bold paragraph) that starts with ``opening``."""
    at = DOC.index(opening)
    end = min(i for i in (DOC.find("\n#", at), DOC.find("\n**", at), len(DOC)) if i != -1)
    return re.sub(r"\s+", " ", DOC[at:end])


def _after(text: str, words: str, pattern: str = HEX) -> str:
    """The first match of ``pattern`` after ``words`` in ``text``."""
    found = re.search(re.escape(words) + r".*?" + pattern, text)
    assert found is not None, f"the example no longer says {words!r}"
    return found.group(1)


def _body(rel: str) -> dict[str, object]:
    return spec_verify.parse((OUT / rel).read_bytes()).body


def _hkdf(seed: bytes, purpose: str, context: bytes) -> bytes:
    """Section 2.5: input key the seed, salt the purpose text, info the context, 32 bytes."""
    return HKDF(hashes.SHA256(), 32, purpose.encode(), context).derive(seed)


def test_keys_fingerprints_and_derived_secrets() -> None:
    text = _example("Worked example (the axis player of the vectors")
    seed = bytes.fromhex(_after(text, "seed"))
    game = _after(text, "the creator of game", r"`([0-9a-f]{12})`")
    private = Ed25519PrivateKey.from_private_bytes(seed)
    public = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    assert public.hex() == _after(text, "public key")
    assert spec_verify.fingerprint(public) == _after(text, "fingerprint", r"`((?:[0-9a-f]{4} ){7}[0-9a-f]{4})`")
    genesis = _body("base/00.pbem")
    assert genesis["game"] == game and genesis["keys"]["axis"] == public  # type: ignore[index]
    # H(pack(["pbem/genesis-base/v1", base])): a list of two, the domain and the map.
    without_anchor = {k: v for k, v in genesis.items() if k != "anchor"}
    base = hashlib.sha256(b"\x92" + pack("pbem/genesis-base/v1") + _pack_map(without_anchor)).digest()
    assert base.hex() == _after(text, "genesis base of `base/00`")
    secret = _hkdf(seed, "pbem/dice-secret/v2", base)
    assert secret.hex() == _after(text, "dice secret")
    assert _hkdf(seed, "pbem/commit-salt/v2", base + b"2").hex() == _after(text, "commitment salt for file 2 =")
    # The secret gives back the anchor the creator pinned in base/00.
    value = secret
    for _ in range(int(genesis["chain"])):  # type: ignore[call-overload]
        value = step(value)
    assert value == genesis["anchor"]
    # The hand-over base: from the fields the text names, equal to those of the file.
    handover = _body("timed/02.pbem")
    hgame = _after(text, "The hand-over base of `timed/02` (game", r"`([0-9a-f]{12})`")
    prev = bytes.fromhex(_after(text, "side `allies`, `prev`"))
    assert (handover["game"], handover["seq"], handover["side"], handover["prev"]) == (hgame, 2, "allies", prev)
    shown = _after(text, f"`{prev.hex()}`) is")
    assert h("pbem/handover-base/v1", hgame, 2, prev, "allies").hex() == shown


def _pack_map(m: dict[str, object]) -> bytes:
    """The canonical encoding of a map (section 2.1: keys in UTF-8 byte order); the reference
    verifier's ``pack`` holds lists only, as its hashes need."""
    assert len(m) <= 15
    out = bytes([0x80 | len(m)])
    for k in sorted(m, key=lambda k: k.encode()):
        v = m[k]
        out += pack(k) + (_pack_map(v) if isinstance(v, dict) else pack(v))  # type: ignore[arg-type]
    return out


def test_the_commitment_of_base_02() -> None:
    text = _example("Worked example (vectors `base/02`")
    game = _after(text, "allies commit in file 2 of game", r"`([0-9a-f]{12})`")
    salt = bytes.fromhex(_after(text, "with salt"))
    block = DOC[DOC.index("96 ae ") :].split("```")[0]
    shown = b"".join(
        tok[1:-1].encode() if tok.startswith('"') else bytes.fromhex(tok) for tok in re.findall(r'"[^"]*"|\S+', block)
    )
    assert shown == pack(["pbem/commit/v1", game, 2, "allies", [["pass"]], salt])
    digest = _after(text, "their SHA-256 is the commitment in file 2,")
    assert hashlib.sha256(shown).hexdigest() == digest
    assert _body("base/02.pbem")["records"] == [["commit", bytes.fromhex(digest)]]
    assert _body("base/04.pbem")["records"][0] == ["reveal", [["pass"]], salt]  # type: ignore[index]


def test_the_dice_chain_and_the_first_roll() -> None:
    keys_text = _example("Worked example (the axis player of the vectors")
    secret = bytes.fromhex(_after(keys_text, "dice secret"))
    text = _example("Worked example: `step(32 zero bytes)`")
    assert step(bytes(32)).hex() == _after(text, "`step(32 zero bytes)` =")
    v1 = step(step(secret))  # N = 3: v[3] = s, v[1] = step(step(s))
    assert v1.hex() == _after(text, "N = 3, `v[1]` =")
    assert step(v1).hex() == _after(text, "the anchor `v[0]` =")
    trigger = bytes.fromhex(_after(text, "roll 1 is triggered by file 10 (hash"))
    assert spec_verify.parse((OUT / "base/10.pbem").read_bytes()).hash == trigger
    v_allies = bytes.fromhex(_after(text, "`v_allies[1]` ="))
    assert _body("base/12.pbem")["records"] == [["dice", 1, v_allies]]
    # The axis value of roll 1 is v[1] of its chain of the genesis's length, from the secret.
    n = int(_body("base/00.pbem")["chain"])  # type: ignore[call-overload]
    v_axis = secret
    for _ in range(n - 1):
        v_axis = step(v_axis)
    assert _body("base/11.pbem")["records"] == [["dice", 1, v_axis]]
    seed = h("pbem/seed/v1", "ea3a178646b1", 1, trigger, v_axis, v_allies)
    assert seed.hex() == _after(text, "and the seed is")


def test_the_genesis_digest_of_1937() -> None:
    text = _example("Worked example (1937, map 1)")
    files = resources.files("scenarios")
    world_map = files.joinpath("maps", "world-1.map").read_bytes()
    map_hex = hashlib.sha256(world_map).hexdigest()
    assert map_hex == _after(text, "`map` =")
    sizes = {name: int(n.replace(",", "")) for name, n in re.findall(r"`([0-9a-z]+\.toml)` \(([\d,]+) bytes\)", text)}
    assert f"({len(world_map):,} bytes)" in text
    data = hashlib.sha256(b"pbem-scenario-data\x00")
    for name in ("countries.toml", "1937.toml"):  # the order the text gives for 1937
        content = files.joinpath(name).read_bytes().replace(b"\r\n", b"\n")
        assert len(content) == sizes[name], name
        data.update(name.encode() + b"\x00" + str(len(content)).encode() + b"\x00" + content)
    assert data.hexdigest() == _after(text, "and `data` =")
    countries = tomllib.loads(files.joinpath("countries.toml").read_text(encoding="utf-8"))["country"]
    assert f"{len(countries)} countries follow the map hash" in text
    world = hashlib.sha256(b"pbem/world/v1\x00" + map_hex.encode())
    for c in countries:
        flags = ", ".join("True" if c[k] else "False" for k in ("leans_allied", "has_units"))
        world.update(f"('{c['name']}', '{c['region']}', {flags}, {c['rail_capacity']})".encode("ascii"))
    first = countries[0]
    assert f"the first `('{first['name']}', '{first['region']}'" in text
    world.update(data.hexdigest().encode())
    assert f"| 1937 | 1 | 0.3.0 | `{world.hexdigest()}` |" in DOC
