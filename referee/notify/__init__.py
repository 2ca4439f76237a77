"""Telling subscribers when a game's log grows (docs/notifications.md): subscriptions and
their deliveries, signed webhooks and Apprise targets (subscriptions), what a target may
reach, checked when it subscribes and again on the very address each delivery connects
to (reach), and what each subscriber is told, built from its own view (notices).

The service calls it after every append and the workers deliver; it imports the store,
the operator's settings and the engine, never the service or a page."""
