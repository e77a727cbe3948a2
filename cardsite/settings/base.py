"""Settings shared by every environment, read from the environment as cookiecutter-django does.

Variables: DATABASE_URL (default: a SQLite file in the project), SECRET_KEY, DEBUG,
ALLOWED_HOSTS (comma separated), SITE_URL (the absolute base of short links and QR codes).
"""

from datetime import timedelta
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent
env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
# Only the local and test settings give a default key; production must set its own.
SECRET_KEY = env("SECRET_KEY")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = True
# Reuse connections between requests: opening one per request costs PostgreSQL several ms.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Web requests are many small queries: starting parallel workers or JIT-compiling a plan
    # costs more than running it (measured in tests/benchmarks/bench_search.py).
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = (
        "-c max_parallel_workers_per_gather=0 -c jit=off"
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent writers on one file (two tabs saving at once, the threaded `make run`):
    # readers never block writers in WAL mode; a write transaction takes the write lock when
    # it begins (IMMEDIATE), so it waits its turn up to the busy timeout instead of failing
    # at once when it upgrades from reading; and a write lock not had by then is a 503 with
    # Retry-After (cardsite.database.SqliteTransactions), never a 500. Safe methods' requests
    # begin DEFERRED, so pages read beside a write rather than queue behind it.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": env.float("SQLITE_BUSY_TIMEOUT", default=20.0),
            # WAL persists in the file; synchronous=NORMAL is WAL's safe setting (a power cut
            # may lose the last commits, never corrupt the file).
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        }
    )
DATABASES["default"]["CONN_HEALTH_CHECKS"] = DATABASES["default"]["CONN_MAX_AGE"] > 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # Its sitemap templates and Sitemap class (cardsite/seo.py).
    "django.contrib.sitemaps",
    # Trigram lookups and search types; inert on SQLite.
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    # Locks out repeated failed log-ins (django-axes), see AXES_* below.
    "axes",
    "cardsite.catalogue",
    "cardsite.collection",
    "cardsite.contributions",
    "decks",
    # Events take decks' locked versions: above decks, and nothing below imports it.
    "cardsite.events",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files straight from the app process, compressed and cached (whitenoise).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "cardsite.middleware.NulInPathIsNotFound",
    # A body past DATA_UPLOAD_MAX_MEMORY_SIZE: a 413 naming it (JSON under /api/).
    "cardsite.middleware.BodyTooLarge",
    "cardsite.middleware.TextHygiene",
    # Games loaded (load_games) since this process started are served without a restart.
    "cardsite.catalogue.live_games.GamesUpToDate",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A limit a page reached (cardsite/limits.py) as an HTML 429 naming it.
    "cardsite.limits.LimitReachedMiddleware",
    # SQLite only: read-only requests begin DEFERRED, and a write lock not had in time is a 503.
    "cardsite.database.SqliteTransactions",
    # Last, as django-axes asks: it turns a locked-out log-in into its lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "cardsite.urls"
WSGI_APPLICATION = "cardsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "cardsite" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # The visitor's colour theme, for <html data-theme> at first paint.
                "cardsite.theme.site_theme",
                # Unread notices and a curator's queue, in the header.
                "cardsite.contributions.context.contribution_counts",
            ],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a check: Django tells every validator when a password has been changed, by any
    # path (change, reset, admin, changepassword), which is the one place to revoke tokens.
    {"NAME": "cardsite.api.auth.RevokeTokensOnPasswordChange"},
    {"NAME": "cardsite.lockout.ClearLockoutOnPasswordChange"},
]

# Failed log-ins (site, admin and API token) lock by three rules (cardsite/lockout.py): a
# username from one address after LOGIN_FAILURE_LIMIT failures, an address after
# LOGIN_ADDRESS_FAILURE_LIMIT whatever the usernames, and a username from every address only
# after LOGIN_USERNAME_FAILURE_LIMIT (usernames are public; a new password lifts it). A lock
# lasts the cool-off from the last failure counted; failures made while locked out are not
# counted, so they neither prolong it nor add rows. Counted in the database (axes'
# AccessAttempt: one row per username, address and user agent, deleted once older than the
# cool-off), where the admin lists them and `manage.py axes_reset*` clears them.
AUTHENTICATION_BACKENDS = [
    "cardsite.lockout.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=20)
LOGIN_USERNAME_FAILURE_LIMIT = env.int("LOGIN_USERNAME_FAILURE_LIMIT", default=50)
AXES_HANDLER = "cardsite.lockout.LockoutHandler"
# Axes' own single limit, the highest of the three; the handler checks each rule's.
AXES_FAILURE_LIMIT = "cardsite.lockout.axes_failure_limit"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address", "username"]
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
# No row per successful log-in: nothing here reads them, and they would pile up for ever.
AXES_DISABLE_ACCESS_LOG = True
# The address as the API's throttles read it: X-Forwarded-For only as far as NUM_PROXIES.
AXES_CLIENT_IP_CALLABLE = "cardsite.limits.client_ip"
AXES_LOCKOUT_CALLABLE = "cardsite.lockout.lockout_response"

# The most a request may carry, files included (a card file proposed whole is the largest,
# cardsite/contributions/limits.py): past it the answer is a 413 before the body is read.
MAX_UPLOAD_BODY = env.int("MAX_UPLOAD_BODY", default=40 * 1024 * 1024 + 64 * 1024)

# Mail (password resets), from EMAIL_URL as django-environ reads it, e.g.
# smtp+tls://user:password@smtp.example.com:587; without it, Django's default, SMTP on
# localhost:25. The local and test settings print mail instead. A mail server that hangs must
# not hold a request for ever.
globals().update(env.email_url("EMAIL_URL", default="smtp://localhost:25"))
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="cardsite <noreply@localhost>")

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STATICFILES_DIRS = [
    BASE_DIR / "cardsite" / "static",
    # Installed by `npm ci` (make install), served as static/vendor/<name>/.
    ("vendor/htmx", BASE_DIR / "node_modules" / "htmx.org" / "dist"),
    ("vendor/chartjs", BASE_DIR / "node_modules" / "chart.js" / "dist"),
]
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "media")

# The games' folders (fixtures/<slug>/engine.toml and its data): the same environment variable
# engines/ reads, so load_games and the engines never look in two places.
FIXTURES_DIR = env.path("CARDSITE_GAMES_DIR", default=BASE_DIR / "fixtures")
# Where each game's rulebook (its engine's `rulebook`, a text file) is, to link from its page
# and serve as plain text; a rulebook not there is named without a link.
RULEBOOKS_DIR = env.path("RULEBOOKS_DIR", default=BASE_DIR / "rulebooks")
LOGIN_REDIRECT_URL = "catalogue:home"
LOGOUT_REDIRECT_URL = "catalogue:home"

# Per process unless REDIS_URL names a Redis shared by every process (production does).
CACHES: dict[str, dict[str, object]] = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "cardsite",
        "OPTIONS": {"MAX_ENTRIES": 50_000},
    }
}
if env("REDIS_URL", default=""):
    CACHES["default"] = {
        # Django's, reusing its Redis client (cardsite/cache.py).
        "BACKEND": "cardsite.cache.RedisCache",
        "LOCATION": env("REDIS_URL"),
        "KEY_PREFIX": "cardsite",
        "TIMEOUT": 3600,
    }

# Background jobs (big proxy sheets, long simulations). With no broker, the default, a job runs
# inline in the request that asks for it; with one (Redis), a Celery worker runs it and the
# client follows its status URL. Job state and results live in the database and media/, so
# Celery keeps no results of its own.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="")
CELERY_TASK_IGNORE_RESULT = True
# A job is taken off the queue only once it has run, and goes back on it if the worker process
# running it dies, so a dead worker does not lose it; decks.jobs.job_run runs such a job once
# more, then fails it. One at a time per worker process, since each is long.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A job running longer than this is failed (decks.jobs sweeps them) and its worker process is
# stopped (Celery's hard time limit, prefork pool only).
JOB_TIME_LIMIT_SECONDS = env.int("JOB_TIME_LIMIT_SECONDS", default=600)
CELERY_TASK_TIME_LIMIT = JOB_TIME_LIMIT_SECONDS
# Redis hands an unacknowledged task to another worker after this long; it must be longer than
# any job can run, or a live job would be run twice at once.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": max(3600, 2 * JOB_TIME_LIMIT_SECONDS)}
# Workers log through Django's LOGGING (JSON lines in production), like the web processes.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# A running job writes a heartbeat this often; one silent for JOB_HEARTBEAT_STALE_SECONDS lost
# its worker (or, without a broker, its web process) and is run once more, then failed. The
# threshold must leave room for a few missed beats on a busy machine.
JOB_HEARTBEAT_SECONDS = env.float("JOB_HEARTBEAT_SECONDS", default=10.0)
JOB_HEARTBEAT_STALE_SECONDS = env.float("JOB_HEARTBEAT_STALE_SECONDS", default=60.0)
# Celery's scheduler, which also says beat is alive for `manage.py check` (cardsite/celery.py),
# ticking at least as often as it must say so.
CELERY_BEAT_SCHEDULER = "cardsite.celery:LivenessScheduler"
CELERY_BEAT_MAX_INTERVAL = 10
CELERY_BEAT_SCHEDULE = {
    # Jobs whose worker died, found even when nobody polls them (decks.jobs.job_sweep).
    "sweep-jobs": {"task": "decks.tasks.sweep_jobs", "schedule": 30.0},
    "purge-expired-jobs": {"task": "decks.tasks.purge_expired_jobs", "schedule": 3600.0},
    # Decks deleted more than decks.models.DELETED_KEEP_DAYS ago (`manage.py purge_decks`).
    "purge-deleted-decks": {"task": "decks.tasks.purge_deleted_decks", "schedule": 86400.0},
    # Pool invitations unanswered for INVITATION_DAYS (`manage.py purge_invitations`).
    "purge-expired-invitations": {
        "task": "cardsite.collection.tasks.purge_expired_invitations",
        "schedule": 86400.0,
    },
}
# Games loaded (load_games) while a process runs are announced in the cache, which processes
# share only with Redis; a process also asks the database this often (seconds) whether the
# stored games changed, so a site on the default per-process cache catches up too. None: never.
GAMES_RECHECK_SECONDS = env.float("GAMES_RECHECK_SECONDS", default=10.0)
JOB_TTL_HOURS = env.int("JOB_TTL_HOURS", default=24)
# What counts as large: sheets of at least this many cards, simulations of at least this many
# runs. Below these, work is answered inline even when a broker is configured.
JOB_PROXY_CARDS = env.int("JOB_PROXY_CARDS", default=100)
# In units of work (GameEngine.goldfish_cost; this many is about 0.4 s here); games and policies
# weigh what they cost (engines.goldfish.work_of). Past it a simulation is a job, or without a
# broker a 400.
JOB_GOLDFISH_RUNS = env.int("JOB_GOLDFISH_RUNS", default=20_000)
# Background jobs one client (a user, or an address) may have queued or running at once.
JOB_MAX_ACTIVE_PER_CLIENT = env.int("JOB_MAX_ACTIVE_PER_CLIENT", default=2)
# Units of work (GameEngine.goldfish_cost) one core simulates a second, measured: what a
# simulation's time is estimated from.
GOLDFISH_WORK_PER_SECOND = env.float("GOLDFISH_WORK_PER_SECOND", default=50_000.0)
# Without a broker, the goldfish page simulates inline what is estimated to take at most this
# long; anything longer runs in a job thread of the web process, and the page shows progress.
GOLDFISH_INLINE_SECONDS = env.float("GOLDFISH_INLINE_SECONDS", default=1.0)
# Without a broker: threads each web process runs such jobs in, and the most such jobs queued
# or running on the site at once (past it a page is refused with a 429 naming the limit).
JOB_THREADS = env.int("JOB_THREADS", default=2)
JOB_THREAD_MAX_ACTIVE = env.int("JOB_THREAD_MAX_ACTIVE", default=8)

REST_FRAMEWORK = {
    # `format` is a deck format here (?format=constructed), not a renderer choice.
    "URL_FORMAT_OVERRIDE": None,
    # The API reads JSON, within bounds: nesting depth, no NUL or unpaired surrogate
    # (cardsite/api/parsers.py). Form bodies carry only strings, so a schema's integers and
    # booleans could not be held to their types; they are a 415.
    "DEFAULT_PARSER_CLASSES": ["cardsite.api.parsers.BoundedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Token first: a bad token then gets 401 with WWW-Authenticate, not a bare 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "cardsite.api.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # drf-spectacular's, plus the error responses every operation can give (cardsite/api/schema.py).
    "DEFAULT_SCHEMA_CLASS": "cardsite.api.schema.ApiSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "cardsite.api.pagination.StablePagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "cardsite.api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "cardsite.api.throttles.ScopedThrottle",
        "cardsite.api.throttles.SearchThrottle",
    ],
    # Per client (user, or address when anonymous) and scope; search is the strictest read.
    "DEFAULT_THROTTLE_RATES": {
        "read": env("THROTTLE_READ", default="1200/min"),
        "search": env("THROTTLE_SEARCH", default="120/min"),
        "write": env("THROTTLE_WRITE", default="120/min"),
        "validate": env("THROTTLE_VALIDATE", default="240/min"),
        "goldfish": env("THROTTLE_GOLDFISH", default="30/min"),
        "proxies": env("THROTTLE_PROXIES", default="30/min"),
        # Pages only: pictures drawn anew (Open Graph images, a game's back, the calibration
        # sheet); one read from its file is free.
        "images": env("THROTTLE_IMAGES", default="30/min"),
        # Card faces drawn anew (face.png), counted per face: about 0.14 s each, so 60 is
        # about 8 s of drawing a minute.
        "faces": env("THROTTLE_FACES", default="60/min"),
        # Card faces queued for Tabletop Simulator sheets, counted per face (a scaled copy of
        # a drawn one a tenth): enough for three fresh 70-card decks at once; each face is
        # drawn once for the whole site, by one thread per process.
        "tts": env("THROTTLE_TTS", default="240/min"),
        "auth": env("THROTTLE_AUTH", default="20/min"),
        "jobs": env("THROTTLE_JOBS", default="600/min"),
        # Pages only (cardsite/limits.py): sign-ups and password reset mails, per address.
        "signup": env("THROTTLE_SIGNUP", default="10/hour"),
        # Proposals to the catalogue, per user and (whoever is signed in) per address: a
        # reviewer reads each one, so the budget is a person's, not a script's.
        "proposals": env("THROTTLE_PROPOSALS", default="30/hour"),
        "proposals_address": env("THROTTLE_PROPOSALS_ADDRESS", default="60/hour"),
        "password_reset": env("THROTTLE_PASSWORD_RESET", default="5/hour"),
        # Events created, per organiser: enough for a store's busiest day, and a ceiling on
        # what one account can fill the public list with.
        "events": env("THROTTLE_EVENTS", default="10/day"),
    },
    # Rate limits key on the client's address. Without this, DRF believes any X-Forwarded-For
    # a client sends, and anyone could dodge every limit; behind one proxy, set it to 1.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
    "DEFAULT_VERSIONING_CLASS": "rest_framework.versioning.NamespaceVersioning",
    "ALLOWED_VERSIONS": ["v1"],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "cardsite API",
    "DESCRIPTION": (
        "Cards, sets and factions of five card games, and decks built from them. Anyone may "
        "read and search the catalogue, read public decks, and check a decklist "
        "(`POST /api/v1/decks/validate/`); with a token from `POST /api/v1/auth/token/`, sent "
        "as `Authorization: Token <token>` or `Authorization: Bearer <token>` (the same "
        "token), you create, replace, change, delete, export and fork your own decks "
        "(`POST /api/v1/decks/` answers 201 with the new deck's URL in `Location`). Goldfish "
        "simulations, odds and proxy sheets are open too. Request bodies are JSON, but for a "
        "collection's CSV file (`POST /api/v1/collection/import/csv/`, multipart). Proxy "
        "sheets answer `application/pdf` and `image/png`: a generated client should read "
        "them as bytes (for openapi-python-client, `content_type_overrides` mapping both to "
        "`application/octet-stream`). No text in a request (a value, a property name, a "
        "query string) may hold a NUL character or an unpaired surrogate: such a request is "
        "a 400."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from our own static files, not a CDN (the content security policy allows
    # only this site's scripts).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    "COMPONENT_SPLIT_REQUEST": True,
    # Rules across a request's fields (oneOf and the like), added once enums are named.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "cardsite.api.schema.add_rules_across_fields",
        # The 400s a well-formed request can still get, in each operation's description.
        "cardsite.api.refusals.describe_refusals",
    ],
    # Two models have a `kind` choice; name their enums instead of letting them collide.
    "ENUM_NAME_OVERRIDES": {
        "FactionKindEnum": "cardsite.catalogue.models.Faction.Kind",
        "KeywordKindEnum": "cardsite.catalogue.models.Keyword.Kind",
        "ProposalKindEnum": "cardsite.contributions.models.Proposal.Kind",
        "ProposableKindEnum": "cardsite.contributions.api.serializers.KINDS",
        "SourceKindEnum": "cardsite.contributions.models.Proposal.Source",
        "EventVisibilityEnum": "cardsite.events.models.Event.Visibility",
        # A deck's keeps the name it had before events brought a second visibility.
        "VisibilityEnum": ["private", "unlisted", "public"],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(levelname)s %(asctime)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"level": "INFO", "handlers": ["console"]},
}
