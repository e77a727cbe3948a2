# `make run` serves the site on SQLite with every game's data; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

.PHONY: install run test lint clean browser

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $(STAMP)

# Front-end libraries (htmx) come from npm at set-up; none are committed.
node_modules/.installed: package.json package-lock.json
	npm ci --silent --no-audit --no-fund
	touch $@

install: $(STAMP) node_modules/.installed

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_games
	$(BIN)/python manage.py dev_superuser
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: install lint browser
	$(BIN)/pytest

# The browser tests drive Debian's Chromium (Playwright's own browser download cannot be used).
browser:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "The browser tests need Chromium: sudo apt-get install chromium" >&2; exit 1; fi; }

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) db.sqlite3 .pytest_cache .ruff_cache .test-media
