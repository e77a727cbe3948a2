// The deck builder with JavaScript: every edit goes through one queue (so fast clicks and key
// presses apply in order, each against the version the previous one left), is recorded for
// undo (the deck's cards and the planned ones beside it), and swaps the deck panel through htmx. Without this file every control is a plain
// form or link and the page works the same, a page load at a time.
(() => {
  "use strict";

  const builder = document.getElementById("builder");
  if (!builder || !window.htmx) return;

  const HISTORY = 20;
  const undoStack = [];
  const redoStack = [];
  let queue = Promise.resolve();

  const $ = (id) => document.getElementById(id);
  const panel = () => $("deck-panel");
  const results = () => $("builder-results");
  const search = $("builder-q");
  const dialog = $("shortcuts");
  const undoButton = $("undo");
  const redoButton = $("redo");
  const status = $("tools-status");

  // localStorage can be unavailable (private modes, blocked storage): then choices last
  // only as long as the URL carries them.
  const stored = (key) => {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  const store = (key, value) => {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      /* not kept: the URL still has it */
    }
  };

  const url = new URL(window.location.href);
  const state = {
    group: url.searchParams.get("group") || stored("builder.group") || panel().dataset.group,
    view: url.searchParams.get("view") || stored("builder.view") || results().dataset.view,
  };
  const query = () => results()?.dataset.q || "";

  function pageUrl(changes = {}) {
    const next = new URL(builder.dataset.editUrl, window.location.href);
    const values = { q: query(), group: state.group, view: state.view, ...changes };
    for (const [key, value] of Object.entries(values)) {
      if (value) next.searchParams.set(key, value);
    }
    return next;
  }

  // The search form carries the choices too, and the address shows them once made.
  function syncChoices(address = true) {
    for (const key of ["group", "view"]) {
      const input = document.querySelector(`.builder-find input[name=${key}]`);
      if (input) input.value = state[key];
    }
    if (address) window.history.replaceState(window.history.state, "", pageUrl());
  }

  // One change at a time, in the order asked for.
  function enqueue(job) {
    queue = queue
      .then(job)
      .catch((error) => {
        console.error(error);
        say("That change could not be made; the deck is as shown.");
      })
      .then(refreshTools);
    return queue;
  }

  function post(action, values) {
    return htmx.ajax("POST", action, {
      source: builder,
      target: "#deck-panel",
      swap: "outerHTML",
      values: { ...values, version: panel().dataset.version, q: query(), ...state },
    });
  }

  function say(text) {
    status.textContent = text;
  }

  // The panel is replaced whole, so its own live region is new each time and may go unread:
  // the toolbar's status, which stays, says where the deck now stands.
  function announce(prefix) {
    const cards = panel().querySelector(".counts strong")?.textContent ?? "0";
    const verdict = $("legality")?.textContent.trim() ?? "";
    say(`${prefix}${cards} card${cards === "1" ? "" : "s"}, ${verdict}.`);
  }

  function refreshTools() {
    undoButton.disabled = undoStack.length === 0;
    redoButton.disabled = redoStack.length === 0;
    undoButton.title = `Undo (${undoStack.length} of the last ${HISTORY} changes)`;
    redoButton.title = `Redo (${redoStack.length})`;
    showCounts();
  }

  function forgetHistory() {
    undoStack.length = 0;
    redoStack.length = 0;
    say("The deck changed elsewhere; undo starts again from here.");
  }

  // Where focus goes when the row it was on leaves the deck: the next row, else the previous.
  function rememberFocus() {
    const active = document.activeElement;
    const row = active?.closest?.("li.deck-row");
    if (!row) return null;
    const rows = [...panel().querySelectorAll("li.deck-row")];
    const i = rows.indexOf(row);
    return { id: active.id, near: [rows[i + 1], rows[i - 1]].filter(Boolean).map((r) => r.id) };
  }

  function restoreFocus(memory) {
    if (!memory) return;
    const same = memory.id && $(memory.id);
    if (same) {
      if (document.activeElement !== same) same.focus({ preventScroll: true });
      return;
    }
    for (const id of memory.near) {
      const link = $(`${id}-name`);
      if (link) {
        link.focus();
        return;
      }
    }
    search.focus();
  }

  // What undo returns to: the deck's code and the planned cards, and the two as the panel
  // compares them.
  const recorded = () => ({
    code: panel().dataset.code,
    maybe: panel().dataset.maybe,
    state: panel().dataset.state,
  });

  function edit(action, values, record) {
    return enqueue(async () => {
      const before = recorded();
      const focus = rememberFocus();
      await post(action, values);
      const now = panel();
      if (now.dataset.conflict) {
        forgetHistory();
      } else if (record && now.dataset.state !== before.state) {
        undoStack.push(before);
        if (undoStack.length > HISTORY) undoStack.shift();
        redoStack.length = 0;
        announce("");
      }
      restoreFocus(focus);
    });
  }

  // Undo and redo put back a recorded deck by its code, and its planned cards, through the
  // import form's endpoint, checked against the version shown like any other edit: a move
  // between the deck and the plan is undone as one change.
  function travel(from, to, verb) {
    return enqueue(async () => {
      const target = from.pop();
      if (!target) return;
      const before = recorded();
      const focus = rememberFocus();
      await post(builder.dataset.importUrl, { decklist: target.code, maybe: target.maybe });
      const now = panel();
      if (now.dataset.conflict) {
        forgetHistory();
      } else if (now.dataset.state === target.state) {
        to.push(before);
        announce(`${verb}: `);
      } else {
        from.push(target);
      }
      restoreFocus(focus);
    });
  }
  const undo = () => travel(undoStack, redoStack, "Undone");
  const redo = () => travel(redoStack, undoStack, "Redone");

  // Copies in the deck, and planned beside it, by each result, from the panel just swapped in.
  function showCounts() {
    const data = $("deck-counts");
    if (!data) return;
    const counts = JSON.parse(data.textContent);
    const planned = JSON.parse($("maybe-counts")?.textContent || "{}");
    for (const li of document.querySelectorAll("#builder-results li.result")) {
      const n = counts[li.dataset.card] || 0;
      const label = li.querySelector("[data-in-deck]");
      if (label) label.textContent = n ? `${n} in deck` : "";
      const m = planned[li.dataset.card] || 0;
      const plan = li.querySelector("[data-planned]");
      if (plan) plan.textContent = m ? `${m} maybe` : "";
    }
  }

  function choose(kind, value, focus = true) {
    state[kind] = value;
    store(`builder.${kind}`, value);
    const target = kind === "group" ? "#deck-panel" : "#builder-results";
    return enqueue(async () => {
      await htmx.ajax("GET", pageUrl().toString(), { source: builder, target, swap: "outerHTML" });
      syncChoices();
      if (focus) document.querySelector(`${target} .choice-toggle a`)?.focus({ preventScroll: true });
    });
  }

  function step(item, action) {
    const values = { card: item.dataset.card, action };
    if (item.dataset.maybe) return edit(builder.dataset.maybeUrl, values, true);
    if (item.dataset.zone) values.zone = item.dataset.zone;
    return edit(builder.dataset.cardUrl, values, true);
  }

  // m: a result is planned (one copy), a deck row goes to the plan, a planned card comes in.
  function maybe(item) {
    let action = "add";
    if (item.matches("li.deck-row")) action = item.dataset.maybe ? "to-deck" : "to-maybe";
    edit(builder.dataset.maybeUrl, { card: item.dataset.card, action }, true);
  }

  // Faces sit in a grid: up and down move a whole row of it, left and right one face.
  function columns(items) {
    const top = items[0]?.closest("li").offsetTop;
    return Math.max(1, items.filter((el) => el.closest("li").offsetTop === top).length);
  }

  function move(from, key) {
    const list = from.closest("#builder-results, #deck-panel");
    const kind = list.id === "deck-panel" ? "row" : "result";
    const items = [...list.querySelectorAll(`[data-nav=${kind}]`)];
    const here = from.closest("li");
    const i = items.findIndex((el) => el.closest("li") === here);
    const across = key === "ArrowLeft" || key === "ArrowRight";
    const size = across || results().dataset.view !== "images" || kind === "row" ? 1 : columns(items);
    const by = (key === "ArrowDown" || key === "ArrowRight" ? 1 : -1) * size;
    const next = items[Math.min(items.length - 1, Math.max(0, i + by))];
    if (next) {
      next.focus();
      next.scrollIntoView({ block: "nearest" });
    }
  }

  const typing = (el) =>
    el?.isContentEditable ||
    el?.matches?.(
      "textarea, select, input:not([type=button]):not([type=submit]):not([type=checkbox]):not([type=radio])",
    );

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || dialog.open) return;
    const target = event.target;
    const command = event.ctrlKey || event.metaKey;
    if (target === search && event.key === "ArrowDown" && !command) {
      const first = document.querySelector("#builder-results [data-nav=result]");
      if (first) {
        event.preventDefault();
        first.focus();
      }
      return;
    }
    if (typing(target)) return;
    if (command) {
      const key = event.key.toLowerCase();
      if (key === "z" && !event.shiftKey) {
        event.preventDefault();
        undo();
      } else if ((key === "z" && event.shiftKey) || key === "y") {
        event.preventDefault();
        redo();
      }
      return;
    }
    const item = target.closest?.("#builder-results li.result, #deck-panel li.deck-row");
    const inResults = item?.matches("li.result");
    const handled = () => event.preventDefault();
    switch (event.key) {
      case "/":
        handled();
        search.focus();
        search.select();
        break;
      case "?":
        handled();
        dialog.showModal();
        break;
      case "ArrowDown":
      case "ArrowUp":
      case "ArrowRight":
      case "ArrowLeft":
        // Left and right only among results, where a grid of faces runs across.
        if (!item || (!inResults && !event.key.match(/Up|Down/))) return;
        handled();
        move(target, event.key);
        break;
      case "+":
      case "=":
        if (!item) return;
        handled();
        step(item, "add");
        break;
      case "-":
        if (!item) return;
        handled();
        step(item, "remove");
        break;
      case "a":
        if (!inResults) return;
        handled();
        step(item, "add");
        break;
      case "m":
        if (!item) return;
        handled();
        maybe(item);
        break;
      default:
    }
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    const kind = form.dataset?.edit;
    if (!kind) return;
    event.preventDefault();
    const values = Object.fromEntries(new FormData(form, event.submitter));
    for (const key of ["csrfmiddlewaretoken", "version", "anchor", "q", "group", "view"]) {
      delete values[key];
    }
    // Settings change the deck's name or format, not its cards: nothing to undo.
    // getAttribute: the buttons named "action" shadow form.action; a button may post
    // elsewhere (the "maybe" ones, by formaction).
    const action = event.submitter?.getAttribute("formaction") || form.getAttribute("action");
    edit(action, values, kind !== "settings");
  });

  document.addEventListener("click", (event) => {
    const link = event.target.closest?.("a[data-group], a[data-view]");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    if (link.dataset.group) choose("group", link.dataset.group);
    else choose("view", link.dataset.view);
  });

  // A search swaps new results in: show the copies in the deck beside them.
  document.body.addEventListener("htmx:afterSwap", showCounts);
  // A refused edit answers 400 with the panel saying why: show it, as for any edit.
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    const { xhr, target } = event.detail;
    if (xhr.status === 400 && target?.id === "deck-panel") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  undoButton.addEventListener("click", undo);
  redoButton.addEventListener("click", redo);
  $("show-shortcuts").addEventListener("click", () => dialog.showModal());

  $("builder-tools").hidden = false;
  refreshTools();
  // A choice kept from an earlier visit, which this page's URL does not state.
  if (state.group !== panel().dataset.group && panel().querySelector(".choice-toggle")) {
    choose("group", state.group, false);
  }
  // The pool lists cards before any query too: the kept view applies to it.
  if (state.view !== results().dataset.view) choose("view", state.view, false);
  syncChoices(false);
})();
