from django.urls import path, register_converter

from decks import views


class Digits:
    """A run of ASCII digits, passed on as written, for the view to read against its own limit
    and name it: `int` would pass any length on (or, past 4,300 digits, match no URL at all)."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: int | str) -> str:
        return str(value)


register_converter(Digits, "digits")

app_name = "decks"

urlpatterns = [
    path("decks/", views.public_decks, name="public"),
    path("decks/mine/", views.my_decks, name="mine"),
    path("decks/new/", views.deck_new, name="new"),
    # Before decks/<id>/: "compare" is no deck's id.
    path("decks/compare/", views.deck_compare, name="compare"),
    path("decks/<str:deck_id>/", views.deck_detail, name="deck"),
    path("decks/<str:deck_id>/history/", views.deck_history, name="history"),
    path("decks/<str:deck_id>/history/diff/", views.deck_diff, name="diff"),
    path("decks/<str:deck_id>/history/revert/", views.deck_revert_view, name="revert"),
    path(
        "decks/<str:deck_id>/history/<digits:number>/note/",
        views.version_note_view,
        name="version-note",
    ),
    path("decks/<str:deck_id>/proxies.pdf", views.deck_proxies, name="proxies"),
    path("decks/<str:deck_id>/proxies/", views.deck_proxies_form, name="proxies-form"),
    path(
        "decks/<str:deck_id>/registration.pdf",
        views.deck_registration_pdf,
        name="registration",
    ),
    path(
        "decks/<str:deck_id>/proxies-preview.png",
        views.deck_proxies_preview,
        name="proxies-preview",
    ),
    path("decks/<str:deck_id>/export.<str:extension>", views.deck_export_file, name="export-file"),
    path("decks/<str:deck_id>/tts.json", views.deck_tts_file, name="tts-file"),
    path("decks/<str:deck_id>/tts/<str:digest>.png", views.deck_tts_sheet, name="tts-sheet"),
    path("decks/<str:deck_id>/og.png", views.deck_og_image, name="og-image"),
    path("decks/<str:deck_id>/goldfish/", views.deck_goldfish, name="goldfish"),
    path("decks/<str:deck_id>/playtest/", views.deck_playtest, name="playtest"),
    path("decks/<str:deck_id>/edit/", views.deck_edit, name="edit"),
    path("decks/<str:deck_id>/edit/card/", views.deck_edit_card, name="edit-card"),
    path("decks/<str:deck_id>/edit/maybe/", views.deck_edit_maybe, name="edit-maybe"),
    path("decks/<str:deck_id>/edit/settings/", views.deck_edit_settings, name="edit-settings"),
    path("decks/<str:deck_id>/edit/import/", views.deck_import, name="import"),
    path("decks/<str:deck_id>/edit/undo/", views.deck_undo_view, name="undo"),
    path("decks/<str:deck_id>/edit/redo/", views.deck_redo_view, name="redo"),
    path("decks/<str:deck_id>/edit/checkpoint/", views.deck_checkpoint_view, name="checkpoint"),
    path("decks/<str:deck_id>/build/", views.deck_build_view, name="build"),
    path("decks/<str:deck_id>/missing.txt", views.deck_missing_file, name="missing-file"),
    path("decks/<str:deck_id>/fork/", views.deck_fork_view, name="fork"),
    path("decks/<str:deck_id>/variants/", views.deck_variants, name="variants"),
    path("decks/<str:deck_id>/delete/", views.deck_delete_view, name="delete"),
    path("decks/<str:deck_id>/restore/", views.deck_restore_view, name="restore"),
    path("jobs/<str:key>/", views.job_detail, name="job"),
    path("jobs/<str:key>/result", views.job_result, name="job-result"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/printing/", views.printing_profile, name="printing"),
    path("proxies/calibration.pdf", views.calibration_pdf, name="calibration"),
]
