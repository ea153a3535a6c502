// make-fixture.mjs: write testdata/archive/warcio-written.warc.gz with
// webrecorder's warcio.js, so the Go reader is tested on a WARC produced by
// an independent writer. Output is committed; rerun only to regenerate:
//
//   node make-fixture.mjs ../../testdata/archive/warcio-written.warc.gz
import fs from "node:fs";
import { WARCRecord, WARCSerializer } from "warcio";

const out = process.argv[2];
if (!out) {
  console.error("usage: node make-fixture.mjs OUTPUT.warc.gz");
  process.exit(2);
}
const warcVersion = "WARC/1.1";
const date = "2026-01-02T03:04:05Z";
const enc = new TextEncoder();
async function* body(s) {
  yield enc.encode(s);
}
const records = [
  await WARCRecord.createWARCInfo({ filename: "warcio-written.warc.gz", warcVersion }, { software: "warcio.js" }),
  await WARCRecord.create(
    { url: "http://example.com/", date, type: "request", warcVersion, statusline: "GET / HTTP/1.1",
      httpHeaders: { Host: "example.com" } },
    body(""),
  ),
  await WARCRecord.create(
    { url: "http://example.com/", date, type: "response", warcVersion,
      httpHeaders: { "Content-Type": "text/html", "Content-Length": "21" } },
    body("<p>from warcio.js</p>"),
  ),
  await WARCRecord.create(
    { url: "http://example.com/again", date, type: "revisit", warcVersion, refersToUrl: "http://example.com/",
      refersToDate: date, httpHeaders: { "Content-Type": "text/html" } },
    body(""),
  ),
];
const chunks = [];
for (const r of records) {
  chunks.push(await WARCSerializer.serialize(r, { gzip: true }));
}
fs.writeFileSync(out, Buffer.concat(chunks.map((c) => Buffer.from(c))));
