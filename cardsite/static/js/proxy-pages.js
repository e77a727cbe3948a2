// The proxy form's PNG page links carry the options the page was drawn with. As the options
// change (the preview follows them without a reload), the links follow too: backs double the
// pages, and an option the browser already knows is out of range hides them until corrected.
"use strict";

(() => {
  const form = document.getElementById("proxies-form");
  const nav = document.getElementById("png-pages");
  if (!form || !nav) return;
  const base = nav.dataset.url;
  const sheets = Number(nav.dataset.sheets);
  const list = nav.querySelector("ul");

  const query = () => {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (value !== "") params.append(name, value);
    }
    return params.toString();
  };

  // Links are changed in place, never replaced: a change event fires as a field loses focus,
  // which may be the press on a link, and a link swapped mid-click would swallow the click.
  const update = () => {
    nav.hidden = [...form.elements].some((field) => field.validity && !field.validity.valid);
    if (nav.hidden) return;
    const backs = form.elements.namedItem("backs")?.checked ?? false;
    const extra = query();
    const count = backs ? sheets * 2 : sheets;
    while (list.children.length > count) list.lastElementChild.remove();
    while (list.children.length < count) {
      const item = document.createElement("li");
      item.append(document.createElement("a"));
      list.append(item);
    }
    [...list.querySelectorAll("a")].forEach((link, index) => {
      const number = index + 1;
      const href = `${base}?page=${number}${extra ? `&${extra}` : ""}`;
      const label = backs ? `${number} ${number % 2 ? "front" : "back"}` : String(number);
      if (link.getAttribute("href") !== href) link.setAttribute("href", href);
      if (link.textContent !== label) link.textContent = label;
    });
  };

  form.addEventListener("input", update);
  form.addEventListener("change", update);
})();
