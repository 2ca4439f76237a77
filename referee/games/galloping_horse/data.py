"""Galloping Horse's numbers and texts, read once from ../galloping_horse.json: the rules,
the track, the board and the words all read them from here."""

from typing import Any

from .._data import load

DATA: dict[str, Any] = load("galloping_horse.json")
