// /decks/'s filter form: the format and faction lists follow the chosen game. Other games'
// options are hidden, and a choice that no longer fits is cleared before htmx sends the form
// (this listener runs before the form's, which the same event reaches by bubbling).
(() => {
  const form = document.querySelector("form.deck-filters");
  if (!form) return;
  const game = form.elements.namedItem("game");

  function follow(clear) {
    for (const name of ["format", "faction"]) {
      const select = form.elements.namedItem(name);
      for (const group of select.querySelectorAll("optgroup")) {
        const other = game.value !== "" && group.dataset.game !== game.value;
        group.hidden = other;
        group.disabled = other;
      }
      const chosen = select.selectedOptions[0];
      if (clear && chosen && chosen.parentElement.disabled) select.value = "";
    }
  }

  game.addEventListener("input", () => follow(true));
  game.addEventListener("change", () => follow(true));

  // A refused filter (400) names its limit where the results were; htmx swaps only 2xx
  // answers unless told.
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target.id === "deck-results" && event.detail.xhr.status === 400) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
