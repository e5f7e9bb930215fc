"""Plain data the engine hands out (events, scenario descriptions, state documents): what
``json.dumps`` writes and ``json.loads`` gives back."""

from __future__ import annotations

#: A JSON value.
Json = None | bool | int | float | str | list["Json"] | dict[str, "Json"]
#: A JSON object.
JsonObject = dict[str, Json]
