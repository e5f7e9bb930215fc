"""JSON documents as pbem writes them and reads them back (reports, overviews, metadata):
``json.loads`` gives these values, and pbem checks their shape before it trusts one."""

from __future__ import annotations

#: A JSON value.
Json = None | bool | int | float | str | list["Json"] | dict[str, "Json"]
#: A JSON object.
Doc = dict[str, Json]


def docs_in(doc: Doc, key: str) -> list[Doc]:
    """The objects of the list ``doc[key]`` (none when it is missing or no list)."""
    found = doc.get(key)
    return [d for d in found if isinstance(d, dict)] if isinstance(found, list) else []
