"""The rulesets the referee serves, registered by id."""

from ..engine.registry import register
from . import dark_horse, galloping_horse

for _module in (galloping_horse, dark_horse):
    register(_module)
