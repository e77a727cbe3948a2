# `make run` serves the site on SQLite with every game's data; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

.PHONY: install run test lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_games
	$(BIN)/python manage.py dev_superuser
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: install lint
	$(BIN)/pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) db.sqlite3 .pytest_cache .ruff_cache .test-media
