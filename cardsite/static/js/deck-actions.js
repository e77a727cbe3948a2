// Deck pages without JavaScript already work: the export fields can be selected and copied by
// hand, and Delete leads to a confirmation page. This adds Copy buttons (Clipboard API), asks
// about deleting in a <dialog> on the page itself, and keeps the builder's export current.
"use strict";

(() => {
  if (navigator.clipboard && window.isSecureContext) {
    for (const button of document.querySelectorAll("[data-copy]")) {
      button.hidden = false;
    }
  }

  const say = (from, message) => {
    const status = from.closest(".export-panel")?.querySelector(".copy-status");
    if (!status) return;
    // Emptied first, so that the same message twice is announced twice.
    status.textContent = "";
    window.setTimeout(() => { status.textContent = message; }, 50);
  };

  const copy = async (button) => {
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    try {
      await navigator.clipboard.writeText(field.value);
      say(button, button.dataset.copied || "Copied.");
    } catch {
      // Refused (no permission): leave it selected for the keyboard's copy instead.
      field.focus();
      field.select();
      say(button, "Could not copy; the text is selected for you to copy.");
    }
  };

  document.addEventListener("click", (event) => {
    const copyButton = event.target.closest("[data-copy]");
    if (copyButton) {
      copy(copyButton);
      return;
    }
    const opener = event.target.closest("[data-confirm]");
    const dialog = opener && document.getElementById(opener.dataset.confirm);
    if (dialog && typeof dialog.showModal === "function") {
      event.preventDefault();
      dialog.showModal();
      dialog.querySelector("[formmethod=dialog]")?.focus();
    }
  });

  // Read-only one-line fields select their whole value on focus, ready to copy by hand.
  document.addEventListener("focusin", (event) => {
    if (event.target.matches?.("input.copy-field")) event.target.select();
  });

  // The builder changes the deck in place and says so with deck:changed, once its panel and
  // version are current (not on htmx:afterSettle, which may come before the builder has read
  // the new version from the answer): fetch the exports again when the version moved.
  let wanted = null;
  const refresh = async (panel, version) => {
    wanted = version;
    const get = async (url) => {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(response.statusText);
      return response.json();
    };
    try {
      const [text, code] = await Promise.all([get(panel.dataset.textUrl), get(panel.dataset.codeUrl)]);
      // Two quick edits: an older answer arriving last must not overwrite a newer one.
      if (version !== wanted) return;
      document.getElementById("export-text").value = text.text;
      document.getElementById("export-code").value = code.code;
      panel.dataset.version = version;
    } catch {
      // The fields keep the last export; the download links always give the current one.
    }
  };

  document.addEventListener("deck:changed", (event) => {
    const exportPanel = document.getElementById("export");
    const version = String(event.detail?.version ?? "");
    if (exportPanel && version && version !== exportPanel.dataset.version) {
      refresh(exportPanel, version);
    }
  });
})();
