// Autocard: on any site, [[Card Name]] in the page's text becomes a link to the card's page
// here, with a preview of its face on hover or keyboard focus. Standalone (no other script of
// the site), added with
//   <script src="https://<this site>/static/js/autocard.js" data-game="<game slug>" defer></script>
// Names are looked up by exact name (case and accents aside) through the public search API,
// several to a request; a name not found is left as written. See docs/pages/embedding.md.
(() => {
  "use strict";

  const script = document.currentScript;
  if (!script) return;
  const origin = new URL(script.src, location.href).origin;
  const game = script.dataset.game || "";

  // At most this many different names are looked up on one page; later ones stay text.
  const MAX_NAMES = 100;
  // What one search request may hold, below the API's own bounds (MAX_NAME_CHARS 200,
  // MAX_QUERY_LENGTH 1000, MAX_QUERY_TERMS 50 in engines/filters/limits.py).
  const BATCH_NAME_CHARS = 180;
  const BATCH_QUERY_CHARS = 900;
  const BATCH_TERMS = 40;
  // The longest name the API's exact match reads (Card.name's 120 characters).
  const NAME_CHARS = 120;
  const PATTERN = /\[\[([^[\]\n"]{1,120})\]\]/g;
  const SKIPPED = new Set(["SCRIPT", "STYLE", "TEXTAREA", "CODE", "PRE", "NOSCRIPT", "A", "BUTTON", "SELECT", "OPTION"]);

  // As the site folds names for matching: case and accents aside.
  const fold = (name) =>
    name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\s+/g, " ").trim();

  const textNodes = () => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
      acceptNode(node) {
        for (let el = node.parentElement; el && el !== document.body; el = el.parentElement) {
          if (SKIPPED.has(el.tagName) || el.isContentEditable) return NodeFilter.FILTER_REJECT;
        }
        return node.nodeValue.includes("[[") ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP;
      },
    });
    while (walker.nextNode()) found.push(walker.currentNode);
    return found;
  };

  const batches = (names) => {
    const out = [];
    let terms = [];
    let chars = 0;
    let length = 0;
    for (const name of names) {
      const term = `!"${name}"`;
      const fits = terms.length < BATCH_TERMS && chars + name.length <= BATCH_NAME_CHARS && length + term.length + 4 <= BATCH_QUERY_CHARS;
      if (!fits && terms.length) {
        out.push(terms.join(" or "));
        terms = [];
        chars = 0;
        length = 0;
      }
      terms.push(term);
      chars += name.length;
      length += term.length + 4;
    }
    if (terms.length) out.push(terms.join(" or "));
    return out;
  };

  const lookUp = async (query) => {
    const url = new URL("/api/v1/cards/", origin);
    url.searchParams.set("q", query);
    url.searchParams.set("page_size", "200");
    if (game) url.searchParams.set("game", game);
    try {
      const response = await fetch(url, { credentials: "omit" });
      if (!response.ok) return [];
      const data = await response.json();
      return Array.isArray(data.results) ? data.results : [];
    } catch {
      return [];
    }
  };

  let box = null;
  const preview = (link) => {
    if (!box) {
      box = document.createElement("img");
      box.alt = "";
      box.setAttribute("aria-hidden", "true");
      box.dataset.autocardPreview = "";
      Object.assign(box.style, {
        position: "fixed", zIndex: "2147483647", width: "15rem", maxWidth: "62vw", height: "auto",
        borderRadius: ".7rem", boxShadow: "0 6px 24px rgba(0,0,0,.3)", pointerEvents: "none",
        display: "none",
      });
      document.body.append(box);
    }
    box.src = `${origin}/cards/${link.dataset.card}/face.png`;
    const rect = link.getBoundingClientRect();
    const width = Math.min(240, window.innerWidth * 0.62);
    const left = rect.right + 8 + width > window.innerWidth ? Math.max(4, rect.left - 8 - width) : rect.right + 8;
    box.style.left = `${Math.round(left)}px`;
    box.style.top = `${Math.round(Math.max(4, Math.min(rect.top, window.innerHeight - width * 1.4 - 4)))}px`;
    box.style.display = "block";
  };
  const hide = () => {
    if (box) box.style.display = "none";
  };

  const linkFor = (card, written) => {
    const link = document.createElement("a");
    link.href = card.page_url;
    link.textContent = written;
    link.className = "autocard";
    link.dataset.card = card.id;
    link.target = "_blank";
    link.rel = "noopener";
    if (card.sample) link.title = `${card.name} (unofficial sample card)`;
    link.addEventListener("pointerenter", () => preview(link));
    link.addEventListener("pointerleave", hide);
    link.addEventListener("focus", () => preview(link));
    link.addEventListener("blur", hide);
    return link;
  };

  const run = async () => {
    const nodes = textNodes();
    const wanted = new Map();
    for (const node of nodes) {
      for (const match of node.nodeValue.matchAll(PATTERN)) {
        const name = match[1].trim();
        const key = fold(name);
        if (key && name.length <= NAME_CHARS && !wanted.has(key) && wanted.size < MAX_NAMES) wanted.set(key, name);
      }
    }
    if (!wanted.size) return;
    const found = new Map();
    const answers = await Promise.all(batches([...wanted.values()]).map(lookUp));
    for (const card of answers.flat()) {
      const key = fold(card.name || "");
      // The first printing answered stands for the name.
      if (wanted.has(key) && !found.has(key)) found.set(key, card);
    }
    for (const node of nodes) {
      const text = node.nodeValue;
      const parts = [];
      let last = 0;
      for (const match of text.matchAll(PATTERN)) {
        const card = found.get(fold(match[1]));
        if (!card) continue;
        parts.push(text.slice(last, match.index), linkFor(card, match[1].trim()));
        last = match.index + match[0].length;
      }
      if (!parts.length) continue;
      parts.push(text.slice(last));
      node.replaceWith(...parts.filter((part) => part !== ""));
    }
    document.addEventListener("keydown", (event) => event.key === "Escape" && hide());
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
