// Lighthouse's SEO category for each URL given, in one headless Chromium (CHROME_PATH):
// prints {url: {score, failed: [audit ids with their titles]}} as JSON.
// Run by tests/browser/test_lighthouse.py; by hand: node tests/browser/lighthouse_seo.mjs URL...
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const urls = process.argv.slice(2);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
  ],
});
const report = {};
try {
  for (const url of urls) {
    const started = Date.now();
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error" }, {
      extends: "lighthouse:default",
      settings: {
        onlyCategories: ["seo"],
        // SEO audits read the page, not its speed, so nothing need wait for the page to fall
        // quiet after it has loaded. ("simulate", the default, loads at full speed and slows
        // only its arithmetic afterwards; "provided" would make every wait 5.25 s instead.)
        throttlingMethod: "simulate",
        formFactor: "desktop",
        screenEmulation: { disabled: true },
        disableFullPageScreenshot: true,
        pauseAfterFcpMs: 0,
        pauseAfterLoadMs: 0,
        networkQuietThresholdMs: 0,
        cpuQuietThresholdMs: 0,
      },
    });
    const lhr = result.lhr;
    const failed = lhr.categories.seo.auditRefs
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== 1)
      .map((ref) => `${ref.id}: ${lhr.audits[ref.id].title}`);
    report[url] = {
      score: lhr.categories.seo.score,
      failed,
      seconds: (Date.now() - started) / 1000,
      runtimeError: lhr.runtimeError ? lhr.runtimeError.message : null,
    };
  }
} finally {
  await chrome.kill();
}
console.log(JSON.stringify(report));
