# `make run` serves the site on SQLite with every game's data; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

.PHONY: install run test lint clean browser serve-prod

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

# Production settings on this machine: PostgreSQL and Redis on loopback, gunicorn with 3
# workers, static files by whitenoise. Plain HTTP here, so cookies are not marked secure;
# behind a TLS proxy leave SECURE_COOKIES unset.
PROD_ENV = DJANGO_SETTINGS_MODULE=cardsite.settings.production \
	DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardsite \
	REDIS_URL=redis://127.0.0.1:6379/0 ALLOWED_HOSTS=127.0.0.1,localhost \
	SITE_URL=http://127.0.0.1:8000 SECURE_SSL_REDIRECT=false SECURE_COOKIES=false \
	SECRET_KEY="$$(cat .secret-key)"

.secret-key:
	$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(64))" > $@

serve-prod: install .secret-key
	psql -h 127.0.0.1 -U postgres -tc "SELECT 1 FROM pg_database WHERE datname = 'cardsite'" | grep -q 1 || \
	  psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE cardsite"
	$(PROD_ENV) $(BIN)/python manage.py migrate --noinput
	$(PROD_ENV) $(BIN)/python manage.py load_games
	$(PROD_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(PROD_ENV) $(BIN)/gunicorn cardsite.wsgi --workers 3 --bind 127.0.0.1:8000 --access-logfile -
