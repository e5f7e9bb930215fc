"""Deadline terms and the signed times that measure them (docs/turn-file-format.md, section 12).

The engine has no clock; a game with a deadline carries, in every file after its
genesis, the author's signed ``time`` (whole seconds since 1970-01-01 UTC).  This
module holds what the protocol needs of that without the protocol itself: the
game's terms read from the genesis options, the stamp a writer puts on its file,
and the receiver's bound on stamps from the future.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass

from pbem.errors import PbemError

#: The deadline terms' genesis options (pbem/protocol/gameoptions.py has all the protocol's).
DEADLINE, SILENCE = "deadline", "silence"
#: What a final claim does to the silent side: the bot plays its decision, or it forfeits.
SILENCE_MODES = ("bot", "forfeit")
MIN_DEADLINE, MAX_DEADLINE = 3600, 366 * 86400
#: How far a file's time may lie ahead of the receiver's clock: two honest clocks
#: disagree by minutes at most, and a claim can be early by no more than this.
TOLERANCE = 600
MAX_TIME = (1 << 40) - 1


@dataclass(frozen=True)
class Terms:
    """A game's deadline per decision (seconds) and what a final claim does."""

    deadline: int
    silence: str


def terms(options: Mapping[str, object]) -> Terms | None:
    """The deadline terms of a genesis's options (None: a game without deadlines).

    Raises PbemError (code "illegal", as for options the engine refuses) for half or
    malformed terms."""
    if DEADLINE not in options and SILENCE not in options:
        return None
    d, s = options.get(DEADLINE), options.get(SILENCE)
    if not isinstance(d, int) or isinstance(d, bool) or not MIN_DEADLINE <= d <= MAX_DEADLINE:
        raise PbemError(
            f"the option '{DEADLINE}' must be a number of seconds from {MIN_DEADLINE} to {MAX_DEADLINE}", "illegal"
        )
    if s not in SILENCE_MODES:
        raise PbemError(f"the option '{SILENCE}' must be one of {', '.join(SILENCE_MODES)}", "illegal")
    return Terms(d, s)


def now() -> int:
    """The local clock in whole seconds; ``PBEM_NOW`` replaces it (tests and rehearsals:
    a player controls its own stamps anyway, the receiver's checks are what bind them)."""
    fixed = os.environ.get("PBEM_NOW")
    if fixed is not None:
        try:
            return int(fixed)
        except ValueError:
            raise PbemError("PBEM_NOW must be a whole number of seconds", "usage") from None
    return int(time.time())


def stamp(previous: int) -> int:
    """The time a writer puts on its next file: never before the file it follows."""
    return max(now(), previous)


def check_not_future(stamped: int, where: str) -> None:
    """The receiver's bound: a stamp later than its own clock plus the tolerance is refused."""
    if stamped > now() + TOLERANCE:
        raise PbemError(
            f"{where}: its time lies more than {TOLERANCE // 60} minutes after this computer's clock", "time"
        )
