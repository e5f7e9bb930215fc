"""`pbem mail check`: every problem with the configuration, one line each: what `pbem mail
run` (or, with ``bot``, `pbem mail bot`) would refuse at its start, then the servers' logins."""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.mail.bot import load_player
from pbem.mail.config import load_config
from pbem.mail.daemon import identity_names, start_problems
from pbem.mail.imap import check_imap
from pbem.mail.smtp import check_smtp
from pbem.mail.store import workspace_lock


def check_all(path: Path, bot: bool = False) -> list[str]:
    try:
        config = load_config(path)
    except PbemError as err:
        return [str(err)]
    names = identity_names(config.workspace) if config.workspace.is_dir() else []
    problems = [str(err) for err in start_problems(config, [*names, config.bot.identity] if bot else names)]
    if bot:
        try:
            load_player(config.bot.player)
        except PbemError as err:
            problems.append(str(err))
    if config.workspace.is_dir():
        try:
            with workspace_lock(config.workspace):
                pass
        except PbemError as err:
            problems.append(str(err))
    for server in (config.imap, config.smtp):
        try:
            server.password()
        except PbemError as err:
            problems.append(str(err))
    if problems:
        return problems  # talking to the servers would only repeat the problem, or need the workspace
    imap_problem = check_imap(config.imap, config.imap_options, config.workspace)
    if imap_problem:
        problems.append(imap_problem)
    smtp_problem = check_smtp(config.smtp)
    if smtp_problem:
        problems.append(smtp_problem)
    return problems
