"""Where each game stands, for a person: the date, the phase, whose file is awaited,
what is still unsent, and the command to run next."""

from __future__ import annotations

from pathlib import Path

from pbem import engine_link, protocol
from pbem.localgame import LocalGame, PendingTurn
from pbem.protocol import Game
from pbem.store import Workspace


def awaited(kind: str) -> str:
    """What the record kind ``kind`` is, for a person."""
    return {
        "act": "orders",
        "commit": "hidden orders, sealed by a commitment",
        "sim": "orders in the clear",
        "reveal": "opening of its commitment (automatic)",
        "dice": "dice value (automatic)",
    }.get(kind, kind)


def status_line(lg: LocalGame, work: Game | None, pending: PendingTurn | None = None) -> str:
    gid = lg.gid
    if work is None:
        return f"game {gid}: waiting for {lg.meta.get('opponent_name', 'the opponent')} to join; next: `pbem import`"
    api = engine_link.api()
    d = api.decision(work.state)
    head = f"game {gid} ({lg.meta['side']}), file {work.seq}, {d.when}, {d.phase}"
    disputes = lg.meta.get("disputes")
    if disputes:
        head += f" [DISPUTED: {disputes[0]}]"
    exp = protocol.expected(work)
    if exp is None:
        w = api.winner(work.state)
        return f"{head}: the game is over" + (f"; {w} win" if w else "")
    side, kind = exp.side, exp.kind
    pending = pending or PendingTurn()
    unsent = len(pending.records)
    if side != lg.me and unsent:
        # My part is complete but still on this machine: the opponent has received nothing.
        return f"{head}: {unsent} orders not sent: run `pbem send {gid}`, then deliver the file in outbox/"
    if side != lg.me:
        if kind in ("dice", "reveal"):
            what = "opening of its commitment" if kind == "reveal" else "dice value"
            return (
                f"{head}: waiting for {side}'s next file (its {what} is automatic, but may travel with its next "
                "decision); next: `pbem import` when their file arrives"
            )
        return f"{head}: waiting for {side}'s {awaited(kind)}; next: `pbem import` when their file arrives"
    auto = pending.auto
    if auto:
        head += f" ({auto} automatic record(s) go out with your next file)"
    if kind in ("commit", "sim"):
        n = len(pending.sim or [])
        return (
            f"{head}: your move: {d.prompt} ({awaited(kind)}; {n} listed); next: `pbem orders {gid} FILE` "
            f"then `pbem send {gid}`, or `pbem bot play {gid}`"
        )
    if kind == "act":
        return (
            f"{head}: your move: {d.prompt}; next: `pbem orders {gid} FILE` then `pbem send {gid}`, "
            f"or `pbem bot play {gid}`"
        )
    return f"{head}: you owe an automatic {kind}; next: `pbem import`"


def lines(ws: Workspace, gid: str | None = None, home: Path | None = None) -> list[str]:
    """One status line per game of the workspace (or for ``gid``), then its invitations."""
    with ws.locked():
        gids = [gid] if gid else ws.games()
        lines = []
        for g in gids:
            lg = LocalGame(ws, g, home)
            game = lg.game()
            if game is None:
                lines.append(status_line(lg, None))
                continue
            pending = lg.pending()
            work = game.clone()
            for rec in pending.records:
                protocol.apply_record(work, lg.me, game.seq + 1, rec, "pending")
            lines.append(status_line(lg, work, pending))
        for p in ws.invitations():
            lines.append(f"invitation {p.stem}: accept it with `pbem join {p.relative_to(ws.root)} --me NAME`")
        if not lines:
            lines.append("no games in this workspace; start one with `pbem new` or `pbem join`")
        return lines
