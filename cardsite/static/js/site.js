// On every page (base.html, defer): the header's theme switch, and card previews. Both only
// add to pages that already work without them.
"use strict";

(() => {
  // ---- Theme: system, light or dark ------------------------------------------------------
  // The cookie lets the server paint the first frame in the chosen colours (cardsite/theme.py);
  // localStorage keeps the choice should the cookie be cleared.
  const CYCLE = ["system", "light", "dark"];
  const LABELS = { system: "System", light: "Light", dark: "Dark" };
  const TITLES = {
    system: "Follow the system's theme",
    light: "Use the light theme",
    dark: "Use the dark theme",
  };
  const YEAR = 365 * 24 * 60 * 60;
  const forced = (value) => value === "light" || value === "dark";

  const remembered = () => {
    try {
      return localStorage.getItem("theme");
    } catch {
      return null; // storage refused (privacy settings): the cookie alone remembers
    }
  };

  const remember = (choice) => {
    try {
      if (forced(choice)) localStorage.setItem("theme", choice);
      else localStorage.removeItem("theme");
    } catch {
      // as above
    }
  };

  const applyTheme = (choice) => {
    const root = document.documentElement;
    if (forced(choice)) {
      root.dataset.theme = choice;
      document.cookie = `theme=${choice}; path=/; max-age=${YEAR}; samesite=lax`;
    } else {
      delete root.dataset.theme;
      document.cookie = "theme=; path=/; max-age=0; samesite=lax";
    }
    remember(choice);
    const next = CYCLE[(CYCLE.indexOf(choice) + 1) % CYCLE.length];
    for (const button of document.querySelectorAll(".theme-switch button")) {
      button.dataset.choice = choice;
      button.value = next;
      button.title = TITLES[next];
      button.textContent = `Theme: ${LABELS[choice]}`;
    }
  };

  const hasThemeCookie = document.cookie.split("; ").some((c) => c.startsWith("theme="));
  const kept = remembered();
  if (!hasThemeCookie && forced(kept)) applyTheme(kept);

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains("theme-switch")) return;
    event.preventDefault();
    const button = form.querySelector("button[name=theme]");
    if (button && CYCLE.includes(button.value)) applyTheme(button.value);
  });

  // ---- Card previews ---------------------------------------------------------------------
  // Any link to a card's page shows the card's face: beside the pointer on hover, beside the
  // link on keyboard focus, above the finger after a long press. Delegated from document, so
  // links that htmx swaps in work too. The preview is decorative (aria-hidden): the link's
  // text already names the card, and focus never moves to it.
  const CARD_PATH = /^\/(?:cards\/([0-9a-z]{8})\/(?:[\w-]+\/)?|c\/([0-9a-z]{8}))$/i;
  const LONG_PRESS_MS = 500;
  const MOVE_TOLERANCE = 10; // px a finger may drift and still count as pressing
  const GAP = 16;
  const MARGIN = 8;

  const cardOfPath = (pathname) => {
    const match = CARD_PATH.exec(pathname);
    return match ? (match[1] || match[2]).toLowerCase() : null;
  };
  // On a card's own page its face is already shown: links back to it preview nothing.
  const ownCard = cardOfPath(location.pathname);

  // An element that is a card without linking to it (a playtest table's card) names it in
  // `data-preview`: it previews as a link would, larger than it is drawn.
  const PREVIEWED = "[data-preview], a[href]";
  const SHORT_ID = /^[0-9a-z]{8}$/i;

  const cardOf = (target) => {
    const link = target instanceof Element ? target.closest(PREVIEWED) : null;
    if (!link) return null;
    if (link.dataset.preview !== undefined) {
      const id = link.dataset.preview;
      return SHORT_ID.test(id) ? { link, id: id.toLowerCase() } : null;
    }
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin) return null;
    const id = cardOfPath(url.pathname);
    // A link that is the card's face already needs no preview, unless it asks for one
    // (data-zoom: the search grid's faces, smaller than the preview, zoom on hover or a long
    // press).
    if (!id || id === ownCard || (link.querySelector("img") && !link.hasAttribute("data-zoom"))) {
      return null;
    }
    return { link, id };
  };

  let box = null;
  let image = null;
  let shownFor = null;
  let shownAt = null; // the pointer's or finger's point, or null beside a focused link

  const ensureBox = () => {
    if (box) return;
    box = document.createElement("div");
    box.className = "card-preview";
    box.hidden = true;
    box.setAttribute("aria-hidden", "true");
    image = document.createElement("img");
    image.alt = "";
    image.decoding = "async";
    image.addEventListener("load", () => box.classList.add("is-loaded"));
    image.addEventListener("error", () => hide());
    box.append(image);
    document.body.append(box);
  };

  const faceUrl = (id) => `/cards/${id}/face.png`;

  // Where the box goes: next to a point (pointer or finger) or to the link, always inside
  // the viewport.
  const place = (link, point, above) => {
    const width = box.offsetWidth;
    const height = box.offsetHeight;
    const viewWidth = document.documentElement.clientWidth;
    const viewHeight = window.innerHeight;
    let x;
    let y;
    if (point && above) {
      x = point.x - width / 2;
      y = point.y - GAP * 2 - height;
      if (y < MARGIN) y = point.y + GAP * 2;
    } else if (point) {
      x = point.x + GAP;
      y = point.y + GAP;
      if (x + width > viewWidth - MARGIN) x = point.x - GAP - width;
      if (y + height > viewHeight - MARGIN) y = viewHeight - MARGIN - height;
    } else {
      const rect = link.getBoundingClientRect();
      x = rect.right + GAP;
      y = rect.top + rect.height / 2 - height / 2;
      if (x + width > viewWidth - MARGIN) x = rect.left - GAP - width;
      if (x < MARGIN) {
        // No room at either side: below the link, or above it.
        x = rect.left;
        y = rect.bottom + MARGIN;
        if (y + height > viewHeight - MARGIN) y = rect.top - MARGIN - height;
      }
    }
    x = Math.max(MARGIN, Math.min(x, viewWidth - MARGIN - width));
    y = Math.max(MARGIN, Math.min(y, viewHeight - MARGIN - height));
    box.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  };

  const show = (card, point, above = false) => {
    ensureBox();
    const src = faceUrl(card.id);
    if (image.getAttribute("src") !== src) {
      box.classList.remove("is-loaded");
      image.src = src;
      if (image.complete && image.naturalWidth) box.classList.add("is-loaded");
    }
    shownFor = card.link;
    shownAt = point;
    box.dataset.card = card.id;
    // A face zoomed from a grid is shown larger than a name's preview: it must beat the face.
    box.classList.toggle("is-zoom", card.link.hasAttribute("data-zoom"));
    box.hidden = false;
    place(card.link, point, above);
    requestAnimationFrame(() => box && !box.hidden && box.classList.add("is-shown"));
  };

  const hide = () => {
    shownFor = null;
    shownAt = null;
    if (!box) return;
    box.classList.remove("is-shown");
    box.hidden = true;
  };

  const fromMouse = (event) => event.pointerType === "mouse" || event.pointerType === "pen";

  document.addEventListener("pointerover", (event) => {
    if (!fromMouse(event)) return;
    const card = cardOf(event.target);
    if (card && card.link !== shownFor) show(card, { x: event.clientX, y: event.clientY });
  });

  let moveFrame = 0;
  document.addEventListener("pointermove", (event) => {
    if (!shownFor || !fromMouse(event) || moveFrame) return;
    const point = { x: event.clientX, y: event.clientY };
    moveFrame = requestAnimationFrame(() => {
      moveFrame = 0;
      if (shownFor) place(shownFor, point);
    });
    shownAt = point;
  });

  document.addEventListener("pointerout", (event) => {
    if (!shownFor || !fromMouse(event)) return;
    const link = event.target instanceof Element ? event.target.closest(PREVIEWED) : null;
    if (link === shownFor && !link.contains(event.relatedTarget)) hide();
  });

  document.addEventListener("focusin", (event) => {
    const card = cardOf(event.target);
    // Keyboard focus only: a click or a tap focuses the link too, and is on its way.
    if (card && card.link.matches(":focus-visible")) show(card, null);
  });

  document.addEventListener("focusout", (event) => {
    if (shownFor && event.target === shownFor) hide();
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    if (shownFor) {
      hide();
      return;
    }
    const menu = document.querySelector("details.menu[open]");
    if (menu) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });

  // The box is fixed to the viewport: after a scroll it follows a focused link, and stays by
  // the pointer only while the pointer is still on the link.
  window.addEventListener(
    "scroll",
    () => {
      if (!shownFor) return;
      if (!shownAt) place(shownFor, null);
      else if (document.elementFromPoint(shownAt.x, shownAt.y)?.closest(PREVIEWED) !== shownFor) {
        hide();
      }
    },
    { passive: true, capture: true },
  );
  window.addEventListener("pagehide", hide);
  document.addEventListener("htmx:beforeSwap", hide);
  // A page's own script that replaces a part of it says so (the playtest table after a move).
  document.addEventListener("cardsite:replace", hide);

  // Touch: a long press, without moving, shows the preview and the link is not followed; a
  // tap anywhere else hides it again.
  let press = null;
  let pressedLink = null;

  const cancelPress = () => {
    if (press) clearTimeout(press.timer);
    press = null;
  };

  document.addEventListener(
    "touchstart",
    (event) => {
      cancelPress();
      pressedLink = null;
      if (event.touches.length !== 1) return;
      const card = cardOf(event.target);
      if (!card) {
        hide();
        return;
      }
      if (card.link !== shownFor) hide();
      const touch = event.touches[0];
      const start = { x: touch.clientX, y: touch.clientY };
      new Image().src = faceUrl(card.id); // the face is on its way while the finger waits
      press = {
        start,
        timer: setTimeout(() => {
          press = null;
          pressedLink = card.link;
          show(card, start, true);
        }, LONG_PRESS_MS),
      };
    },
    { passive: true },
  );

  document.addEventListener(
    "touchmove",
    (event) => {
      if (!press) return;
      const touch = event.touches[0];
      const moved = Math.hypot(touch.clientX - press.start.x, touch.clientY - press.start.y);
      if (moved > MOVE_TOLERANCE) cancelPress();
    },
    { passive: true },
  );

  document.addEventListener("touchend", (event) => {
    cancelPress();
    // After a long press the lifted finger must not follow the link.
    if (pressedLink && event.cancelable) event.preventDefault();
  });
  document.addEventListener("touchcancel", cancelPress);

  document.addEventListener(
    "click",
    (event) => {
      if (!pressedLink) return;
      const link = event.target instanceof Element ? event.target.closest(PREVIEWED) : null;
      if (link === pressedLink) {
        event.preventDefault();
        event.stopPropagation();
      }
      pressedLink = null;
    },
    true,
  );

  // Android opens the link's context menu on a long press; the preview takes its place.
  document.addEventListener("contextmenu", (event) => {
    if (press || (pressedLink && cardOf(event.target)?.link === pressedLink)) event.preventDefault();
  });
})();
