"""Background jobs: proxy sheets of big decks and long goldfish simulations.

A job is asked for with job_submit. With CELERY_BROKER_URL set, a Celery worker runs it (see
decks.tasks) and the client follows its status URL; without a broker, the default, it runs
right away in the asking process, so the same URLs work on a one-process site, or, for a
goldfish page's simulation estimated past GOLDFISH_INLINE_SECONDS, in a small pool of
threads of the web process (JOB_THREADS of them, at most JOB_THREAD_MAX_ACTIVE such jobs at
once), so that the page can show its progress instead of sitting blank. Results are
files under media/jobs/, readable until the job expires (JOB_TTL_HOURS after it ends), when
job_purge_expired removes the row and the file.

Bounds: one client may have JOB_MAX_ACTIVE_PER_CLIENT jobs queued or running at once; a job
running past JOB_TIME_LIMIT_SECONDS is failed; a job whose worker died is run once more, then
failed: it is found by its silent heartbeat (heartbeat, and job_sweep).

One module per step of a job's life: asked for (asking), handed to a worker or a thread
(starting), run (running), kept alive (heartbeat) and settled or purged (settling). Celery's
tasks stay in decks/tasks.py, where Celery finds them by name.
"""

from decks.jobs.asking import goldfish_job, goldfish_seconds, job_submit, proxies_job
from decks.jobs.heartbeat import HEARTBEAT
from decks.jobs.running import Progress, job_run
from decks.jobs.settling import job_fail_overdue, job_purge_expired, job_read, job_sweep
from decks.jobs.starting import RUN_JOB, broker_configured

__all__ = [
    "HEARTBEAT",
    "RUN_JOB",
    "Progress",
    "broker_configured",
    "goldfish_job",
    "goldfish_seconds",
    "job_fail_overdue",
    "job_purge_expired",
    "job_read",
    "job_run",
    "job_submit",
    "job_sweep",
    "proxies_job",
]
