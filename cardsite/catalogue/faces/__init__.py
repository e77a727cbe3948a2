"""Generated card faces: a printable PNG of a card, with a QR code back to its short link.

The face is drawn from the catalogue's data alone, so every card has one, including cards
the rulebooks only name. Where each stat goes comes from the game engine's `FaceLayout`, which
follows the rulebook's card anatomy. Faces are cached under MEDIA_ROOT/faces/ in files named
after a hash of everything drawn, so an edited card never serves a stale face.

The parts: `data` (what a face shows), `words` (what it says), `palette`, `typesetting`,
`regions` (where each part goes), `drawing`, and `cache` (PNG bytes and files).
"""

from cardsite.catalogue.faces.cache import face_file, render_face
from cardsite.catalogue.faces.data import (
    FACE_FORMAT,
    FaceData,
    FactionMark,
    KeywordMark,
    face_data,
    face_version,
)
from cardsite.catalogue.faces.drawing import SAMPLE_BAND_COLOUR, SAMPLE_BAND_TEXT, _Face
from cardsite.catalogue.faces.palette import hex_rgb
from cardsite.catalogue.faces.regions import LANDSCAPE, PORTRAIT, Regions, regions
from cardsite.catalogue.faces.typesetting import FONT_DIR, Style, font

__all__ = [
    "FACE_FORMAT",
    "FONT_DIR",
    "LANDSCAPE",
    "PORTRAIT",
    "SAMPLE_BAND_COLOUR",
    "SAMPLE_BAND_TEXT",
    "FaceData",
    "FactionMark",
    "KeywordMark",
    "Regions",
    "Style",
    "_Face",
    "face_data",
    "face_file",
    "face_version",
    "font",
    "hex_rgb",
    "regions",
    "render_face",
]
