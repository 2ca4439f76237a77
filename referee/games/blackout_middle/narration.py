"""Blackout Middle's events in words: one sentence per event as a viewer receives it
(`narrate`). Nothing here knows more than the events it is given: a sealed submission
is told only as "sealed" with its commitment; what a seat sent is told only to whoever
receives its private events."""

from collections.abc import Callable
from typing import Any

from .data import LAST_ROUND, TRACK_LENGTH
from .words import (
    by_round,
    cards_text,
    learned_text,
    name,
    names,
    orders_text,
    ordinal,
    trade_text,
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
    left = by_round(p.get("movements") or {}) or "none"
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
