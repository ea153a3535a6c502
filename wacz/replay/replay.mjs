// replay.mjs: replay archived pages with webrecorder's ReplayWeb.page in
// headless Chromium and print what each replayed page shows, so the Go
// test can check that a WACZ written by package wacz replays in the real
// tool.
//
// Usage: node replay.mjs CHROMIUM SPEC.json
//
// SPEC.json is {"pages": [{"page": URL, "archived": URL, "screenshot": PATH?,
// "live": BOOL?, "styles": [{"selector": CSS, "property": NAME}]?}]}:
// "page" is a page on 127.0.0.1 that embeds <replay-web-page> (ui.js and
// sw.js beside it) showing the archived URL "archived". For each, the
// script waits until the replay frame (its URL holds "mp_/", after the
// timestamp when there is one, and the archived URL) has text, has loaded
// (document.readyState "complete": its style sheets, @import chains
// included, are in) and every image has loaded or failed, then reads the
// frame's DOM. With "live", "page" is the original page itself, read the
// same way from the main frame once it has loaded. Chromium resolves no
// host but 127.0.0.1, so the replay can only come from the WACZ.
//
// "styles" names computed styles to read (getComputedStyle) of the first
// element each selector matches: the value, and for a url("...") value the
// natural width of that image loaded in the frame (0 when it fails).
//
// Prints one JSON object: {results: [{archived, frameURL, text, html,
// title, background, images: [{src, width}], styles: [{selector, property,
// value, imageWidth}]}], errors: [...]}; a page that never showed its
// frame within the time limit is an error.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";

const [chromium, specFile] = process.argv.slice(2);
if (!chromium || !specFile) {
  console.error("usage: node replay.mjs CHROMIUM SPEC.json");
  process.exit(2);
}
const spec = JSON.parse(fs.readFileSync(specFile, "utf8"));
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "crawl-replay-"));
const errors = [];
const results = [];

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  userDataDir: profile,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
  ],
});

// frameState reads what a frame shows, and the computed styles named in
// styles.
async function frameState(styles) {
  const body = document.body;
  const imageWidth = (src) =>
    new Promise((resolve) => {
      const img = new Image();
      img.onload = () => resolve(img.naturalWidth);
      img.onerror = () => resolve(0);
      img.src = src;
    });
  const read = [];
  for (const s of styles || []) {
    const el = document.querySelector(s.selector);
    const value = el ? getComputedStyle(el)[s.property] : "";
    const url = /^url\("(.*)"\)$/.exec(value);
    read.push({ selector: s.selector, property: s.property, value, imageWidth: url ? await imageWidth(url[1]) : 0 });
  }
  return {
    text: body ? body.innerText : "",
    html: document.documentElement ? document.documentElement.outerHTML : "",
    title: document.title,
    background: body ? getComputedStyle(body).backgroundColor : "",
    ready: document.readyState,
    images: [...document.images].map((i) => ({ src: i.src, width: i.naturalWidth, complete: i.complete })),
    styles: read,
  };
}

// live reads the original page itself, loaded in the main frame.
async function live(item) {
  const page = await browser.newPage();
  await page.goto(item.page, { waitUntil: "load", timeout: 60000 });
  const state = await page.mainFrame().evaluate(frameState, item.styles);
  await page.close();
  return { archived: item.archived, frameURL: item.page, ...state };
}

async function replay(item) {
  const page = await browser.newPage();
  await page.setViewport({ width: 900, height: 380 });
  await page.goto(item.page, { waitUntil: "load", timeout: 60000 });
  const deadline = Date.now() + 60000;
  let last = null;
  // In a new profile ReplayWeb.page's service worker now and then never
  // brings up the replay frame of the first load; a reload does, as it
  // would for a reader. A page that still shows no frame is an error.
  let loadedAt = Date.now();
  let reloads = 0;
  while (Date.now() < deadline) {
    if (last === null && reloads < 2 && Date.now() - loadedAt > 15000) {
      await page.reload({ waitUntil: "load", timeout: 30000 });
      reloads++;
      loadedAt = Date.now();
    }
    for (const frame of page.frames()) {
      const u = frame.url();
      if (!/[0-9]*mp_\//.test(u) || !u.includes(item.archived)) continue;
      let state;
      try {
        state = await frame.evaluate(frameState, item.styles);
      } catch (e) {
        last = { error: String(e) };
        continue; // the frame navigated while being read
      }
      last = { text: state.text.slice(0, 200), images: state.images, html: state.html.slice(0, 300) };
      if (state.text.trim() !== "" && state.ready === "complete" && state.images.every((i) => i.complete)) {
        if (item.screenshot) {
          await new Promise((r) => setTimeout(r, 500)); // let the last paint land
          await page.screenshot({ path: item.screenshot });
        }
        await page.close();
        return { archived: item.archived, frameURL: u, ...state };
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const frames = page.frames().map((f) => f.url());
  await page.close();
  throw new Error(`no replay frame of ${item.archived} with text within 60 s (${reloads} reloads); last seen ${JSON.stringify(last)}; frames: ${frames.join(" ")}`);
}

try {
  for (const item of spec.pages) {
    try {
      results.push(await (item.live ? live(item) : replay(item)));
    } catch (e) {
      errors.push(String(e));
    }
  }
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify({ results, errors }) + "\n");
process.exit(errors.length ? 1 : 0);
