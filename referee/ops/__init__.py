"""What an operator sets and asks of a running service: every setting read and checked
before anything starts (settings), whether the service is alive and ready (health), and
the rate limits per client address (limits). docs/deployment.md lists the settings.

It stands on the store and the runtime; the service, the pages, the API and the
process tree above it read it."""
