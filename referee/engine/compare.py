"""Comparing two logs of a game, or two states of it: where they part, and what that
changed (status, each player's score, rank and win, every other difference in the full
view: positions, hands, chips). The seed is never part of a comparison."""

from typing import Any

from .canonical import canonical
from .events import MODERATOR
from .game import State, view

Record = dict[str, Any]
CONTENT = ("type", "actor", "visibility", "payload", "command")
LEFT_OUT = (
    "seed",
    "version",
    "legal",
    "to_move",
    "status",
    "forked_from",
    "forked_to",
    "disputes",
)


def first_difference(a: list[Record], b: list[Record]) -> dict[str, Any] | None:
    """The first seq at which two logs' events differ in content (type, actor,
    visibility, payload, command), and in which fields; None when they agree."""
    for left, right in zip(a, b, strict=False):
        fields = [k for k in CONTENT if canonical(left.get(k)) != canonical(right.get(k))]
        if fields:
            return {"seq": left["seq"], "fields": fields, "a": brief(left), "b": brief(right)}
    if len(a) == len(b):
        return None
    seq = min(len(a), len(b)) + 1  # one log ends here; the other goes on
    return {"seq": seq, "fields": [], "a": _brief_at(a, seq), "b": _brief_at(b, seq)}


def _brief_at(records: list[Record], seq: int) -> dict[str, Any] | None:
    return brief(records[seq - 1]) if seq <= len(records) else None


def brief(record: Record) -> dict[str, Any]:
    """An event's content, without its envelope."""
    return {k: record.get(k) for k in ("seq", *CONTENT)}


def consequences(before: State, after: State) -> dict[str, Any]:
    """What differs between two states of one game, as the moderator sees them."""
    seen = [_full_view(before), _full_view(after)]
    return {
        "status": _pair(before["status"], after["status"]),
        "players": _players(before, after),
        "winners": _pair(_winners(before), _winners(after)),
        "changes": changes(seen[0], seen[1]),
    }


def _full_view(state: State) -> dict[str, Any]:
    shown = view(state, MODERATOR)
    return {k: v for k, v in shown.items() if k not in LEFT_OUT}


def _players(before: State, after: State) -> list[dict[str, Any]]:
    """Per seat, the score, rank and win that changed."""
    rows = []
    for seat, name in enumerate(after["players"]):
        row: dict[str, Any] = {}
        for key in ("scores", "ranks"):
            pair = _pair(_of(before, key, seat), _of(after, key, seat))
            if pair:
                row[key[:-1]] = pair
        won = _pair(seat in _winner_seats(before), seat in _winner_seats(after))
        if won:
            row["winner"] = won
        if row:
            rows.append({"seat": seat, "name": name, **row})
    return rows


def _of(state: State, key: str, seat: int) -> Any:
    outcome = state["outcome"] or {}
    values = outcome.get(key) or []
    return values[seat] if seat < len(values) else None


def _winner_seats(state: State) -> list[int]:
    return list((state["outcome"] or {}).get("winners") or [])


def _winners(state: State) -> list[str]:
    return [state["players"][s] for s in _winner_seats(state)]


def _pair(a: Any, b: Any) -> list[Any] | None:
    return None if canonical(a) == canonical(b) else [a, b]


def changes(a: Any, b: Any, path: str = "") -> list[dict[str, Any]]:
    """Every leaf that differs between two JSON values, by path (`state.horses.red`)."""
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for key in sorted(set(a) | set(b)):
            found += changes(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))
        return found
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        found = []
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            found += changes(x, y, f"{path}.{index}" if path else str(index))
        return found
    return [] if canonical(a) == canonical(b) else [{"path": path, "before": a, "after": b}]
