"""The supplement's "Combat mathematics": every probability the combat rules use.

Every formula is of the form ``1 - b ** (-e)`` with a rational base ``b > 1`` and a
rational exponent ``e >= 0``, and every draw is an exact rational from
:meth:`engine.rng.Rng.uniform`.  Comparing a draw with such a probability is done
in floating point, except when the two are within 1e-9 of each other: then the
comparison is redone exactly with integers.  Float ``pow`` may differ in its last
bits between platforms; the guard band makes every machine reach the same verdict,
which play by mail needs (both players replay each other's dice).
"""

from __future__ import annotations

from fractions import Fraction

from engine.rng import Rng

_GUARD = 1e-9
ONE = Fraction(1)


def _as_fraction(x: int | Fraction) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(x)


def probability(base: Fraction, exponent: Fraction) -> float:
    """``1 - base ** (-exponent)`` as a float (for display and estimates)."""
    if exponent <= 0:
        return 0.0
    return 1.0 - float(float(base) ** (-float(exponent)))


def draw_below(u: Fraction, base: int | Fraction, exponent: int | Fraction) -> bool:
    """Is the draw ``u`` below ``1 - base ** (-exponent)``?  Same answer on every machine."""
    b, e = _as_fraction(base), _as_fraction(exponent)
    if b <= 1:
        raise ValueError("the base of a combat probability must exceed 1")
    if e <= 0:
        return False  # probability 0
    fu = float(u)  # exact: u has 48 bits
    p = probability(b, e)
    if abs(fu - p) > _GUARD:
        return fu < p
    # u < 1 - b^(-e)  <=>  b^e > 1 / (1 - u)  <=>  b^(ep) * (1-u)^(eq) > 1  with e = ep/eq
    w = ONE - u
    ep, eq = e.numerator, e.denominator
    return bool(b.numerator**ep * w.numerator**eq > b.denominator**ep * w.denominator**eq)


# --- land combat ----------------------------------------------------------------


def defender_loss_base(s: int) -> Fraction:
    """P(defender loses at least s points) = 1 - (1 + 2/s)^(-r): the base ``1 + 2/s``."""
    return Fraction(s + 2, s)


def defender_loss_chance(s: int, ratio: Fraction) -> float:
    """Probability that the defender loses at least ``s`` strength points."""
    return probability(defender_loss_base(s), ratio)


def defender_loss(u: Fraction, ratio: Fraction, cap: int) -> int:
    """Points the defender loses for the draw ``u``: the largest ``s`` whose chance the
    draw reaches, counted no further than ``cap`` (enough to eliminate the stack)."""
    s = 0
    while s < cap and draw_below(u, defender_loss_base(s + 1), ratio):
        s += 1
    return s


def attacker_loss(u: Fraction, ratio: Fraction) -> int | None:
    """Points the attacker loses for the draw ``u``; None means every attacker is eliminated."""
    if u < max(Fraction(0), ONE - ratio):
        return None
    if u < Fraction(1, 4):
        return 3
    if u < Fraction(1, 3):
        return 2
    if u < Fraction(1, 2):
        return 1
    return 0


def roll_land_combat(rng: Rng, ratio: Fraction, cap: int) -> tuple[Fraction, int, Fraction, int | None]:
    """Both draws of a land combat, defender first: (u1, defender loss, u2, attacker loss)."""
    u1 = rng.uniform()
    loss = defender_loss(u1, ratio, cap)
    u2 = rng.uniform()
    return u1, loss, u2, attacker_loss(u2, ratio)


# --- naval and air combat, bombing, assaults, atomic bomb ---------------------------


def unit_k(enemy_strength: Fraction, own_defence: Fraction, own_units: int) -> Fraction:
    """``k`` = the enemy's total strength / (the unit's own defence x units on its side)."""
    if own_defence <= 0 or own_units <= 0:
        raise ValueError("a unit's defence and its side's number of units must be positive")
    return enemy_strength / (own_defence * own_units)


def damaged(u: Fraction, k: Fraction) -> bool:
    """A unit is damaged with probability ``1 - 2^(-k)``."""
    return draw_below(u, 2, k)


def eliminated(u: Fraction, k: Fraction) -> bool:
    """Separately, a unit is eliminated with probability ``1 - 0.95^k``."""
    return draw_below(u, Fraction(20, 19), k)


def bombing_succeeds(u: Fraction, bomber_strength: Fraction) -> bool:
    """Installation or strategic bombing: ``1 - 2^(-S/5)``."""
    return draw_below(u, 2, bomber_strength / 5)


BOMBER_DAMAGE_CHANCE = Fraction(1, 5)


def assault_chance(amphibious: bool, paradrop: bool, marines: bool) -> Fraction:
    """Amphibious assault or paradrop: 50 %, +25 % if both are combined, +25 % with marines."""
    chance = Fraction(1, 2)
    if amphibious and paradrop:
        chance += Fraction(1, 4)
    if marines and amphibious:
        chance += Fraction(1, 4)
    return min(chance, ONE)


def surrender(u: Fraction, c: Fraction, enemy_holds_home_city: bool, earlier_bombs: int) -> bool:
    """Atomic bomb surrender: ``1 - 2^(-c*o*(n+1))``."""
    o = 2 if enemy_holds_home_city else 1
    return draw_below(u, 2, c * o * (earlier_bombs + 1))
