"""Background jobs' pages: progress that refreshes itself, then the result."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render

from decks.jobs import job_read
from decks.models import Job
from decks.reading.selectors import deck_for_reader


def _job(request: HttpRequest, key: str) -> Job:
    job = job_read(key=key, user=request.user)
    if job is None:
        raise Http404("No job with that id, or it is not yours.")
    if job.expired:
        raise Http404("This job has expired and its result was deleted; ask for it again.")
    return job


def job_detail(request: HttpRequest, key: str) -> HttpResponse:
    """A job's progress, refreshing itself until it ends; then its result's link."""
    job = _job(request, key)
    deck_key = job.params.get("deck") if job.kind == Job.Kind.GOLDFISH else None
    deck = deck_for_reader(deck_id=deck_key, user=request.user) if deck_key else None
    if job.kind == Job.Kind.PROXIES:
        title = f"Proxy sheet: {job.params['order']['title']}"
    else:
        title = f"Goldfish simulation: {deck.name}" if deck else "Goldfish simulation"
    context = {"job": job, "deck": deck, "title": title, "percent": round(job.fraction * 100)}
    return render(request, "decks/job.html", context)


def job_result(request: HttpRequest, key: str) -> HttpResponseBase:
    job = _job(request, key)
    if job.status != Job.Status.DONE or not job.result:
        return redirect(job)
    return FileResponse(
        job.result.open("rb"), content_type=job.result_type, filename=job.result_filename
    )
