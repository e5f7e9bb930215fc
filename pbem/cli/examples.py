"""An example or two for each command's help: what a person types, with made-up names.

Kept apart from the commands so that one table holds them all and a test checks that
every command has one and that each example names its own command.
"""

from __future__ import annotations

EXAMPLES: dict[str, list[str]] = {
    "scenario list": ["pbem scenario list"],
    "scenario info": ["pbem scenario info 1939", "pbem scenario info 1937 --json"],
    "map": [
        "pbem map --scenario 1939 --region europe --out europe.png",
        "pbem map 3f9c --side allies --region europe --out now.png",
    ],
    "keygen": ["pbem keygen alice --email alice@example.org"],
    "key list": ["pbem key list"],
    "key set-email": ["pbem key set-email alice alice@example.net"],
    "key export": ["pbem key export alice -o alice.pub"],
    "new": [
        "pbem new --scenario 1939 --side allies --me alice --opponent bob.pub --opponent-email bob@example.org",
        "pbem new --scenario 1939 --side allies --me alice --against-bot",
        "pbem new --scenario 1939 --side allies --me alice --against-bot --level 2",
        "pbem new --scenario 1939 --side allies --me alice --opponent bot.pub --opponent-email bot@example.org "
        "--level 2",
    ],
    "join": ["pbem join inbox/3f9c0a1b2d4e-00000-axis.pbem --me bob"],
    "import": ["pbem import", "pbem import inbox/3f9c0a1b2d4e-00007-axis.pbem"],
    "status": ["pbem status", "pbem status 3f9c --all"],
    "show": ["pbem show 3f9c", "pbem show 3f9c --enemy --near Warsaw --radius 3", "pbem show 3f9c --legal 40"],
    "where": ["pbem where 3f9c '#107'", "pbem where 3f9c --free Warsaw"],
    "orders": [
        "pbem orders 3f9c orders.txt",
        "pbem orders 3f9c changes.txt --suggested",
        "pbem orders 3f9c --ahead deployment placements.txt --fallback bot",
    ],
    "send": ["pbem send 3f9c"],
    "undo": ["pbem undo 3f9c"],
    "react": [
        "pbem react 3f9c --intercept bot --land bot",
        "pbem react 3f9c --intercept bot --only '#7,#31'",
        "pbem react 3f9c --retreat toward:Warsaw",
    ],
    "resign": ["pbem resign 3f9c"],
    "offer-draw": ["pbem offer-draw 3f9c"],
    "accept-draw": ["pbem accept-draw 3f9c"],
    "decline-draw": ["pbem decline-draw 3f9c"],
    "withdraw-draw": ["pbem withdraw-draw 3f9c"],
    "decline": ["pbem decline inbox/3f9c0a1b2d4e-00000-axis.pbem --me bob"],
    "archive": ["pbem archive 3f9c", "pbem archive 3f9c --restore"],
    "branch": [
        "pbem branch 3f9c --at 18 --solo",
        "pbem branch 3f9c --at 18 --solo --level 2",
        "pbem branch rec/ --at 40 --me alice --opponent bob.pub",
    ],
    "verify": ["pbem verify inbox/3f9c0a1b2d4e-00007-axis.pbem", "pbem verify --no-engine rec/*.pbem"],
    "audit": ["pbem audit rec/"],
    "selfplay": ["pbem selfplay --scenario 1939 --until 1940-01 --seed 1 --react --out rec"],
    "claim": ["pbem claim 3f9c"],
    "handover offer": ["pbem handover offer 3f9c --to carol.pub -o offer/"],
    "handover accept": ["pbem handover accept offer/ --me carol"],
    "handover seal": ["pbem handover seal 3f9c offer/accepted"],
    "deadline agree": ["pbem deadline agree 3f9c --hours 48 -o consent.pbem"],
    "deadline set": ["pbem deadline set 3f9c consent.pbem"],
    "bot play": ["pbem bot play 3f9c", "pbem bot play 3f9c --ahead", "pbem bot play 3f9c --level 4"],
    "bot serve": ["pbem bot serve --config bot.toml"],
    "bot health": ["pbem bot health --config bot.toml"],
    "bot backup": ["pbem bot backup --config bot.toml bot-2026-11-28.backup"],
    "bot restore": [
        "pbem bot restore --config bot.toml bot-2026-11-28.backup",
        "pbem bot restore --config bot.toml --replace bot-2026-11-28.backup",
    ],
    "bot migrate": [
        "pbem bot migrate --new-key",
        "pbem bot migrate --config bot.toml --store postgresql://bot@db.example.org/pbem",
    ],
    "arena": ["pbem arena --scenario 1939 --until 1940-07 --games 4 --axis bot --allies random --json"],
    "mail run": ["pbem mail run --config mail.toml"],
    "mail bot": ["pbem mail bot --config bot.toml"],
    "mail check": ["pbem mail check --config mail.toml"],
    "mail status": ["pbem mail status --config mail.toml"],
    "mail retry": ["pbem mail retry --config mail.toml"],
    "hex": ["pbem hex 3f9c Warsaw", "pbem hex 3f9c 167,52"],
    "legal": ["pbem legal 3f9c --unit '#107'", "pbem legal 3f9c --kind attack --limit 20"],
    "suggest": ["pbem suggest 3f9c --out proposal.txt", "pbem suggest 3f9c --ahead deployment --out placements.txt"],
    "log": ["pbem log 3f9c --since-mine", "pbem log rec/ --month 1939-10", "pbem log rec/ --sittings"],
    "play": [
        "pbem play 3f9c",
        "pbem play --against-bot --scenario 1939 --side allies --me alice",
        "pbem play --against-bot --scenario 1939 --side axis --me alice --level 1",
    ],
    "help orders": ["pbem help orders", "pbem help orders place_land"],
    "help rules": ["pbem help rules", "pbem help rules retreats"],
}


def epilog(path: str) -> str | None:
    """The help's closing lines for the command ``pbem PATH`` (None: it has no examples)."""
    lines = EXAMPLES.get(path)
    if not lines:
        return None
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)
