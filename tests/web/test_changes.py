"""What a step changed, in words: seats by name, small records on one line, the version
and legal moves left out."""

from referee.web.changes import SHOWN_AT_MOST, changes

PLAYERS = ["Ann", "Ben", "Cat"]


def view(**state):
    return {"players": PLAYERS, "version": 7, "legal": [{"type": "x"}], "to_move": [0], **state}


def test_a_list_of_one_entry_per_seat_is_read_by_name_and_to_move_too():
    before = view(state={"money": [10, 20, 30]})
    after = {**view(state={"money": [10, 25, 30]}), "version": 8, "to_move": [1, 2]}
    assert changes(before, after) == [
        {"what": "to move", "was": "Ann", "now": "Ben, Cat"},
        {"what": "money, Ben", "was": "20", "now": "25"},
    ]


def test_a_small_record_is_one_line_and_other_lists_go_by_position():
    before = view(state={"dice": [[{"value": 3, "placed": None}]]})
    after = view(state={"dice": [[{"value": 3, "placed": "mayor"}]], "track": [1, 2, 3, 4]})
    assert changes(before, after) == [
        {"what": "dice, #1, #1", "was": "value 3, placed —", "now": "value 3, placed mayor"},
        {"what": "track", "was": "—", "now": "1, 2, 3, 4"},
    ]


def test_nothing_changed_is_no_line_and_many_changes_are_counted():
    assert changes(view(), {**view(), "version": 9, "legal": []}) == []
    many = view(state={"cells": list(range(100))})
    moved = view(state={"cells": list(range(1, 101))})
    lines = changes(many, moved)
    assert len(lines) == SHOWN_AT_MOST + 1 and lines[-1]["what"] == "and 60 more"
