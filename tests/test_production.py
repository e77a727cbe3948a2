"""The production settings pass Django's deployment checklist with no warnings."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_check_deploy_is_clean_under_the_production_settings():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cardsite.settings.production",
        "SECRET_KEY": "x" * 60 + "-not-a-real-key-only-for-this-check-9a8b7c6d5e",
        "ALLOWED_HOSTS": "cards.example",
        "DATABASE_URL": "sqlite:////tmp/deploy-check.sqlite3",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
    }
    # Set by the browser tests for their own process; a deployment never has it.
    for name in ("SECURE_COOKIES", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
