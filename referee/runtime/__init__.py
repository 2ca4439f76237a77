"""The running process's own pieces, which know no game, no store and no request: work on
the CPU beside the gevent loop (loop), slots counted per client address (gate), one
command at a time per game in this process (queues), a bounded cache of what was
derived lately (recent), addresses as output may show them (shown), and how the app
writes JSON and opens sessions (answers).

It imports the engine's errors and libraries, nothing else of the referee: the store,
the replays' verifier and every layer above use it (pyproject.toml, importlinter)."""
