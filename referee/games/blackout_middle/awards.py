"""The end of the match: the scoreboard, the Tokens of Life (with the sole winner's choice
among tied seconds), the Elimination Candidate (with the moderator recording the vote of
the ToL winners, and the seed breaking a tie left), and the outcome."""

from typing import Any

from ...engine.errors import BadRequest, RuleViolation
from ...engine.events import Event, event
from ...engine.outcome import ranked
from ...engine.rng import Rng
from .._checks import is_int
from .options import option
from .race import final_order
from .scoring import (
    chip_points,
    elimination_candidate,
    garnets,
    settled_vote,
    summed_bets,
    tol_awards,
    total_points,
    utility_points,
)
from .state import AWARDS, OVER
from .versions import GARNETS_UNANNOUNCED, since

State = dict[str, Any]
TIE_BREAK_LABEL = "elimination-candidate/tie-break"


def final_events(state: State) -> list[Event]:
    """After Round 10: the public scoreboard, the ToLs, then the EC or the vote it needs."""
    board = scoreboard(state)
    points = {seat["seat"]: seat["total"] for seat in board["seats"]}
    awards = tol_awards(points, tied_second=option(state["options"], "tied_second_tols"))
    tols = {
        "won": {str(s): n for s, n in awards["won"].items()},
        "given": {},
        "choice": awards["choice"],
    }
    return [
        event("ScoresRevealed", board),
        event("TolsAwarded", tols),
        _elimination_event(elimination_candidate(points)),
    ]


def scoreboard(state: State) -> dict[str, Any]:
    """The final order of the horses and each seat's points, by source, and the garnets
    awarded (version 1 also named the garnets held, which tells who bought cards)."""
    order = final_order(state["positions"], state["finished"])
    rounds = [
        {s: bets[r] for s, bets in enumerate(state["bets"]) if r in bets}
        for r in _bet_rounds(state)
    ]
    chips = chip_points(summed_bets(rounds), order)
    seats = []
    for seat in range(state["seats"]):
        utility = utility_points(state["utility_points"][seat])
        spectator = state["spectator_points"][seat]
        total = total_points(chips.get(seat, 0), spectator, utility)
        awarded = garnets(total)
        row = {
            "seat": seat,
            "chip_points": chips.get(seat, 0),
            "spectator_points": spectator,
            "utility_points": utility,
            "total": total,
            "garnets_awarded": awarded,
        }
        if not since(state, GARNETS_UNANNOUNCED):
            row["garnets"] = state["garnets"][seat] + awarded
        seats.append(row)
    return {"order": order, "seats": seats}


def _bet_rounds(state: State) -> list[str]:
    return sorted({r for bets in state["bets"] for r in bets}, key=int)


def _elimination_event(found: dict[str, Any]) -> Event:
    if found["candidate"] is not None:
        named = {"candidate": found["candidate"], "how": "fewest_points", "tied": [], "voters": []}
        return event("EliminationCandidateNamed", named)
    called = {"candidate": None, "tied": found["tied"], "voters": found["voters"], "votes": None}
    return event("EliminationVoteCalled", called)


def tol_chooser(state: State) -> int | None:
    """The sole winner who must still give the other ToL to a tied second, if any."""
    choice = (state["tols"] or {}).get("choice")
    return None if choice is None else int(choice["chooser"])


def vote_pending(state: State) -> bool:
    """Whether the moderator must still record the vote on the Elimination Candidate."""
    found = state["elimination"]
    return state["phase"] == AWARDS and found is not None and found["candidate"] is None


def give_tol(state: State, seat: int, command: dict[str, Any]) -> list[Event]:
    """The sole winner gives one ToL to one of the tied second places."""
    chosen = command.get("seat")
    if not is_int(chosen):
        raise BadRequest("command/invalid", "seat must be a seat number", {"field": "seat"})
    choice = state["tols"]["choice"]
    if chosen not in choice["among"]:
        message = f"seat: the ToL goes to one of the tied second places {choice['among']}"
        raise RuleViolation("rule/not_tied_second", message, {"field": "seat"})
    return [event("TolGiven", {"by": seat, "seat": chosen, "tols": choice["tols"]})]


def record_ec_vote(state: State, command: dict[str, Any], rng: Rng) -> list[Event]:
    """The moderator records each voter's vote; plurality, then the voters' garnets, then
    the seed decide the Elimination Candidate."""
    found = state["elimination"]
    votes = _votes(command.get("votes"), found)
    held = {seat: n for seat, n in enumerate(state["garnets"])}
    result = settled_vote(votes, tied=found["tied"], voters=found["voters"], garnets_held=held)
    recorded = event(
        "EliminationVoteRecorded", {"votes": {str(v): s for v, s in sorted(votes.items())}}
    )
    if result["candidate"] is not None:
        how = "vote" if _plurality(votes, found["tied"]) else "garnets"
        named = {"candidate": result["candidate"], "how": how}
    else:
        among = result["tied"]
        named = {
            "candidate": among[rng.below(TIE_BREAK_LABEL, len(among))],
            "how": "random",
            "drawn_from": among,
        }
    return [recorded, event("EliminationCandidateNamed", named)]


def _votes(given: Any, found: dict[str, Any]) -> dict[int, int]:
    """Every voter (a seat number as text) must vote for one of the tied seats."""
    if not isinstance(given, dict) or not all(isinstance(k, str) and k.isdigit() for k in given):
        message = 'votes must be an object {"<voter seat>": <tied seat>}'
        raise BadRequest("command/invalid", message, {"field": "votes"})
    votes = {int(voter): choice for voter, choice in given.items()}
    if sorted(votes) != found["voters"]:
        message = f"votes: every voter {found['voters']} votes, and only they"
        raise RuleViolation("rule/voters", message, {"field": "votes"})
    for voter, choice in votes.items():
        if not is_int(choice) or choice not in found["tied"]:
            message = f"votes.{voter}: the vote must name one of the tied seats {found['tied']}"
            raise RuleViolation("rule/not_tied_last", message, {"field": f"votes.{voter}"})
    return votes


def _plurality(votes: dict[int, int], tied: list[int]) -> bool:
    tally = sorted((sum(v == seat for v in votes.values()) for seat in tied), reverse=True)
    return len(tally) == 1 or tally[0] > tally[1]


def outcome(state: State) -> dict[str, Any] | None:
    """Scores, ranks, ToLs, the EC and garnets, once every award is settled."""
    if state["phase"] != OVER:
        return None
    seats = state["scores"]["seats"]
    tols = {**state["tols"]["won"], **state["tols"]["given"]}
    return ranked(
        [seat["total"] for seat in seats],
        tols={str(s): tols.get(str(s), 0) for s in range(state["seats"])},
        tols_won=state["tols"]["won"],
        tols_given=state["tols"]["given"],
        elimination_candidate=state["elimination"]["candidate"],
        elimination=state["elimination"],
        garnets=list(state["garnets"]),
        breakdown=seats,
        order=state["scores"]["order"],
    )
