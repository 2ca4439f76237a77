"""Blackout Middle in words: one sentence per event as a viewer receives it (`narrate`),
and a legal command as a choice text (`label`). Pure; nothing here knows more than the
events or the view it is given. A sealed submission is told only as "sealed" with its
commitment; what a seat sent is told only to whoever receives its private events."""

from collections.abc import Callable
from typing import Any

from .data import (
    ABILITIES,
    CHIP_LIMIT,
    DATA,
    FIRST_PURCHASE_COST,
    HORSES,
    LAST_ROUND,
    PLACEMENT_POINTS,
    POINTS_PER_GARNET,
    PURCHASE_COST_FACTOR,
    ROUND10_UTILITY_FORMULAS,
    START_SPACE,
    STARTING_CHIPS,
    TRACK_LENGTH,
)

# what the replay page steps by besides events and moves: the events that open a round
CHAPTER = ("round", ("RoundOpened",))

Event = dict[str, Any]
Payload = dict[str, Any]
Players = list[str]


def narrate(events: list[Event], viewer: int | str | None, players: Players) -> list[str | None]:
    """One plain sentence per event, in order; None for a redacted stub or a filler event
    that says nothing (a seat's "no ability", "no watch", "no space")."""
    return [_sentence(record, players) for record in events]


def _sentence(record: Event, players: Players) -> str | None:
    if record.get("redacted") or "type" not in record:
        return None
    telling = _EVENTS.get(record["type"])
    return None if telling is None else telling(record.get("payload") or {}, players)


def label(command: dict[str, Any], view: dict[str, Any]) -> str:
    """A legal command as a short choice text in the game's words."""
    players: Players = view.get("players", [])
    kind = command.get("type")
    if kind == "submit_orders":
        return f"Seal Round {command.get('round')} orders: {orders_text(command.get('orders'))}"
    if kind == "offer_trade":
        to = name(players, command.get("to"))
        return f"Offer {to} card {command.get('give')} for card {command.get('get')}"
    if kind in _OFFER_VERBS:
        return _offer_label(kind, command.get("offer"), view, players)
    if kind == "buy_card":
        return f"Buy card {command.get('horse')} for {_price(view)} garnets"
    if kind == "give_tol":
        return f"Give the other ToL to {name(players, command.get('seat'))}"
    if kind == "record_ec_vote":
        votes = command.get("votes") or {}
        cast = [f"{name(players, v)} for {name(players, s)}" for v, s in votes.items()]
        return "Record the EC vote: " + ", ".join(cast)
    return str(kind)


_OFFER_VERBS = {"accept_trade": "Accept", "decline_trade": "Decline", "withdraw_trade": "Withdraw"}


def _offer_label(kind: str, number: Any, view: dict[str, Any], players: Players) -> str:
    mine = ((view.get("state") or {}).get("you") or {}).get("open_offers", [])
    found = next((o for o in mine if o["offer"] == number), None)
    verb = _OFFER_VERBS[kind]
    if found is None:
        return f"{verb} offer {number}"
    return f"{verb} offer {number}: {trade_text(found, players)}"


def _price(view: dict[str, Any]) -> Any:
    return ((view.get("state") or {}).get("you") or {}).get("next_purchase_cost", "?")


# --- shared texts (the board uses them too) ------------------------------------------


def name(players: Players, seat: Any) -> str:
    """A seat's player name, or "seat n" if the list does not have it."""
    if isinstance(seat, str) and seat.isdigit():
        seat = int(seat)
    if isinstance(seat, int) and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat + 1}" if isinstance(seat, int) else f"seat {seat}"


def names(players: Players, seats: list[Any]) -> str:
    """Several seats' names joined with commas and "and"."""
    shown = [name(players, s) for s in seats]
    if len(shown) < 2:
        return shown[0] if shown else "nobody"
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def cards_text(cards: Any) -> str:
    """Horse cards as letters with copies: "A, A, B"."""
    if isinstance(cards, str):
        return cards
    if not isinstance(cards, list) or not cards:
        return "none"
    return ", ".join(str(card) for card in cards)


def ability_text(given: Any) -> str:
    """An ability as sent: "clue: use A, A" or "utility: select B; gain H"."""
    if not isinstance(given, dict):
        return "no ability"
    parts = [
        f"{field} {cards_text(given[field])}"
        for field in ("select", "use", "gain")
        if field in given
    ]
    for guess in given.get("guesses") or []:
        if isinstance(guess, dict):
            parts.append(f"guess {guess.get('horse')} has {guess.get('ahead')} ahead")
    return f"{given.get('kind')}: " + ("; ".join(parts) or "no cards")


def bets_text(bets: Any) -> str:
    """Bets as "bet C 2, D 1" or "no bets"."""
    if not isinstance(bets, dict) or not bets:
        return "no bets"
    return "bet " + ", ".join(f"{horse} {chips}" for horse, chips in bets.items())


def orders_text(orders: Any) -> str:
    """A whole submission: its ability, its space and its bets."""
    if not isinstance(orders, dict):
        return "nothing"
    space = orders.get("spectate")
    spectate = "no space" if space is None else f"spectate space {space}"
    return f"{ability_text(orders.get('ability'))}; {spectate}; {bets_text(orders.get('bets'))}"


def trade_text(offer: dict[str, Any], players: Players) -> str:
    """An offer: who gives which card for which card of whom."""
    giver, taker = name(players, offer.get("from")), name(players, offer.get("to"))
    return f"{giver}'s card {offer.get('give')} for {taker}'s card {offer.get('get')}"


def learned_text(result: dict[str, Any], players: Players) -> str:
    """What an ability delivered, in short: learned, cards gained, points."""
    learned = result.get("learned") or {}
    parts = [_LEARNED[key](value, players) for key, value in learned.items() if key in _LEARNED]
    if isinstance(result.get("chips"), dict):  # a watch (ChipsWatched): chips on each horse
        chips = ", ".join(f"{h} {n}" for h, n in result["chips"].items()) or "none"
        parts.append(f"chips bet on the watched horses {chips}")
    if result.get("gained"):
        gained = ", ".join(f"{n} x {horse}" for horse, n in result["gained"].items())
        parts.append(f"gained cards {gained}")
    if result.get("points"):
        points = ", ".join(f"{horse} {n}" for horse, n in result["points"].items())
        parts.append(f"points {points}")
    return "; ".join(parts) or "nothing"


def _by_round(values: dict[str, Any]) -> str:
    return ", ".join(f"Round {r}: {v}" for r, v in sorted(values.items(), key=lambda i: int(i[0])))


def _horse_lists(values: dict[str, Any]) -> str:
    return ", ".join(f"Round {r}: {cards_text(found)}" for r, found in values.items())


def _movements(value: dict[str, Any], players: Players) -> str:
    shown = [f"{h} ({_by_round(v) or 'no rounds'})" for h, v in value.items()]
    return "movement values " + ("; ".join(shown) or "none")


def _per_horse(title: str, show: Callable[[Any], str]) -> Callable[[Any, Players], str]:
    def told(value: dict[str, Any], players: Players) -> str:
        return f"{title} " + ("; ".join(f"{h} ({show(v)})" for h, v in value.items()) or "none")

    return told


def _guesses(value: list[dict[str, Any]], players: Players) -> str:
    marks = [
        f"{g['horse']} {g['ahead']} ahead {'right' if g.get('correct') else 'wrong'}" for g in value
    ]
    return "guesses " + ", ".join(marks)


def _who_bet(value: dict[str, Any], players: Players) -> str:
    def seats(bets: dict[str, int]) -> str:
        return ", ".join(f"{name(players, s)} {n}" for s, n in bets.items()) or "nobody"

    return "bets this round " + ("; ".join(f"{h} ({seats(b)})" for h, b in value.items()) or "none")


_LEARNED: dict[str, Callable[[Any, Players], str]] = {
    "movements": _movements,
    "n": lambda v, p: "rounds told " + ", ".join(f"{h} {n}" for h, n in v.items()),
    "sums": lambda v, p: f"sums {_by_round(v)}",
    "differ_by_1": _per_horse("differ by 1 from", _horse_lists),
    "spaces": _per_horse(
        "spaces", lambda v: ", ".join(f"end of Round {r}: {s}" for r, s in v.items())
    ),
    "same_movement": _per_horse("same value as", _horse_lists),
    "placements": _per_horse(
        "placements", lambda v: ", ".join(f"end of Round {r}: {ordinal(p)}" for r, p in v.items())
    ),
    "chip_limit": lambda v, p: f"chip limit now {v}",
    "watching": lambda v, p: f"watching chips on {cards_text(v)}",
    "rounds": lambda v, p: "in Rounds " + ", ".join(str(r) for r in v),
    "guesses": _guesses,
    "bets": _who_bet,
    "chips": lambda v, p: f"chips now {v}",
}


# --- the events ------------------------------------------------------------------


def _created(p: Payload, players: Players) -> str:
    return (
        f"A match of Blackout Middle begins for {names(players, list(range(len(players))))}: "
        f"horses A-I race unseen over {TRACK_LENGTH} spaces in Rounds 0-{LAST_ROUND}."
    )


def _round_opened(p: Payload, players: Players) -> str:
    if p.get("round") == 0:
        return "Round 0 opens: abilities only, no horse moves."
    return f"Round {p.get('round')} opens."


def _submitted(p: Payload, players: Players) -> str:
    who = name(players, p.get("seat"))
    return f"{who} sends orders for Round {p.get('round')}: {orders_text(p.get('orders'))}."


def _committed(p: Payload, players: Players) -> str:
    who, r = name(players, p.get("seat")), p.get("round")
    again = ", replacing the earlier ones" if p.get("replaces") is not None else ""
    return f"{who} seals orders for Round {r}{again} (commitment {p.get('commitment')})."


def _closed(p: Payload, players: Players) -> str:
    r, why = p.get("round"), p.get("why")
    if why == "all_submitted":
        return f"Round {r} closes: every player has sealed orders."
    if why == "moderator":
        return f"The moderator closes Round {r}: {p.get('reason')}"
    return f"Round {r} closes at its deadline."


def _counted(p: Payload, players: Players) -> str:
    """What counted: the seats whose sealed orders did, and who sent nothing (public, as
    every seal is), taken to have sent the rules' default orders."""
    seats = p.get("seats") or []
    sealed = [s for s, seq in enumerate(seats) if seq is not None]
    silent = [s for s, seq in enumerate(seats) if seq is None]
    said = f"Round {p.get('round')} is resolved with "
    if sealed:
        plural = "s" if len(sealed) > 1 else ""
        said += f"{len(sealed)} sealed submission{plural} ({names(players, sealed)})"
    else:
        said += "no sealed submission"
    if silent:
        said += f"; {names(players, silent)} sent nothing: no ability, no space, no bets"
    return said + "."


def _revealed(p: Payload, players: Players) -> str:
    who = name(players, p.get("seat"))
    told = orders_text(p.get("orders"))
    return f"{who}'s sealed orders for Round {p.get('round')} are revealed: {told}."


def _judged(p: Payload, players: Players) -> str:
    who, r = name(players, p.get("seat")), p.get("round")
    told = f"{who}'s Round {r} orders as judged: {orders_text(p.get('applied'))}."
    dropped = [d.get("message", d.get("rule")) for d in p.get("dropped") or []]
    return told + (f" Dropped: {'; '.join(dropped)}." if dropped else "")


def _moved(p: Payload, players: Players) -> str:
    places = [
        f"{h} {'past the finish' if s > TRACK_LENGTH else f'on space {s}'}"
        for h, s in (p.get("positions") or {}).items()
    ]
    finishing = p.get("finishing") or []
    tail = f"; finishing: {cards_text(finishing)}" if finishing else ""
    return f"The horses move in Round {p.get('round')}: {', '.join(places)}{tail}."


def _finished(p: Payload, players: Players) -> str:
    left = _by_round(p.get("movements") or {}) or "none"
    return (
        f"Horse {p.get('horse')} finishes in Round {p.get('round')}, placed "
        f"{ordinal(p.get('placement', 0))}; movement values left: {left}."
    )


def _ability(p: Payload, players: Players) -> str | None:
    if p.get("kind") is None:
        return None
    who = name(players, p.get("seat"))
    return f"{who}'s Round {p.get('round')} {p['kind']} ability: {learned_text(p, players)}."


def _watched(p: Payload, players: Players) -> str | None:
    if p.get("kind") is None:
        return None
    chips = ", ".join(f"{h} {n}" for h, n in (p.get("chips") or {}).items()) or "none"
    who = name(players, p.get("seat"))
    return f"Chips bet in Round {p.get('round')} on the horses {who} watches: {chips}."


def _space_seen(p: Payload, players: Players) -> str | None:
    if p.get("space") is None:
        return None
    who, seen = name(players, p.get("seat")), p.get("horses") or []
    horses = f"horses {cards_text(seen)}" if seen else "no horse"
    return (
        f"At the end of Round {p.get('round')} {who} sees {horses} on space {p['space']} "
        f"({p.get('points', 0)} point(s))."
    )


def _announced(p: Payload, players: Players) -> str:
    spaces = [
        f"{name(players, seat)} {'no space' if s is None else f'space {s}'}"
        for seat, s in enumerate(p.get("spaces") or [])
    ]
    return f"Spectated in Round {p.get('round')}: {', '.join(spaces)}."


def _offered(p: Payload, players: Players) -> str:
    giver, taker = name(players, p.get("from")), name(players, p.get("to"))
    cards = f"card {p.get('give')} for card {p.get('get')}"
    return f"{giver} offers {taker} {cards} (offer {p.get('offer')})."


def _trade(verb: str, by: str) -> Callable[[Payload, Players], str]:
    def told(p: Payload, players: Players) -> str:
        return (
            f"{name(players, p.get(by))} {verb} offer {p.get('offer')}: {trade_text(p, players)}."
        )

    return told


def _bought(p: Payload, players: Players) -> str:
    who = name(players, p.get("seat"))
    return f"{who} buys card {p.get('horse')} for {p.get('cost')} garnets."


def _scores(p: Payload, players: Players) -> str:
    rows = sorted(p.get("seats") or [], key=lambda s: (-s["total"], s["seat"]))
    told = [
        f"{name(players, s['seat'])} {s['total']} (chips {s['chip_points']}, spectating "
        f"{s['spectator_points']}, utility {s['utility_points']})"
        for s in rows
    ]
    order = cards_text(p.get("order") or [])
    return f"The scores: {'; '.join(told)}. Final order of the horses: {order}."


def _tols(p: Payload, players: Players) -> str:
    won = p.get("won") or {}
    told = ", ".join(f"{name(players, s)} wins {n}" for s, n in won.items())
    text = f"Tokens of Life: {told}." if told else "No Tokens of Life are won."
    choice = p.get("choice")
    if choice:
        among = names(players, choice["among"])
        text += (
            f" {name(players, choice['chooser'])} gives {choice['tols']} more to one of {among}."
        )
    return text


def _tol_given(p: Payload, players: Players) -> str:
    return (
        f"{name(players, p.get('by'))} gives {p.get('tols')} ToL to {name(players, p.get('seat'))}."
    )


_HOW = {
    "fewest_points": "with the fewest points",
    "vote": "by the vote",
    "garnets": "the vote tied; the voters with more garnets decide",
    "random": "drawn by the seed among the tied",
}


def _candidate(p: Payload, players: Players) -> str:
    how = _HOW.get(p.get("how", ""), p.get("how"))
    return f"{name(players, p.get('candidate'))} is the Elimination Candidate ({how})."


def _vote_called(p: Payload, players: Players) -> str:
    return (
        f"{names(players, p.get('tied') or [])} tie for the fewest points: "
        f"{names(players, p.get('voters') or [])} vote on the Elimination Candidate."
    )


def _vote_recorded(p: Payload, players: Players) -> str:
    votes = p.get("votes") or {}
    cast = ", ".join(f"{name(players, v)} for {name(players, s)}" for v, s in votes.items())
    return f"The vote on the Elimination Candidate: {cast}."


def _ended(p: Payload, players: Players) -> str:
    winners = (p.get("outcome") or {}).get("winners") or []
    if not winners:
        return "The match is over."
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"The match is over: {names(players, winners)} {verb}."


def _moderator(text: str, field: str) -> Callable[[Payload, Players], str]:
    return lambda p, players: f"The moderator {text}: {p.get(field)}"


_EVENTS: dict[str, Callable[[Payload, Players], str | None]] = {
    "GameCreated": _created,
    "MovementsDrawn": lambda p, players: (
        "Every horse's movement values for Rounds 1-10 are drawn in secret."
    ),
    "RoundOpened": _round_opened,
    "OrdersSubmitted": _submitted,
    "OrdersCommitted": _committed,
    "RoundClosed": _closed,
    "OrdersCounted": _counted,
    "OrdersRevealed": _revealed,
    "DeadlineExtended": lambda p, players: (
        f"The moderator extends Round {p.get('round')}'s deadline: {p.get('reason')}"
    ),
    "GamePaused": _moderator("pauses the game", "reason"),
    "GameResumed": _moderator("resumes the game", "reason"),
    "OrdersJudged": _judged,
    "HorsesMoved": _moved,
    "HorseFinished": _finished,
    "AbilityResolved": _ability,
    "ChipsWatched": _watched,
    "SpaceSeen": _space_seen,
    "SpectatingAnnounced": _announced,
    "RoundResolved": lambda p, players: f"Round {p.get('round')} is resolved.",
    "TradeOffered": _offered,
    "TradeAccepted": _trade("accepts", "to"),
    "TradeDeclined": _trade("declines", "to"),
    "TradeWithdrawn": _trade("withdraws", "from"),
    "CardBought": _bought,
    "ScoresRevealed": _scores,
    "TolsAwarded": _tols,
    "TolGiven": _tol_given,
    "EliminationCandidateNamed": _candidate,
    "EliminationVoteCalled": _vote_called,
    "EliminationVoteRecorded": _vote_recorded,
    "GameEnded": _ended,
    "SeedRevealed": lambda p, players: (
        f"The seed is revealed ({p.get('seed')}): anyone may now check the secret draws."
    ),
    "AnnouncementPosted": _moderator("announces", "text"),
    "GameAbandoned": _moderator("abandons the game", "reason"),
    "PlayerReplaced": lambda p, players: (
        f"{p.get('name')} now plays seat {p['seat'] + 1}: {p.get('reason')}"
    ),
    "DisputeOpened": _moderator("opens a dispute", "claim"),
    "DisputeRuled": lambda p, players: (
        f"The moderator rules on dispute {p.get('dispute')} ({p.get('ruling')}): {p.get('reason')}"
    ),
    "GameForked": lambda p, players: (
        f"This game continues game {p.get('from_game')} after its event {p.get('at')}."
    ),
}


# --- what a client needs to explain ids (served as content and option_texts) ---

OPTION_TEXTS: dict[str, str] = dict(DATA["option_texts"])
CONTENT: dict[str, Any] = {
    "horses": {
        h: {"name": f"Horse {h}", "colour": fill, "ink": ink, "colour_name": colour}
        for h, (fill, ink, colour) in ((h, DATA["drawing"]["horse_colours"][h]) for h in HORSES)
    },
    "track_length": TRACK_LENGTH,
    "start_space": START_SPACE,
    "rounds": {
        r: {kind: spec["text"] for kind, spec in kinds.items()} for r, kinds in ABILITIES.items()
    },
    "placement_points": {ordinal(i): n for i, n in enumerate(PLACEMENT_POINTS, start=1)},
    "starting_chips": STARTING_CHIPS,
    "chip_limit": CHIP_LIMIT,
    "purchase_costs": {"first": FIRST_PURCHASE_COST, "factor": PURCHASE_COST_FACTOR},
    "points_per_garnet": POINTS_PER_GARNET,
    "round10_utility_formulas": dict(ROUND10_UTILITY_FORMULAS),
    "glossary": dict(DATA["glossary"]),
}
