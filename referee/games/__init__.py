"""The rulesets the referee serves, registered by id."""

from ..engine.registry import register
from . import blackout_middle, dark_horse, dark_horse_west, galloping_horse, royal_turf

for _module in (galloping_horse, dark_horse, royal_turf, dark_horse_west, blackout_middle):
    register(_module)
