"""The rulesets the referee serves, known by id; each is imported when first asked for."""

from ..engine.registry import know

for _name in ("galloping-horse", "dark-horse", "royal-turf", "dark-horse-west", "blackout-middle"):
    know(_name, f"{__name__}.{_name.replace('-', '_')}")
