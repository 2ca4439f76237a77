"""A modest, finite, deterministic list of complete commands a seat may give now, for bots
and user interfaces: orders that fit the round and the hand, trades, purchases, and the
awards' choices. Every order listed is judged with nothing dropped."""

from functools import lru_cache
from typing import Any

from ...engine.canonical import copied
from ...engine.events import MODERATOR
from .abilities import Dropped, judged_ability
from .awards import tol_chooser, vote_pending
from .data import FIRST_ROUND, HORSES, KINDS, OPEN_OFFERS_PER_SEAT, TRACK_LENGTH, ability
from .judging import current_space
from .orders import default_orders
from .scoring import purchase_cost
from .state import AWARDS, ROUNDS
from .trades import free_hand, open_offers

State = dict[str, Any]
Command = dict[str, Any]
PER_KIND = 4  # abilities listed per kind
SHOWN_OFFERS = 3  # open offers listed per role


def legal(state: State, seat: int | str) -> list[Command]:
    """Every command listed for this seat (or the moderator) now."""
    if state["phase"] == ROUNDS and isinstance(seat, int):
        return [*_submissions(state, seat), *_trading(state, seat)]
    if state["phase"] != AWARDS:
        return []
    if seat == MODERATOR:
        return _votes(state) if vote_pending(state) else []
    if seat == tol_chooser(state):
        return [{"type": "give_tol", "seat": s} for s in state["tols"]["choice"]["among"]]
    return []


def _submissions(state: State, seat: int) -> list[Command]:
    r = state["round"]
    abilities = [a for kind in KINDS for a in _abilities(state, seat, kind)]
    spaces = [None] if r == FIRST_ROUND else [min(TRACK_LENGTH, 1 + 2 * r + d) for d in (-1, 0, 1)]
    bet_sets = _bet_sets(state, seat)
    orders = [default_orders(state, seat)]
    for i, given in enumerate([None, *abilities]):
        space = spaces[i % len(spaces)]
        for bets in bet_sets if i == 0 else [bet_sets[i % len(bet_sets)]]:
            orders.append({"ability": given, "spectate": space, "bets": bets})
    unique = [o for i, o in enumerate(orders) if o not in orders[:i]]
    return [{"type": "submit_orders", "round": r, "orders": o} for o in unique]


def _card_lists(hand: dict[str, int]) -> list[list[str]]:
    """Some card lists the hand can make: one horse in 1-3 copies, and mixed ones."""
    held = [h for h in HORSES if hand[h] > 0]
    every = [h for h in held for _ in range(hand[h])]
    lists = [[h] * min(hand[h], n) for h in held[:3] for n in (1, 2, 3)]
    lists += [every[:n] for n in (2, 3, 4) if len(every) >= n]
    return [cards for i, cards in enumerate(lists) if cards not in lists[:i]]


def _abilities(state: State, seat: int, kind: str) -> list[dict[str, Any]]:
    """Abilities of this round and kind built from the hand, kept if they are valid now."""
    hand = free_hand(state, seat)
    listed: list[dict[str, Any]] = copied(
        _abilities_for(state["round"], kind, tuple(hand[h] for h in HORSES))
    )
    return listed


@lru_cache(maxsize=4096)
def _abilities_for(round_number: int, kind: str, counts: tuple[int, ...]) -> list[dict[str, Any]]:
    """The abilities for a hand of these counts (A-I): they depend on nothing else, and a
    bot's playouts list them for the same hands over and over (callers get copies)."""
    fields, hand, found = (
        ability(round_number, kind)["fields"],
        dict(zip(HORSES, counts, strict=True)),
        [],
    )
    for cards in _card_lists(hand):
        given = _ability_from(kind, fields, cards)
        try:
            judged_ability(round_number, given, hand)
        except Dropped:
            continue
        if given not in found:
            found.append(given)
        if len(found) == PER_KIND:
            break
    return found


def _ability_from(kind: str, fields: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    given: dict[str, Any] = {"kind": kind}
    if "guesses" in fields:
        given["guesses"] = [{"horse": c, "ahead": (3 * i) % 9} for i, c in enumerate(cards)]
    if "use" in fields:
        within = fields["use"].get("within") == "select"
        given["use"] = cards[:1] if within else list(cards)
    if "select" in fields:
        half = "half_of" in fields["select"]
        given["select"] = cards[: len(cards) // 2] if half else list(cards)
    if "gain" in fields:
        wanted = len(given["use"]) if "count_of" in fields["gain"] else 1
        given["gain"] = HORSES[-wanted:]
    return given


def _bet_sets(state: State, seat: int) -> list[dict[str, int]]:
    """No bets, and bets within the limit and the pool on horses the seat saw."""
    space = current_space(state, seat)
    budget = min(state["limits"][seat], state["chips"][seat])
    if space is None or not space["horses"] or budget < 1:
        return [{}]
    horses = space["horses"]
    sets = [{}, {horses[0]: 1}, {horses[0]: budget}]
    if len(horses) > 1 and budget > 1:
        sets.append({horses[0]: budget - 1, horses[1]: 1})
    return [bets for i, bets in enumerate(sets) if bets not in sets[:i]]


def _trading(state: State, seat: int) -> list[Command]:
    """Trades listed on the seat's own hand alone (the cards not on offer): another seat's
    hand is its secret, and since version 2 an offered card stays held for its offer."""
    hand, commands = free_hand(state, seat), []
    mine = open_offers(state, seat)
    held = [h for h in HORSES if hand[h] > 0]
    made = [o for o in mine if o["from"] == seat]
    if held and state["seats"] > 1 and len(made) < OPEN_OFFERS_PER_SEAT:
        wanted = [h for h in HORSES if state["hands"][seat][h] == 0] or [HORSES[-1]]
        to = (seat + 1) % state["seats"]
        commands.append({"type": "offer_trade", "to": to, "give": held[0], "get": wanted[0]})
    for offer in [o for o in mine if o["to"] == seat][:SHOWN_OFFERS]:
        if hand[offer["get"]] > 0:
            commands.append({"type": "accept_trade", "offer": offer["offer"]})
        commands.append({"type": "decline_trade", "offer": offer["offer"]})
    commands += [{"type": "withdraw_trade", "offer": o["offer"]} for o in made[:SHOWN_OFFERS]]
    if state["garnets"][seat] >= purchase_cost(state["purchases"][seat] + 1):
        commands += [{"type": "buy_card", "horse": h} for h in HORSES[:3]]
    return commands


def _votes(state: State) -> list[Command]:
    found = state["elimination"]
    tied, voters = found["tied"], found["voters"]
    plans = [{str(v): t for v in voters} for t in tied]
    plans.append({str(v): tied[i % len(tied)] for i, v in enumerate(voters)})
    unique = [p for i, p in enumerate(plans) if p not in plans[:i]]
    return [{"type": "record_ec_vote", "votes": p} for p in unique]
