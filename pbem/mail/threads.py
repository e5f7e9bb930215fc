"""Which Message-IDs belong to which game, so every mail of a game joins one thread."""

from __future__ import annotations

from pathlib import Path

from pbem.mail.message import MAX_REFERENCES, clean_message_id, thread_root
from pbem.mail.store import load_json, mail_dir, save_json


class ThreadBook:
    def __init__(self, workspace: Path) -> None:
        self.path = mail_dir(workspace) / "threads.json"
        games: dict[str, list[str]] = load_json(self.path, {})
        # Records written before ids were checked may hold one that no header can carry.
        self.games = {gid: [i for i in ids if clean_message_id(i) == i] for gid, ids in games.items()}
        self.dirty = self.games != games

    def references(self, game_id: str) -> list[str]:
        """The root first, then the latest mails of the game; the last one is In-Reply-To."""
        ids = self.games.get(game_id, [])
        return [thread_root(game_id), *ids[-(MAX_REFERENCES - 1) :]]

    def add(self, game_id: str, message_id: str) -> None:
        message_id = clean_message_id(message_id)
        if not message_id:
            return  # a missing or strange Message-ID cannot be referred to safely
        ids = self.games.setdefault(game_id, [])
        if message_id in ids:
            return
        ids.append(message_id)
        del ids[:-MAX_REFERENCES]
        self.dirty = True

    def flush(self) -> None:
        """Saved in batches: losing the latest ids in a crash only loosens threading a little."""
        if self.dirty:
            save_json(self.path, self.games)
            self.dirty = False
