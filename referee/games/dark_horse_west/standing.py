"""Dark Horse West's standing choices: the routine questions a seat may answer in
advance (docs/clocks.md). Each answer reads only what every seat may know (the action,
public goods and tokens, the pawns), never the seat's hand, so an answer made for a seat
tells the others nothing they could not see."""

from typing import Any

from . import collection, placement, windows

State = dict[str, Any]
Command = dict[str, Any]

STANDING_CHOICES = {
    "collect_free": "Always collect an action that leaves nothing to choose "
    "(Turn Order, Produce Resources, Hired Hand, Engineer, Broker).",
    "skip_card_window": "After collecting, do not stop for my action cards: I play them "
    "only before collecting.",
    "skip_extras": "Do not stop for loans, stock or abilities after collecting or when the "
    "Collection Phase ends (the last one of the game still stops).",
    "gunslinger_only_way": "Move the Gunslinger when it can go only one way.",
}


def standing_answer(state: State, seat: int, choices: list[str]) -> tuple[str, Command] | None:
    """(the choice, the command) that answers the seat's question now, if one does."""
    step = state["step"]
    if state["task"] or step.get("seat") != seat:
        return None
    kind = step["kind"]
    if kind == "collect" and not step.get("collected") and "collect_free" in choices:
        free = collection.current(state)["action"] in windows.FREE_ACTIONS
        if free and {"type": "collect"} in collection.collect_commands(state, seat):
            return "collect_free", {"type": "collect"}
    if kind == "collect" and step.get("collected"):
        cards = "skip_card_window" in choices or not windows.card_window(state, seat)
        extras = "skip_extras" in choices or not windows.anytime_open(state, seat)
        if cards and extras:
            said = "skip_card_window" if "skip_card_window" in choices else "skip_extras"
            return said, {"type": "pass"}
    if kind == "settle" and not step["final"] and "skip_extras" in choices:
        return "skip_extras", {"type": "pass"}
    if kind == "gunslinger" and "gunslinger_only_way" in choices:
        ways = list(placement.gun_targets(state, seat))
        if len(ways) == 1:
            return "gunslinger_only_way", {"type": "move_gunslinger", "direction": ways[0]}
    return None
