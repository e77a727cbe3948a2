"""The one error a request's input can cause: which field is at fault, and why in words.

Engines raise it for inputs they cannot work with (a policy knob out of range, odds of an
impossible draw, a hand step that is not legal now), and so do the site's services; the web
layer turns it into the API's 400 or a page's form error in one place.
"""

from __future__ import annotations


class InputError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
