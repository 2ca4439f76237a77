"""Playing action cards: one per game turn, just before or after one of your collections
(a placement card on your placement turn), its checks and its effect. The cards come
from the deck (cards.py); an effect that is an action's does what the action does
(collection.py, placement.py)."""

from collections.abc import Callable
from itertools import combinations
from typing import Any

from ...engine.errors import BadRequest, RuleViolation
from ...engine.events import Event, event
from ...engine.rng import Rng
from .. import _checks
from . import table, versions
from .cards import rails_due
from .collection import bonus_die, build_town, looked, politics_gain, sheriff
from .data import CARDS, RESOURCES, card_type
from .placement import rolled_again
from .tokens import chosen

State = dict[str, Any]
Command = dict[str, Any]


def play_card(state: State, seat: int, cmd: Command, rng: Rng, *, placing: bool) -> list[Event]:
    """CardPlayed and its effect, after the checks: the card is in hand, its timing fits,
    no other card this game turn, its target may be targeted, its penalty can be paid."""
    card = cmd.get("card")
    if not isinstance(card, str) or card not in state["hands"][seat]:
        raise RuleViolation("rule/card_not_held", "you hold no such card", {"field": "card"})
    if state["used"][seat]["card"]:
        raise RuleViolation("rule/card_played", "one action card per game turn")
    data = CARDS[card_type(card)]
    if ("placement" in data["icons"]) != placing:
        when = "on your placement turn" if placing else "in your collection window"
        raise RuleViolation(
            "rule/card_timing", f"this card is not played {when}", {"field": "card"}
        )
    _only_fields(cmd, _FIELDS[data["effect"]])
    return _EFFECTS[data["effect"]](state, seat, card, cmd, rng)


def _only_fields(cmd: Command, allowed: tuple[str, ...]) -> None:
    extra = sorted(set(cmd) - {"type", "card", *allowed})
    if extra:
        raise BadRequest("command/invalid", f"this card takes no {extra[0]!r}", {"field": extra[0]})


def played(seat: int, card: str, change: dict[str, int] | None = None, **details: Any) -> Event:
    """The public CardPlayed event."""
    payload = {"seat": seat, "card": card, **details}
    if change:
        payload["change"] = table.combined(change)
    return event("CardPlayed", payload)


def _free_rail(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    if not table.rail_sites(state, seat):
        raise RuleViolation("rule/rail_site", "there is no edge where you may lay a rail")
    return [played(seat, card), rails_due(seat, 1, "entrepreneur")]


def _election(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    return [played(seat, card, politics_gain(state, seat, cmd))]


def _marshal_dylan(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    return [played(seat, card), *sheriff(state, seat, cmd)]


def target_of(state: State, seat: int, cmd: Command) -> int:
    """The other seat a card aims at, never the Sheriff (sheriff-immune icon)."""
    target = cmd.get("target")
    if not _checks.is_int(target) or not 0 <= target < state["seats"] or target == seat:
        raise BadRequest("command/invalid", "target must be another seat", {"field": "target"})
    if state["roles"]["sheriff"] == target:
        raise RuleViolation(
            "rule/sheriff_immune",
            "the Sheriff cannot be targeted by this card",
            {"field": "target"},
        )
    return int(target)


def _claim_jump(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    h = cmd.get("hex")
    owner = state["towns"].get(h) if isinstance(h, str) else None
    if owner is None or owner == seat or h not in table.access(state, seat):
        raise RuleViolation(
            "rule/claim",
            "claim another player's town on a hex you have access to",
            {"field": "hex"},
        )
    target_of(state, seat, {"target": owner})
    if table.towns_left(state, seat) < 1:
        raise RuleViolation("rule/no_town_left", "all six of your towns are built")
    return [
        played(seat, card, target=owner, hex=h),
        event("TownReturned", {"seat": owner, "hex": h}),
        event("TownPlaced", {"seat": seat, "hex": h}),
        jailed(seat, 1),
    ]


def jailed(seat: int, dice: int) -> Event:
    """Jailed: the seat loses its roles now and dice next Placement Phase (2+: all)."""
    return event("Jailed", {"seat": seat, "dice": dice})


def _switch(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    target = target_of(state, seat, cmd)
    order = list(state["order"])
    a, b = order.index(seat), order.index(target)
    order[a], order[b] = order[b], order[a]
    return [
        played(seat, card, target=target),
        event("TurnOrderChanged", {"order": order, "why": "ol_switcheroo", "seat": seat}),
    ]


def _influence_loss(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    target = target_of(state, seat, cmd)
    have = state["goods"][target]["influence"]
    if have < 1:
        raise RuleViolation("rule/no_influence", "that player has no influence to lose")
    lost = min(have, CARDS[card_type(card)]["amount"])
    return [
        played(seat, card, target=target),
        event("InfluenceLost", {"seat": target, "change": {"influence": -lost}, "card": card}),
        corruption(state, seat),
    ]


def corruption(state: State, seat: int) -> Event:
    """The corruption icon: the user to last in turn order (The Politician: one down)."""
    order = table.corrupted(state, seat)
    return event("TurnOrderChanged", {"order": order, "why": "corruption", "seat": seat})


def _land_grant(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    h = cmd.get("hex")
    return build_town(state, seat, h, lambda change: played(seat, card, change, hex=h), free=True)


def _supply_wagon(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    return [played(seat, card, chosen(cmd.get("take"), 2, "take"))]


def _foreman(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    resource = cmd.get("resource")
    if resource not in table.produced_types(state, seat):
        raise RuleViolation(
            "rule/no_town_there", "produce a resource you have towns on", {"field": "resource"}
        )
    return [played(seat, card, {resource: table.towns_on(state, seat, resource)})]


def _surveyor(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    hexes_ = cmd.get("hexes")
    if (
        not isinstance(hexes_, list)
        or not all(isinstance(h, str) for h in hexes_)
        or not 1 <= len(hexes_) <= 2
        or len(set(hexes_)) != len(hexes_)
    ):
        raise BadRequest("command/invalid", "hexes must list one or two hexes", {"field": "hexes"})
    looks = [looked(state, seat, h, "hexes") for h in sorted(hexes_)]
    if versions.since(state, versions.SURVEYOR_TWO) and len(hexes_) != surveyor_looks(state):
        raise RuleViolation(
            "rule/look_two",
            "Surveyor looks at two face-down hexes (the only one, when one is left)",
            {"field": "hexes", "count": surveyor_looks(state)},
        )
    return [played(seat, card, hexes=sorted(hexes_)), *looks]


def surveyor_looks(state: State) -> int:
    """How many face-down hexes Surveyor looks at (from 1.1.0; 1.0.0 games: one or two,
    as the player chose): two, as its card says, or the only one left."""
    return min(2, len(table.face_down(state)))


def _stagecoach(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    return [played(seat, card), *bonus_die(state, seat)]


def _lucky_break(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    die = cmd.get("die")
    mine = [d["id"] for d in state["dice"][seat] if d["placed"] is None]
    if not _checks.is_int(die) or die not in mine:
        raise RuleViolation(
            "rule/die_placed", "re-roll one of your unplaced dice", {"field": "die"}
        )
    return [played(seat, card), rolled_again(state, seat, [die], rng, "lucky_break", {})]


def _train_robbery(state: State, seat: int, card: str, cmd: Command, rng: Rng) -> list[Event]:
    return [played(seat, card, {"gold": 2}), corruption(state, seat), jailed(seat, 3)]


_EFFECTS: dict[str, Callable[[State, int, str, Command, Rng], list[Event]]] = {
    "free_rail": _free_rail,
    "politics": _election,
    "sheriff": _marshal_dylan,
    "claim_jump": _claim_jump,
    "switch_places": _switch,
    "influence_loss": _influence_loss,
    "free_town": _land_grant,
    "take_resources": _supply_wagon,
    "produce_one": _foreman,
    "look_two": _surveyor,
    "bonus_die": _stagecoach,
    "reroll_one": _lucky_break,
    "take_gold": _train_robbery,
}
_FIELDS: dict[str, tuple[str, ...]] = {
    "free_rail": (),
    "politics": ("pay",),
    "sheriff": ("remove_event",),
    "claim_jump": ("hex",),
    "switch_places": ("target",),
    "influence_loss": ("target",),
    "free_town": ("hex",),
    "take_resources": ("take",),
    "produce_one": ("resource",),
    "look_two": ("hexes",),
    "bonus_die": (),
    "reroll_one": ("die",),
    "take_gold": (),
}


def card_commands(state: State, seat: int, *, placing: bool) -> list[Command]:
    """Every play_card the seat may send now."""
    if state["used"][seat]["card"]:
        return []
    out = []
    for card in sorted(set(state["hands"][seat])):
        data = CARDS[card_type(card)]
        if ("placement" in data["icons"]) != placing:
            continue
        for fields in _CHOICES[data["effect"]](state, seat):
            cmd = {"type": "play_card", "card": card, **fields}
            if _accepted(state, seat, cmd, placing):
                out.append(cmd)
    return out


def _accepted(state: State, seat: int, cmd: Command, placing: bool) -> bool:
    try:
        play_card(state, seat, cmd, Rng("legal"), placing=placing)
    except (RuleViolation, BadRequest):
        return False
    return True


def _targets(state: State, seat: int) -> list[Command]:
    return [{"target": s} for s in range(state["seats"]) if s != seat]


def _looks(state: State, seat: int) -> list[Command]:
    """Surveyor's looks that show the seat at least one tile it does not see yet."""
    down = table.face_down(state)
    unseen = [h for h in down if h not in table.visible_to(state, seat)]
    if not versions.since(state, versions.SURVEYOR_TWO):
        return [{"hexes": list(pair)} for n in (1, 2) for pair in combinations(unseen, n)]
    looks = combinations(down, surveyor_looks(state))
    return [{"hexes": list(look)} for look in looks if set(look) & set(unseen)]


_CHOICES: dict[str, Callable[[State, int], list[Command]]] = {
    "free_rail": lambda s, seat: [{}],
    "politics": lambda s, seat: [{"pay": p} for p in table.payments(s, seat, 1)] + [{}],
    "sheriff": lambda s, seat: [{}] + [{"remove_event": c} for c in s["events"]],
    "claim_jump": lambda s, seat: [{"hex": h} for h in sorted(s["towns"])],
    "switch_places": _targets,
    "influence_loss": _targets,
    "free_town": lambda s, seat: [{"hex": h} for h in table.town_sites(s, seat)],
    "take_resources": lambda s, seat: [{"take": t} for t in table.choices(2)],
    "produce_one": lambda s, seat: [{"resource": r} for r in RESOURCES],
    "look_two": _looks,
    "bonus_die": lambda s, seat: [{}],
    "reroll_one": lambda s, seat: [{"die": d["id"]} for d in s["dice"][seat]],
    "take_gold": lambda s, seat: [{}],
}
