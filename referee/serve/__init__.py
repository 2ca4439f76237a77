"""The process tree of `referee serve`: its children started in order and restarted when
one dies (supervisor), the embedded defaults beside a SQLite file (embedded: a Redis of
its own, the workers, the beat) and the production web server (server: gunicorn with
gevent workers, bounded bodies and connections per address).

Only the command line and the workers' process start it; it imports the app and
everything below it."""
