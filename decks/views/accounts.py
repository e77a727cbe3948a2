from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from cardsite.limits import throttle_page


def _posted(request: HttpRequest) -> bool:
    return request.method == "POST"


@throttle_page("signup", counts=_posted)
def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        login(request, form.save(), backend="django.contrib.auth.backends.ModelBackend")
        return redirect("catalogue:home")
    return render(request, "registration/signup.html", {"form": form})
