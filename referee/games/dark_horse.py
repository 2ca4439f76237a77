"""Placeholder until the dark-horse ruleset lands."""
