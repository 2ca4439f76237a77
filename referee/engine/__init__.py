"""The pure core: canonical JSON, the seeded random generator, the game lifecycle (create,
execute, fold), redaction and errors (README.md). It imports nothing of the referee
but itself, and no I/O: pyproject.toml's import contracts keep it so."""
