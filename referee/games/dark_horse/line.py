"""The line of horse cards, left to right = rear to front: the rightmost horse is 1st.

A move switches places: a horse moving forward n passes n horses, and each horse it
passes drops back one rank. So a move is "take the horse out, put it in at its new rank".
"""

FORWARD, BACK, CHOICE = "forward", "back", "choice"
DIRECTIONS = (FORWARD, BACK)
SIDES = ("left", "right")


def rank_of(line: list[int], horse: int) -> int:
    """The rank of a horse in the line (1 = rightmost)."""
    return len(line) - line.index(horse)


def horse_at(line: list[int], rank: int) -> int:
    """The horse at a rank."""
    return line[len(line) - rank]


def ranks(line: list[int]) -> dict[str, int]:
    """Each horse's rank, keyed by the horse number as text (JSON keys)."""
    return {str(horse): rank_of(line, horse) for horse in line}


def placed(line: list[int], horse: int, side: str | None) -> list[int]:
    """The line after a horse card is laid at one end (or alone, the first card)."""
    return [horse, *line] if side == "left" else [*line, horse]


def moved(line: list[int], horse: int, rank: int) -> list[int]:
    """The line after a horse goes to a rank; the horses it passes shift one rank."""
    rest = [h for h in line if h != horse]
    rest.insert(len(line) - rank, horse)
    return rest


def destination(line: list[int], horse: int, direction: str, steps: int) -> int:
    """Where a move ends: a horse already 1st moving forward goes back instead (and one
    already last moving back goes forward); otherwise the move stops at either end."""
    rank, last = rank_of(line, horse), len(line)
    if direction == FORWARD and rank == 1:
        direction = BACK
    elif direction == BACK and rank == last:
        direction = FORWARD
    return max(1, rank - steps) if direction == FORWARD else min(last, rank + steps)
