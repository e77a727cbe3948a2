# `make run` serves the site on SQLite with every game's data; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

.PHONY: install run test suite lint clean tools serve-prod docs docs-serve

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
	# Faces not drawn yet are drawn in the background (about a minute for every game's
	# cards, once), so the builder's pool and the search grid do not meet the per-visitor
	# limit of faces drawn a minute on a fresh checkout.
	$(BIN)/python manage.py draw_faces >/dev/null & \
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: tools install lint suite

# The suite alone, on a machine already set up: CI runs the PostgreSQL one beside `make test`.
suite: install
	$(BIN)/pytest

# Debian's packages the set-up and the tests use (Chromium, npm, a Java runtime for the Nu
# checker, poppler, zbar and qpdf for the proxy sheets): installed where missing, one list
# shared with CI.
tools:
	@bash .ci/system-tools

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict engines
	$(BIN)/mypy decks cardsite

# The documentation site (docs/pages/, configured by docs/mkdocs.yml) into .site/. --strict
# turns every warning into a failure: a broken link or anchor, or a page missing from the nav.
docs: install
	$(BIN)/mkdocs build --strict --quiet -f docs/mkdocs.yml

docs-serve: install
	$(BIN)/mkdocs serve -f docs/mkdocs.yml -a 127.0.0.1:8001

clean:
	rm -rf $(VENV) db.sqlite3 .pytest_cache .ruff_cache .test-media .site

# Production settings on this machine: PostgreSQL and Redis on loopback, gunicorn with 3
# workers, a Celery worker for background jobs, static files by whitenoise. Plain HTTP
# here, so cookies are not marked secure; behind a TLS proxy leave SECURE_COOKIES unset.
PROD_ENV = DJANGO_SETTINGS_MODULE=cardsite.settings.production \
	DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardsite \
	REDIS_URL=redis://127.0.0.1:6379/0 CELERY_BROKER_URL=redis://127.0.0.1:6379/1 \
	ALLOWED_HOSTS=127.0.0.1,localhost \
	SITE_URL=http://127.0.0.1:8000 SECURE_SSL_REDIRECT=false SECURE_COOKIES=false \
	SECRET_KEY="$$(cat .secret-key)"

.secret-key:
	$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(64))" > $@

# A Celery worker (with beat, for the sweep of jobs whose worker died and the hourly purge of
# expired jobs) runs beside gunicorn and stops when gunicorn does.
serve-prod: install .secret-key
	psql -h 127.0.0.1 -U postgres -tc "SELECT 1 FROM pg_database WHERE datname = 'cardsite'" | grep -q 1 || \
	  psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE cardsite"
	$(PROD_ENV) $(BIN)/python manage.py migrate --noinput
	$(PROD_ENV) $(BIN)/python manage.py load_games
	$(PROD_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(PROD_ENV) $(BIN)/python manage.py draw_faces
	$(PROD_ENV) $(BIN)/celery -A cardsite worker --beat --concurrency 1 --loglevel INFO \
	  --schedule $(VENV)/celerybeat-schedule & worker=$$!; trap 'kill $$worker' EXIT; \
	$(PROD_ENV) $(BIN)/gunicorn cardsite.wsgi --workers 3 --bind 127.0.0.1:8000 --access-logfile -

# Load test under the production settings (tests/benchmarks/load_test.py): wrk against gunicorn,
# PostgreSQL and Redis on loopback, on a database (cardsite_load) and Redis DB (3) of its own.
# Installs wrk when run as root; fails if any request errs or times out at 64 connections.
.PHONY: loadtest loadtest-hostile
loadtest: install
	$(BIN)/python tests/benchmarks/load_test.py

# The same stack under a mix of the endpoints from 64 connections, without and then with 10%
# of the requests the worst ones the limits allow (tests/benchmarks/load_mix.py): the ordinary
# requests' p50/p99 side by side. Fails if any ordinary request fails or a hostile one gets a 5xx.
loadtest-hostile: install
	$(BIN)/python tests/benchmarks/load_test.py --hostile-mix

# Every user, API token and deck to backups/decks-<UTC time>.json.gz, cards named by short id.
# To restore into a fresh database: migrate, load_games (and import_cards for any other
# sets), then `manage.py restore_decks FILE`, which checks the whole file first and restores
# all or nothing. backup-prod reads the production database (PROD_ENV above).
.PHONY: backup backup-prod
backup: install
	mkdir -p backups
	$(BIN)/python manage.py backup_decks backups/decks-$$(date -u +%Y%m%dT%H%M%SZ).json.gz

backup-prod: install .secret-key
	mkdir -p backups
	$(PROD_ENV) $(BIN)/python manage.py backup_decks backups/decks-$$(date -u +%Y%m%dT%H%M%SZ).json.gz
