"""Results derived from a game state, kept while what they depend on is unchanged.

Every such result goes through one mechanism: a :class:`Derived` table, kept on the
state and stamped with what the result depends on; when the stamp differs the
results are computed again.  The stamp is the table's statement of its dependencies,
so it must cover everything the computation reads.  A table whose stamp covers it
entirely may also share results between states: with ``recent`` it remembers the
results of its last few stamps per world, so a copy of a state (the computer player's
working copy, a draft of simultaneous orders) finds what was computed on the original.
A result refers to no state: it is kept on its state, and one that referred back made
every state a reference cycle, which only the interpreter's full collections free (each a
pause of tens of milliseconds in whatever ran then).  A table whose stamp
is knowingly incomplete must not share (``recent=0``, the default): its results would
then depend on what else the process computed, not only on the state's own history.

Tables derived from the static map alone live on the map, as cached properties of
:class:`engine.hexmap.HexMap` (neighbour tables, land and sea steps as arrays, naval
control-zone links, the weather zones present); supply's tables, which also depend on
the world's country numbering and on which zones are frozen, are two small bounded
caches in :mod:`engine.supply`.  :class:`engine.reach.SideMemo` and the state's own hex
index are explicit, local memos.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from engine.state import GameState
from engine.world import World

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Derived(Generic[K, V]):
    """Results of one kind, per state and per key (a side, a country).

    A state's results are kept on the state (``GameState.derived_tables``), so they go
    with it: the computer player copies the state for every decision, and a table keyed
    weakly by the state kept every copy alive through its own results (a supply map
    referred to its state), about a gigabyte over a whole game."""

    def __init__(
        self, stamp: Callable[[GameState], Hashable], compute: Callable[[GameState, K], V], recent: int = 0
    ) -> None:
        self._stamp = stamp
        self._compute = compute
        self._recent_size = recent
        self._recent: weakref.WeakKeyDictionary[World, OrderedDict[Hashable, dict[K, V]]] = weakref.WeakKeyDictionary()
        # The shared results are read and trimmed by every thread that plays on the world
        # (the browser board's requests, the bot checking a file): a thread's entry could
        # be dropped between its lookup and its use.
        self._lock = threading.Lock()

    def __call__(self, state: GameState, key: K) -> V:
        stamp = self._stamp(state)
        entry = state.derived_tables.get(self)
        if entry is None or entry[0] != stamp:
            entry = (stamp, self._shared(state.world, stamp) if self._recent_size else {})
            state.derived_tables[self] = entry
        results: dict[K, V] = entry[1]
        if key not in results:
            results[key] = self._compute(state, key)
        return results[key]

    def _shared(self, world: World, stamp: Hashable) -> dict[K, V]:
        """The results of ``stamp`` in ``world``, shared by every state that has it."""
        with self._lock:
            recent = self._recent.get(world)
            if recent is None:
                recent = self._recent[world] = OrderedDict()
            results = recent.get(stamp)
            if results is None:
                results = recent[stamp] = {}
                if len(recent) > self._recent_size:
                    recent.popitem(last=False)
            else:
                recent.move_to_end(stamp)
            return results
