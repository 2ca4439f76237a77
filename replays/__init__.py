"""Replaying and verifying exported game logs, offline, without trusting the server."""
