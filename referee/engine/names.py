"""Player names as they reach views, round summaries and forum posts: printable text only."""

import unicodedata

# explicit direction marks, embeddings, overrides and isolates: they reorder the text
# around a name when it is pasted into a forum post
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
NAME_LIMIT = 40


def name_problem(name: str) -> str | None:
    """Why a player's name cannot be used, or None: 1-40 characters, not only white
    space, no control character (NUL, tab, new line, ...), line or paragraph separator,
    or bidirectional control."""
    if not 1 <= len(name) <= NAME_LIMIT:
        return f"a name has 1-{NAME_LIMIT} characters"
    if not name.strip():
        return "a name is more than white space"
    for char in name:
        if char in BIDI_CONTROLS:
            return f"a name may not hold the direction control U+{ord(char):04X}"
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            return f"a name may not hold the control character U+{ord(char):04X}"
    return None
