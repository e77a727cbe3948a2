"""Mail backends that fail, standing in for a mail server that is down or refuses a mail."""

import smtplib

from django.core.mail.backends.base import BaseEmailBackend


class DownBackend(BaseEmailBackend):
    """The mail server cannot be reached."""

    def open(self):
        raise smtplib.SMTPConnectError(421, "Service not available")

    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


class RefusingBackend(BaseEmailBackend):
    """The mail server is there but refuses the mail."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPDataError(554, "Transaction failed")
