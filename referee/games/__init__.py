"""The rulesets the referee serves, registered by id."""

from ..engine.registry import register
from . import galloping_horse

for _module in (galloping_horse,):
    register(_module)
