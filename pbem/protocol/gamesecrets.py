"""The secrets a player derives for one game: its dice secret, commitment salts and
the computer player's seeds (docs/turn-file-format.md, section 2.5).

Each is HKDF of the player's private key, bound to one genesis file:

* the joiner binds them to the genesis file's hash, so an invitation that reuses a game
  id the joiner has played (or changes anything else in the genesis) gets fresh secrets;
* the creator cannot name the hash of a file that will hold its own anchor, so it binds
  them to the *genesis base*: the hash of the genesis body without ``anchor``.  Every
  other field (game id, both keys, scenario, chain length, ...) is in it, and only the
  creator writes them: its secrets repeat only if it signs the same invitation again,
  which is the same game.

A key that takes a side over by a hand-over binds its secrets to the hand-over's position
instead (:func:`handover_binding`), so a key that holds a side twice gets two chains.

Both stay recoverable from the key and the game's files alone, with no secret state to
lose.  Games begun before this rule (their ``meta.json`` has no ``derivation``) keep
the v1 derivation from the game id, which their anchors were made with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pbem.protocol import identity
from pbem.protocol.hashing import D_GENESIS_BASE, D_HANDOVER_BASE, h

#: The derivation new games use; stored as ``derivation`` in a game's meta.json.
CURRENT = 2


def genesis_base(body: Mapping[str, object]) -> bytes:
    """What the creator's secrets are bound to: the genesis body without its anchor."""
    return h(D_GENESIS_BASE, {k: v for k, v in body.items() if k != "anchor"})


def handover_binding(offer: Mapping[str, object]) -> bytes:
    """What a new holder's secrets are bound to: the hand-over's game, position and side.
    ``prev`` names the whole history before it, so no two hand-overs of one game share it."""
    return h(D_HANDOVER_BASE, offer["game"], offer["seq"], offer["prev"], offer["side"])


def binding(genesis_body: Mapping[str, object], genesis_hash: bytes | None, side: str) -> bytes:
    """The 32 bytes that bind ``side``'s secrets to this genesis (creator: its base; joiner:
    the file hash, which only exists once the creator has sealed it)."""
    if side == genesis_body["side"]:
        return genesis_base(genesis_body)
    assert genesis_hash is not None, "the joiner's secrets need the sealed genesis"
    return genesis_hash


@dataclass(frozen=True)
class GameSecrets:
    """My derivations in one game: v2 bound to ``bound`` (32 bytes), v1 to the game id."""

    ident: identity.Identity
    gid: str
    bound: bytes | None  # None: a game begun under the v1 derivation

    def dice(self) -> bytes:
        if self.bound is None:
            return self.ident.derive("pbem/dice-secret/v1", self.gid.encode())
        return self.ident.derive("pbem/dice-secret/v2", self.bound)

    def salt(self, seq: int) -> bytes:
        """The salt of the commitment carried by file ``seq``."""
        if self.bound is None:
            return self.ident.derive("pbem/commit-salt/v1", f"{self.gid}/{seq}".encode())
        return self.ident.derive("pbem/commit-salt/v2", self.bound + str(seq).encode())

    def bot_seed(self, seq: int, rounds: int) -> bytes:
        """The computer player's seed for its ``rounds``-th decision after file ``seq``."""
        if self.bound is None:
            return self.ident.derive("pbem/bot-seed/v1", f"{self.gid}/{seq}/{rounds}".encode())
        return self.ident.derive("pbem/bot-seed/v2", self.bound + f"{seq}/{rounds}".encode())

    def seal_salt(self, seq: int) -> bytes:
        """The salt of the seal of my reaction orders carried by file ``seq``."""
        if self.bound is None:
            return self.ident.derive("pbem/seal-salt/v1", f"{self.gid}/{seq}".encode())
        return self.ident.derive("pbem/seal-salt/v2", self.bound + str(seq).encode())

    def reaction_seed(self, seq: int, rounds: int) -> bytes:
        """The computer player's seed for the ``rounds``-th decision my reaction orders answer
        after file ``seq`` (pbem/play/reactions.py): apart from :meth:`bot_seed`, so asking the
        bot for a proposal never shows what the reaction orders will do."""
        if self.bound is None:
            return self.ident.derive("pbem/reaction-seed/v1", f"{self.gid}/{seq}/{rounds}".encode())
        return self.ident.derive("pbem/reaction-seed/v2", self.bound + f"{seq}/{rounds}".encode())
