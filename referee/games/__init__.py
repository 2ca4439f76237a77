"""The rulesets the referee serves, registered by id."""

from ..engine.registry import register
from . import blackout_middle, dark_horse, galloping_horse

for _module in (galloping_horse, dark_horse, blackout_middle):
    register(_module)
