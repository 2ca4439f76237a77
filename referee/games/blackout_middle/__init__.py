"""Blackout Middle: 9 players bet chips on horses A-I racing unseen on a 15-space track.

Building blocks only (race, scoring); the ruleset itself and its registration come once
the engine resolves simultaneous rounds. Decisions: ../shared/rules/README.md.
"""
