"""The players' rules reference: rules.md, shipped beside this module, read as topics.

One source for three readers: `pbem help rules [TOPIC]` prints it, the page of `pbem play`
shows it in its help panel (the topic of the step awaited first), and docs/rules.md is
its copy (a test keeps the two equal). A topic is a ``##`` section preceded by an anchor
line ``<a id="SLUG"></a>``; the slug is the topic's stable name.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TypedDict

from pbem.errors import PbemError

_ANCHOR = re.compile(r'<a id="([a-z0-9-]+)"></a>$')
_ENGINE = re.compile(r"In the engine: (.+)$")
_ITEM = re.compile(r"(- |\d+\. )(.*)$")

#: The topic that governs each step of the engine's month, by the step's name without
#: its side ("axis.combat" is "combat"); "end" is the decision of a game that is over.
#: A test checks that every step the engine has is here and names a topic that exists.
PHASE_TOPICS: dict[str, str] = {
    "war_declaration": "war-declaration",
    "spain_attempt": "entering-the-war",
    "vichy_attempt": "vichy",
    "deployment": "deployment",
    "income": "income",
    "build": "builds",
    "overrun": "overrun",
    "overrun_roll": "overrun",
    "first_movement": "movement",
    "interception": "interception",
    "interception_roll": "interception",
    "amphibious": "landings",
    "amphibious_roll": "landings",
    "combat": "land-combat",
    "combat_roll": "land-combat",
    "advance": "advance",
    "second_movement": "movement",
    "landing": "air-missions",
    "supply": "supply",
    "weather": "weather",
    "end": "victory",
}


@dataclass(frozen=True, slots=True)
class Topic:
    slug: str
    title: str
    #: the modules of the engine where the topic's rules live, as the section names them
    modules: tuple[str, ...]
    #: the section's Markdown lines after its heading
    lines: tuple[str, ...]


def source() -> str:
    """The reference as Markdown, exactly as shipped (and as docs/rules.md holds it)."""
    return resources.files("pbem.play").joinpath("rules.md").read_text(encoding="utf-8")


@cache
def topics() -> tuple[Topic, ...]:
    """Every topic, in the order of the reference."""
    found: list[Topic] = []
    slug, title, body = "", "", list[str]()
    for line in [*source().splitlines(), '<a id="-"></a>']:
        anchor = _ANCHOR.match(line)
        if anchor:
            if slug:
                found.append(_topic(slug, title, body))
            slug, title, body = anchor.group(1), "", []
        elif slug and not title and line.startswith("## "):
            title = line[3:].strip()
        elif slug and title:
            body.append(line)
    return tuple(found)


def _topic(slug: str, title: str, body: list[str]) -> Topic:
    while body and not body[-1].strip():
        body.pop()
    while body and not body[0].strip():
        body.pop(0)
    modules = next((tuple(m.strip() for m in e.group(1).split(",")) for e in map(_ENGINE.match, body) if e), ())
    return Topic(slug, title, modules, tuple(body))


def nearest(word: str, n: int = 3) -> list[str]:
    """The slugs closest to ``word``: those that hold it (slug or title), then by spelling."""
    low = word.lower()
    slugs = [t.slug for t in topics()]
    holding = [t.slug for t in topics() if low in t.slug or low in t.title.lower()]
    close = [s for s in difflib.get_close_matches(low, slugs, n=n, cutoff=0.4) if s not in holding]
    return [*holding, *close][:n] or difflib.get_close_matches(low, slugs, n=n, cutoff=0.0)


def topic(slug: str) -> Topic:
    """One topic by its slug; a wrong slug is refused with the nearest ones."""
    for t in topics():
        if t.slug == slug.lower():
            return t
    near = ", ".join(nearest(slug))
    raise PbemError(f"there is no rules topic '{slug}'; nearest: {near} (`pbem help rules` lists them all)", "usage")


def topic_of_phase(phase: str) -> str:
    """The slug of the topic governing an engine step, named as a decision names it
    ("axis.combat", "deployment", "end")."""
    return PHASE_TOPICS[phase.rpartition(".")[2]]


class Block(TypedDict, total=False):
    """One block of a topic for the page: ``kind`` is p, ul, ol or table."""

    kind: str
    text: str  # p
    items: list[str]  # ul, ol
    rows: list[list[str]]  # table


def blocks(t: Topic) -> list[Block]:
    """A topic's text as plain blocks for the page: paragraphs, lists and tables, their
    lines joined (the page shows them as text, never as markup)."""
    out: list[Block] = []
    for line in t.lines:
        text = line.strip()
        item = _ITEM.match(text)
        last = out[-1] if out else None
        if not text:
            out.append({"kind": "gap"})
        elif text.startswith("|"):
            cells = [c.strip() for c in text.strip("|").split("|")]
            if all(set(c) <= {"-"} for c in cells):
                continue
            if last and last["kind"] == "table":
                last["rows"].append(cells)
            else:
                out.append({"kind": "table", "rows": [cells]})
        elif item:
            kind = "ul" if item.group(1) == "- " else "ol"
            if last and last["kind"] == kind:
                last["items"].append(item.group(2))
            else:
                out.append({"kind": kind, "items": [item.group(2)]})
        elif last and last["kind"] in ("ul", "ol") and line.startswith("  "):
            last["items"][-1] += " " + text
        elif last and last["kind"] == "p":
            last["text"] += " " + text
        else:
            out.append({"kind": "p", "text": text})
    return [b for b in out if b["kind"] != "gap"]


def for_page(phase: str) -> dict[str, object]:
    """The reference for the page's help panel: ``now`` is the slug of the topic of the
    step awaited (shown first), ``topics`` every topic as blocks."""
    return {
        "now": topic_of_phase(phase),
        "topics": [{"slug": t.slug, "title": t.title, "blocks": blocks(t)} for t in topics()],
    }
