"""Accounts: who may take which username, and password reset mail that says when it failed."""

from __future__ import annotations

import logging
import smtplib
import unicodedata
from typing import Any

from confusable_homoglyphs import confusables
from django import forms
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.http import HttpRequest
from django.template import loader

log = logging.getLogger(__name__)

# One answer for a name that is taken and one too like another (or any) name, so the form
# tells no more than a sign-up must: that this name cannot be had.
NOT_AVAILABLE = "This username is not available; please choose another."


def signed_in(request: HttpRequest) -> User:
    """The viewer of a page behind login_required, as the User the write services take."""
    if not isinstance(request.user, User):
        raise PermissionDenied
    return request.user


def looks_like_another_script(username: str) -> bool:
    """Whether `username` could pass for a different name: it mixes scripts with letters
    that look alike (a Cyrillic a, U+0430, among Latin letters), or is written wholly in
    letters of another script that each look like a Latin one (Cyrillic U+0430 U+0440 U+0435
    for "ape")."""
    if confusables.is_dangerous(username):
        return True
    letters = {c for c in username if unicodedata.category(c).startswith("L")}
    foreign = {c for c in letters if not unicodedata.name(c, "").startswith("LATIN")}
    if not foreign:
        return False
    lookalikes = {
        found["character"]
        for found in confusables.is_confusable(username, greedy=True, preferred_aliases=["latin"])
        or []
    }
    return foreign <= lookalikes


class SignupForm(UserCreationForm):
    """Django's sign-up form (which already reads usernames NFKC-normalised and refuses one
    taken in any case), refusing names that look like another, and with an optional email for
    password resets. It never says whether an email is in use."""

    email = forms.EmailField(
        required=False,
        help_text="Optional; used only to send you a password reset link. Never shown.",
    )

    # django-stubs declare no Meta on UserCreationForm; Django's own has one, fields included.
    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        # Only called once the field itself is valid, so the name is there, NFKC-normalised.
        username: str = self.cleaned_data["username"]
        taken = User.objects.filter(username__iexact=username).exists()
        if taken or looks_like_another_script(username):
            raise ValidationError(NOT_AVAILABLE, code="not_available")
        return username


class MailNotSent(Exception):
    """The mail server could not be reached, or refused the mail."""


class ResetForm(PasswordResetForm):
    """Django's password reset form, but a mail that cannot be sent is an error to show, not
    a success (Django logs it and carries on).

    The mail server is reached before any account is looked up, so an outage fails alike
    for every address, known or not, and tells nobody which addresses have accounts."""

    connection: BaseEmailBackend | None = None

    def save(self, *args: Any, **kwargs: Any) -> None:
        connection = get_connection()
        try:
            connection.open()
            self.connection = connection
            super().save(*args, **kwargs)
        except (smtplib.SMTPException, OSError) as exc:
            log.exception("password reset mail not sent")
            raise MailNotSent(str(exc)) from exc
        finally:
            connection.close()

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        message = EmailMultiAlternatives(
            subject, body, from_email, [to_email], connection=self.connection
        )
        if html_email_template_name is not None:
            html = loader.render_to_string(html_email_template_name, context)
            message.attach_alternative(html, "text/html")
        message.send()
