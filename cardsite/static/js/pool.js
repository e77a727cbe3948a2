// The builder's card pool with JavaScript (decks/edit.html, _results.html, _pool_items.html).
// The query box stays the one source of truth: a chip, a range or a sort only edits its text,
// and the pool reloads from it (htmx, through the search form). The next page is appended in
// place (htmx, from the `rel=next` link's own attributes); each card's "in deck" badge follows
// the deck on `deck:changed`; a face dragged onto the deck adds a copy to the zone it is
// dropped on; on phones the deck is a drawer behind a tab showing its count. Without this
// file chips are links, ranges and sorts are fields of the search form, the next page is a
// page, and the tab is a link down to the deck.
(() => {
  "use strict";

  const builder = document.getElementById("builder");
  const pool = document.getElementById("pool");
  if (!builder || !pool || !window.htmx) return;

  const $ = (id) => document.getElementById(id);
  const form = pool.querySelector("form.builder-find");
  const box = $("builder-q");
  const deck = $("builder-deck");

  // ---- The query's words, as decks/views/pool.py reads them ------------------------------
  const WORD = /\S*"[^"]*"\S*|\S+/g;
  const words = (q) => q.match(WORD) || [];
  const same = (a, b) => a.toLowerCase() === b.toLowerCase();
  const hasTerm = (q, term) => words(q).some((w) => same(w, term));
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

  function toggled(q, term, others) {
    const on = hasTerm(q, term);
    const drop = on ? [term] : others;
    const kept = words(q).filter((w) => !drop.some((d) => same(w, d)));
    if (!on) kept.push(term);
    return kept.join(" ");
  }

  function boundPattern(range) {
    const keys = [range.dataset.range, range.dataset.termKey].map(escape).join("|");
    return new RegExp(`^(?:${keys})(>=|<=|=|:)(-?\\d+)$`, "i");
  }

  function withBounds(q, range, low, high) {
    const bound = boundPattern(range);
    const key = range.dataset.termKey;
    const kept = words(q).filter((w) => !bound.test(w));
    if (low !== "") kept.push(`${key}>=${low}`);
    if (high !== "") kept.push(`${key}<=${high}`);
    return kept.join(" ");
  }

  function withSort(q, order, direction) {
    const kept = words(q).filter((w) => !/^(order|dir):/i.test(w));
    if (order && order !== "name") kept.push(`order:${order}`);
    if (direction === "desc") kept.push("dir:desc");
    return kept.join(" ");
  }

  // ---- Chips, ranges and sorts show what the query says ----------------------------------
  function showQuery() {
    const q = box.value;
    for (const chip of pool.querySelectorAll(".chip[data-term]")) {
      const on = hasTerm(q, chip.dataset.term);
      chip.classList.toggle("is-on", on);
      if (on) chip.setAttribute("aria-current", "true");
      else chip.removeAttribute("aria-current");
    }
    for (const range of pool.querySelectorAll("[data-range]")) {
      const bound = boundPattern(range);
      let low = "";
      let high = "";
      for (const w of words(q)) {
        const found = bound.exec(w);
        if (!found) continue;
        if (found[1] !== "<=") low = found[2];
        if (found[1] !== ">=") high = found[2];
      }
      const [min, max] = range.querySelectorAll("input");
      if (document.activeElement !== min) min.value = low;
      if (document.activeElement !== max) max.value = high;
    }
    let order = "name";
    let direction = "asc";
    for (const w of words(q)) {
      const [key, value = ""] = w.split(/:(.*)/s);
      if (same(key, "order")) order = value.toLowerCase();
      if (same(key, "dir")) direction = value.toLowerCase() === "desc" ? "desc" : "asc";
    }
    const orderSelect = $("pool-order");
    if (orderSelect && [...orderSelect.options].some((o) => o.value === order)) {
      orderSelect.value = order;
    }
    if ($("pool-dir")) $("pool-dir").value = direction;
  }

  function search(q) {
    box.value = q;
    showQuery();
    form.requestSubmit();
  }

  // With JavaScript only the query is sent: the fields edit it rather than travel beside it.
  for (const field of pool.querySelectorAll("[data-range] input, [data-pool-sort]")) {
    field.removeAttribute("name");
  }
  for (const button of pool.querySelectorAll("[data-no-js]")) button.hidden = true;

  pool.addEventListener("click", (event) => {
    const chip = event.target.closest?.(".chip[data-term]");
    if (!chip || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    const others = chip.dataset.others ? chip.dataset.others.split(" ") : [];
    search(toggled(box.value, chip.dataset.term, others));
  });

  pool.addEventListener("change", (event) => {
    const field = event.target;
    const range = field.closest?.("[data-range]");
    if (range) {
      const [min, max] = range.querySelectorAll("input");
      const clean = (input) => (/^-?\d{1,6}$/.test(input.value.trim()) ? input.value.trim() : "");
      search(withBounds(box.value, range, clean(min), clean(max)));
    } else if (field.matches?.("[data-pool-sort]")) {
      search(withSort(box.value, $("pool-order").value, $("pool-dir").value));
    }
  });

  box.addEventListener("input", showQuery);

  // The address is the pool's query and view: shareable, and a reload shows the same pool.
  function address() {
    const results = $("builder-results");
    const url = new URL(window.location.href);
    url.searchParams.delete("page");
    const q = results?.dataset.q || "";
    if (q) url.searchParams.set("q", q);
    else url.searchParams.delete("q");
    window.history.replaceState(window.history.state, "", url);
  }

  // A query that cannot be read, or a page number out of range, answers 400 saying why:
  // show it where the cards were.
  // The "more" link goes away with the swap. Had it kept focus, removing it would make the
  // browser lay out the whole new page of cards at once, in the swap itself; instead focus
  // moves to the first new card a frame later, where a keyboard user goes on from.
  let refocus = false; // or the index of the first new card
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    const { xhr, target } = event.detail;
    if (target?.id === "pool-more" && target.contains(document.activeElement)) {
      refocus = pool.querySelectorAll("li.result[data-card]").length;
      document.activeElement.blur();
    }
    if (xhr.status === 400 && (target?.id === "builder-results" || target?.id === "pool-more")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // ---- Copies in the deck, on every card of the pool -------------------------------------

  // Writes only what differs: a page of results arrives already showing the deck's counts,
  // and every write to a card would make the browser restyle it again.
  const put = (el, text) => {
    if (el && el.textContent !== text) el.textContent = text;
  };

  function showInDeck(counts, planned) {
    for (const li of pool.querySelectorAll("li.result[data-card]")) {
      const n = counts[li.dataset.card] || 0;
      put(li.querySelector("[data-in-deck]"), n ? `${n} in deck` : "");
      if (li.classList.contains("in-deck-some") !== n > 0) li.classList.toggle("in-deck-some", n > 0);
      const remove = li.querySelector("[data-action=remove]");
      if (remove && remove.disabled !== (n === 0)) remove.disabled = n === 0;
      const m = planned?.[li.dataset.card] || 0;
      put(li.querySelector("[data-planned]"), m ? `${m} maybe` : "");
    }
  }

  document.addEventListener("deck:changed", (event) => {
    const { total, counts, planned } = event.detail || {};
    showInDeck(counts || {}, planned || {});
    for (const count of document.querySelectorAll("[data-pool-deck-count]")) {
      count.textContent = String(total ?? 0);
    }
  });

  // The deck's counts as builder.js keeps them (#deck-meta, renewed with every answer).
  const panelMaps = () => {
    const meta = $("deck-meta");
    return {
      counts: JSON.parse(meta?.dataset.counts || "{}"),
      planned: JSON.parse(meta?.dataset.planned || "{}"),
    };
  };

  // A new page of results shows what the deck holds; builder.js announces every write
  // (deck:changed) itself.
  // htmx fires afterSwap on every node a swap inserts (sixty cards of a page): act once per
  // answer.
  const answered = new WeakSet();
  document.body.addEventListener("htmx:afterSwap", (event) => {
    const { target, xhr } = event.detail;
    if (xhr && answered.has(xhr)) return;
    if (xhr) answered.add(xhr);
    if (target?.id === "pool-more" && refocus !== false) {
      const first = pool.querySelectorAll("li.result[data-card]")[refocus];
      refocus = false;
      if (first) {
        requestAnimationFrame(() => first.querySelector("[data-action=add]")?.focus({ preventScroll: true }));
      }
    }
    if (target?.id === "builder-results" || target?.id === "pool-more") {
      showInDeck(panelMaps().counts, panelMaps().planned);
      if (target.id === "builder-results") address();
    }
  });

  // A pool form goes through builder.js's one edit queue, as if its button were pressed.
  const submit = (formToSend, submitter) =>
    window.cardsiteBuilder?.submit
      ? window.cardsiteBuilder.submit(formToSend, submitter)
      : formToSend.requestSubmit(submitter);

  // ---- Drag a face onto the deck ---------------------------------------------------------
  const CARD_TYPE = "application/x-cardsite-card";
  let dragged = null;
  // A finger's long press zooms the face (site.js) rather than picking the card up.
  const touch = window.matchMedia("(pointer: coarse)").matches;
  const undraggable = () => {
    if (touch) for (const li of pool.querySelectorAll("li.result[draggable]")) li.removeAttribute("draggable");
  };
  undraggable();
  document.body.addEventListener("htmx:afterSettle", undraggable);

  pool.addEventListener("dragstart", (event) => {
    const li = event.target.closest?.("li.result[data-card]");
    if (!li) return;
    dragged = li;
    event.dataTransfer.effectAllowed = "copy";
    event.dataTransfer.setData(CARD_TYPE, li.dataset.card);
    event.dataTransfer.setData("text/plain", li.querySelector(".caption, .result-name a")?.textContent.trim() || "");
    const img = li.querySelector("img");
    if (img) event.dataTransfer.setDragImage(img, img.width / 2, img.height / 4);
    li.classList.add("is-dragged");
    deck.classList.add("drop-ready");
  });

  pool.addEventListener("dragend", () => {
    dragged?.classList.remove("is-dragged");
    dragged = null;
    deck.classList.remove("drop-ready");
    for (const el of deck.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
  });

  // The zone a drop lands in: the zone heading or row under it, else the game's default.
  const zoneAt = (el) => el.closest?.("#deck-panel [data-zone]") || null;

  deck.addEventListener("dragover", (event) => {
    if (!event.dataTransfer.types.includes(CARD_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    const zone = zoneAt(event.target);
    for (const el of deck.querySelectorAll(".drop-over")) if (el !== zone) el.classList.remove("drop-over");
    zone?.classList.add("drop-over");
  });

  deck.addEventListener("drop", (event) => {
    const card = event.dataTransfer.getData(CARD_TYPE);
    if (!card) return;
    event.preventDefault();
    const li = pool.querySelector(`li.result[data-card="${CSS.escape(card)}"]`);
    const cardForm = li?.querySelector("form[data-edit=card]");
    if (!cardForm) return;
    const zone = cardForm.querySelector("[data-drop-zone]");
    zone.value = zoneAt(event.target)?.dataset.zone || "";
    // The queue reads the form as it is sent: the zone is put back for the next + at once.
    submit(cardForm, cardForm.querySelector("[data-action=add]"));
    zone.value = "";
    deck.classList.remove("drop-ready");
    for (const el of deck.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
  });

  // ---- Phones: the deck is a drawer behind its tab ---------------------------------------
  const narrow = window.matchMedia("(max-width: 48rem)");
  const deckTab = document.querySelector(".builder-tabs [data-tab=deck]");
  const poolTab = document.querySelector(".builder-tabs [data-tab=pool]");

  function openDeck(open) {
    builder.classList.toggle("deck-open", open);
    deckTab?.setAttribute("aria-expanded", String(open));
    deckTab?.classList.toggle("is-current", open);
    poolTab?.classList.toggle("is-current", !open);
    if (open) {
      deck.scrollTop = 0;
      // Focus goes into the drawer, so the keyboard and screen readers follow it there.
      deck.setAttribute("tabindex", "-1");
      deck.focus({ preventScroll: true });
    } else if (deck.hasAttribute("tabindex")) {
      deck.removeAttribute("tabindex");
      if (deck.contains(document.activeElement)) deckTab?.focus({ preventScroll: true });
    }
  }

  if (deckTab) {
    deckTab.setAttribute("aria-expanded", "false");
    poolTab?.classList.add("is-current");
    deckTab.addEventListener("click", (event) => {
      if (!narrow.matches) return;
      event.preventDefault();
      openDeck(!builder.classList.contains("deck-open"));
    });
    poolTab?.addEventListener("click", (event) => {
      if (!narrow.matches) return;
      event.preventDefault();
      openDeck(false);
    });
    narrow.addEventListener("change", () => openDeck(false));
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && builder.classList.contains("deck-open")) openDeck(false);
    });
  }

  // On a phone the filters start folded: the cards come first.
  if (narrow.matches) $("pool-filters")?.removeAttribute("open");
  showQuery();
})();
