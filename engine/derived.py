"""Results derived from a game state, kept while what they depend on is unchanged.

Every such result goes through one mechanism: a :class:`Derived` table, keyed weakly
by the state (a state that is dropped takes its results with it, and no table holds a
state alive) and stamped with what the result depends on; when the stamp differs the
results are computed again.  The stamp is the table's statement of its dependencies,
so it must cover everything the computation reads.

Tables derived from the static map alone live on the map, as cached properties of
:class:`engine.hexmap.HexMap` (neighbour tables, land and sea steps as arrays, naval
control-zone links, the weather zones present); supply's tables, which also depend on
the world's country numbering and on which zones are frozen, are two small bounded
caches in :mod:`engine.supply`.  :class:`engine.reach.SideMemo` and the state's own hex
index are explicit, local memos.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from engine.state import GameState

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Derived(Generic[K, V]):
    """Results of one kind, per state and per key (a side, a country)."""

    def __init__(self, stamp: Callable[[GameState], Hashable], compute: Callable[[GameState, K], V]) -> None:
        self._stamp = stamp
        self._compute = compute
        self._tables: weakref.WeakKeyDictionary[GameState, tuple[Hashable, dict[K, V]]] = weakref.WeakKeyDictionary()

    def __call__(self, state: GameState, key: K) -> V:
        stamp = self._stamp(state)
        entry = self._tables.get(state)
        if entry is None or entry[0] != stamp:
            entry = (stamp, {})
            self._tables[state] = entry
        results = entry[1]
        if key not in results:
            results[key] = self._compute(state, key)
        return results[key]
