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

  const update = () => {
    nav.hidden = [...form.elements].some((field) => field.validity && !field.validity.valid);
    if (nav.hidden) return;
    const backs = form.elements.namedItem("backs")?.checked ?? false;
    const extra = query();
    const count = backs ? sheets * 2 : sheets;
    const items = [];
    for (let number = 1; number <= count; number += 1) {
      const link = document.createElement("a");
      link.href = `${base}?page=${number}${extra ? `&${extra}` : ""}`;
      link.textContent = backs ? `${number} ${number % 2 ? "front" : "back"}` : String(number);
      const item = document.createElement("li");
      item.append(link);
      items.push(item);
    }
    list.replaceChildren(...items);
  };

  form.addEventListener("input", update);
  form.addEventListener("change", update);
})();
