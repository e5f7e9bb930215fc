"""Which Message-IDs belong to which game, so every mail of a game joins one thread."""

from __future__ import annotations

from pathlib import Path

from pbem.mail.message import MAX_REFERENCES, clean_message_id, thread_root
from pbem.mail.store import load_json, mail_dir, save_json
from pbem.store.durable import flock


def _valid(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(ids, list) and all(isinstance(i, str) for i in ids) for ids in value.values()
    )


class ThreadBook:
    def __init__(self, workspace: Path) -> None:
        self.path = mail_dir(workspace) / "threads.json"
        self.games, self.dirty = self._load()
        self._added: dict[str, list[str]] = {}

    def _load(self) -> tuple[dict[str, list[str]], bool]:
        games: dict[str, list[str]] = load_json(self.path, {}, _valid)
        # Records written before ids were checked may hold one that no header can carry.
        clean = {gid: [i for i in ids if clean_message_id(i) == i] for gid, ids in games.items()}
        return clean, clean != games

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
        self._added.setdefault(game_id, []).append(message_id)
        self.dirty = True

    def flush(self) -> None:
        """Saved in batches: losing the latest ids in a crash only loosens threading a little.

        Workers of a bot service share the book, so what this one added is merged into
        the book as it is on disk, under its lock.
        """
        if not self.dirty:
            return
        with flock(self.path.with_name("threads.lock")):
            self.games, _ = self._load()
            for game_id, added in self._added.items():
                ids = self.games.setdefault(game_id, [])
                ids.extend(i for i in added if i not in ids)
                del ids[:-MAX_REFERENCES]
            save_json(self.path, self.games)
        self._added = {}
        self.dirty = False
