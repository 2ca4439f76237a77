"""The Placement Phase: placing dice, the Dealer (a +/-1 move or a loan, resolved at
once), the Wild Die token's re-roll, the Deputy die's flip and the Gunslinger pawns.

One placement (or Dealer) per turn, in turn order, until nobody can place; a re-roll or a
flip does not end the turn.
"""

from typing import Any

from ...engine.errors import BadRequest, RuleViolation
from ...engine.events import Event, event
from ...engine.rng import Rng
from .. import _checks
from . import dice as dc
from . import table
from .data import ACTIONS, GUN_HIGH, GUN_LOW
from .tokens import chosen

State = dict[str, Any]
Command = dict[str, Any]


def place(state: State, seat: int, cmd: Command) -> list[Event]:
    """DicePlaced, once the dice are the seat's own and unplaced and the spot takes them."""
    where = _spot(cmd)
    chosen = _own_dice(state, seat, cmd.get("dice"))
    placed = {**where, "dice": chosen, "type": "place"}
    for key in ("wild", "engineer", "share"):
        if cmd.get(key) not in (None, False, 0):
            placed[key] = _modifier(key, cmd[key], chosen)
    problem = dc.placement_problem(state, seat, placed)
    if problem:
        raise RuleViolation("rule/placement_refused", problem, {"field": "action"})
    return [_placed(state, seat, placed)]


def _placed(state: State, seat: int, cmd: Command, via: str | None = None) -> Event:
    dice = cmd["dice"]
    values = [state["dice"][seat][i]["value"] for i in dice]
    if cmd.get("engineer"):
        values[dice.index(cmd["engineer"]["die"])] = cmd["engineer"]["value"]
    delta = cmd.get("wild", 0) or cmd.get("delta", 0)
    payload: dict[str, Any] = {"seat": seat, "action": cmd["action"], "dice": dice}
    payload["total"] = sum(values) + delta
    for key in ("row", "slot", "engineer", "share"):
        if cmd.get(key):
            payload[key] = cmd[key]
    if cmd.get("wild"):
        payload.update(modifier="wild", delta=cmd["wild"])
    spent = {"wild": 1 if cmd.get("wild") else 0}
    spent["engineer"] = 1 if cmd.get("engineer") or cmd.get("share") else 0
    if any(spent.values()):
        payload["change"] = table.negative(spent)
    if via:
        payload.update(via=via, delta=cmd["delta"])
    if cmd["action"] == "turn_order":
        payload["rank"] = free_slot(state)
    return event("DicePlaced", payload)


def free_slot(state: State) -> int:
    """The first free 3+ slot beside Turn Order, closest to the top (a slot a Dealer
    emptied is free again)."""
    taken = {p["rank"] for p in state["placements"] if p["action"] == "turn_order"}
    return next(rank for rank in range(1, len(taken) + 2) if rank not in taken)


def _spot(cmd: Command) -> dict[str, Any]:
    action = cmd.get("action")
    if not isinstance(action, str) or action not in (*ACTIONS, "character") or action == "dealer":
        raise BadRequest(
            "command/invalid",
            "action must be an action space (Dealer has its own command) or character",
            {"field": "action"},
        )
    if action != "produce":
        if cmd.get("row") is not None or cmd.get("slot") is not None:
            raise BadRequest("command/invalid", "row and slot are for produce", {"field": "row"})
        return {"action": action}
    return {"action": action, "row": cmd.get("row"), "slot": cmd.get("slot")}


def _own_dice(state: State, seat: int, dice: Any, *, field: str = "dice") -> list[int]:
    count = len(state["dice"][seat])
    if (
        not isinstance(dice, list)
        or not dice
        or not all(_checks.is_int(d) and 0 <= d < count for d in dice)
        or len(set(dice)) != len(dice)
    ):
        raise BadRequest(
            "command/invalid",
            f"{field} must list distinct ids of your dice (0-{count - 1})",
            {"field": field},
        )
    if any(state["dice"][seat][d]["placed"] for d in dice):
        raise RuleViolation(
            "rule/die_placed", "a die in that list is already placed", {"field": field}
        )
    return sorted(dice)


def _modifier(key: str, value: Any, dice: list[int]) -> Any:
    if key == "wild" and (not _checks.is_int(value) or value not in (1, -1)):
        raise BadRequest("command/invalid", "wild must be 1 or -1", {"field": "wild"})
    if key == "share" and value is not True:
        raise BadRequest("command/invalid", "share must be true", {"field": "share"})
    if key == "engineer":
        ok = isinstance(value, dict) and sorted(value) == ["die", "value"]
        if not ok or not all(_checks.is_int(value[k]) for k in ("die", "value")):
            ok = False
        if not ok or value["value"] not in dc.FACES:
            raise BadRequest(
                "command/invalid", "engineer must be {die, value 1-6}", {"field": "engineer"}
            )
    return value


# --- Dealer ---------------------------------------------------------------------------


def dealer(state: State, seat: int, cmd: Command) -> list[Event]:
    """A die on Dealer and, at once, a +/-1 move of dice or a loan of three resources."""
    die = _own_dice(state, seat, [cmd.get("die")], field="die")[0]
    if state["used"][seat]["dealer"]:
        raise RuleViolation("rule/dealer_used", "Dealer is used once per Placement Phase")
    loan, move = cmd.get("loan"), cmd.get("move")
    if (loan is None) == (move is None):
        raise BadRequest("command/invalid", "Dealer takes either move or loan", {"field": "move"})
    if loan is not None:
        return [_loan(state, seat, die, loan)]
    return [event("DealerUsed", {"seat": seat, "die": die}), _dealer_move(state, seat, die, move)]


def _loan(state: State, seat: int, die: int, take: Any) -> Event:
    take = chosen(take, 3, "loan")
    if not table.room_for(state, seat, "loan"):
        raise RuleViolation(
            "rule/token_limit", "you hold as many loans as you have cities", {"field": "loan"}
        )
    change = table.combined({"loan": 1}, take)
    return event("DealerUsed", {"seat": seat, "die": die, "loan": take, "change": change})


def _dealer_move(state: State, seat: int, die: int, move: Any) -> Event:
    if (
        not isinstance(move, dict)
        or not _checks.is_int(move.get("delta"))
        or move["delta"] not in (1, -1)
    ):
        raise BadRequest("command/invalid", "move needs delta 1 or -1", {"field": "move"})
    spot = _spot({"action": move.get("to"), "row": move.get("row"), "slot": move.get("slot")})
    target = {**spot, "type": "place", "delta": move["delta"]}
    if move.get("share"):
        target["share"] = True
    if "placement" in move:
        return _move_placed(state, seat, die, move["placement"], target)
    dice = _own_dice(state, seat, move.get("dice"), field="move.dice")
    if die in dice:
        raise RuleViolation("rule/placement_refused", "the Dealer die cannot move itself")
    _check_target(state, seat, {**target, "dice": dice}, state)
    return _placed(state, seat, {**target, "dice": dice}, via="dealer")


def _check_target(state: State, seat: int, target: Command, spot_state: State) -> None:
    need = dc.need_of(state, seat, target["action"], target.get("slot"))
    problem = dc.spot_problem(
        spot_state,
        seat,
        target["action"],
        target.get("row"),
        target.get("slot"),
        bool(target.get("share")),
    )
    if not problem and need["type"] not in dc.NEEDS_TOTAL:
        problem = "Dealer moves dice only to actions asking for a total or a die of N or more"
    dice = [state["dice"][seat][i] for i in target["dice"]]
    problem = problem or dc.fit_problem(need, dice, target["delta"])
    if problem:
        raise RuleViolation("rule/placement_refused", problem, {"field": "move"})


def _move_placed(state: State, seat: int, die: int, index: Any, target: Command) -> Event:
    mine = [
        i
        for i, p in enumerate(state["placements"])
        if p["seat"] == seat and p["action"] != "dealer"
    ]
    if not _checks.is_int(index) or index not in mine:
        raise RuleViolation(
            "rule/placement_refused",
            "move.placement must be one of your placements",
            {"field": "move.placement", "yours": mine},
        )
    moved = state["placements"][index]
    without = {**state, "placements": [p for i, p in enumerate(state["placements"]) if i != index]}
    _check_target(state, seat, {**target, "dice": moved["dice"]}, without)
    values = sum(state["dice"][seat][i]["value"] for i in moved["dice"])
    payload = {
        "seat": seat,
        "placement": index,
        "to": target["action"],
        "total": values + target["delta"],
    }
    payload.update({k: target[k] for k in ("row", "slot") if target.get(k)})
    if target["action"] == "turn_order":
        payload["rank"] = free_slot(without)
    if target.get("share"):
        payload.update(share=True, change={"engineer": -1})
    return event("DiceMoved", payload)


def dealer_moves(state: State, seat: int) -> list[Command]:
    """Every Dealer command the seat may send now."""
    if state["used"][seat]["dealer"]:
        return []
    out = []
    for die in dc.unplaced(state, seat):
        out += _loans(state, seat, die["id"]) + _moves(state, seat, die["id"])
    return out


def _loans(state: State, seat: int, die: int) -> list[Command]:
    if not table.room_for(state, seat, "loan"):
        return []
    return [{"type": "dealer", "die": die, "loan": take} for take in table.choices(3)]


def _moves(state: State, seat: int, die: int) -> list[Command]:
    out = []
    totals = [
        (spot, need)
        for spot in dc.spots(state)
        if (need := dc.need_of(state, seat, spot[0], spot[2]))["type"] in dc.NEEDS_TOTAL
    ]
    for source, dice, spot_state in _move_sources(state, seat, die):
        for (action, row, slot), need in totals:
            deltas = [d for d in (1, -1) if dc.fits(need, dice, d)]
            if not deltas:
                continue
            shares = [
                share
                for share in (False, True)
                if not dc.spot_problem(spot_state, seat, action, row, slot, share)
            ]
            where = {"to": action, **({"row": row, "slot": slot} if row else {})}
            for delta in deltas:
                for share in shares:
                    move = {**source, **where, "delta": delta, **({"share": True} if share else {})}
                    out.append({"type": "dealer", "die": die, "move": move})
    return out


def _move_sources(
    state: State, seat: int, die: int
) -> list[tuple[dict[str, Any], list[dict[str, Any]], State]]:
    """What a Dealer may move: unplaced dice (not the Dealer's own), or a placement made
    earlier (judged as if it had left its spot)."""
    own = state["dice"][seat]
    others = [d for d in dc.unplaced(state, seat) if d["id"] != die]
    sources: list[tuple[dict[str, Any], list[dict[str, Any]], State]] = [
        ({"dice": g}, [own[i] for i in g], state) for g in dc.subsets(others)
    ]
    for i, p in enumerate(state["placements"]):
        if p["seat"] == seat and p["action"] != "dealer":
            rest = [x for j, x in enumerate(state["placements"]) if j != i]
            sources.append(
                ({"placement": i}, [own[d] for d in p["dice"]], {**state, "placements": rest})
            )
    return sources


# --- Wild Die re-roll, Deputy flip -------------------------------------------------------


def reroll(state: State, seat: int, cmd: Command, rng: Rng) -> list[Event]:
    """A Wild Die token re-rolls one or two dice (all three with the bonus die)."""
    chosen = _own_dice(state, seat, cmd.get("dice"))
    problem = dc.token_problem(state, seat, "wild")
    if problem:
        raise RuleViolation("rule/no_token", problem, {"field": "dice"})
    most = 3 if any(d["kind"] == "bonus" for d in state["dice"][seat]) else 2
    if len(chosen) > most:
        raise RuleViolation("rule/too_many_dice", f"a Wild Die token re-rolls up to {most} dice")
    return [rolled_again(state, seat, chosen, rng, "wild_die", {"wild": -1})]


def rolled_again(
    state: State, seat: int, dice: list[int], rng: Rng, by: str, change: dict[str, int]
) -> Event:
    """DiceRerolled: new faces for the dice, drawn from the seed."""
    if any(state["dice"][seat][d].get("flipped") for d in dice):
        raise RuleViolation("rule/deputy_flipped", "a flipped Deputy die cannot be re-rolled")
    stream = rng.stream(f"round-{state['round']}/{by}/{seat}")
    faces = {str(d): stream.below(6) + 1 for d in dice}
    return event("DiceRerolled", {"seat": seat, "dice": faces, "by": by, "change": change})


def flip_deputy(state: State, seat: int) -> list[Event]:
    """The Sheriff turns the Deputy die to its bottom face, once, before touching it."""
    deputy = [d for d in state["dice"][seat] if d["kind"] == "deputy"]
    if not deputy:
        raise RuleViolation("rule/no_deputy", "only the Sheriff rolls the Deputy die")
    die = deputy[0]
    if die["placed"] or die["touched"] or die.get("flipped"):
        raise RuleViolation(
            "rule/deputy_flip", "the Deputy die flips once, before it is placed or changed"
        )
    return [event("DeputyFlipped", {"seat": seat, "die": die["id"], "value": 7 - die["value"]})]


def may_flip(state: State, seat: int) -> bool:
    """Whether the seat may flip its Deputy die now."""
    return any(
        d["kind"] == "deputy" and not d["placed"] and not d["touched"] and not d.get("flipped")
        for d in state["dice"][seat]
    )


def may_reroll(state: State, seat: int) -> list[list[int]]:
    """The groups of dice a Wild Die token may re-roll now."""
    if dc.token_problem(state, seat, "wild"):
        return []
    most = 3 if any(d["kind"] == "bonus" for d in state["dice"][seat]) else 2
    free = [d for d in dc.unplaced(state, seat) if not d.get("flipped")]
    return [g for g in dc.subsets(free) if len(g) <= most]


# --- Gunslinger -----------------------------------------------------------------------


def gun_targets(state: State, seat: int) -> dict[str, int]:
    """Where the seat's pawn may go: the full roll up or down, on actions 2-12 only."""
    pos, roll = state["pawns"][seat], state["gun_dice"][seat]
    ends = {"up": pos + roll, "down": pos - roll}
    return {d: to for d, to in ends.items() if GUN_LOW <= to <= GUN_HIGH}


def gun_moved(state: State, seat: int, direction: str | None) -> Event:
    """GunslingerMoved; with no direction the one way open (or none: the pawn stays)."""
    targets = gun_targets(state, seat)
    pos = state["pawns"][seat]
    to = targets[direction] if direction else next(iter(targets.values()), pos)
    payload = {"seat": seat, "from": pos, "to": to, "die": state["gun_dice"][seat]}
    return event("GunslingerMoved", payload)


def move_gunslinger(state: State, seat: int, cmd: Command) -> list[Event]:
    """The seat moves its pawn up or down the track by its Gunslinger die."""
    direction = cmd.get("direction")
    if direction not in ("up", "down"):
        raise BadRequest("command/invalid", "direction must be up or down", {"field": "direction"})
    if direction not in gun_targets(state, seat):
        raise RuleViolation(
            "rule/off_track", f"moving {direction} leaves actions 2-12", {"field": "direction"}
        )
    return [gun_moved(state, seat, direction)]


def can_place(state: State, seat: int) -> bool:
    """Whether the seat has a die and somewhere to put it (a placement or Dealer)."""
    if not dc.unplaced(state, seat):
        return False
    return next(dc.each_placement(state, seat), None) is not None or bool(dealer_moves(state, seat))
