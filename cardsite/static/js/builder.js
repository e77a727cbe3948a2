// The deck builder with JavaScript: every edit goes through one queue (so fast clicks and key
// presses apply in order, each against the version the previous one left) and updates the
// deck panel through htmx: a +/- answers with only the rows and head that changed, as
// out-of-band fragments, anything else with the whole panel. Undo and redo are the server's
// (the deck's history keeps every step), so they survive a reload; the panel's #deck-meta
// says whether there is anything to undo or redo. After every write the page dispatches
// `deck:changed` (see docs: the builder's contract). Without this file every control is a
// plain form or link and the page works the same, a page load at a time.
(() => {
  "use strict";

  const builder = document.getElementById("builder");
  if (!builder || !window.htmx) return;

  let queue = Promise.resolve();
  // The planned cards by short id, as last told: a +/- of the deck's cards does not send them.
  let planned = {};

  const $ = (id) => document.getElementById(id);
  const panel = () => $("deck-panel");
  const results = () => $("builder-results");
  const search = $("builder-q");
  const dialog = $("shortcuts");
  const undoButton = () => $("undo");
  const redoButton = () => $("redo");
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
      .then(sync);
    return queue;
  }

  // The answer is swapped in (the whole panel, or out-of-band fragments) by the time this
  // resolves: the version and counts are read from #deck-meta after it (sync).
  async function post(action, values) {
    await htmx.ajax("POST", action, {
      source: builder,
      target: "#deck-panel",
      swap: "outerHTML",
      values: { ...values, version: panel().dataset.version, q: query(), ...state },
    });
    // Out-of-band fragments land in the swap's own task: let it finish.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    sync();
  }

  function say(text) {
    status.textContent = text;
  }

  // The panel is replaced whole, so its own live region is new each time and may go unread:
  // the toolbar's status, which stays, says where the deck now stands.
  function announce(prefix) {
    const cards = panel().querySelector("[data-deck-count]")?.textContent ?? "0";
    const verdict = $("legality")?.textContent.trim() ?? "";
    say(`${prefix}${cards} card${cards === "1" ? "" : "s"}, ${verdict}.`);
  }

  // After every answer: the version the next edit is checked against, the undo and redo
  // buttons, every form's version, the counts beside the results, and deck:changed.
  function sync() {
    const meta = $("deck-meta");
    if (!meta) return;
    const version = meta.dataset.version;
    panel().dataset.version = version;
    for (const input of document.querySelectorAll('#builder input[name="version"]')) {
      input.value = version;
    }
    undoButton().disabled = meta.dataset.undo !== "1";
    redoButton().disabled = meta.dataset.redo !== "1";
    const counts = JSON.parse(meta.dataset.counts || "{}");
    if (meta.dataset.planned) planned = JSON.parse(meta.dataset.planned);
    showCounts(counts);
    const total = Number(panel().querySelector("[data-deck-count]")?.textContent ?? 0);
    document.dispatchEvent(
      new CustomEvent("deck:changed", {
        detail: { version: Number(version), total, counts, planned: { ...planned } },
      }),
    );
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

  function edit(action, values, say = true) {
    return enqueue(async () => {
      const focus = rememberFocus();
      const before = panel().dataset.version;
      await post(action, values);
      if (say && panel().dataset.version !== before) announce("");
      restoreFocus(focus);
    });
  }

  // Undo and redo are the server's: the deck's history says what the last change was, so
  // they work after a reload, and refuse (saying why) after someone else's change.
  const tool = (id, verb) => {
    const button = $(id);
    if (!button || button.disabled) return;
    const form = button.form;
    edit(form.getAttribute("action"), {}, false).then(() => {
      // A refusal is said in the panel; the status would only repeat an older count.
      if (panel().querySelector(".alert")) say("");
      else announce(`${verb}: `);
    });
  };
  const undo = () => tool("undo", "Undone");
  const redo = () => tool("redo", "Redone");

  // Copies in the deck, and planned beside it, by each result, from the panel just swapped in.
  function showCounts(counts) {
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
    if (item.dataset.maybe) return edit(builder.dataset.maybeUrl, values);
    if (item.dataset.zone) values.zone = item.dataset.zone;
    return edit(builder.dataset.cardUrl, values);
  }

  // m: a result is planned (one copy), a deck row goes to the plan, a planned card comes in.
  function maybe(item) {
    let action = "add";
    if (item.matches("li.deck-row")) action = item.dataset.maybe ? "to-deck" : "to-maybe";
    edit(builder.dataset.maybeUrl, { card: item.dataset.card, action });
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

  // Every builder form (data-edit) goes through the one queue; the pool's script sends its
  // own forms here too (window.cardsiteBuilder.submit).
  function submit(form, submitter) {
    const values = Object.fromEntries(new FormData(form, submitter));
    for (const key of ["csrfmiddlewaretoken", "version", "anchor", "q", "group", "view", "cod_file"]) {
      delete values[key];
    }
    // getAttribute: the buttons named "action" shadow form.action; a button may post
    // elsewhere (the "maybe" ones, by formaction).
    const action = submitter?.getAttribute("formaction") || form.getAttribute("action");
    const kind = form.dataset.edit;
    if (kind === "undo" || kind === "redo") {
      tool(kind, kind === "undo" ? "Undone" : "Redone");
      return queue;
    }
    const done = edit(action, values, kind !== "settings" && kind !== "checkpoint");
    if (kind === "checkpoint") done.then(() => form.closest("details")?.removeAttribute("open"));
    return done;
  }
  window.cardsiteBuilder = { submit };

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.dataset?.edit || !form.closest("#builder, #pool")) return;
    // A chosen file goes as the browser sends it, a multipart post; the page then reloads.
    if ([...form.querySelectorAll("input[type=file]")].some((input) => input.files.length)) return;
    event.preventDefault();
    submit(form, event.submitter);
  });

  document.addEventListener("click", (event) => {
    const link = event.target.closest?.("a[data-group], a[data-view]");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    if (link.dataset.group) choose("group", link.dataset.group);
    else choose("view", link.dataset.view);
  });

  // A search swaps new results in: show the copies in the deck beside them, once per answer
  // (htmx fires afterSwap on every node the swap inserts).
  const answered = new WeakSet();
  document.body.addEventListener("htmx:afterSwap", (event) => {
    const { target, xhr } = event.detail;
    if (xhr && answered.has(xhr)) return;
    if (xhr) answered.add(xhr);
    if (target?.id === "builder-results") {
      showCounts(JSON.parse($("deck-meta")?.dataset.counts || "{}"));
    }
  });
  // A refused edit answers 400 with the panel saying why: show it, as for any edit.
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    const { xhr, target } = event.detail;
    if (xhr.status === 400 && target?.id === "deck-panel") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  $("show-shortcuts").addEventListener("click", () => dialog.showModal());
  $("show-shortcuts").hidden = false;
  planned = JSON.parse($("deck-meta")?.dataset.planned || "{}");
  // A choice kept from an earlier visit, which this page's URL does not state.
  if (state.group !== panel().dataset.group && panel().querySelector(".choice-toggle")) {
    choose("group", state.group, false);
  }
  // The pool lists cards before any query too: the kept view applies to it.
  if (state.view !== results().dataset.view) choose("view", state.view, false);
  syncChoices(false);
})();
