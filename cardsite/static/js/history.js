// The history page works without JavaScript: Revert is a plain form. This asks first, since a
// revert makes a new version at once (the old ones stay, so saying no loses nothing).
"use strict";

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
  if (!window.confirm(form.dataset.confirm)) event.preventDefault();
});
