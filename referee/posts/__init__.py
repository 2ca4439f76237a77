"""What a play-by-post thread is told: a forum post of what happened since the last one
(forum), a round's public results (summary), both as Markdown or BBCode, and the
sentences the pages and the posts tell of each event (story).

Pure text from the public view and the public events: it imports the engine, nothing
else of the referee; the service and the pages use it."""
