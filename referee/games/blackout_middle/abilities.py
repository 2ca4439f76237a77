"""Whether an ability fits its round and the hand: the card rules of each round's clue and
utility ability, read from the data file, and the cards it takes and gives at once.

A field's rules in the data file (`fields`): `min` and `max` cards (or guesses);
`identical` (all one horse) or `distinct` (no horse twice); `most_copies` of one horse;
`within` another field (every card of it is one of that field's, copies counted);
`count_of` / `half_of` another field (as many cards, or half rounded down). Immediate
effects: `cards_per_chip` raises the chip limit by used cards // that number (Rounds 2 and
8, this round included); `chips_per_card` adds chips to bet this round (Round 9).
"""

from typing import Any

from .data import HORSES, UTILITY, ability

Counts = dict[str, int]
WATCH = (3, UTILITY)  # Round 3's utility: chips on the selected horses, delivered later
HELD_FIELDS = ("use", "select")  # gain names cards to receive, not to hold


class Dropped(Exception):
    """A part of the orders the rules drop: which part, the rule's short code, why."""

    def __init__(self, part: str, rule: str, message: str) -> None:
        super().__init__(message)
        self.part, self.rule, self.message = part, rule, message

    def as_record(self) -> dict[str, str]:
        """The {part, rule, message} a judgement records."""
        return {"part": self.part, "rule": self.rule, "message": self.message}


def counts(cards: list[str]) -> Counts:
    """How many copies of each horse a list of cards holds."""
    tally: Counts = {}
    for card in cards:
        tally[card] = tally.get(card, 0) + 1
    return tally


def no_effects() -> dict[str, Any]:
    """The immediate effects of orders that use no ability."""
    return {"cards_used": {}, "limit_raised": 0, "chips_gained": 0, "watch": []}


def card_lists(given: dict[str, Any]) -> dict[str, list[str]]:
    """Each field of an ability as a list of horse letters (a guess counts its horse)."""
    lists = {field: given[field] for field in (*HELD_FIELDS, "gain") if field in given}
    if "guesses" in given:
        lists["guesses"] = [guess["horse"] for guess in given["guesses"]]
    return lists


def judged_ability(
    round_number: int, given: dict[str, Any], hand: Counts, *, on_offer: Counts | None = None
) -> dict[str, Any]:
    """The immediate effects of an ability that fits its round and the hand (the cards not
    on offer in a trade; `on_offer` names those for the message), else Dropped."""
    kind = given["kind"]
    spec = ability(round_number, kind)
    name = f"Round {round_number}'s {kind} ability"
    lists = card_lists(given)
    _fitting_fields(spec, given, name)
    for field, rules in spec["fields"].items():
        _check_field(field, rules, lists, name)
    _check_guesses(spec, given, name)
    used = counts(lists.get("guesses", lists.get("use", [])))
    _check_held(_needed(lists), hand, on_offer or {})
    return _effects(round_number, kind, spec, used, lists)


def _fitting_fields(spec: dict[str, Any], given: dict[str, Any], name: str) -> None:
    extra = sorted(set(given) - {"kind"} - set(spec["fields"]))
    if extra:
        takes = ", ".join(spec["fields"])
        message = f"ability.{extra[0]} does not fit {name}, which takes {takes}"
        raise Dropped("ability", "wrong_fields", message)


def _check_field(field: str, rules: dict[str, Any], lists: dict[str, list[str]], name: str) -> None:
    """One field's rules, in a fixed order: present, horses, size, copies, relations."""
    if field not in lists and rules["min"] > 0:
        raise Dropped("ability", "incomplete", f"ability.{field} is missing: {name} needs it")
    cards = lists.get(field, [])
    strangers = [card for card in cards if card not in HORSES]
    if strangers:
        message = f"ability.{field}: {strangers[0]!r} is no horse (A-I)"
        raise Dropped("ability", "not_a_horse", message)
    _check_size(field, rules, cards, name)
    _check_copies(field, rules, cards, name)
    _check_relations(field, rules, lists, name)


def _check_size(field: str, rules: dict[str, Any], cards: list[str], name: str) -> None:
    low, high = rules["min"], rules.get("max")
    if len(cards) < low:
        message = f"ability.{field}: {name} needs at least {low} card(s)"
        raise Dropped("ability", "incomplete", message)
    if high is not None and len(cards) > high:
        message = f"ability.{field}: {name} takes at most {high} card(s), not {len(cards)}"
        raise Dropped("ability", "too_many_cards", message)


def _check_copies(field: str, rules: dict[str, Any], cards: list[str], name: str) -> None:
    tally = counts(cards)
    if rules.get("identical") and len(tally) > 1:
        message = f"ability.{field}: {name} takes identical cards only"
        raise Dropped("ability", "not_identical", message)
    if rules.get("distinct") and any(n > 1 for n in tally.values()):
        message = f"ability.{field}: {name} takes distinct cards only (no horse twice)"
        raise Dropped("ability", "not_distinct", message)
    most = rules.get("most_copies")
    if most is not None and any(n > most for n in tally.values()):
        message = f"ability.{field}: {name} takes at most {most} copies of a card"
        raise Dropped("ability", "too_many_copies", message)


def _check_relations(
    field: str, rules: dict[str, Any], lists: dict[str, list[str]], name: str
) -> None:
    cards = lists.get(field, [])
    if "within" in rules:
        outer = counts(lists.get(rules["within"], []))
        if any(n > outer.get(h, 0) for h, n in counts(cards).items()):
            message = f"ability.{field}: every card must be one of ability.{rules['within']}"
            raise Dropped("ability", "not_within", message)
    for relation, wanted in (
        ("count_of", len(lists.get(rules.get("count_of", ""), []))),
        ("half_of", len(lists.get(rules.get("half_of", ""), [])) // 2),
    ):
        if relation in rules and len(cards) != wanted:
            message = f"ability.{field}: {name} needs exactly {wanted} card(s) here"
            raise Dropped("ability", "wrong_count", message)


def _check_guesses(spec: dict[str, Any], given: dict[str, Any], name: str) -> None:
    if "ahead" not in spec:
        return
    low, high = spec["ahead"]
    for index, guess in enumerate(given.get("guesses", [])):
        if not low <= guess["ahead"] <= high:
            message = f"ability.guesses.{index}.ahead: {name} guesses {low}-{high} horses ahead"
            raise Dropped("ability", "guess_out_of_range", message)


def _needed(lists: dict[str, list[str]]) -> Counts:
    """The cards the seat must hold: per horse, the most any field selects or uses."""
    need: Counts = {}
    for field in (*HELD_FIELDS, "guesses"):
        for horse, n in counts(lists.get(field, [])).items():
            need[horse] = max(need.get(horse, 0), n)
    return need


def _check_held(need: Counts, hand: Counts, on_offer: Counts) -> None:
    for horse in sorted(need):
        if hand.get(horse, 0) < need[horse]:
            message = (
                f"ability: needs {need[horse]} {horse} card(s), the hand holds {hand.get(horse, 0)}"
            )
            if on_offer.get(horse):
                message += f" not on offer ({on_offer[horse]} more on offer in trades)"
            raise Dropped("ability", "card_not_held", message)


def _effects(
    round_number: int, kind: str, spec: dict[str, Any], used: Counts, lists: dict[str, list[str]]
) -> dict[str, Any]:
    effects = {**no_effects(), "cards_used": used}
    total = sum(used.values())
    if "cards_per_chip" in spec:
        effects["limit_raised"] = total // spec["cards_per_chip"]
    if "chips_per_card" in spec:
        effects["chips_gained"] = total * spec["chips_per_card"]
    if (round_number, kind) == WATCH:
        effects["watch"] = sorted(set(lists["select"]))
    return effects
