// A running job's page follows the job in place: every two seconds it reads the page again and
// puts the new status and progress bar where the old ones were (a live region reads them
// out), rather than reloading the whole page, which would move the reader's focus. When a
// simulation of a deck ends, its results open; without JavaScript the page refreshes itself.
(() => {
  "use strict";

  const EVERY_MS = 2000;

  async function follow() {
    const status = document.querySelector("div.job");
    if (!status) return;
    let fresh;
    try {
      const response = await fetch(window.location.href, { headers: { Accept: "text/html" } });
      if (!response.ok) throw new Error(String(response.status));
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      fresh = page.querySelector("div.job");
    } catch {
      // A lost connection or a busy server: try again at the next tick.
      window.setTimeout(follow, EVERY_MS);
      return;
    }
    if (!fresh) return;
    status.className = fresh.className;
    status.replaceChildren(...fresh.childNodes);
    if (fresh.matches(".job-done, .job-failed")) {
      const results = status.querySelector("a[data-results]");
      if (results) window.location.assign(results.href);
      return;
    }
    window.setTimeout(follow, EVERY_MS);
  }

  window.setTimeout(follow, EVERY_MS);
})();
