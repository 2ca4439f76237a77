"""What one step changed, in words: the difference between a viewer's view before and
after an event, as lines a person reads ("money, Ann: 12 → 15"), not a JSON dump.

Nested tables are walked down to their leaves; a list with one entry per player is read
by the players' names; short lists of plain values are one leaf ("3, 5, 7"); keys that
change with every event (the version, the legal moves) are left out.
"""

from typing import Any

LEFT_OUT = {"version", "legal", "game_id", "deadlines_utc", "deadline_utc"}
# the views' lists that hold one entry per seat, in seat order (read by the players' names;
# any other list is read by position, #1, #2, ...)
PER_SEAT = {
    "money", "chips", "hand_sizes", "food", "goods", "bonus", "characters", "gun_dice",
    "in_jail", "jail", "pieces_left", "betting_card_counts", "seats", "scores", "ranks",
    "submitted", "standing_choices",
}  # fmt: skip
SHORT = 8  # a list of plain values this long or shorter is shown whole
SHOWN_AT_MOST = 40  # lines; more are counted


def changes(before: dict[str, Any] | None, after: dict[str, Any]) -> list[dict[str, str]]:
    """The lines that differ between two views: what, was, now (was '' when new)."""
    players = list(after.get("players") or [])
    old = dict(_leaves(before or {}, (), players))
    new = dict(_leaves(after, (), players))
    lines = []
    for path in list(old) + [p for p in new if p not in old]:
        was, now = old.get(path), new.get(path)
        if was != now and not (_empty(was) and _empty(now)):
            lines.append({"what": _words(path), "was": _shown(was), "now": _shown(now)})
    if len(lines) > SHOWN_AT_MOST:
        more = len(lines) - SHOWN_AT_MOST
        lines = lines[:SHOWN_AT_MOST] + [{"what": f"and {more} more", "was": "", "now": ""}]
    return lines


def _leaves(value: Any, path: tuple[str, ...], players: list[str]):
    """(path, leaf) pairs of a nested view, in its own order."""
    if isinstance(value, dict) and not _record(value):
        for key, item in value.items():
            if key not in LEFT_OUT:
                yield from _leaves(item, (*path, str(key)), players)
    elif path[-1:] == ("to_move",) and isinstance(value, list):  # seats, by name
        yield path, [players[a] if isinstance(a, int) and a < len(players) else a for a in value]
    elif isinstance(value, list) and (_per_seat(value, path, players) or not _plain(value)):
        named = _per_seat(value, path, players)
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, players[index] if named else f"#{index + 1}"), players)
    else:
        yield path, value


def _record(value: dict[str, Any]) -> bool:
    """A small table of plain values (a die, a card), shown as one leaf."""
    return 0 < len(value) <= 6 and all(not isinstance(v, dict | list) for v in value.values())


def _empty(value: Any) -> bool:
    return value is None or value == [] or value == {}


def _per_seat(value: list[Any], path: tuple[str, ...], players: list[str]) -> bool:
    return len(value) == len(players) and bool(path) and path[-1] in PER_SEAT


def _plain(value: list[Any]) -> bool:
    """A short list of plain values, shown as one leaf."""
    return len(value) <= SHORT and all(not isinstance(v, dict | list) for v in value)


def _words(path: tuple[str, ...]) -> str:
    """A path as words: `state › money › Ann` -> `money, Ann`."""
    kept = [p for p in path if p not in ("state", "rules")]
    return ", ".join(p.replace("_", " ") for p in kept) or "the game"


def _shown(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_shown(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_shown(v)}" for k, v in value.items())
    return str(value)
