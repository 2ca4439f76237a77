# `make run` serves on the embedded defaults (`make run PORT=8000` on another port);
# `make test` runs lint, types and tests. Both create .venv first: `run` installs what
# serving needs, `test` adds the test and bench tools.
VENV    ?= .venv
PYTHON  ?= python3
BIN     := $(VENV)/bin
SERVING := $(VENV)/.serving
STAMP   := $(VENV)/.installed
PORT    ?=

.PHONY: run test lint bench clean chromium fonts postgresql

# the browser tests drive Debian's chromium (no browser can be downloaded here)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(SERVING): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(SERVING)

$(STAMP): $(SERVING)
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

run: $(SERVING)
	$(BIN)/referee serve $(if $(PORT),--port $(PORT))

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

# bytecode caches written even where the environment says not to (PYTHONDONTWRITEBYTECODE):
# else every process the suite starts (xdist workers, servers, Celery workers, the CLI)
# compiles the project and rewrites the tests' asserts from source again
test: lint chromium fonts postgresql
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest

chromium:
	@command -v chromium >/dev/null || $(SUDO) apt-get install -y -q chromium \
		|| ($(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q chromium)

# the PostgreSQL store's tests start their own server (tests/postgres.py) with Debian's
# initdb and pg_ctl, which live in /usr/lib/postgresql/VERSION/bin, not on PATH
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || $(SUDO) apt-get install -y -q postgresql \
		|| ($(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q postgresql)

# board PNGs draw their text with the machine's fonts
fonts:
	@ls /usr/share/fonts/truetype/*/*.ttf >/dev/null 2>&1 || $(SUDO) apt-get install -y -q fonts-dejavu-core \
		|| ($(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q fonts-dejavu-core)

bench: $(STAMP)
	$(BIN)/python bench/store.py
	$(BIN)/python bench/postgres.py
	$(BIN)/python bench/rounds.py
	$(BIN)/python bench/verify.py
	$(BIN)/python bench/rulesets.py
	$(BIN)/python bench/web.py
	$(BIN)/python bench/edge.py
	$(BIN)/python bench/broker_down.py
	$(BIN)/python bench/pages.py
	$(BIN)/python bench/clocks.py
	$(BIN)/python bench/questions.py
	$(BIN)/python bench/notices.py
	$(BIN)/python bench/replay.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
