"""A genesis's options (docs/turn-file-format.md, sections 6.1 and 12.1): the protocol's own
(the deadline terms, and the level the inviter asks of a computer opponent) and the rest,
which are the engine's."""

from __future__ import annotations

from collections.abc import Mapping

from pbem.errors import PbemError
from pbem.protocol import clock

#: The level the inviter asks of the computer player of the invited side (docs/ai.md,
#: "Levels"): a bot mailbox plays the game at it, a person who joins plays as ever.
LEVEL = "level"
#: The levels a genesis may ask for, weakest first: as many as the engine's ladder has
#: (tests/protocol/test_gameoptions.py holds the two together).
LEVELS = range(1, 5)
#: The options the protocol owns; the engine never sees them.
PROTOCOL = (clock.DEADLINE, clock.SILENCE, LEVEL)


def level(options: Mapping[str, object]) -> int | None:
    """The level a genesis asks of a computer opponent (None: it asks for none).

    Raises PbemError (code "illegal", as for options the engine refuses) for a value that
    is not one of :data:`LEVELS`."""
    if LEVEL not in options:
        return None
    value = options[LEVEL]
    if not isinstance(value, int) or isinstance(value, bool) or value not in LEVELS:
        raise PbemError(f"the option '{LEVEL}' must be a whole number from {LEVELS[0]} to {LEVELS[-1]}", "illegal")
    return value


def check(options: Mapping[str, object]) -> None:
    """Refuse a genesis's protocol options that are malformed (code "illegal")."""
    clock.terms(options)
    level(options)


def engine_options(options: Mapping[str, object]) -> dict[str, object]:
    """The options handed to the engine: all but the protocol's own."""
    return {k: v for k, v in options.items() if k not in PROTOCOL}
