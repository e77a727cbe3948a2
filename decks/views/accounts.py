"""Account pages: sign-up, and the password reset request that says when mail failed."""

from django.contrib.auth import login
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.decorators import method_decorator

from cardsite.accounts import MailNotSent, ResetForm, SignupForm
from cardsite.limits import throttle_page


def _posted(request: HttpRequest) -> bool:
    return request.method == "POST"


@throttle_page("signup", counts=_posted)
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        login(request, form.save(), backend="django.contrib.auth.backends.ModelBackend")
        return redirect("catalogue:home")
    return render(request, "registration/signup.html", {"form": form})


@method_decorator(throttle_page("password_reset", counts=_posted), name="dispatch")
class PasswordReset(PasswordResetView):
    form_class = ResetForm

    def form_valid(self, form: ResetForm) -> HttpResponse:
        try:
            return super().form_valid(form)
        except MailNotSent:
            form.add_error(
                None,
                "We could not send the email just now, so no reset link went out. "
                "Please try again later.",
            )
            return self.form_invalid(form)


password_reset = PasswordReset.as_view()
