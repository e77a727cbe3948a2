// The playtest table, played in place. Without this script every move is a link to the session
// one action longer and the page reloads; with it, a move's link (or a pick form) is fetched
// with `HX-Request` and the server answers with the table alone (#pt-play), swapped in place.
// The address follows with history.pushState, so Back takes a move back as it does without
// JavaScript (each move was a page of its own), and popstate loads that session in place.
// Drag a card onto a zone, or focus a card and press a zone's number key, to take the move its
// menu offers; a move the menu does not offer (a full location) is asked for all the same, so
// the server's refusal says why beside the zone.
(function () {
  "use strict";
  var dragged = null;
  var busy = false;

  function play() {
    return document.getElementById("pt-play");
  }

  function zones() {
    return Array.prototype.slice.call(document.querySelectorAll("#pt-play .pt-zone"));
  }

  // The number keys shown on the first nine zones (the script's own feature: not in the HTML).
  function decorate() {
    zones().forEach(function (zone, i) {
      if (i >= 9 || zone.querySelector(".pt-zone-name kbd")) return;
      var key = document.createElement("kbd");
      key.textContent = String(i + 1);
      key.title = "Focus a card and press " + (i + 1) + " to move it here";
      zone.querySelector(".pt-zone-name").appendChild(key);
    });
  }

  function focusAfter(cardId) {
    var card = cardId && document.querySelector('#pt-play summary[data-card="' + cardId + '"]');
    var target = card || document.querySelector("#pt-play .pt-refusal, #pt-play .pt-step");
    if (target) target.focus({ preventScroll: true });
  }

  // Fetch `href` (a session's link) and swap the table in; `how`: "push" after a move,
  // "none" when the address is already there (Back and Forward).
  function load(href, how) {
    if (busy) return;
    busy = true;
    var url = new URL(href, location.href);
    var active = document.activeElement;
    var cardId = active && active.closest ? active.closest("[data-card]") : null;
    cardId = cardId && cardId.dataset.card;
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        return response.text().then(function (html) {
          var template = document.createElement("template");
          template.innerHTML = html;
          var fresh = template.content.getElementById("pt-play");
          if (!fresh) throw new Error("no table in the answer");
          document.dispatchEvent(new CustomEvent("cardsite:replace")); // the card preview goes
          play().replaceWith(fresh);
          decorate();
          // The session's own link: after a refused move, the session before it.
          var address = new URL(fresh.dataset.session, response.url);
          if (how === "push" && address.href !== location.href) {
            history.pushState({ playtest: true }, "", address);
          } else if (how === "replace" || (how === "push" && address.href === location.href)) {
            history.replaceState({ playtest: true }, "", address);
          }
          focusAfter(cardId);
        });
      })
      .catch(function () {
        window.location.href = url.href; // the plain link still works
      })
      .finally(function () {
        busy = false;
      });
  }

  function sessionLink(token) {
    var session = play().dataset.session;
    var query = new URLSearchParams(session.slice(1));
    var actions = query.get("a");
    query.set("a", actions ? actions + "_" + token : token);
    return "?" + query.toString();
  }

  function moveTo(cardId, zone) {
    var card = document.querySelector('#pt-play .pt-card[data-card="' + cardId + '"]');
    if (!card || card.closest(".pt-zone").dataset.zone === zone) return false;
    var link = card.querySelector('.pt-menu a[data-to="' + zone + '"]');
    // Not offered (a full slot): asked anyway, for the refusal's reason.
    load(link ? link.href : sessionLink("m" + cardId + "." + zone), "push");
    return true;
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey) return;
    if (event.shiftKey || event.altKey) return;
    var link = event.target.closest && event.target.closest("#pt-play a[data-action]");
    if (!link) return;
    event.preventDefault();
    load(link.href, "push");
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest || !form.closest("#pt-play") || form.method.toLowerCase() !== "get") return;
    event.preventDefault();
    var query = new URLSearchParams(new FormData(form));
    load("?" + query.toString(), "push");
  });

  window.addEventListener("popstate", function () {
    if (play()) load(location.href, "none");
  });

  document.addEventListener("dragover", function (event) {
    var zone = dragged && event.target.closest && event.target.closest("#pt-play .pt-zone");
    if (!zone) return;
    event.preventDefault();
    zone.classList.add("drop");
  });
  document.addEventListener("dragleave", function (event) {
    var zone = event.target.closest && event.target.closest(".pt-zone");
    if (zone && !zone.contains(event.relatedTarget)) zone.classList.remove("drop");
  });
  document.addEventListener("drop", function (event) {
    var zone = event.target.closest && event.target.closest("#pt-play .pt-zone");
    if (!zone) return;
    event.preventDefault();
    zone.classList.remove("drop");
    var id = event.dataTransfer.getData("text/plain") || dragged;
    if (id) moveTo(id, zone.dataset.zone);
  });
  document.addEventListener("dragstart", function (event) {
    var card = event.target.closest && event.target.closest("#pt-play .pt-card[data-card]");
    if (!card) return;
    dragged = card.dataset.card;
    event.dataTransfer.setData("text/plain", dragged);
    event.dataTransfer.effectAllowed = "move";
  });
  document.addEventListener("dragend", function () {
    dragged = null;
  });

  document.addEventListener("keydown", function (event) {
    var summary = document.activeElement && document.activeElement.closest("summary[data-card]");
    if (!summary || event.ctrlKey || event.metaKey || event.altKey) return;
    var n = parseInt(event.key, 10);
    var all = zones();
    if (n >= 1 && n <= all.length && n <= 9) {
      if (moveTo(summary.dataset.card, all[n - 1].dataset.zone)) event.preventDefault();
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.getElementById(button.dataset.copy);
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value);
    button.textContent = "Copied";
  });

  if (play()) {
    decorate();
    // The first entry is a move's page too: popstate back to it loads it in place.
    history.replaceState({ playtest: true }, "", location.href);
  }
})();
