"""The Tabletop Simulator export checked against TTS's own save format, by a tool: TypeScript's
compiler with @typed-tabletop-simulator/declaration (the community's typed declarations of
TTS's object data: `DeckCustomData`, `CardCustomData`, `CustomDeckData`, `TransformData`,
and `ObjectName`, every object type TTS knows). Each object of a save becomes a typed object
literal, so tsc refuses a missing field (a card without CardID), a field of the wrong type,
a name TTS does not know and, with its excess-property check, any key the format lacks.

No PyPI or npm package validates a save itself: tabletop-tools (the issue's testers') unpacks
and repacks mods, tabletop-simulator-cli audits asset caches, and the JSON Schema of
matanlurey/tts-save-format is not published. The declarations omit one key real saves carry
on cards and decks, `SidewaysCard` (a horizontal card), which is added below, as said.
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from engines import ENGINES
from tests.decks.tts_support import game_deck, lone_card_deck, save_of

pytestmark = pytest.mark.django_db

NODE_MODULES = Path(settings.BASE_DIR) / "node_modules"
TSC = NODE_MODULES / ".bin" / "tsc"
DECLARATION = "@typed-tabletop-simulator/declaration"
HEADER = f"""/// <reference path="{NODE_MODULES / DECLARATION / "src" / "index.d.ts"}" />
// Real saves carry SidewaysCard on cards and decks; the declarations leave it out.
interface SavedCard extends CardCustomData {{ SidewaysCard?: boolean }}
interface SavedDeck extends DeckCustomData {{
  SidewaysCard?: boolean;
  ContainedObjects: SavedCard[];
}}
"""
TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        # Only our file is checked: the declarations lean on Lua-only helpers of their own.
        "skipLibCheck": True,
        # The declarations come in by the reference at the top of the file alone.
        "types": [],
        "moduleResolution": "node",
        "target": "es2020",
    },
    "files": ["check.ts"],
}


def typed(objects):
    """The objects as TypeScript, each a literal of its declared type. A string enum takes no
    string literal, so each Name must first satisfy ObjectName's values, then stands for it."""
    lines = [HEADER]
    for index, obj in enumerate(objects):
        kind = {"DeckCustom": "SavedDeck", "Card": "SavedCard"}.get(obj["Name"], "ObjectData")
        literal = re.sub(
            r'"Name": ("(?:[^"\\]|\\.)*")',
            r'"Name": (\1 satisfies `${ObjectName}`) as ObjectName',
            json.dumps(obj, ensure_ascii=False),
        )
        lines.append(f"export const object{index}: {kind} = {literal};")
    return "\n".join(lines) + "\n"


def tsc_verdict(objects, folder):
    """tsc's errors for these objects (empty: they are TTS's format)."""
    if not TSC.exists() or not (NODE_MODULES / DECLARATION).exists():
        pytest.fail(f"{TSC} or {DECLARATION} is missing: run `make install` (npm ci).")
    if shutil.which("node") is None:
        pytest.fail("node is not installed: tsc needs it.")
    (folder / "check.ts").write_text(typed(objects), encoding="utf-8")
    (folder / "tsconfig.json").write_text(json.dumps(TSCONFIG), encoding="utf-8")
    result = subprocess.run(
        [str(TSC), "-p", str(folder)], capture_output=True, text=True, timeout=300, check=False
    )
    return (result.stdout + result.stderr).strip()


@pytest.fixture
def owner():
    return User.objects.create_user("tabletop-format", password="x-Long-pass-9")


def lone_sigil_deck(owner):
    """Fate Foretold's Nest and one Sigil: the Sigils zone a single card."""
    deck, _ = lone_card_deck(
        owner, "fate-foretold", "nest", "nest", 2, 1, "sigils", name="Lone sigil"
    )
    return deck


def test_every_games_save_is_tabletop_simulators_object_format(client, owner, tmp_path):
    objects = []
    for slug in sorted(ENGINES):
        objects += save_of(client, game_deck(owner, slug))["ObjectStates"]
    objects += save_of(client, lone_sigil_deck(owner))["ObjectStates"]
    assert {obj["Name"] for obj in objects} == {"DeckCustom", "Card"}
    assert tsc_verdict(objects, tmp_path) == ""


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda o: o.update(DeckIds=o.pop("DeckIDs")), "'\"DeckIds\"' does not exist"),
        (lambda o: o["ContainedObjects"][0].pop("CardID"), "Property 'CardID' is missing"),
        (lambda o: o.update(Name="Decks"), "does not satisfy"),
        (
            lambda o: next(iter(o["CustomDeck"].values())).update(NumWidth="10"),
            "not assignable to type 'number'",
        ),
    ],
)
def test_the_check_refuses_what_tabletop_simulator_would_not_read(
    client, owner, tmp_path, change, complaint
):
    (deck_object,) = save_of(client, game_deck(owner, "conquest-of-orion"))["ObjectStates"]
    change(deck_object)
    assert complaint in tsc_verdict([deck_object], tmp_path)
