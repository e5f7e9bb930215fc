"""Attacks on the bot's war declarations and income lists (issue 27; docs/ai.md, "Mixed
strategy"): both are simultaneous steps, so the list the bot commits to must not be
computable from the public position by an opponent who knows the bot.

The opponent's best reconstruction is the list the bot makes most often over every seed
the opponent could guess (constants, the position's hash, short and labelled seeds); the
bot's own seeds are secret (pbem derives them from its private key).  Over several
positions and secret seeds that reconstruction misses the committed list most of the
time, while every list stays legal and sensible: the side-show aims are declared within
a month of their date, the money sent keeps a reserve within its range.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable

import pytest

from engine import ai, api, war
from engine.ai import convoys, declare
from engine.state import GameState, parse_date
from tests.ai.worlds import advance_to

Wire = tuple[tuple[object, ...], ...]

#: The bot's own seeds in these tests: unknown to the opponent.
SECRET = [hashlib.sha256(b"the bot's secret %d" % n).digest() for n in range(24)]


def guessable(state: GameState) -> list[bytes]:
    """Every seed the opponent tries: constants, short and repeated seeds, the position's
    hash and labelled hashes of it."""
    position = api.state_hash(state)
    seeds = [b"", bytes(32), b"\xff" * 32, position, hashlib.sha256(position).digest()]
    seeds += [bytes([n]) * 32 for n in range(1, 64)]
    seeds += [n.to_bytes(32, "big") for n in range(64)]
    seeds += [hashlib.sha256(label + position).digest() for label in (b"bot", b"axis", b"allies", b"seed")]
    return seeds


def wire(state: GameState, side: str, seed: bytes) -> Wire:
    return tuple(tuple(a.to_wire()) for a in ai.decide(state, side, seed))


def best_reconstruction(state: GameState, side: str) -> Wire:
    """The list the opponent would bet on: the one the bot makes most often over its guesses."""
    made = Counter(wire(state, side, seed) for seed in guessable(state))
    return made.most_common(1)[0][0]


def share_rebuilt(state: GameState, side: str) -> tuple[float, int]:
    """The share of the bot's secret-seed lists the opponent's reconstruction equals, and
    how many different lists the secret seeds gave."""
    guess = best_reconstruction(state, side)
    lists = [wire(state, side, seed) for seed in SECRET]
    return sum(made == guess for made in lists) / len(lists), len(set(lists))


def at_war_declaration(month: str, fallen: tuple[str, ...]) -> GameState:
    """The 1939 scenario at the war declaration of ``month`` with ``fallen`` conquered by
    Germany (the bot's own declarations of September 1939 made)."""
    state = api.new_game("1939")
    d = api.decision(state)
    api.apply_simultaneous(state, {side: ai.decide(state, side, bytes(32)) for side in d.sides})
    for country in fallen:
        war.conquer(state, country, "Germany")
    state.date = parse_date(month) - 1
    advance_to(state, "war_declaration")
    assert state.date == parse_date(month)
    return state


def declared(actions: Wire) -> set[object]:
    return {a[1] for a in actions if a[0] == "declare"}


SCANDINAVIA = ("1940-04", ("Poland",))
BALKANS = ("1941-04", ("Poland", "France"))


@pytest.mark.parametrize(("month", "fallen"), [SCANDINAVIA, BALKANS], ids=["1940-04", "1941-04"])
def test_the_opponent_cannot_rebuild_the_axis_declarations(month: str, fallen: tuple[str, ...]) -> None:
    state = at_war_declaration(month, fallen)
    rebuilt, different = share_rebuilt(state, "axis")
    assert different >= 3  # two side-show aims drawn: up to four lists
    assert rebuilt <= 0.5
    for seed in SECRET[:4]:  # every draw is a list the engine takes
        probe = state.copy()
        api.apply_simultaneous(probe, {"axis": ai.decide(probe, "axis", seed), "allies": []})


def test_a_side_show_is_declared_at_the_latest_a_month_after_its_date() -> None:
    first = at_war_declaration("1940-04", ("Poland",))
    late = at_war_declaration("1940-05", ("Poland",))
    assert set(declare.axis_targets(first)) == {"Denmark", "Norway"}
    drawn_now = [declared(wire(first, "axis", seed)) for seed in SECRET]
    assert all(d <= {"Denmark", "Norway"} for d in drawn_now)
    assert {frozenset(d) for d in drawn_now} >= {frozenset(), frozenset({"Denmark", "Norway"})}
    # a month on every seed declares both, with the Low Countries on their date
    for seed in SECRET:
        assert declared(wire(late, "axis", seed)) == {"Denmark", "Norway", "Luxembourg", "Belgium", "Netherlands"}


def test_the_fixed_aims_are_declared_whatever_the_seed() -> None:
    """Poland, the road to France and the Soviet Union are not drawn."""
    state = at_war_declaration("1941-04", ("Poland", "France"))
    for seed in SECRET:
        assert {"Belgium", "Luxembourg", "Netherlands", "Denmark", "Norway"} <= declared(wire(state, "axis", seed))


def italy_rich(state: GameState) -> None:
    """Italy at war with more money than its whole pool costs: it sends the rest to Germany."""
    war.enter_war(state, "Italy", "axis")
    state.countries["Italy"].money = 40_000


def britain_rich(state: GameState) -> None:
    """Britain with more money than its shopping list: it sends the rest to France."""
    state.countries["United Kingdom"].money = convoys.spendable(state, "United Kingdom") + 3000


@pytest.mark.parametrize(
    ("setup", "side", "sender", "to", "needs"),
    [
        (italy_rich, "axis", "Italy", "Germany", convoys.pool_cost),
        (britain_rich, "allies", "United Kingdom", "France", convoys.spendable),
    ],
    ids=["Italy", "United Kingdom"],
)
def test_the_opponent_cannot_rebuild_the_money_sent(
    setup: Callable[[GameState], None], side: str, sender: str, to: str, needs: Callable[[GameState, str], int]
) -> None:
    state = at_war_declaration("1940-04", ("Poland",))
    setup(state)
    advance_to(state, "income")  # the month's income and arrivals on the way
    spare = state.countries[sender].money - needs(state, sender)
    assert spare > 1000
    rebuilt, different = share_rebuilt(state, side)
    assert rebuilt <= 0.1 and different >= len(SECRET) // 2
    low, high = convoys.RESERVE_DRAWN
    for seed in SECRET:
        sends = [a for a in wire(state, side, seed) if a[0] == "send"]
        assert [a[1:3] for a in sends] == [(sender, to)]
        amount = int(sends[0][3])  # type: ignore[call-overload]
        assert spare - high <= amount <= spare - low  # what it cannot spend, less a reserve in range
