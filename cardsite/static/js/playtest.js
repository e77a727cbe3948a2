// The playtest table: drag a card onto a zone, or focus a card and press a zone's number key
// (shown on the zone), to take the same move its menu offers. Without this script the menus
// (links) do everything.
(function () {
  "use strict";
  var dragged = null;
  var zones = Array.prototype.slice.call(document.querySelectorAll(".pt-zone"));

  function moveTo(cardId, zone) {
    var card = document.querySelector('.pt-card[data-card="' + cardId + '"]');
    var link = card && card.querySelector('.pt-menu a[data-to="' + zone + '"]');
    if (link) {
      sessionStorage.setItem("pt-scroll", String(window.scrollY));
      window.location.href = link.href;
    }
    return Boolean(link);
  }

  zones.forEach(function (zone, i) {
    if (i < 9) {
      var key = document.createElement("kbd");
      key.textContent = String(i + 1);
      key.title = "Focus a card and press " + (i + 1) + " to move it here";
      zone.querySelector(".pt-zone-name").appendChild(key);
    }
    zone.addEventListener("dragover", function (event) {
      if (dragged) {
        event.preventDefault();
        zone.classList.add("drop");
      }
    });
    zone.addEventListener("dragleave", function () {
      zone.classList.remove("drop");
    });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      zone.classList.remove("drop");
      var id = event.dataTransfer.getData("text/plain") || dragged;
      if (id) moveTo(id, zone.dataset.zone);
    });
  });

  document.addEventListener("dragstart", function (event) {
    var summary = event.target.closest && event.target.closest(".pt-card[data-card]");
    if (!summary) return;
    dragged = summary.dataset.card;
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
    if (n >= 1 && n <= zones.length && n <= 9) {
      if (moveTo(summary.dataset.card, zones[n - 1].dataset.zone)) event.preventDefault();
    }
  });

  document.querySelectorAll("a").forEach(function (a) {
    if (a.getAttribute("href") && a.getAttribute("href").indexOf("?seed=") === 0) {
      a.addEventListener("click", function () {
        sessionStorage.setItem("pt-scroll", String(window.scrollY));
      });
    }
  });
  var kept = sessionStorage.getItem("pt-scroll");
  if (kept !== null) {
    sessionStorage.removeItem("pt-scroll");
    window.scrollTo(0, parseInt(kept, 10));
  }

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var input = document.getElementById(button.dataset.copy);
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(input.value);
      button.textContent = "Copied";
    });
  });
})();
