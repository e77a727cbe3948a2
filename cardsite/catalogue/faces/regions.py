"""Where each part of a face goes, portrait or landscape."""

from __future__ import annotations

from dataclasses import dataclass

Box = tuple[int, int, int, int]

# 63 x 88 mm, the size of a standard playing card, at about 300 dpi.
PORTRAIT = (750, 1050)
LANDSCAPE = (1050, 750)

FRAME = 36
GAP = 8
QR_PANEL = 232


@dataclass(frozen=True)
class Regions:
    size: tuple[int, int]
    title: Box
    art: Box
    type_line: Box
    text: Box
    info: Box
    qr: Box
    band: Box


def regions(landscape: bool) -> Regions:
    if not landscape:
        width, height = PORTRAIT
        left, right, bottom = FRAME, width - FRAME, height - FRAME
        qr_top = bottom - QR_PANEL
        return Regions(
            size=PORTRAIT,
            title=(left, FRAME, right, 130),
            art=(left, 138, right, 470),
            type_line=(left, 478, right, 530),
            text=(left, 538, right, qr_top - GAP),
            info=(left, qr_top, right - QR_PANEL - GAP, bottom),
            qr=(right - QR_PANEL, qr_top, right, bottom),
            band=(0, 470 - 78, width, 470 - 22),
        )
    width, height = LANDSCAPE
    left, right, bottom = FRAME, width - FRAME, height - FRAME
    column = 458
    qr_top = bottom - QR_PANEL
    return Regions(
        size=LANDSCAPE,
        title=(left, FRAME, right, 130),
        art=(left, 138, column - GAP, bottom),
        type_line=(column, 138, right, 190),
        text=(column, 198, right, qr_top - GAP),
        info=(column, qr_top, right - QR_PANEL - GAP, bottom),
        qr=(right - QR_PANEL, qr_top, right, bottom),
        band=(0, bottom - 78, column - GAP, bottom - 22),
    )
