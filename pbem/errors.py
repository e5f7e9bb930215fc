"""The one exception type for user errors.

Everything a player, a file or the opponent can get wrong ends in a
:class:`PbemError` carrying one human sentence.  The CLI prints that sentence
to stderr and exits non-zero; no traceback ever reaches a user.
"""

from __future__ import annotations


class PbemError(Exception):
    """A user-facing error: ``str(err)`` is one line for a person.

    ``code`` is a short machine word ("signature", "chain", "parse", ...) so
    callers and tests can tell reasons apart without matching prose; where the rules
    engine refused an order, ``rule`` is its slug (``terrain.armor``, see engine/refusals.py).
    """

    def __init__(self, message: str, code: str = "error", rule: str = "", details: tuple[str, ...] = ()) -> None:
        # One line, always: a reason coming from a hostile file must not be able
        # to forge extra lines in a terminal or a log.  ``details`` (one per wrong line of
        # an orders file, say) are each one line too; ``str`` holds them all.
        self.head = " ".join(str(message).split())
        self.details = tuple(" ".join(str(d).split()) for d in details)
        super().__init__("; ".join((self.head, *self.details)) if self.details else self.head)
        self.code = code
        self.rule = rule

    @property
    def message(self) -> str:
        return str(self)
