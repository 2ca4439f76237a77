"""Reading a ruleset's data file from the package (read once, at import)."""

import json
from importlib import resources
from typing import Any


def load(name: str) -> Any:
    """The parsed JSON data file `name` beside the rulesets."""
    return json.loads(resources.files(__package__).joinpath(name).read_text("utf-8"))
