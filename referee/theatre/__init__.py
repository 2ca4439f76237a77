"""Showing recorded games: the replay theatre's stage, a whole log to step through as any
viewer saw it then (stage), board pictures as SVG and as the PNG a forum post attaches
(boards), and importing a recorded log, verified first (imports).

The pages and the API use it; it stands on the service and everything below it."""
