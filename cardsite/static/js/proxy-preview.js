// The proxy form works without JavaScript (its Preview button reloads the page with the
// options). This redraws the preview as the options change, a moment after the last change.
"use strict";

(() => {
  const form = document.getElementById("proxies-form");
  const figure = document.getElementById("proxies-preview");
  const status = document.getElementById("preview-status");
  if (!form || !figure || !status) return;
  const base = form.dataset.previewUrl;
  const WAIT_MS = 400;
  let timer = 0;
  let shown = "";

  const query = () => {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (value !== "") params.append(name, value);
    }
    return params.toString();
  };

  // Shown instead of the image while the options cannot be drawn.
  const placeholder = (show) => {
    let empty = figure.querySelector(".preview-empty");
    if (show && !empty) {
      empty = document.createElement("div");
      empty.className = "preview-empty";
      empty.textContent = "No preview until the options are corrected.";
      figure.prepend(empty);
    } else if (!show && empty) {
      empty.remove();
    }
  };

  const watch = (img) => {
    img.addEventListener("load", () => {
      if (figure.classList.contains("loading")) status.textContent = "Preview updated.";
      figure.classList.remove("loading");
      img.hidden = false;
      placeholder(false);
    });
    img.addEventListener("error", explain);
  };

  const image = () => {
    let img = figure.querySelector("img");
    if (!img) {
      img = document.createElement("img");
      img.alt = "The first page of the proxy sheet, with these options";
      // Shown once it has loaded: until then the placeholder stays.
      img.hidden = true;
      figure.prepend(img);
      watch(img);
    }
    return img;
  };

  // An image that fails to load says nothing; ask the preview for its reason once.
  async function explain() {
    figure.classList.remove("loading");
    this.hidden = true;
    placeholder(true);
    try {
      const response = await fetch(this.src);
      if (response.status === 429) {
        const wait = response.headers.get("Retry-After") || "a few";
        status.textContent = `Too many previews drawn just now; try again in ${wait} seconds.`;
      } else if (response.headers.get("Content-Type")?.startsWith("text/plain")) {
        status.textContent = (await response.text()).trim();
      } else {
        status.textContent = "The preview could not be shown.";
      }
    } catch {
      status.textContent = "The preview could not be loaded.";
    }
  }

  const update = () => {
    for (const field of form.elements) {
      if (field.validity && !field.validity.valid) {
        status.textContent = `${field.labels?.[0]?.textContent ?? field.name}: ${field.validationMessage}`;
        return;
      }
    }
    const params = query();
    if (params === shown) return;
    shown = params;
    form.querySelector("#proxies-error")?.remove();
    figure.classList.add("loading");
    status.textContent = "Drawing the preview…";
    const img = image();
    img.src = params ? `${base}?${params}` : base;
    // The page's address keeps the options, so a reload or a shared link shows the same.
    window.history.replaceState(null, "", params ? `?${params}` : window.location.pathname);
    rememberable();
  };

  // "Remember these offsets" saves what the form now holds, offered while it differs from
  // what is saved, and comes back to the form as it is now.
  const rememberable = () => {
    const remember = document.getElementById("remember-offsets");
    if (!remember) return;
    const x = form.elements.back_offset_x.value;
    const y = form.elements.back_offset_y.value;
    remember.elements.back_offset_x.value = x;
    remember.elements.back_offset_y.value = y;
    remember.elements.next.value = window.location.pathname + window.location.search;
    remember.hidden =
      Number(x) === Number(remember.dataset.savedX) && Number(y) === Number(remember.dataset.savedY);
  };

  const existing = figure.querySelector("img");
  if (existing) {
    shown = new URL(existing.src, window.location.href).search.slice(1);
    watch(existing);
  }

  const later = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(update, WAIT_MS);
  };
  form.addEventListener("input", later);
  form.addEventListener("change", later);
})();
