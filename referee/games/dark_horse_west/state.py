"""The table of a Dark Horse West game: how it starts and how each event changes it.

Every random outcome is drawn in game_setup.py, `decide` or the automatic steps (flow.py)
and written into an event: the tile layout and the deck order in events nobody but the
moderator sees, dice in public events. `apply` only folds: events that carry a `seat`
and a `change` ({good: delta}) move goods, whatever their type.
"""

from collections.abc import Callable
from typing import Any

from .. import _versions
from .data import (
    CHARACTERS,
    GOODS,
    GUNSLINGER,
    START_BONUS,
    gun_position,
)
from .options import is_solitaire
from .versions import FIRST, VERSION

State = dict[str, Any]
Payload = dict[str, Any]
NOBODY: list[int] = []  # a visibility no seat is in: the moderator alone sees it
SETUP, PLACEMENT, COLLECTION, OVER = "setup", "placement", "collection", "over"


def initial(players: list[str], options: dict[str, Any], *, version: str = VERSION) -> State:
    """The table before anything random happens: every seat holds the Game Start Bonus;
    the rules of `version` (a 1.0.0 table carries no version: its hashes stay as recorded)."""
    seats = len(players)
    solo = is_solitaire(seats)
    start = {g: START_BONUS.get(g, 0) for g in GOODS}
    table = {
        "seats": seats,
        "end_influence": options["game_end_influence"],
        "character_mode": options["characters"],
        "gunslinger": options["gunslinger"],
        "solitaire": _solitaire(options) if solo else None,
        "characters_in_play": options["characters_in_play"],
        "deck_option": options["deck"],
        "tiles_face_up": options["tiles_face_up"],
        "map": options["map"],
        "phase": SETUP,
        "round": 0,
        "order": list(range(seats)),
        "characters": [None] * seats,
        "goods": [dict(start) for _ in range(seats)],
        "start_rails": [START_BONUS["rails"]] * seats,
        "roles": {"mayor": None, "sheriff": None},
        "cities": {},
        "towns": {},
        "rails": [],
        "layout": {},
        "face_up": {},
        "looked": [[] for _ in range(seats)],
        "deck": [],
        "discard": [],
        "hands": [[] for _ in range(seats)],
        "events": [],
        "temporary": [],
        "event_pile": [],
        "removed": [],
        "shuffles": 0,
        "dice": [[] for _ in range(seats)],
        "placements": [],
        "ghosts": [],
        "used": [_unused() for _ in range(seats)],
        "bonus": [False] * seats,
        "jail": [0] * seats,
        "in_jail": [0] * seats,
        "pawns": [_gun_start()] * seats if options["gunslinger"] else None,
        "gun_dice": [None] * seats,
        "step": None,
        "task": None,
        "settled": [],
        "phase_discards": [],
        "end": None,
        "result": None,
    }
    return _versions.stamped(table, version, FIRST)


def _solitaire(options: dict[str, Any]) -> dict[str, Any]:
    return {
        "difficulty": options["difficulty"] or "chicken",
        "scenario": options["scenario"] or "tenderfoot",
        "turns": options["solitaire_turns"],
    }


def _gun_start() -> int:
    return gun_position(GUNSLINGER["start"])


def _unused() -> dict[str, Any]:
    """What a seat has not yet used this game turn: each token type, Dealer, a card,
    its character's abilities."""
    return {
        "wild": False,
        "engineer": False,
        "stock": False,
        "dealer": False,
        "card": False,
        "abilities": [],
        "character_die": None,
    }


# --- apply ---------------------------------------------------------------------------


def apply(state: State, ev: dict[str, Any]) -> State:
    """The state after one event (a new dict; the input is left alone)."""
    state = dict(state)
    p = ev["payload"]
    if "change" in p and p.get("seat") is not None:
        _change(state, p["seat"], p["change"])
    _APPLY.get(ev["type"], _nothing)(state, p)
    return state


def _nothing(state: State, p: Payload) -> None:
    return None


def _change(state: State, seat: int, change: dict[str, int]) -> None:
    goods = [dict(g) for g in state["goods"]]
    for good, delta in change.items():
        goods[seat][good] += delta
    state["goods"] = goods


def _seats_list(state: State, key: str, seat: int, value: Any) -> None:
    items = list(state[key])
    items[seat] = value
    state[key] = items


def _use(state: State, seat: int, **used: Any) -> None:
    _seats_list(state, "used", seat, {**state["used"][seat], **used})


def _turn_order_drawn(state: State, p: Payload) -> None:
    state["order"] = p["order"]


def _characters_dealt(state: State, p: Payload) -> None:
    for seat, character in enumerate(p["characters"]):
        _character(state, seat, character)


def _character_chosen(state: State, p: Payload) -> None:
    _character(state, p["seat"], p["character"])
    state["step"] = None


def _character(state: State, seat: int, character: str) -> None:
    _seats_list(state, "characters", seat, character)
    start = dict(CHARACTERS[character]["start"])
    _seats_list(state, "start_rails", seat, state["start_rails"][seat] + start.pop("rails", 0))
    _change(state, seat, start)


def _tiles_laid(state: State, p: Payload) -> None:
    state["layout"] = p["layout"]


def _tiles_revealed(state: State, p: Payload) -> None:
    state["face_up"] = dict(sorted({**state["face_up"], **p["tiles"]}.items()))


def _deck_shuffled(state: State, p: Payload) -> None:
    deck = p["deck"]
    state.update(
        deck=deck,
        discard=[c for c in state["discard"] if c not in deck],
        shuffles=state["shuffles"] + 1,
    )


def _event_pile_shuffled(state: State, p: Payload) -> None:
    state["event_pile"] = p["pile"]


def _turn(kind: str) -> Callable[[State, Payload], None]:
    def turn(state: State, p: Payload) -> None:
        state["step"] = {"kind": kind, **p}

    return turn


def _city_placed(state: State, p: Payload) -> None:
    state["cities"] = {**state["cities"], p["hex"]: p["seat"]}
    if state["phase"] == SETUP:
        state["step"] = None


def _town_placed(state: State, p: Payload) -> None:
    state["towns"] = dict(sorted({**state["towns"], p["hex"]: p["seat"]}.items()))
    if p.get("revealed"):
        _tiles_revealed(state, {"tiles": {p["hex"]: p["revealed"]}})
    if state["phase"] == SETUP:
        state["step"] = None


def _rugged_found(state: State, p: Payload) -> None:
    _tiles_revealed(state, {"tiles": {p["hex"]: p["tile"]}})


def _town_returned(state: State, p: Payload) -> None:
    state["towns"] = {h: s for h, s in state["towns"].items() if h != p["hex"]}


def _rails_due(state: State, p: Payload) -> None:
    state["task"] = {"kind": "rails", **p}


def _rail_placed(state: State, p: Payload) -> None:
    state["rails"] = sorted([*state["rails"], p["edge"]])
    task = state["task"]
    if p.get("why") == "start":
        _seats_list(state, "start_rails", p["seat"], state["start_rails"][p["seat"]] - 1)
    if task and task["kind"] == "rails":
        left = task["count"] - 1
        state["task"] = {**task, "count": left} if left else None


def _rails_forfeited(state: State, p: Payload) -> None:
    state["task"] = None
    if p.get("why") == "start":
        _seats_list(state, "start_rails", p["seat"], 0)


def _round_started(state: State, p: Payload) -> None:
    seats = state["seats"]
    state.update(
        phase=PLACEMENT,
        round=p["round"],
        dice=[[] for _ in range(seats)],
        placements=[],
        ghosts=[],
        used=[_unused() for _ in range(seats)],
        settled=[],
        phase_discards=[],
        step=None,
        gun_dice=[None] * seats,
        in_jail=p["jailed"],
        jail=[0] * seats,
        bonus=[False] * seats,
    )


def _dice_rolled(state: State, p: Payload) -> None:
    dice = [{**d, "placed": None, "touched": False} for d in p["dice"]]
    _seats_list(state, "dice", p["seat"], dice)
    if "gunslinger" in p:
        _seats_list(state, "gun_dice", p["seat"], p["gunslinger"])


def _ghost_dice_rolled(state: State, p: Payload) -> None:
    state["ghosts"] = [{**g, "placed": None} for g in p["dice"]]


def _gunslinger_moved(state: State, p: Payload) -> None:
    pawns = list(state["pawns"])
    pawns[p["seat"]] = p["to"]
    state.update(pawns=pawns, step=None)
    _seats_list(state, "gun_dice", p["seat"], None)  # moved: the die has done its work


def _deputy_flipped(state: State, p: Payload) -> None:
    _set_die(state, p["seat"], p["die"], value=p["value"], flipped=True)


def _set_die(state: State, seat: int, die: int, **fields: Any) -> None:
    dice = [dict(d) for d in state["dice"][seat]]
    dice[die].update(fields)
    _seats_list(state, "dice", seat, dice)


def _dice_rerolled(state: State, p: Payload) -> None:
    for die, value in p["dice"].items():
        _set_die(state, p["seat"], int(die), value=value, touched=True)
    if p["by"] == "wild_die":
        _use(state, p["seat"], wild=True)


def _dice_placed(state: State, p: Payload) -> None:
    seat = p["seat"]
    engineer = p.get("engineer")
    if engineer:
        _set_die(state, seat, engineer["die"], value=engineer["value"], engineered=True)
    for die in p["dice"]:
        _set_die(state, seat, die, placed=p["action"], touched=bool(p.get("modifier") or engineer))
    if p.get("modifier") == "wild":
        _use(state, seat, wild=True)
    if engineer or p.get("share"):
        _use(state, seat, engineer=True)
    if p["action"] == "character":
        _use(state, seat, character_die=p["dice"][0])
    kept = ("seat", "action", "row", "slot", "rank", "dice", "total")
    placement = {k: p[k] for k in kept if k in p}
    state["placements"] = [*state["placements"], {**placement, "collected": False}]
    if p.get("via") != "dealer":
        state["step"] = None


def _dealer_used(state: State, p: Payload) -> None:
    seat = p["seat"]
    _set_die(state, seat, p["die"], placed="dealer")
    _use(state, seat, dealer=True)
    dealer = {"seat": seat, "action": "dealer", "dice": [p["die"]], "collected": True}
    state["placements"] = [*state["placements"], dealer]
    state["step"] = None


def _dice_moved(state: State, p: Payload) -> None:
    placements = [dict(x) for x in state["placements"]]
    moved = placements[p["placement"]]
    moved.update(action=p["to"], total=p["total"])
    for key in ("row", "slot", "rank"):
        moved.pop(key, None)
        if key in p:
            moved[key] = p[key]
    state["placements"] = placements
    for die in moved["dice"]:
        _set_die(state, moved["seat"], die, placed=p["to"], touched=True)
    if p.get("share"):
        _use(state, moved["seat"], engineer=True)


def _ghost_placed(state: State, p: Payload) -> None:
    ghosts = [dict(g) for g in state["ghosts"]]
    for g in ghosts:
        if g["id"] in p["dice"]:
            g["placed"] = p.get("action") or "discarded"
    state["ghosts"] = ghosts
    if p.get("action"):
        ghost = {"seat": None, "action": p["action"], "dice": p["dice"], "collected": True}
        state["placements"] = [*state["placements"], ghost]


def _phase(name: str) -> Callable[[State, Payload], None]:
    def phase(state: State, p: Payload) -> None:
        state.update(phase=name, step=None)

    return phase


def _action_done(state: State, p: Payload) -> None:
    placements = [dict(x) for x in state["placements"]]
    placements[p["placement"]]["collected"] = True
    state["placements"] = placements
    step = state["step"]
    if step and step["kind"] == "collect":
        state["step"] = {**step, "collected": True}


def _turn_order_changed(state: State, p: Payload) -> None:
    state["order"] = p["order"]


def _role_taken(state: State, p: Payload) -> None:
    state["roles"] = {**state["roles"], p["role"]: p["seat"]}


def _role_lost(state: State, p: Payload) -> None:
    state["roles"] = {**state["roles"], p["role"]: None}


def _bonus_die(state: State, p: Payload) -> None:
    _seats_list(state, "bonus", p["seat"], True)


def _cards_drawn(state: State, p: Payload) -> None:
    drawn = p["cards"]
    state["deck"] = state["deck"][len(drawn) :]
    state["task"] = {
        "kind": "keep",
        "seat": p["seat"],
        "action": p["action"],
        "drawn": drawn,
        "events": [],
    }


def _cards_revealed(state: State, p: Payload) -> None:
    state["deck"] = state["deck"][len(p["cards"]) :]
    state["discard"] = state["discard"] + p["discarded"]


def _event_played(state: State, p: Payload) -> None:
    card = p["card"]
    task = state["task"]
    if task and task["kind"] == "keep" and card in task["drawn"]:
        drawn = [c for c in task["drawn"] if c != card]
        state["task"] = {**task, "drawn": drawn, "events": [*task["events"], card]}
    state["event_pile"] = [c for c in state["event_pile"] if c != card]
    if not p["permanent"]:
        state["temporary"] = [*state["temporary"], card]
        return
    replaced = [] if p.get("accumulate") else state["events"]
    state["discard"] = state["discard"] + replaced
    state["events"] = [*([] if replaced else state["events"]), card]


def _event_discarded(state: State, p: Payload) -> None:
    card = p["card"]
    state["temporary"] = [c for c in state["temporary"] if c != card]
    state["events"] = [c for c in state["events"] if c != card]
    if p.get("removed"):
        state["removed"] = [*state["removed"], card]
    else:
        state["discard"] = [*state["discard"], card]


def _cards_returned(state: State, p: Payload) -> None:
    """A redraw: the drawn cards go back before the deck is shuffled again."""
    task = state["task"]
    state["discard"] = state["discard"] + p["cards"]
    if task and task["kind"] == "keep":
        state["task"] = None


def _card_kept(state: State, p: Payload) -> None:
    seat = p["seat"]
    hand = list(state["hands"][seat]) + ([p["card"]] if p["card"] else [])
    _seats_list(state, "hands", seat, sorted(hand))
    state["deck"] = p["top"] + state["deck"]
    state["task"] = None


def _cards_discarded(state: State, p: Payload) -> None:
    state["discard"] = state["discard"] + p["cards"]
    state["phase_discards"] = state["phase_discards"] + p["cards"]


def _card_played(state: State, p: Payload) -> None:
    seat, card = p["seat"], p["card"]
    _seats_list(state, "hands", seat, [c for c in state["hands"][seat] if c != card])
    state["discard"] = [*state["discard"], card]
    _use(state, seat, card=True)


def _ability_used(state: State, p: Payload) -> None:
    """A character ability used; The Scoundrel's discard a card (and take one back)."""
    seat = p["seat"]
    used = state["used"][seat]
    _use(state, seat, abilities=sorted([*used["abilities"], p["ability"]]))
    if "card" not in p:
        return
    taken = p.get("taken")
    hand = [c for c in state["hands"][seat] if c != p["card"]] + ([taken] if taken else [])
    _seats_list(state, "hands", seat, sorted(hand))
    state["discard"] = [c for c in state["discard"] if c != taken] + [p["card"]]
    state["phase_discards"] = [c for c in state["phase_discards"] if c != taken] + [p["card"]]


def _stock_cashed(state: State, p: Payload) -> None:
    _use(state, p["seat"], stock=True)


def _tile_looked(state: State, p: Payload) -> None:
    looked = sorted({*state["looked"][p["seat"]], p["hex"]})
    _seats_list(state, "looked", p["seat"], looked)


def _jailed(state: State, p: Payload) -> None:
    _seats_list(state, "jail", p["seat"], state["jail"][p["seat"]] + p["dice"])
    roles = {r: (None if s == p["seat"] else s) for r, s in state["roles"].items()}
    state["roles"] = roles


def _settle_turn(state: State, p: Payload) -> None:
    state["step"] = {"kind": "settle", **p}
    state["settled"] = [*state["settled"], p["seat"]]


def _passed(state: State, p: Payload) -> None:
    state["step"] = None


def _round_ended(state: State, p: Payload) -> None:
    for card in state["temporary"]:
        state["discard"] = [*state["discard"], card]
    state.update(temporary=[], step=None, in_jail=[0] * state["seats"])


def _end_triggered(state: State, p: Payload) -> None:
    state["end"] = {"reason": p["reason"], "seat": p["seat"]}


def _scores_counted(state: State, p: Payload) -> None:
    state.update(phase=OVER, result=p, step=None, task=None)


_APPLY: dict[str, Callable[[State, Payload], None]] = {
    "TurnOrderDrawn": _turn_order_drawn,
    "CharactersDealt": _characters_dealt,
    "CharacterChosen": _character_chosen,
    "TilesLaid": _tiles_laid,
    "TilesRevealed": _tiles_revealed,
    "DeckShuffled": _deck_shuffled,
    "EventPileShuffled": _event_pile_shuffled,
    "SetupTurn": _turn("setup"),
    "CityPlaced": _city_placed,
    "TownPlaced": _town_placed,
    "TownReturned": _town_returned,
    "RuggedFound": _rugged_found,
    "RailsDue": _rails_due,
    "RailPlaced": _rail_placed,
    "RailsForfeited": _rails_forfeited,
    "RoundStarted": _round_started,
    "DiceRolled": _dice_rolled,
    "GhostDiceRolled": _ghost_dice_rolled,
    "GunslingerTurn": _turn("gunslinger"),
    "GunslingerMoved": _gunslinger_moved,
    "PlacementTurn": _turn("place"),
    "DeputyFlipped": _deputy_flipped,
    "DiceRerolled": _dice_rerolled,
    "DicePlaced": _dice_placed,
    "DealerUsed": _dealer_used,
    "DiceMoved": _dice_moved,
    "GhostDiePlaced": _ghost_placed,
    "CollectionStarted": _phase(COLLECTION),
    "CardsRevealed": _cards_revealed,
    "CollectionTurn": _turn("collect"),
    "ActionCollected": _action_done,
    "ActionDeclined": _action_done,
    "TurnOrderChanged": _turn_order_changed,
    "RoleTaken": _role_taken,
    "RoleLost": _role_lost,
    "BonusDieGained": _bonus_die,
    "CardsDrawn": _cards_drawn,
    "EventPlayed": _event_played,
    "EventDiscarded": _event_discarded,
    "CardsReturned": _cards_returned,
    "CardKept": _card_kept,
    "CardsDiscarded": _cards_discarded,
    "CardPlayed": _card_played,
    "AbilityUsed": _ability_used,
    "StockCashed": _stock_cashed,
    "TileLooked": _tile_looked,
    "Jailed": _jailed,
    "CollectionPassed": _passed,
    "SettleTurn": _settle_turn,
    "SettlePassed": _passed,
    "RoundEnded": _round_ended,
    "GameEndTriggered": _end_triggered,
    "ScoresCounted": _scores_counted,
}
