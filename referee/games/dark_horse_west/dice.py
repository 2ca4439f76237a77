"""Dice on the action board: what each action asks of the dice, which spots are open to
a seat, and every placement a seat may make (the Placement Phase's legal moves).

A spot is an action, and for Produce Resources a row (food, wood, ore) and an icon
("two", "three", "plus"). A placement puts one or more of the seat's unplaced dice on a
spot, with at most one modifier: a Wild Die token's +/-1 (`wild`), an Engineer token
changing one die to any value (`engineer`), or (Dealer) a +/-1 move. `share` spends an
Engineer token to join a limited action another player (or a Ghost die) holds.
"""

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations
from typing import Any

from . import table, versions
from .data import ACTIONS, BOARD, PRODUCE_PLUS, PRODUCE_SLOTS, RESOURCES, gun_actions

State = dict[str, Any]
Command = dict[str, Any]
FACES = range(1, 7)
GUN_TRACK = frozenset(a for n in range(2, 13) for a in gun_actions(n))  # actions 2-12
NEEDS_TOTAL = ("at_least", "sum", "plus")  # the needs a +/-1 may help


def unplaced(state: State, seat: int) -> list[dict[str, Any]]:
    """The seat's dice not yet placed this Placement Phase."""
    return [d for d in state["dice"][seat] if d["placed"] is None]


def need_of(state: State, seat: int, action: str, slot: str | None) -> dict[str, Any]:
    """What an action (or a Produce Resources icon) asks of the dice."""
    if action == "produce" and slot == "plus":
        low = 3 if table.has(state, seat, "produce_three_plus") else PRODUCE_PLUS
        return {"type": "plus", "value": low}
    if action == "character":
        return {"type": "any"}
    need: dict[str, Any] = ACTIONS[action]["need"]
    if need["type"] == "restricted" and versions.since(state, versions.RESTRICTED_AS_ROLLED):
        return {**need, "as_rolled": True}
    return need


def fit_problem(need: dict[str, Any], dice: list[dict[str, Any]], delta: int) -> str | None:
    """Why these dice (values as they now show) with a +/-1 `delta` do not meet a need,
    or None when they do."""
    values = [d["value"] for d in dice]
    flipped = any(d.get("flipped") for d in dice)
    if flipped and (len(dice) > 1 or delta):
        return "a flipped Deputy die is used by itself and cannot be changed"
    kind = need["type"]
    if delta and kind not in NEEDS_TOTAL:
        return "this action takes no +/-1 (a natural roll, any die, or a restricted action)"
    if kind in ("any", "at_least", "plus", "natural") and len(dice) != 1:
        return "this action takes a single die"
    if kind in ("at_least", "plus") and values[0] + delta < need["value"]:
        return f"this action takes a die of {need['value']} or more"
    if kind == "natural" and values[0] != need["value"]:
        return f"this action takes a natural {need['value']}"
    if kind == "pioneer" and (len(dice) != 2 or 1 not in values):
        return "Pioneer takes a natural 1 and one other die"
    if kind == "sum" and sum(values) + delta not in need["values"]:
        return f"the dice must total {' or '.join(map(str, need['values']))}"
    if kind == "restricted":
        return _restricted_problem(need, dice)
    return None


def fits(need: dict[str, Any], dice: list[dict[str, Any]], delta: int) -> bool:
    """Whether dice meet a need: `fit_problem` is None, without wording the reason (the
    legal moves ask this thousands of times a turn)."""
    kind, count = need["type"], len(dice)
    if (count > 1 or delta) and any(d.get("flipped") for d in dice):
        return False
    if delta and kind not in NEEDS_TOTAL:
        return False
    if kind in SINGLE:
        if count != 1:
            return False
        value = dice[0]["value"]
        if kind == "natural":
            return bool(value == need["value"])
        return kind == "any" or value + delta >= need["value"]
    if kind == "sum":
        return sum(d["value"] for d in dice) + delta in need["values"]
    if kind == "pioneer":
        return count == 2 and any(d["value"] == 1 for d in dice)
    if kind == "restricted":
        return _restricted_problem(need, dice) is None
    return True


SINGLE = frozenset({"any", "at_least", "plus", "natural"})


def _restricted_problem(need: dict[str, Any], dice: list[dict[str, Any]]) -> str | None:
    """No modifier of any sort: neither an Engineer token's die nor (`as_rolled`, from
    1.1.0) a die re-rolled by a Wild Die token or a card."""
    if not 2 <= len(dice) <= 3 or sum(d["value"] for d in dice) != need["value"]:
        return f"a restricted action takes two or three dice totalling exactly {need['value']}"
    if any(d.get("engineered") for d in dice):
        return "a die changed by an Engineer token cannot claim a restricted action"
    if need.get("as_rolled") and any(d.get("touched") for d in dice):
        return "a die re-rolled by a Wild Die token or a card cannot claim a restricted action"
    return None


def occupants(state: State, action: str, row: str | None, slot: str | None) -> list[Any]:
    """Who holds dice on a spot: seats, and None for a Ghost die."""
    return [
        p["seat"]
        for p in state["placements"]
        if p["action"] == action and p.get("row") == row and p.get("slot") == slot
    ]


def places(state: State, action: str) -> int:
    """How many players may use a limited action (two on some actions at four players)."""
    if state["seats"] == 4:
        return int(ACTIONS[action].get("four_player_places", 1))
    return 1


def gun_blocked(state: State, seat: int, action: str) -> bool:
    """Gunslinger: the other player's pawn stands on the action (both pawns block both)."""
    pawns = state["pawns"]
    if not pawns or action not in GUN_TRACK:
        return False
    return any(action in gun_actions(pos) for s, pos in enumerate(pawns) if s != seat)


def spot_problem(
    state: State, seat: int, action: str, row: str | None, slot: str | None, share: bool
) -> str | None:
    """Why a spot is not open to the seat now (with `share`: by an Engineer token), or
    None when it is."""
    mine = [p for p in state["placements"] if p["seat"] == seat and p["action"] == action]
    return _spot_problem(state, seat, action, row, slot, share, mine)


def _spot_problem(
    state: State,
    seat: int,
    action: str,
    row: str | None,
    slot: str | None,
    share: bool,
    mine: list[Any],
) -> str | None:
    """spot_problem, given the seat's placements on the action (`mine`)."""
    kind = "character" if action == "character" else ACTIONS[action]["kind"]
    if state["solitaire"] and action == "turn_order":
        return "Turn Order is off limits in Solitaire"
    if action == "produce":
        return _produce_problem(state, seat, row, slot, mine, share)
    if mine:
        return "you already have dice on this action (each action is collected once)"
    if action == "character":
        return _character_problem(state, seat, share)
    if kind == "unlimited":
        return "an unlimited action is not shared with a token" if share else None
    if gun_blocked(state, seat, action):
        return "the other player's Gunslinger pawn blocks this action"
    full = len(occupants(state, action, None, None)) >= places(state, action)
    if not full:
        return "the action is free: no Engineer token is needed" if share else None
    if kind == "restricted":
        return "a restricted action is taken and cannot be shared"
    if not share:
        return "the action is taken (an Engineer token may share it)"
    return token_problem(state, seat, "engineer")


def _produce_problem(
    state: State, seat: int, row: str | None, slot: str | None, mine: list[Any], share: bool
) -> str | None:
    if row not in RESOURCES or slot not in PRODUCE_SLOTS[str(state["seats"])]:
        return "Produce Resources takes a row (food, wood, ore) and an icon in use"
    if share:
        return "Produce Resources icons are reserved and not shared"
    if any(p.get("row") == row for p in mine):
        return "you already have a die in this resource row"
    if occupants(state, "produce", row, slot):
        return "this icon is taken"
    return None


def _character_problem(state: State, seat: int, share: bool) -> str | None:
    if share:
        return "a character card is not shared"
    if not any(table.has(state, seat, a) for a in ("merchant_trade", "homestead")):
        return "your character takes no die"
    return None


def token_problem(state: State, seat: int, token: str) -> str | None:
    if state["goods"][seat][token] < 1:
        return f"you hold no {token} token"
    if state["used"][seat][token]:
        return f"you have used a {token} token this turn (one of each type per turn)"
    return None


def placement_problem(state: State, seat: int, cmd: Command) -> str | None:
    """Why a `place` command cannot be played (dice already checked to be the seat's
    and unplaced), or None."""
    action, row, slot = cmd["action"], cmd.get("row"), cmd.get("slot")
    share = bool(cmd.get("share"))
    problem = spot_problem(state, seat, action, row, slot, share)
    if problem:
        return problem
    dice = [dict(state["dice"][seat][i]) for i in cmd["dice"]]
    delta = cmd.get("wild", 0)
    if delta:
        problem = token_problem(state, seat, "wild")
    if cmd.get("engineer"):
        problem = problem or _engineer_problem(state, seat, cmd, dice, share)
    if problem:
        return problem
    return fit_problem(need_of(state, seat, action, slot), dice, delta)


def _engineer_problem(
    state: State, seat: int, cmd: Command, dice: list[dict[str, Any]], share: bool
) -> str | None:
    change = cmd["engineer"]
    if share:
        return "one Engineer token a turn: it cannot both share and change a die"
    if change["die"] not in cmd["dice"]:
        return "the Engineer token changes one of the dice being placed"
    if cmd["action"] in ("mayor", "sheriff", "character"):
        return "the Engineer token claims board actions, never restricted ones"
    if cmd.get("wild"):
        return "one modifier per placement"
    die = dice[cmd["dice"].index(change["die"])]
    if die.get("flipped"):
        return "a flipped Deputy die cannot be changed"
    die.update(value=change["value"], engineered=True)
    return token_problem(state, seat, "engineer")


def spots(state: State) -> list[tuple[str, str | None, str | None]]:
    """Every spot of the board a die may go on, in board order."""
    return list(_spots(state["seats"]))


@lru_cache(maxsize=8)  # one board per number of seats
def _spots(seats: int) -> tuple[tuple[str, str | None, str | None], ...]:
    out: list[tuple[str, str | None, str | None]] = []
    for action in BOARD:
        if action == "produce":
            out += [("produce", r, s) for r in RESOURCES for s in PRODUCE_SLOTS[str(seats)]]
        elif action != "dealer":
            out.append((action, None, None))
    return (*out, ("character", None, None))


def subsets(dice: list[dict[str, Any]]) -> list[list[int]]:
    """Every non-empty group of dice ids, smallest groups first."""
    ids = [d["id"] for d in dice]
    return [list(c) for n in range(1, len(ids) + 1) for c in combinations(ids, n)]


def placements(state: State, seat: int) -> list[Command]:
    """Every `place` command the seat may send now: one command per distinct outcome
    (an Engineer token sets a die to the value the action needs, not to every value
    that would do), and a token only where the dice do not fit without it."""
    return list(each_placement(state, seat))


def each_placement(state: State, seat: int) -> Iterator[Command]:
    groups = subsets(unplaced(state, seat))
    mine: dict[str, list[Any]] = {}  # the seat's placements by action, scanned once
    for p in state["placements"]:
        if p["seat"] == seat:
            mine.setdefault(p["action"], []).append(p)
    for action, row, slot in _spots(state["seats"]):
        where = {"action": action, **({"row": row, "slot": slot} if row else {})}
        need = need_of(state, seat, action, slot)
        for share in (False, True):
            if _spot_problem(state, seat, action, row, slot, share, mine.get(action, [])):
                continue
            extra = {"share": True} if share else {}
            for group in _sized(groups, need):
                base = {"type": "place", **where, "dice": group, **extra}
                yield from _variants(state, seat, need, base)


# how many dice each kind of need takes (no modifier changes the count; a need not named
# here, a total, takes any number)
DICE_TAKEN: dict[str, tuple[int, ...]] = {
    "any": (1,),
    "at_least": (1,),
    "plus": (1,),
    "natural": (1,),
    "pioneer": (2,),
    "restricted": (2, 3),
}


def _sized(groups: list[list[int]], need: dict[str, Any]) -> list[list[int]]:
    """The groups of dice with as many dice as the need can take (in the same order)."""
    counts = DICE_TAKEN.get(need["type"])
    return groups if counts is None else [g for g in groups if len(g) in counts]


def _variants(state: State, seat: int, need: dict[str, Any], cmd: Command) -> Iterator[Command]:
    dice = [state["dice"][seat][i] for i in cmd["dice"]]
    if fits(need, dice, 0):
        yield cmd
        return
    if need["type"] in NEEDS_TOTAL and not token_problem(state, seat, "wild"):
        yield from ({**cmd, "wild": delta} for delta in (1, -1) if fits(need, dice, delta))
    if cmd.get("share") or need["type"] in ("restricted", "any") or cmd["action"] == "character":
        return
    if token_problem(state, seat, "engineer"):
        return
    for index, die in enumerate(dice):
        for value in _wanted_values(need, dice, index):
            changed = [
                *dice[:index],
                {**die, "value": value, "engineered": True},
                *dice[index + 1 :],
            ]
            if value != die["value"] and not die.get("flipped") and fits(need, changed, 0):
                yield {**cmd, "engineer": {"die": die["id"], "value": value}}


def _wanted_values(need: dict[str, Any], dice: list[dict[str, Any]], index: int) -> list[int]:
    """The values an Engineer token may give die `index` so the dice meet the need."""
    kind = need["type"]
    if kind in ("at_least", "plus"):
        return [need["value"]] if need["value"] <= 6 else []
    if kind == "natural":
        return [need["value"]]
    if kind == "pioneer":
        return [1]
    rest = sum(d["value"] for i, d in enumerate(dice) if i != index)
    return [v - rest for v in need.get("values", []) if 1 <= v - rest <= 6]


def total(state: State, seat: int, dice: list[int]) -> int:
    """What the dice show together."""
    return sum(state["dice"][seat][i]["value"] for i in dice)
