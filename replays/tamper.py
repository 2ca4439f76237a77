"""Damaged copies of valid game logs, each with the seq and code verification must name.

`damages(events)` makes, from a log that verifies, every kind of damage the tamper
evidence has to show: a character changed in each field of an event (as a bad disk or
a careless hand would; the line stays JSON), the same edit with the hash chain
recomputed (as a forger would), lines that are no longer JSON, deleted, swapped and
appended events, sealed orders whose reveal or commitment does not match, random
outcomes that do not follow from the seed, a revealed seed that does not match its
commitment. Field edits are made on a spread of events (every one in a short log), and
drawn outcomes redrawn at a spread of each type's events (a game of dice has hundreds of
rolls).

What verification must report (replays/verify.py checks the chain, the first event, the
seed, then seals and rules, naming the lower seq of those two), and why:
- an edit, chain left alone: the event's own link fails at its seq, as the chain is
  checked: `chain/seq`, `chain/game_id` (not on seq 1: its game id is the log's, its
  hash fails), `chain/prev_hash`, else `chain/hash`.
- a forged edit, every later hash recomputed: seq, game_id, prev_hash and hash are
  still the chain's (`chain/*`); recorded_at is moved before its predecessor's
  (`chain/time`: only the order of times can be checked); a salt, or a public event made
  private and so lacking one, fails the seed's salt check (`seal/salt`); the seed its
  commitment (`seed/commitment`), SeedRevealed renamed leaves the game ended without it
  (`seed/missing`), a dispute event renamed after it is no dispute (`seed/not_last`); a
  commitment or a reveal fails its seal (`seal/commitment`,
  `seal/reveal`, and `seal/commitment` at a revealed submission whose orders changed);
  the actor or command of the event that starts a batch is refused by the rules
  (`rules/refused`: the actor becomes a seat the game lacks); the first event's type
  `rules/created`; anything else is re-derived otherwise (`rules/derived`).
- an event deleted, or two swapped: the seq out of place (`chain/seq`). Renumbered and
  rechained, the event that took the place is not the one the rules give: a private one
  carries another seq's salt (`seal/salt`), an OrdersCommitted moved after no submission
  or another one fails its seal (`seal/commitment`), one without a command where a batch starts is
  `rules/uncaused`, any other `rules/derived`.

Not made, with why: renumbered deletions and swaps that put one command where another
was (the rules refuse it or run it otherwise, as the game stands: no one code follows);
forged game_id or recorded_at on seq 1 (the first event sets the game id and the
earliest time, so only seq 2 can disagree); edits of an empty payload (nothing to
change). In GameCreated's payload a player's name is edited: its created_at is in no
state hash (the first event it changes is the first RoundOpened's deadline, seq 3, as if
that had been forged) and an option may be refused (`rules/refused`) or taken
(`rules/derived`), as the ruleset says.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from referee.engine.chain import FIELDS, GENESIS, event_hash
from referee.engine.events import PUBLIC

from .log import dumps

Event = dict[str, Any]
Path = tuple[Any, ...]
T = TypeVar("T")

SAMPLE = 24  # events whose every field is edited, spread over a log
SEALED = 6  # reveals, commitments and submissions changed, spread over a log
CHAIN_CODES = {
    "seq": "chain/seq",
    "game_id": "chain/game_id",
    "prev_hash": "chain/prev_hash",
    "hash": "chain/hash",
    "recorded_at": "chain/time",
}
EMPTY_EDITS: dict[str, Any] = {"command": {}, "salt": "0" * 32, "visibility": [0]}
# the events that carry what the generator drew, and the payload entry holding it
DRAWN = {
    "HorsesLinedUp": "line_up",
    "RaceCardsDealt": "cards",
    "BettingCardsDealt": "cards",
    "BettingStackFormed": "cards",
    "ActionCardsDealt": "cards",
    "ActionCardsSetAside": "cards",
    "MovementsDrawn": "movements",
    "CardsDealt": "cards",
    "FirstPlayerChosen": "seat",
    "DieRolled": "face",
    "TurnOrderDrawn": "order",
    "CharactersDealt": "characters",
    "TilesLaid": "layout",
    "DeckShuffled": "deck",
}
# a single drawn value is drawn otherwise among the payload entry that lists the choices,
# else among the values it takes in the log's other events of its type (the faces rolled)
CHOICES = {"FirstPlayerChosen": "among"}
# (byte of the line, new byte): its "{", the ":" after "actor" (the first key), its "}",
# and a byte that is not UTF-8
BROKEN_JSON = ((0, b"["), (8, b";"), (-1, b"]"), (1, b"\xff"))
SEALED_KINDS = ("reveal/changed", "commitment/changed", "sealed-orders/changed")
KINDS = (
    *(f"flipped/{f}" for f in FIELDS),
    *(f"forged/{f}" for f in FIELDS),
    "unreadable",
    "deleted",
    "deleted/last",
    "deleted/renumbered",
    "swapped/adjacent",
    "swapped/distant",
    "swapped/renumbered",
    "appended/unchained",
    "appended/after-seed",
    *SEALED_KINDS,
    "outcome/not-from-seed",
    "seed/changed",
)


@dataclass(frozen=True)
class Damage:
    """One damaged copy of a log, and the seq and code verification must report."""

    kind: str
    description: str
    log: bytes
    expected_seq: int
    expected_code: str


def damages(events: list[Event], *, sample: int = SAMPLE, sealed: int = SEALED) -> Iterator[Damage]:
    """Every kind of damage to a valid log: field edits, deletions and swaps at `sample`
    events spread over it, `sealed` of each kind of sealed-order damage, `sample` drawn
    outcomes of each type."""
    picked = spread([e["seq"] for e in events], sample)
    yield from _flips(events, picked)
    yield from _forgeries(events, picked)
    yield from _unreadable(events, picked)
    yield from _deletions(events, picked)
    yield from _swaps(events, picked)
    yield from _appended(events)
    yield from _sealed_orders(events, sealed)
    yield from _outcomes(events, sample)
    yield from _seed(events)


def spread(items: list[T], count: int) -> list[T]:
    """`count` of the items evenly spread from the first to the last; all if fewer."""
    if len(items) <= count or count < 2:
        return list(items[: max(count, 0)])
    return [items[i * (len(items) - 1) // (count - 1)] for i in range(count)]


# --- a field edited, chain left alone or recomputed ------------------------------------


def _flips(events: list[Event], picked: list[int]) -> Iterator[Damage]:
    for seq in picked:
        for name in FIELDS:
            edit = field_edit(events, seq, name)
            if edit is None:
                continue
            code = CHAIN_CODES[name] if name in ("seq", "game_id", "prev_hash") else "chain/hash"
            if name == "game_id" and seq == 1:
                code = "chain/hash"
            log = _replaced(events, seq, {name: edit[0]})
            what = _where(events, seq, name, edit[1])
            yield Damage(f"flipped/{name}", what, dumps(log), seq, code)


def _forgeries(events: list[Event], picked: list[int]) -> Iterator[Damage]:
    for seq in picked:
        for name in FIELDS:
            edit = field_edit(events, seq, name)
            if edit is None or (seq == 1 and name in ("game_id", "recorded_at")):
                continue
            log = _forged(events, seq, name, edit[0])
            what = _where(events, seq, name, edit[1]) + ", chain recomputed"
            code = forged_code(events, seq, name, edit[1])
            yield Damage(f"forged/{name}", what, dumps(log), seq, code)


def field_edit(events: list[Event], seq: int, name: str) -> tuple[Any, Path] | None:
    """The field of the event at seq with one character changed, and where (a path in
    it); the nearest meaningful change where that is not enough; None if nothing fits."""
    event = events[seq - 1]
    value = event[name]
    if name == "recorded_at":  # the year's first digit to 0: earlier than any event
        return "0" + value[1:], ()
    if name == "command" and isinstance(value, dict) and "type" in value:
        return {**value, "type": _flipped_text(value["type"])}, ("type",)
    if name == "actor" and isinstance(value, int):  # the first seat the game lacks
        return len(events[0]["payload"]["players"]), ()
    if name == "payload" and event["type"] == "GameCreated":  # a player's name: see above
        players = flipped_leaf(value["players"])
        return None if players is None else ({**value, "players": players[0]}, ("players",))
    flipped = flipped_leaf(value)
    if flipped is None and name in EMPTY_EDITS and not value:
        return EMPTY_EDITS[name], ()
    return flipped


def flipped_leaf(value: Any) -> tuple[Any, Path] | None:
    """The value with the last letter or digit of its first string or integer (keys in
    order) changed to its pair (a-b, 0-1), and the path to it."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return int(_flipped_text(str(value))), ()
    if isinstance(value, str):
        return (_flipped_text(value), ()) if any(map(_flippable, value)) else None
    items = sorted(value.items()) if isinstance(value, dict) else list(enumerate(value))
    for key, item in items:
        inner = flipped_leaf(item)
        if inner is not None:
            return _put(value, key, inner[0]), (key, *inner[1])
    return None


def _flippable(char: str) -> bool:
    return char.isascii() and char.isalnum()


def _flipped_text(text: str) -> str:
    """The last ASCII letter or digit swapped with its pair: 0-1, 2-3 ... a-b ... y-z (so a
    hex digit stays one)."""
    at = max(i for i, c in enumerate(text) if _flippable(c))
    char = text[at]
    base = "0" if char.isdigit() else "a" if char.islower() else "A"
    return text[:at] + chr(ord(base) + ((ord(char) - ord(base)) ^ 1)) + text[at + 1 :]


def _put(value: Any, key: Any, item: Any) -> Any:
    if isinstance(value, dict):
        return {**value, key: item}
    return [item if i == key else v for i, v in enumerate(value)]


def forged_code(events: list[Event], seq: int, name: str, path: Path) -> str:
    """The code verification gives a field edited at `seq` with the chain recomputed."""
    event = events[seq - 1]
    if name in CHAIN_CODES:
        return CHAIN_CODES[name]
    if name == "salt" or (name == "visibility" and event["visibility"] == PUBLIC):
        return "seal/salt"
    if name == "type" and seq == 1:
        return "rules/created"
    if name == "type" and event["type"] == "SeedRevealed":
        return "seed/missing"
    if name == "type" and seq > _revealed_at(events):
        return "seed/not_last"
    if name == "payload":
        return _payload_code(events, event, path)
    if name in ("actor", "command") and event["command"] is not None:
        return "rules/refused"
    return "rules/derived"


def _payload_code(events: list[Event], event: Event, path: Path) -> str:
    kind, entry = event["type"], path[0]
    if kind == "SeedRevealed":
        return "seed/commitment"
    if kind == "OrdersCommitted" and entry in ("commitment", "round", "seat"):
        return "seal/commitment"
    if kind == "OrdersRevealed":
        return "seal/reveal"
    if kind == "OrdersSubmitted" and entry == "salt":
        return "seal/salt"
    if kind == "OrdersSubmitted" and entry == "orders" and event["seq"] in _revealed(events):
        return "seal/commitment"
    return "rules/derived"


def _revealed_at(events: list[Event]) -> int:
    """The seq of SeedRevealed; one past the end if the seed is not revealed."""
    return next((e["seq"] for e in events if e["type"] == "SeedRevealed"), len(events) + 1)


def _revealed(events: list[Event]) -> set[int]:
    return {e["payload"]["seq"] for e in events if e["type"] == "OrdersRevealed"}


def _where(events: list[Event], seq: int, name: str, path: Path) -> str:
    inside = "".join(f"[{p!r}]" for p in path)
    return f"{name}{inside} of seq {seq} ({events[seq - 1]['type']})"


# --- lines that are not JSON ---------------------------------------------------------


def _unreadable(events: list[Event], picked: list[int]) -> Iterator[Damage]:
    lines = dumps(events).split(b"\n")
    for n, seq in enumerate(picked):
        at, byte = BROKEN_JSON[n % len(BROKEN_JSON)]
        line = bytearray(lines[seq - 1])
        line[at] = byte[0]
        log = b"\n".join([*lines[: seq - 1], bytes(line), *lines[seq:]])
        what = f"byte {at} of line {seq} made {byte!r}"
        yield Damage("unreadable", what, log, seq, "log/unreadable")


# --- deleted, swapped, appended events -------------------------------------------------


def _deletions(events: list[Event], picked: list[int]) -> Iterator[Damage]:
    last = len(events)
    for seq in (s for s in picked if s < last):
        kept = events[: seq - 1] + events[seq:]
        yield Damage("deleted", f"seq {seq} deleted", dumps(kept), seq, "chain/seq")
        if _opens_batch(events[seq - 1]) and _opens_batch(kept[seq - 1]):
            continue  # a command where another was: see above
        log = _renumbered(kept, seq)
        what = f"seq {seq} deleted, later events renumbered and rechained"
        yield Damage("deleted/renumbered", what, dumps(log), seq, renumbered_code(events, log, seq))
    if events[-1]["type"] == "SeedRevealed":
        what = "the last event, SeedRevealed, deleted"
        yield Damage("deleted/last", what, dumps(events[:-1]), last, "seed/missing")


def _swaps(events: list[Event], picked: list[int]) -> Iterator[Damage]:
    """The event at each picked seq swapped with the next and with one halfway to the
    seed's reveal, all before it (the seed stays last, but for disputes)."""
    last = _revealed_at(events) - 1
    for seq in (s for s in picked if s < last):
        for kind, other in (("adjacent", seq + 1), ("distant", (seq + last) // 2 + 1)):
            if kind == "distant" and other <= seq + 1:
                continue
            log = list(events)
            log[seq - 1], log[other - 1] = events[other - 1], events[seq - 1]
            what = f"seq {seq} and seq {other} swapped"
            yield Damage(f"swapped/{kind}", what, dumps(log), seq, "chain/seq")
            if _opens_batch(events[seq - 1]) and _opens_batch(log[seq - 1]):
                continue  # a command where another was: see above
            # the forger leaves the times where they were, or their order would tell
            for at in (seq, other):
                log[at - 1] = {**log[at - 1], "recorded_at": events[at - 1]["recorded_at"]}
            log = _renumbered(log, seq)
            what += ", renumbered and rechained"
            yield Damage(
                "swapped/renumbered", what, dumps(log), seq, renumbered_code(events, log, seq)
            )


def _opens_batch(event: Event) -> bool:
    return event["seq"] == 1 or event["command"] is not None


def renumbered_code(events: list[Event], log: list[Event], seq: int) -> str:
    """What verification names at `seq` when another event, renumbered and rechained, has
    taken the place of the one recorded there."""
    now = log[seq - 1]
    if seq == 1:
        return "rules/created"
    if now["visibility"] != PUBLIC:
        return "seal/salt"
    if now["type"] == "OrdersCommitted":  # after no submission, or another one
        return "seal/commitment"
    if events[seq - 1]["command"] is not None and now["command"] is None:
        return "rules/uncaused"
    return "rules/derived"


def _appended(events: list[Event]) -> Iterator[Damage]:
    """An announcement added at the end: by hand (prev_hash not the last hash), and
    chained after the seed is revealed."""
    last, seq = events[-1], len(events) + 1
    text = "the referee favoured seat 0"
    notice = {
        **last,
        "seq": seq,
        "type": "AnnouncementPosted",
        "actor": "moderator",
        "visibility": PUBLIC,
        "payload": {"text": text},
        "command": {"type": "announce", "text": text},
        "salt": None,
    }
    loose = _linked(notice, GENESIS)
    what = "an announcement appended by hand, prev_hash not the last hash"
    yield Damage("appended/unchained", what, dumps([*events, loose]), seq, "chain/prev_hash")
    if _revealed_at(events) < seq:
        linked = _linked(notice, last["hash"])
        what = "an announcement appended after SeedRevealed, chained"
        yield Damage("appended/after-seed", what, dumps([*events, linked]), seq, "seed/not_last")


# --- sealed orders, random outcomes, the seed ------------------------------------------


def _sealed_orders(events: list[Event], count: int) -> Iterator[Damage]:
    """Reveals (orders, salt), commitments and revealed submissions (orders) changed,
    chain recomputed; `count` of each, spread over the log."""
    revealed = _revealed(events)
    made = (
        ("reveal/changed", "OrdersRevealed", "orders", "seal/reveal"),
        ("reveal/changed", "OrdersRevealed", "salt", "seal/reveal"),
        ("commitment/changed", "OrdersCommitted", "commitment", "seal/commitment"),
        ("sealed-orders/changed", "OrdersSubmitted", "orders", "seal/commitment"),
    )
    for kind, type_, entry, code in made:
        seqs = [
            e["seq"]
            for e in events
            if e["type"] == type_ and (type_ != "OrdersSubmitted" or e["seq"] in revealed)
        ]
        for seq in spread(seqs, count):
            yield _sealed_damage(events, seq, entry, kind, code)


def _sealed_damage(events: list[Event], seq: int, entry: str, kind: str, code: str) -> Damage:
    payload = events[seq - 1]["payload"]
    value, path = flipped_leaf(payload[entry]) or _filled(payload[entry])
    log = _forged(events, seq, "payload", {**payload, entry: value})
    what = _where(events, seq, "payload", (entry, *path)) + ", chain recomputed"
    return Damage(kind, what, dumps(log), seq, code)


def _filled(orders: dict[str, Any]) -> tuple[dict[str, Any], Path]:
    """Orders with nothing to flip (nothing but nulls and empty entries): the first empty
    entry given a 0, or a 0 added."""
    key = next((k for k in sorted(orders) if not orders[k]), "added")
    return {**orders, key: 0}, (key,)


def _outcomes(events: list[Event], count: int) -> Iterator[Damage]:
    """Drawn outcomes (a deal, a line-up, movement values, a roll, a first player) drawn
    otherwise: of each type, `count` of those that could have been drawn otherwise,
    spread over the log."""
    redraws: dict[int, Any] = {}
    for kind, entry in DRAWN.items():
        found = [e for e in events if e["type"] == kind]
        seen = [e["payload"][entry] for e in found]
        others = [(e["seq"], redrawn(e["payload"][entry], _choices(e, seen))) for e in found]
        redraws.update(spread([(s, o) for s, o in others if o is not None], count))
    for seq in sorted(redraws):
        event = events[seq - 1]
        entry = DRAWN[event["type"]]
        log = _forged(events, seq, "payload", {**event["payload"], entry: redraws[seq]})
        what = _where(events, seq, "payload", (entry,)) + " drawn otherwise"
        yield Damage("outcome/not-from-seed", what, dumps(log), seq, "rules/derived")


def _choices(event: Event, seen: list[Any]) -> list[Any]:
    """What a single outcome was drawn among: its payload's list, else the values seen."""
    listed = CHOICES.get(event["type"])
    return event["payload"][listed] if listed else seen


def redrawn(drawn: Any, choices: list[Any] | None = None) -> Any:
    """Another outcome of the same draw: a sorted hand with a card changed for the next,
    a shuffled order with two neighbours swapped, the values of two keys swapped (in the
    first key's entry if they are dicts), a single value (a seat, a face) the first other
    one of the `choices`; None for a draw of one kind only."""
    if isinstance(drawn, str | int):
        others = sorted({c for c in choices or () if c != drawn})
        return others[0] if others else None
    if isinstance(drawn, dict):
        if all(isinstance(v, dict) for v in drawn.values()):
            first = min(drawn)
            inner = redrawn(drawn[first])
            return None if inner is None else {**drawn, first: inner}
        keys = sorted(drawn)
        pairs = [(a, b) for a in keys for b in keys if drawn[a] != drawn[b]]
        if not pairs:
            return None
        a, b = pairs[0]
        return {**drawn, a: drawn[b], b: drawn[a]}
    items = list(drawn)
    at = next((i for i in range(len(items) - 1) if items[i] != items[i + 1]), None)
    if at is None:
        return None
    if items == sorted(items):
        items[at] = items[at + 1]
    else:
        items[at], items[at + 1] = items[at + 1], items[at]
    return items


def _seed(events: list[Event]) -> Iterator[Damage]:
    seq = _revealed_at(events)
    if seq <= len(events):
        seed = events[seq - 1]["payload"]["seed"]
        flipped = flipped_leaf(seed)
        other = flipped[0] if flipped else seed + "0"
        log = _forged(events, seq, "payload", {"seed": other})
        what = f"the revealed seed made {other!r}, chain recomputed"
        yield Damage("seed/changed", what, dumps(log), seq, "seed/commitment")


# --- the chain, as a forger recomputes it ----------------------------------------------


def _replaced(events: list[Event], seq: int, fields: dict[str, Any]) -> list[Event]:
    log = list(events)
    log[seq - 1] = {**events[seq - 1], **fields}
    return log


def _forged(events: list[Event], seq: int, name: str, value: Any) -> list[Event]:
    """The field changed at seq and every hash from there on recomputed (a forged hash is
    kept, and the chain goes on from it)."""
    log = _replaced(events, seq, {name: value})
    if name != "hash":
        log[seq - 1] = _hashed(log[seq - 1])
    for at in range(seq, len(log)):
        log[at] = _linked(log[at], log[at - 1]["hash"])
    return log


def _renumbered(events: list[Event], seq: int) -> list[Event]:
    """Events from `seq` on numbered seq, seq + 1 ... and rechained from there."""
    log = list(events)
    for at in range(seq - 1, len(log)):
        prev_hash = log[at - 1]["hash"] if at else GENESIS
        log[at] = _linked({**log[at], "seq": at + 1}, prev_hash)
    return log


def _linked(event: Event, prev_hash: str) -> Event:
    return _hashed({**event, "prev_hash": prev_hash})


def _hashed(event: Event) -> Event:
    return {**event, "hash": event_hash(event)}
