"""Proxy PDFs as a printer, a phone and a PDF checker see them, through the real tools:
poppler's `pdftoppm` rasterises pages, zbar's `zbarimg` reads their QR codes, `qpdf --check`
checks the file's structure. They are Debian packages (poppler-utils, zbar-tools, qpdf) that
`make print-tools` and CI install; a test that needs one fails, naming it, when it is absent.

`qr_codes` reads each QR code drawn as vectors with pdfium, in millimetres: its symbol is the
bounding box of its dark modules (one filled path per code), without the quiet zone."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c

from decks.proxies import MM

PACKAGES = {"pdftoppm": "poppler-utils", "zbarimg": "zbar-tools", "qpdf": "qpdf"}
Box = tuple[float, float, float, float]  # left, bottom, right, top


def tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is missing: apt-get install {PACKAGES[name]} (or make print-tools)"
    return path


def rasterise(pdf: bytes, folder: Path, dpi: int = 150, pages: str = "") -> list[Path]:
    """Every page (or pages "N-M", counting from 1) as a PNG at `dpi`, in page order."""
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / "sheet.pdf"
    source.write_bytes(pdf)
    first, _, last = pages.partition("-")
    chosen = ["-f", first, "-l", last or first] if pages else []
    subprocess.run(
        [tool("pdftoppm"), "-r", str(dpi), *chosen, "-png", str(source), str(folder / "page")],
        check=True,
        capture_output=True,
    )
    # pdftoppm pads the page numbers to one width, so their names sort in page order.
    return sorted(folder.glob("page-*.png"))


def scan(png: Path) -> list[str]:
    """The text of every QR code zbar reads on the picture."""
    result = subprocess.run(
        [tool("zbarimg"), "--quiet", "--raw", "--nodbus", "-Sdisable", "-Sqrcode.enable", png],
        capture_output=True,
        text=True,
    )
    assert result.returncode in (0, 4), result.stderr  # 4: no code found
    return result.stdout.splitlines()


def qpdf_check(pdf: bytes, folder: Path) -> subprocess.CompletedProcess[str]:
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / "checked.pdf"
    source.write_bytes(pdf)
    return subprocess.run([tool("qpdf"), "--check", source], capture_output=True, text=True)


@dataclass(frozen=True)
class QrCode:
    symbol: Box  # the dark modules' bounding box, in mm from the page's bottom-left
    quiet: Box  # the white square drawn under it


@dataclass(frozen=True)
class Page:
    size: tuple[float, float]  # mm
    codes: list[QrCode]
    others: list[Box]  # everything else drawn, in mm: text, lines, shapes, images


def _fill(obj: pypdfium2.PdfObject) -> tuple[int, int, int] | None:
    """The fill colour of a filled path, or None for a path drawn only as a line."""
    mode, stroke = ctypes.c_int(), ctypes.c_int()
    pdfium_c.FPDFPath_GetDrawMode(obj.raw, mode, stroke)
    if not mode.value:
        return None
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    pdfium_c.FPDFPageObj_GetFillColor(obj.raw, r, g, b, a)
    return r.value, g.value, b.value


def _inside(inner: Box, outer: Box) -> bool:
    return (
        outer[0] <= inner[0]
        and outer[1] <= inner[1]
        and inner[2] <= outer[2]
        and inner[3] <= outer[3]
    )


def read_pages(pdf: bytes) -> list[Page]:
    """Each page's QR codes and the boxes of everything else on it, in millimetres."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = []
        for page in document:
            boxes = []
            for obj in page.get_objects():
                box = tuple(v / MM for v in obj.get_bounds())
                fill = _fill(obj) if obj.type == pdfium_c.FPDF_PAGEOBJ_PATH else None
                boxes.append((box, fill))
            whites = [box for box, fill in boxes if fill == (255, 255, 255)]
            codes, others = [], []
            for box, fill in boxes:
                # Black fills are the codes' modules: nothing else on a sheet is black and filled.
                squares = [w for w in whites if _inside(box, w)] if fill == (0, 0, 0) else []
                if squares:
                    codes.append(QrCode(box, min(squares, key=lambda w: w[2] - w[0])))
                elif fill != (255, 255, 255):
                    others.append(box)
            width, height = page.get_size()
            pages.append(Page((width / MM, height / MM), codes, others))
        return pages
    finally:
        document.close()


def edge_distance(box: Box, size: tuple[float, float]) -> float:
    """The least distance from the box to an edge of the paper."""
    left, bottom, right, top = box
    return min(left, bottom, size[0] - right, size[1] - top)
