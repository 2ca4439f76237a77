"""Celery wiring: the app, configured from REDIS_URL, and tasks that call the core."""
