"""The pinned scenario values of docs/turn-file-format.md: rebuilt from the document's
construction, equal to the engine's, printed by `pbem scenario info`, and written in the
document and in the engine-free verifier."""

from __future__ import annotations

import hashlib
import re
import tomllib
from importlib import resources

import pytest
from typer.testing import CliRunner

from engine import api
from pbem.cli.main import app
from pbem.protocol import spec_verify
from tests.spec.make_vectors import ROOT

DOC = (ROOT / "docs" / "turn-file-format.md").read_text()
DATA_FILES = {"1937": ["countries.toml", "1937.toml"], "1939": ["countries.toml", "1937.toml", "1939.toml"]}


def _text(name: str) -> bytes:
    return resources.files("scenarios").joinpath(name).read_bytes().replace(b"\r\n", b"\n")


#: The packaged map of each map version of the document, newest first.
MAP_FILES = {2: ("world.map",), 1: ("maps", "world-1.map")}


def digest_from_the_document(scenario: str, map_file: tuple[str, ...]) -> str:
    map_hex = hashlib.sha256(resources.files("scenarios").joinpath(*map_file).read_bytes()).hexdigest()
    data = hashlib.sha256(b"pbem-scenario-data\x00")
    for name in DATA_FILES[scenario]:
        content = _text(name)
        data.update(name.encode() + b"\x00" + str(len(content)).encode() + b"\x00" + content)
    world = hashlib.sha256(b"pbem/world/v1\x00" + map_hex.encode())
    for c in tomllib.loads(_text("countries.toml").decode())["country"]:
        flags = ", ".join("True" if c[k] else "False" for k in ("leans_allied", "has_units"))
        world.update(f"('{c['name']}', '{c['region']}', {flags}, {c['rail_capacity']})".encode("ascii"))
    world.update(data.hexdigest().encode())
    return world.hexdigest()


@pytest.mark.parametrize("scenario", sorted(DATA_FILES))
def test_pinned_values(scenario: str) -> None:
    """Each map version's digest and starting state, as the engine makes a game on it; a
    new game is on the newest map, which is what `pbem scenario info` prints."""
    assert sorted(DATA_FILES) == sorted(api.scenarios())
    pins = []
    for version, map_file in MAP_FILES.items():
        digest = digest_from_the_document(scenario, map_file)
        start = api.state_hash(api.new_game(scenario, {}, digest=digest)).hex()
        assert f"| {scenario} | {version} | {api.ENGINE_VERSION} | `{digest}` | `{start}` |" in DOC
        pins.append((api.ENGINE_VERSION, digest, start))
    assert len({pin[1] for pin in pins}) == len(pins)
    assert spec_verify.PINNED[scenario] == tuple(pins)
    _, digest, start = pins[0]
    assert api.scenario_digest(scenario) == digest
    assert api.state_hash(api.new_game(scenario, {})).hex() == start
    out = CliRunner().invoke(app, ["scenario", "info", scenario]).output
    assert f"engine {api.ENGINE_VERSION}, scenario digest {digest}" in out
    assert f"state hash at the start {start}" in out


def test_country_names_need_no_quoting() -> None:
    """The document writes country texts in single quotes without escapes."""
    for c in tomllib.loads(_text("countries.toml").decode())["country"]:
        for text in (c["name"], c["region"]):
            assert re.fullmatch(r"[A-Za-z0-9 .()-]+", text), text


def test_the_worked_examples_are_what_the_program_computes() -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from pbem.protocol import commit, dice, gamesecrets, turnfile, wire
    from pbem.store import keys
    from tests.spec.make_vectors import OUT, key_seed

    ident = keys.Identity("axis-bot", "", Ed25519PrivateKey.from_private_bytes(key_seed("axis")))
    base = [(OUT / "base" / f"{i:02d}.pbem").read_bytes() for i in range(13)]
    files = [turnfile.parse(b) for b in base]
    genesis_base = gamesecrets.genesis_base(files[0].body)
    derived = gamesecrets.GameSecrets(ident, "ea3a178646b1", genesis_base)
    secret = derived.dice()
    assert dice.anchor(secret, files[0].body["chain"]) == files[0].body["anchor"]
    allies = keys.Identity("allies-bot", "", Ed25519PrivateKey.from_private_bytes(key_seed("allies")))
    joiner = gamesecrets.GameSecrets(allies, "ea3a178646b1", files[0].hash)  # the joiner binds to the file hash
    assert dice.anchor(joiner.dice(), files[1].body["chain"]) == files[1].body["anchor"]
    [reveal, _] = files[4].body["records"]
    assert joiner.salt(2) == reveal[2]
    packed = wire.pack(["pbem/commit/v1", "ea3a178646b1", 2, "allies", reveal[1], reveal[2]])
    assert packed.startswith(bytes.fromhex("96ae") + b"pbem/commit/v1" + bytes.fromhex("ac"))
    shown = {
        key_seed("axis").hex(),
        ident.public.raw.hex(),
        ident.public.fingerprint,
        genesis_base.hex(),
        secret.hex(),
        derived.salt(2).hex(),
        reveal[2].hex(),
        commit.commitment("ea3a178646b1", 2, "allies", reveal[1], reveal[2]).hex(),
        files[2].body["records"][0][1].hex(),
        dice.step(bytes(32)).hex(),
        dice.value(secret, 3, 1).hex(),
        dice.anchor(secret, 3).hex(),
        files[10].hash.hex(),
        files[12].body["records"][0][2].hex(),
        spec_verify.verify(base).seeds[0].hex(),
    }
    for value in shown:
        assert value in DOC, value
