# `make run` serves on the embedded defaults; `make test` runs lint, types and tests.
# Both create .venv and install the project into it first.
VENV   ?= .venv
PYTHON ?= python3
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/referee serve

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/store.py
	$(BIN)/python bench/rounds.py
	$(BIN)/python bench/verify.py
	$(BIN)/python bench/rulesets.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
