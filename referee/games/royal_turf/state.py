"""The table of a Royal Turf game: how it starts, how each race is prepared, and how
each event changes it."""

from collections.abc import Callable
from typing import Any

from ...engine.events import Event, event
from ...engine.rng import Rng
from ...engine.sealed import reveals
from .cards import dealt, first_deck
from .data import CHIPS, HIDDEN_BETS_CHIPS, HORSES, RACES
from .options import LEGACY, VARIANTS

State = dict[str, Any]
Payload = dict[str, Any]
SETUP, BETTING, RACING, OVER = "setup", "betting", "racing", "over"
# the table's terms a view shows as options
TERMS = (
    "payouts",
    "pace_bonus",
    "last_place_penalty",
    "race_multipliers",
    "allow_negative_balance",
    "tiebreak",
)
KEPT = (*VARIANTS, "track_length", "pace_space", *TERMS)


def initial(players: list[str], options: dict[str, Any]) -> State:
    """The table before the first race is prepared."""
    seats = len(players)
    state = {name: options[name] for name in KEPT}
    # options added later are kept only where the game has them (see `option`)
    state.update({name: options[name] for name in LEGACY if name in options})
    state.update(
        seats=seats,
        # the house deck is data, not state: only a moderator's own cards are carried
        custom_cards=options["cards"],
        race=0,
        phase=SETUP,
        first_player=None,
        turn=None,
        betting_round=0,
        chips=[[] for _ in range(seats)],
        sealed={},
        cards={},
        **_new_race(),
        money=[options["starting_money"]] * seats,
        placed_bets=[0] * seats,
        results=[],
    )
    state["deck"] = first_deck(state)
    return state


def _new_race() -> State:
    """What every race starts from: horses on the line, cards up, no bets, no places."""
    return {
        "bets": [],
        "face_down": [],
        "spaces": {h: 0 for h in HORSES},
        "arrived": {h: 0 for h in HORSES},
        "moves": 0,
        "die": None,
        "pace_chip": None,
        "placings": [],
        "last_place": None,
    }


def setup(state: State, rng: Rng) -> list[Event]:
    """Prepare race 1: its cards and its first player, both drawn from the seed."""
    return prepare(state, 1, rng)


def prepare(state: State, race: int, rng: Rng) -> list[Event]:
    """CardsDealt and FirstPlayerChosen for a race: race 1 starts with a player drawn at
    random, races 2 and 3 with the richest (a tie drawn among the richest)."""
    among = list(range(state["seats"]))
    if race > 1:
        among = [s for s in among if state["money"][s] == max(state["money"])]
    seat = among[rng.below(f"race-{race}/first-player", len(among))] if len(among) > 1 else among[0]
    chosen = event("FirstPlayerChosen", {"race": race, "seat": seat, "among": among})
    return [dealt(state, race, rng), chosen]


def option(state: State, name: str) -> Any:
    """An option added after the first games: as the game has it, else as it played then."""
    return state.get(name, LEGACY[name])


def betting_rounds(state: State) -> int:
    """Three betting rounds, four with Hidden Bets."""
    return len(chips_of(state))


def chips_of(state: State) -> list[int]:
    """The betting chips each player holds at the start of a race."""
    return list(HIDDEN_BETS_CHIPS if state["hidden_bets"] else CHIPS)


def sealed_round(state: State) -> int:
    """The number of the current betting round counted over the game (1, 2, ...): the
    round a sealed bet is committed under."""
    return (state["race"] - 1) * betting_rounds(state) + state["betting_round"]


def unrevealed(state: State) -> list[Event]:
    """OrdersRevealed for every sealed bet not yet revealed, in the order they were sealed."""
    return reveals(state["sealed"].values())


def next_seat(state: State, seat: int) -> int:
    """The player to the left (clockwise): the next seat number."""
    return (seat + 1) % state["seats"]


def apply(state: State, ev: dict[str, Any]) -> State:
    """The state after one event (a new dict; the input is left alone)."""
    state = dict(state)
    _APPLY[ev["type"]](state, ev["payload"], ev.get("seq", 0))
    return state


def _dealt(state: State, p: Payload, seq: int) -> None:
    used = set(p["cards"].values())
    state.update(
        race=p["race"],
        cards=p["cards"],
        deck=[c for c in state["deck"] if c not in used],
        **_new_race(),
    )


def _first_player(state: State, p: Payload, seq: int) -> None:
    state.update(
        phase=BETTING,
        first_player=p["seat"],
        turn=p["seat"],
        betting_round=1,
        chips=[chips_of(state) for _ in range(state["seats"])],
    )


def _bet_placed(state: State, p: Payload, seq: int) -> None:
    if "chip" in p:  # a face-up bet; a sealed one was placed by its OrdersSubmitted
        _place(state, p["seat"], p["horse"], p["chip"], None)
    following = next_seat(state, p["seat"])
    state["turn"] = following
    if following == state["first_player"]:
        state["betting_round"] += 1
    if state["betting_round"] > betting_rounds(state):
        state.update(phase=RACING, betting_round=betting_rounds(state))


def _place(state: State, seat: int, horse: str, chip: int, sealed: int | None) -> None:
    chips = [list(held) for held in state["chips"]]
    chips[seat].remove(chip)
    bet = {"seat": seat, "horse": horse, "chip": chip, "round": state["betting_round"]}
    if sealed is not None:
        bet.update(sealed=sealed, commitment=None, revealed=False)
    state.update(chips=chips, bets=[*state["bets"], bet])


def _orders_submitted(state: State, p: Payload, seq: int) -> None:
    orders = p["orders"]
    _place(state, p["seat"], orders["horse"], orders["chip"], seq)
    state["sealed"] = {**state["sealed"], str(seq): {**p, "seq": seq}}


def _orders_committed(state: State, p: Payload, seq: int) -> None:
    sealed = str(seq - 1)  # the commitment follows its orders
    state["sealed"] = {**state["sealed"], sealed: {**state["sealed"][sealed], **p}}
    state["bets"] = [
        {**b, "commitment": p["commitment"]} if b.get("sealed") == seq - 1 else b
        for b in state["bets"]
    ]


def _orders_revealed(state: State, p: Payload, seq: int) -> None:
    state["sealed"] = {k: v for k, v in state["sealed"].items() if k != str(p["seq"])}
    state["bets"] = [
        {**b, "revealed": True} if b.get("sealed") == p["seq"] else b for b in state["bets"]
    ]


def _die_rolled(state: State, p: Payload, seq: int) -> None:
    state["die"] = p["face"]


def _horse_moved(state: State, p: Payload, seq: int) -> None:
    horse, moves = p["horse"], state["moves"] + 1
    state["spaces"] = {**state["spaces"], horse: p["to"]}
    if p["to"] != p["from"]:
        state["arrived"] = {**state["arrived"], horse: moves}
    state.update(
        moves=moves,
        face_down=[*state["face_down"], horse],
        die=None,
        turn=next_seat(state, p["seat"]),
    )


def _pace_chip_taken(state: State, p: Payload, seq: int) -> None:
    state["pace_chip"] = p["horse"]


def _horse_finished(state: State, p: Payload, seq: int) -> None:
    state["placings"] = [*state["placings"], p["horse"]]


def _cards_turned_up(state: State, p: Payload, seq: int) -> None:
    state["face_down"] = []


def _race_ended(state: State, p: Payload, seq: int) -> None:
    state.update(last_place=p["last"], turn=None)


def _race_paid(state: State, p: Payload, seq: int) -> None:
    placed = list(state["placed_bets"])
    for bet in state["bets"]:
        if bet["horse"] in state["placings"]:
            placed[bet["seat"]] += bet["chip"]
    result = {
        "race": p["race"],
        "placings": state["placings"],
        "last_place": state["last_place"],
        "pace_chip": state["pace_chip"],
        "bets": state["bets"],
        "lines": p["lines"],
        "money": p["money"],
    }
    state.update(
        money=p["money"],
        placed_bets=placed,
        results=[*state["results"], result],
        phase=OVER if p["race"] == RACES else SETUP,
    )


_APPLY: dict[str, Callable[[State, Payload, int], None]] = {
    "CardsDealt": _dealt,
    "FirstPlayerChosen": _first_player,
    "BetPlaced": _bet_placed,
    "OrdersSubmitted": _orders_submitted,
    "OrdersCommitted": _orders_committed,
    "OrdersRevealed": _orders_revealed,
    "DieRolled": _die_rolled,
    "HorseMoved": _horse_moved,
    "PaceChipTaken": _pace_chip_taken,
    "HorseFinished": _horse_finished,
    "CardsTurnedUp": _cards_turned_up,
    "RaceEnded": _race_ended,
    "RacePaid": _race_paid,
}
