"""Building a side's batch of actions so that it is legal as a whole.

The computer player never hands the engine an action it has not already seen
accepted.  A :class:`Batch` keeps a private working copy of the game and runs
every proposed action through the same checks the engine will run when the
batch is submitted:

* a *sequential* decision is applied with :func:`engine.api.apply` (which runs
  :func:`engine.api.check` first and changes nothing if it refuses), one action at a time, and the batch closes as
  soon as an action hands control on (normally ``pass``);
* a *simultaneous* decision is built in an :class:`engine.api.Draft`, the
  incremental checker :func:`engine.api.apply_simultaneous` itself checks each
  side's list with.

Policies therefore only *propose*; whatever the batch refuses is simply left out.
"""

from __future__ import annotations

from engine import api
from engine.actions import MAX_ARGS, PASS, Action, EngineError
from engine.state import GameState


class Batch:
    """A side's actions for the current decision, validated as they are added."""

    def __init__(self, state: GameState, side: str) -> None:
        d = api.decision(state)
        if d.kind not in ("sequential", "simultaneous") or side not in d.sides:
            raise ValueError(f"{side} has nothing to decide in {d.phase}")
        self.side = side
        self.kind = d.kind
        self.phase = d.phase
        self.draft = api.draft(state, side) if d.kind == "simultaneous" else None
        #: the state after the batch so far
        self.work = state.copy() if self.draft is None else self.draft.state
        self.actions: list[Action] = []
        self.closed = False
        self.refused = 0  # proposals the rules turned down (for tests and tuning)

    # --- proposing -------------------------------------------------------------

    def offer(self, action: Action) -> bool:
        """Add ``action`` if it is legal after everything already in the batch."""
        if self.closed:
            return False
        if action.kind == "pass":
            return self.try_close()
        if action.kind == "move" and len(action.args) > MAX_ARGS:
            # A voyage of a whole allowance (64 hexes for the fastest ships) is one hex more
            # than a file's action may carry: such a move goes as its destination, whose
            # route the engine finds (rulebook "Naval Units": any path within the allowance).
            action = Action("move", (action.args[0], action.args[-1]))
        try:
            if self.draft is None:
                # api.apply checks first and leaves the state untouched if it refuses
                api.apply(self.work, self.side, action)
            else:
                self.draft.offer(action)
        except EngineError:
            self.refused += 1
            return False
        self.actions.append(action)
        if self.kind == "sequential" and self._handed_on():
            self.closed = True
        return True

    def legal(self) -> list[Action]:
        """Legal actions now, on the working copy (``pass`` included)."""
        if self.closed:
            return []
        try:
            return api.legal_actions(self.work, self.side)
        except EngineError:
            return [PASS]

    def try_close(self) -> bool:
        """End the batch with ``pass`` (or the step's own closing action) if the rules allow."""
        if self.closed:
            return True
        if self.kind == "simultaneous":
            # the engine drops a trailing pass; it makes the list read as finished
            self.actions.append(PASS)
            self.closed = True
            return True
        try:
            api.check(self.work, self.side, PASS)
        except EngineError:
            for action in self.legal():
                if self._is_end(action) and self.offer(action):
                    self.closed = True
                    return True
            return False
        api.apply(self.work, self.side, PASS)
        self.actions.append(PASS)
        self.closed = True
        return True

    def close(self) -> list[Action]:
        """End the batch whatever happens (what could not be closed is handed in as it is)."""
        self.try_close()
        self.closed = True
        return self.actions

    # --- helpers ---------------------------------------------------------------

    def _handed_on(self) -> bool:
        """Has the last action ended this side's part of the decision?"""
        d = api.decision(self.work)
        return d.phase != self.phase or self.side not in d.sides or d.kind != "sequential"

    @staticmethod
    def _is_end(action: Action) -> bool:
        return action.kind in ("end", "done", "finish") or action.kind.startswith("end")


def finish(batch: Batch, tries: int = 50) -> list[Action]:
    """Close the batch; where ``pass`` is not allowed yet, do the first legal things until it is."""
    for _ in range(tries):
        if batch.try_close():
            return batch.actions
        legal = [a for a in batch.legal() if a.kind != "pass"]
        if not any(batch.offer(a) for a in legal[:8]):
            break
    return batch.close()
