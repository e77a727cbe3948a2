// The review queue from the keyboard: j/k move between proposals, a approves the focused
// one (a stale one opens instead, where the curator chooses its values), r goes to its
// reason box, Enter opens it. The forms work without this file.
(function () {
  "use strict";
  const queue = document.querySelector("[data-queue]");
  if (!queue) return;
  const rows = Array.from(queue.querySelectorAll(".queue-row"));
  let current = -1;

  function focusRow(index) {
    if (!rows.length) return;
    current = Math.max(0, Math.min(rows.length - 1, index));
    rows.forEach((row, i) => row.classList.toggle("focused", i === current));
    rows[current].focus();
    rows[current].scrollIntoView({ block: "nearest" });
  }

  function typing(target) {
    return target.closest("input, textarea, select, [contenteditable]") !== null;
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const row = rows[current];
    switch (event.key) {
      case "j": focusRow(current + 1); break;
      case "k": focusRow(current < 0 ? 0 : current - 1); break;
      case "a":
        if (!row) return;
        if (row.hasAttribute("data-stale")) window.location.href = row.dataset.href;
        else row.querySelector("form button[data-action=approve]").form.requestSubmit();
        break;
      case "r":
        if (!row) return;
        row.querySelector("[data-reason]").focus();
        break;
      case "Enter":
        if (!row || event.target !== row) return;
        window.location.href = row.dataset.href;
        break;
      default: return;
    }
    event.preventDefault();
  });

  rows.forEach((row, i) => row.addEventListener("focusin", () => {
    current = i;
    rows.forEach((r, j) => r.classList.toggle("focused", j === i));
  }));
})();
