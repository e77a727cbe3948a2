"""The two HTML checkers the browser tests run over a folder of saved pages, each started once
for the whole folder (a JVM start per page would cost seconds each): the W3C Nu checker
(vnu.jar, from npm's vnu-jar; it needs a Java runtime, which .ci/run installs) and
html-validate (npm, with the project's .htmlvalidate.mjs). Each returns its findings as
lines that name the page, the line and the message, so a failure can be fixed as read."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
HTML_VALIDATE = ROOT / "node_modules" / ".bin" / "html-validate"
CONFIG = ROOT / ".htmlvalidate.mjs"
# One JSON report for the whole folder on stdout; the exit code is ours to decide.
VNU_OPTIONS = [
    "--format",
    "json",
    "--stdout",
    "--errors-only",
    "--exit-zero-always",
    "--skip-non-html",
]
HTML_VALIDATE_OPTIONS = ["--formatter", "json", "--ext", "html"]


def _tool(path: Path, what: str) -> None:
    if not path.exists():
        pytest.fail(f"{what} is not installed at {path}: `make install` runs npm ci")


def nu_errors(folder: Path) -> list[str]:
    """The Nu checker's errors (not its warnings) on every .html file in folder."""
    java = shutil.which("java")
    if java is None:
        pytest.fail("The Nu checker needs Java: .ci/run installs default-jre-headless")
    _tool(VNU, "vnu.jar")
    run = subprocess.run(
        [java, "-jar", str(VNU), *VNU_OPTIONS, str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0 or not run.stdout.strip():
        pytest.fail(f"vnu.jar did not run (exit {run.returncode}): {run.stderr[-2000:]}")
    found = []
    for message in json.loads(run.stdout)["messages"]:
        page = Path(message.get("url", "?")).name
        line = message.get("lastLine", "?")
        extract = " ".join(message.get("extract", "").split())[:160]
        found.append(f"{page}:{line}: {message['message']}\n      {extract}")
    return sorted(found)


def html_validate_errors(folder: Path) -> list[str]:
    """html-validate's errors on every .html file in folder, under .htmlvalidate.mjs."""
    _tool(HTML_VALIDATE, "html-validate")
    run = subprocess.run(
        [str(HTML_VALIDATE), "--config", str(CONFIG), *HTML_VALIDATE_OPTIONS, str(folder)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    # Exit 1 means it found errors; anything else, or no report, means it did not run.
    if run.returncode not in (0, 1) or not run.stdout.strip():
        pytest.fail(f"html-validate did not run (exit {run.returncode}): {run.stderr[-2000:]}")
    found = []
    for result in json.loads(run.stdout):
        page = Path(result["filePath"]).name
        for message in result["messages"]:
            if message["severity"] < 2:
                continue
            selector = message.get("selector") or ""
            found.append(
                f"{page}:{message['line']}: {message['ruleId']}: {message['message']} {selector}"
            )
    return sorted(found)
