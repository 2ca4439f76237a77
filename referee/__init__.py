"""referee: an event-sourced referee service for horse-racing games."""

__version__ = "0.1.0"
