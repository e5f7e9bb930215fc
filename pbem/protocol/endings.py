"""How players end a game before its rules do: resignation and a draw by agreement.

The ending records (``["resign"]``, ``["offer-draw"]``, ``["accept-draw"]``,
``["decline-draw"]``, ``["withdraw-draw"]``) travel in turn files like any record, so
they are signed, chained and audited with the game.  They never change the engine's
state, the last author or the last file (so they never change who commits first, who
triggered a roll or a roll's seed).  Their rules, here and in
docs/turn-file-format.md section 5.5:

- only the side the history awaits may write one, like any record;
- at most one draw offer is open; the other side accepts or declines it, its author
  withdraws it;
- while a commitment waits for its opening or a roll for its second value, a draw
  cannot be accepted: the side that would accept may already know what the reveal
  or the roll brings (a resignation, an offer, a decline or a withdrawal may come);
- after a resignation or an accepted draw no record and no file is accepted.

This module judges a record against what the game remembers (the open offer, the
result); :mod:`pbem.protocol.machine` asks it, so it imports nothing of the protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from pbem.errors import PbemError
from pbem.protocol.words import sides_of


def _other(side: str) -> str:
    return "allies" if side == "axis" else "axis"


class ResultWire(TypedDict):
    """A :class:`Result` in a saved game."""

    kind: str
    side: str
    seq: int


@dataclass(frozen=True)
class Result:
    """How the players ended the game: ``kind`` "resign" (``side`` resigned) or "draw"
    (``side`` accepted the other's offer), in file ``seq``."""

    kind: str
    side: str
    seq: int

    @property
    def winner(self) -> str | None:
        return _other(self.side) if self.kind == "resign" else None

    def text(self) -> str:
        if self.kind == "resign":
            return f"{self.side} resigned in file {self.seq}; {_other(self.side)} win"
        return f"drawn by agreement: {self.side} accepted {sides_of(_other(self.side))} offer in file {self.seq}"

    def to_wire(self) -> ResultWire:
        return {"kind": self.kind, "side": self.side, "seq": self.seq}

    @classmethod
    def from_wire(cls, d: ResultWire | None) -> Result | None:
        return None if d is None else cls(d["kind"], d["side"], d["seq"])


def over(where: str, outcome: str) -> PbemError:
    """The refusal of anything that comes after the end (``outcome``: how it ended, "" when
    the game's own rules ended it)."""
    return PbemError(f"{where}: the game is over ({outcome or 'its rules ended it'}); nothing may follow", "over")


def judge(kind: str, author: str, seq: int, offer: str, in_progress: bool, where: str) -> tuple[str, Result | None]:
    """The open offer (the side that made it, or "") and the result after ``author``'s
    ending record ``kind`` in file ``seq``; raises PbemError (code "draw-offer", or "order"
    for an acceptance while a commitment or roll is in progress)."""
    if kind == "resign":
        return "", Result("resign", author, seq)
    if kind == "offer-draw":
        if offer:
            raise PbemError(f"{where}: {offer} has a draw offer open already", "draw-offer")
        return author, None
    if kind == "withdraw-draw":
        if offer != author:
            raise PbemError(f"{where}: {author} has no draw offer open to withdraw", "draw-offer")
        return "", None
    if offer != _other(author):
        raise PbemError(f"{where}: {author} cannot {kind.removesuffix('-draw')} a draw nobody offered it", "draw-offer")
    if kind == "decline-draw":
        return "", None
    if in_progress:
        raise PbemError(
            f"{where}: a draw cannot be accepted while a commitment or a roll waits to be opened "
            "(the accepting side may know what it brings)",
            "order",
        )
    return "", Result("draw", author, seq)
