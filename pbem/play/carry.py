"""Which of my files the opponent still needs, for a person who carries files by hand.

My files after the opponent's last one in the game's history have not been answered: the
opponent's next file would name the last of them as the one before it, so until it arrives
they may still be in ``outbox/``, waiting to be carried.  Among them may be a file my
program wrote by itself (a dice value, the opening of a commitment: pbem/play/turn.py,
``answer``), which the opponent needs before it can go on although I decided nothing.

Reading imports no engine and no cryptography: `pbem status` uses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pbem.errors import PbemError
from pbem.protocol import turnfile
from pbem.store.store import Workspace, read_bytes

_AUTOMATIC = {"dice": "dice value", "reveal": "opening of your commitment"}


@dataclass(frozen=True)
class Owed:
    """My files in outbox/ the opponent has not answered, oldest first."""

    names: tuple[str, ...]  # as the workspace names them: outbox/<game>-<seq>-<side>.pbem
    to: str  # the opponent's side
    whom: str  # the opponent, for people: side, name and address
    automatic: str  # what they hold when my program wrote them all by itself ("" otherwise)

    def files(self) -> str:
        return ", ".join(self.names)

    def what(self) -> str:
        if self.automatic:
            return f"your automatic {self.automatic}"
        return "your file" if len(self.names) == 1 else "your files"


def owed(
    ws: Workspace, gid: str, meta: Mapping[str, object], head: int, staged: Mapping[str, bytes | None] | None = None
) -> Owed | None:
    """My files after the opponent's last one up to file ``head`` that are in outbox/, or None
    when there are none; ``staged`` (a transaction's writes, not yet committed) goes first."""
    me = str(meta["side"])
    paths = ws.game_paths(gid)

    def read(rel: str) -> bytes | None:
        if staged is not None and rel in staged:
            return staged[rel]
        return read_bytes(ws.root / rel)

    names: list[str] = []
    kinds: set[str] = set()
    seq = head
    while seq > 0 and read(paths.history(seq, me)) is not None:
        rel = f"outbox/{gid}-{seq:05d}-{me}.pbem"
        data = read(rel)
        if data is not None:
            names.insert(0, rel)
            kinds |= _kinds(data)
        seq -= 1
    if not names:
        return None
    to = turnfile.other(me)
    who = ", ".join(str(x) for x in (meta.get("opponent_name", ""), meta.get("opponent_email", "")) if x)
    automatic = " and ".join(_AUTOMATIC[k] for k in sorted(kinds)) if kinds <= set(_AUTOMATIC) else ""
    return Owed(tuple(names), to, f"{to} ({who})" if who else to, automatic)


def _kinds(data: bytes) -> set[str]:
    """The kinds of record a file of mine holds ({"?"} for a file that is not a turn)."""
    try:
        tf = turnfile.parse(data)
    except PbemError:
        return {"?"}
    if tf.type != "turn":
        return {"?"}
    return {rec.KIND for rec in tf.records}


def line(o: Owed) -> str:
    """What to do with the files, for people: one sentence."""
    them = "it" if len(o.names) == 1 else "them"
    return (
        f"carry {o.files()} ({o.what()}) to {o.whom}: copy {them} into their inbox/ "
        f"(the mail daemon, when it runs, mails {them})"
    )
