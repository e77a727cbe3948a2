// The goldfish page's simulation form: once sent, it says at once that it is working (the
// button off, "Simulating…" and a progress bar that runs without an end), so that even a
// simulation answered inline never looks frozen. A long one goes on to its job's page, which
// shows how far it has got.
(() => {
  "use strict";

  function working(form) {
    const button = form.querySelector("button[type=submit]");
    const status = form.querySelector(".simulating");
    if (!button || !status) return;
    button.disabled = true;
    status.replaceChildren(document.createTextNode("Simulating… "));
    const bar = document.createElement("progress");
    // No value: an indeterminate bar, since how long this takes is not known here.
    bar.setAttribute("aria-label", "Simulating");
    status.append(bar);
  }

  function ready(form) {
    const button = form.querySelector("button[type=submit]");
    if (button) button.disabled = false;
    form.querySelector(".simulating")?.replaceChildren();
  }

  for (const form of document.querySelectorAll("form.goldfish-form")) {
    form.addEventListener("submit", () => working(form));
    // Back to this page from the results (the browser's page cache): ready to send again.
    window.addEventListener("pageshow", (event) => event.persisted && ready(form));
  }
})();
