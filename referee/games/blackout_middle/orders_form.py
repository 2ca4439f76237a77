"""A seat's whole `submit_orders` for the open round as one form (field kinds: see
referee/web/forms.py), and the form's values back to the `orders` object.

Names: `ability` (none, clue or utility); for each kind, its card fields as the round's
rules shape them (data file `fields`): `<kind>.<field>` a choice (one card) or choices
(distinct cards), `<kind>.<field>.<horse>` a number of copies, `<kind>.guess.<horse>.<n>`
a guess of horses ahead; `spectate` (a space); `bet.<horse>` (chips). Only the chosen
kind's fields are read. A value that does not parse is sent as it came, so the rules
refuse it (or drop it at resolution) with their own message."""

from typing import Any

from .data import FIRST_ROUND, HORSES, KINDS, START_SPACE, TRACK_LENGTH, ability

Field = dict[str, Any]
Form = dict[str, list[str]]
NONE = "none"
FIELD_WORDS = {"use": "use (discarded)", "select": "select (kept)", "gain": "gain"}
DIGITS = 18  # longer numbers stay text: the rules refuse them


def order_fields(view: dict[str, Any]) -> list[Field]:
    """The form of a seat's orders for the open round, filled with what it sealed; no
    fields when no round takes its orders."""
    state, opened = view.get("state") or {}, (view.get("round") or {}).get("open")
    you, playing = state.get("you"), state.get("open_round")
    if you is None or playing is None or not opened or opened.get("closed"):
        return []
    r, sent = playing["round"], (opened.get("my_orders") or {}).get("orders") or {}
    hand = _free_hand(you)
    fields = [_ability_field(r, sent)]
    for kind in KINDS:
        fields += _card_fields(r, kind, hand, _sent_ability(sent, kind))
    if r != FIRST_ROUND:
        fields += [_spectate_field(sent), *_bet_fields(r, you, hand, sent)]
    return fields


def orders_from_form(form: Form) -> dict[str, Any]:
    """The `orders` of submit_orders from the form's values (name -> strings as sent)."""
    kind = _one(form, "ability")
    return {
        "ability": None if kind in ("", NONE) else _ability(form, kind),
        "spectate": _number_or_text(_one(form, "spectate")) if _one(form, "spectate") else None,
        "bets": _bets(form),
    }


# --- the fields ------------------------------------------------------------------


def _free_hand(you: dict[str, Any]) -> dict[str, int]:
    offered = you.get("on_offer") or {}
    hand = {h: n - offered.get(h, 0) for h, n in (you.get("hand") or {}).items()}
    return {h: n for h, n in hand.items() if n > 0}


def _sent_ability(sent: dict[str, Any], kind: str) -> dict[str, Any]:
    given = sent.get("ability")
    return given if isinstance(given, dict) and given.get("kind") == kind else {}


def _ability_field(r: int, sent: dict[str, Any]) -> Field:
    given = sent.get("ability")
    choices = [[NONE, "No ability"]] + [[k, f"Round {r} {k} ability"] for k in KINDS]
    return {
        "name": "ability",
        "label": "Ability",
        "kind": "choice",
        "choices": choices,
        "value": given["kind"] if isinstance(given, dict) and "kind" in given else NONE,
        "group": "Ability",
        "help": "Choose the clue or the utility ability (or none); fill in its cards below.",
    }


def _card_fields(r: int, kind: str, hand: dict[str, int], given: dict[str, Any]) -> list[Field]:
    spec, group = ability(r, kind), f"{kind.capitalize()} ability"
    fields: list[Field] = []
    for field, rules in spec["fields"].items():
        fields += _one_field(kind, field, rules, spec, hand, given)
    for field in fields:
        field["group"] = group
    if fields:
        fields[0]["help"] = spec["text"]
    return fields


def _one_field(
    kind: str,
    field: str,
    rules: dict[str, Any],
    spec: dict[str, Any],
    hand: dict[str, int],
    given: dict[str, Any],
) -> list[Field]:
    held = [h for h in HORSES if hand.get(h, 0) > 0]
    horses = list(HORSES) if field == "gain" else held
    if field == "guesses":
        return _guess_fields(kind, rules, spec, hand, given.get("guesses") or [])
    if not horses:
        return []
    sent = given.get(field) or []
    sent = [sent] if isinstance(sent, str) else sent
    words = FIELD_WORDS[field]
    choices = [[h, f"Card {h}"] for h in horses]
    if rules.get("max") == 1:
        return [_choice(f"{kind}.{field}", f"Card to {words}", choices, sent[:1])]
    if rules.get("distinct") or (rules.get("max") and field == "select"):
        most = rules.get("max")
        shown = _choice(f"{kind}.{field}", f"Cards to {words}", choices, sent, many=True)
        return [{**shown, "max": most} if most else shown]
    return [
        _number(f"{kind}.{field}.{h}", f"Card {h}: copies to {words}", sent.count(h), hand[h])
        for h in horses
    ]


def _choice(
    name: str, label: str, choices: list[list[str]], sent: list[Any], *, many: bool = False
) -> Field:
    values = [str(v) for v in sent]
    if many:
        return {
            "name": name,
            "label": label,
            "kind": "choices",
            "choices": choices,
            "value": values,
        }
    first = values[0] if values else ""
    return {
        "name": name,
        "label": label,
        "kind": "choice",
        "choices": choices,
        "value": first,
        "optional": True,
    }


def _number(name: str, label: str, value: int, most: int) -> Field:
    return {
        "name": name,
        "label": label,
        "kind": "number",
        "value": str(value),
        "min": 0,
        "max": most,
    }


def _guess_fields(
    kind: str, rules: dict[str, Any], spec: dict[str, Any], hand: dict[str, int], sent: list[Any]
) -> list[Field]:
    low, high = spec["ahead"]
    choices = [[str(n), f"{n} horse{'' if n == 1 else 's'} ahead"] for n in range(low, high + 1)]
    fields = []
    for h in [h for h in HORSES if hand.get(h, 0) > 0]:
        guessed = [g.get("ahead") for g in sent if isinstance(g, dict) and g.get("horse") == h]
        for n in range(1, min(rules["most_copies"], hand[h]) + 1):
            value = guessed[n - 1 : n]
            label = f"Card {h}, copy {n}: horses ahead of {h} at the end of the round"
            fields.append(_choice(f"{kind}.guess.{h}.{n}", label, choices, value))
    return fields


def _spectate_field(sent: dict[str, Any]) -> Field:
    space = sent.get("spectate")
    return {
        "name": "spectate",
        "label": "Space to spectate",
        "kind": "choice",
        "choices": [[str(s), f"Space {s}"] for s in range(START_SPACE, TRACK_LENGTH + 1)],
        "value": "" if space is None else str(space),
        "optional": True,
        "group": "Spectate",
        "help": "At the end of the round you learn which horses are on it and score 1 point "
        "per horse; next round it is your current space.",
    }


def _bet_fields(
    r: int, you: dict[str, Any], hand: dict[str, int], sent: dict[str, Any]
) -> list[Field]:
    space = you.get("current_space") or {}
    sent_bets = sent.get("bets")
    bets: dict[str, Any] = sent_bets if isinstance(sent_bets, dict) else {}
    horses = [h for h in HORSES if h in space.get("horses", []) or h in bets]
    per_card = ability(r, "utility").get("chips_per_card", 0)
    most = you.get("chips", 0) + per_card * max(hand.values(), default=0)
    fields = [
        {**_number(f"bet.{h}", f"Chips on {h}", 0, most), "value": str(bets.get(h, 0))}
        for h in horses
    ]
    for field in fields:
        field["group"] = "Bets"
    if fields:
        fields[0]["help"] = (
            f"Horses you saw on space {space.get('space')} last round. You have "
            f"{you.get('chips')} chips and may bet at most {you.get('chip_limit')} in all this "
            "round (more if this round's utility raises it); betting more voids every order."
        )
    return fields


# --- reading the form ------------------------------------------------------------


def _one(form: Form, name: str) -> str:
    values = form.get(name) or [""]
    return values[0].strip()


def _number_or_text(text: str) -> Any:
    digits = text[1:] if text[:1] in "+-" else text
    if digits.isdecimal() and len(digits) <= DIGITS:
        return int(text)
    return text


def _ability(form: Form, kind: str) -> dict[str, Any]:
    given: dict[str, Any] = {"kind": kind}
    if kind not in KINDS:
        return given  # stays as sent: the rules name the kinds they take
    prefix = f"{kind}."
    for key in sorted(k for k in form if k.startswith(prefix)):
        _read(given, key[len(prefix) :].split("."), form[key])
    return given


def _read(given: dict[str, Any], parts: list[str], values: list[str]) -> None:
    """One form field into the ability: cards chosen, copies of a card, or a guess."""
    values = [v.strip() for v in values if v.strip()]
    if not values:
        return
    if parts[0] == "guess" and len(parts) == 3:
        ahead = _number_or_text(values[0])
        given.setdefault("guesses", []).append({"horse": parts[1], "ahead": ahead})
        return
    field = parts[0]
    if isinstance(given.get(field), str):
        return  # already a value that did not parse: it stays as sent
    if len(parts) == 1:
        given.setdefault(field, []).extend(values)
        return
    copies = _number_or_text(values[0])
    if not isinstance(copies, int) or copies < 0:
        given[field] = values[0]  # stays as sent: the rules refuse it
    elif copies:
        given.setdefault(field, []).extend([parts[1]] * copies)


def _bets(form: Form) -> dict[str, Any]:
    bets = {}
    for key in sorted(k for k in form if k.startswith("bet.")):
        text = _one(form, key)
        if text not in ("", "0"):
            bets[key[len("bet.") :]] = _number_or_text(text)
    return bets
