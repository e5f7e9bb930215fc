"""The default computer player of the bot mailbox: the game layer's join and `pbem bot play`."""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.play import branch, claim, games, passing, turn
from pbem.store.store import Workspace


def accept(workspace: Path, game_id: str, identity: str, home: Path | None) -> list[Path]:
    """Join the game if its invitation was kept by the import (``.pbem/invitations/<game>.pbem``),
    a branch once its parent's files, mailed with the invitation, verify its start; or take
    a side offered by mail (the acceptance goes back to the old holder, who seals)."""
    ws = Workspace(workspace)
    invitation = ws.root / ws.invitation_rel(game_id)
    if not invitation.is_file():
        offered = passing.kept_offer(ws, game_id)
        return [] if offered is None else [passing.accept(ws, offered, identity, home, mail=True)[1]]
    base = branch.base_for_invitation(ws, invitation, None)
    _, path = games.join(ws, invitation, identity, home, base=base)
    return [path]


def play(workspace: Path, game_id: str, home: Path | None) -> list[Path]:
    """Make every pending decision of the bot's side and seal it into outbox/, its reaction
    orders and its lists for the month's coming hidden steps given as it goes."""
    return turn.computer_side(Workspace(workspace), game_id, home)


def claim_overdue(
    workspace: Path, home: Path | None, games: list[str] | None = None
) -> list[tuple[str, Path | None, str]]:
    """Claim every missed deadline of the bot's opponents (a reminder first, then the game's
    silence rule), in every game of the workspace or in ``games``: (game, claim file, what
    it did), or (game, None, why not) for each."""
    ws = Workspace(workspace)
    done: list[tuple[str, Path | None, str]] = []
    for gid in claim.overdue(ws, home, games):
        try:
            done.append((gid, *claim.claim(ws, gid, home)))
        except PbemError as err:  # the opponent's file arrived meanwhile, say
            done.append((gid, None, str(err)))
    return done


def claim_due(workspace: Path, game_id: str, home: Path | None) -> float | None:
    """When the bot may claim in the game (its opponent's deadline), or None."""
    return claim.claim_due(Workspace(workspace), game_id, home)
