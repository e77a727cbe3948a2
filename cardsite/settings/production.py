"""Production: PostgreSQL and Redis from the environment, gunicorn and whitenoise, and every
security setting `manage.py check --deploy` asks for. Nothing insecure by default."""

from cardsite.settings.base import *  # noqa: F403
from cardsite.settings.base import INSTALLED_APPS, MIDDLEWARE, env

DEBUG = False
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
# Secure cookies unless told otherwise; only `make serve-prod` (plain HTTP on loopback) does.
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
SESSION_COOKIE_HTTPONLY = True
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Content security policy (django-csp): only this site's own scripts, styles and images.
# 'unsafe-eval' is for htmx's `js:` values (the deck builder reads the live deck version);
# 'unsafe-inline' styles are the card pages' faction colours, set per element.
INSTALLED_APPS = [*INSTALLED_APPS, "csp"]
# Before django-axes, which must stay last: its lockout page gets the policy too.
MIDDLEWARE = [*MIDDLEWARE[:-1], "csp.middleware.CSPMiddleware", MIDDLEWARE[-1]]
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", "'unsafe-eval'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Structured logs: one JSON object a line, for whatever collects them.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
        }
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json"}},
    "root": {"level": "INFO", "handlers": ["console"]},
}
