// html-validate over every page the browser tests walk (tests/browser/test_every_page.py
// saves them as the server sends them). The recommended rules, less those that are style
// preferences rather than defects, each for the reason beside it.
export default {
  extends: ["html-validate:recommended"],
  rules: {
    // Django's template tags leave spaces at line ends; no reader sees them.
    "no-trailing-whitespace": "off",
    // <!doctype html> in lower case is the same doctype.
    "doctype-style": "off",
    // Style attributes carry an element's data as CSS custom properties (a faction's colour,
    // a job's progress); the content security policy allows them on purpose.
    "no-inline-style": "off",
    // A parser puts rows without a <tbody> into one; the tables read the same.
    "prefer-tbody": "off",
    // Titles hold user-chosen deck names (up to 120 characters); how much of a title a search
    // engine shows is a matter for the <head>'s SEO, not a markup error.
    "long-title": "off",
    // The only one is in the job page's <noscript>: without JavaScript a running job's page
    // would otherwise never show that it ended.
    "meta-refresh": "off",
    // Checkboxes that share a name are one field of many values (goldfish's picks).
    "form-dup-name": ["error", { shared: ["radio", "checkbox", "button", "reset", "submit"] }],
  },
};
