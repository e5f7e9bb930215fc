"""What this program accepts as an e-mail address: one plain address and nothing else.

No display name, no list, no comment, no line break: nothing a mail header could read
as a second recipient.  Identities, invitations and the mail daemon all ask this.
"""

from __future__ import annotations

import re

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_ADDRESS = re.compile(rf"[A-Za-z0-9.!#$%&'*+/=?^_`{{|}}~-]{{1,64}}@{_LABEL}(?:\.{_LABEL}){{0,8}}")


def is_address(text: str) -> bool:
    # fullmatch, not match with $: $ would let a final line break through.
    return len(text) <= 254 and _ADDRESS.fullmatch(text) is not None
