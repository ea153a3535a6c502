// verify.mjs: read WARC files with webrecorder's warcio.js (an implementation
// independent of the Go package) and check every record.
//
// Usage: node verify.mjs FILE.warc.gz...
//
// For every record: it must parse; Content-Length must equal the block size;
// WARC-Block-Digest is recomputed over the block; for request/response
// records WARC-Payload-Digest is recomputed over the raw HTTP payload (bytes
// after the HTTP headers, as warcio exposes them); revisit records must
// carry the identical-payload-digest profile and refer to an earlier
// response with the same payload digest. warcio's own CDXJ indexer output is
// included so the caller can compare it with the archive's index.cdxj.
//
// Prints one JSON object: {records: [...], cdx: [...], errors: [...]}; exits
// 1 when errors is not empty.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { WARCParser, CDXIndexer } from "warcio";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

// base32 (RFC 4648, no padding), written here so nothing is shared with the
// code under test.
function base32(bytes) {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) {
    out += ALPHABET[(value << (5 - bits)) & 31];
  }
  return out;
}

function checkDigest(label, declared, data, where, errors) {
  if (!declared) {
    errors.push(`${where}: missing ${label}`);
    return;
  }
  const i = declared.indexOf(":");
  const algo = declared.slice(0, i).toLowerCase();
  const value = declared.slice(i + 1).replace(/=+$/, "").toUpperCase();
  const nodeAlgo = { sha1: "sha1", sha256: "sha256" }[algo];
  if (!nodeAlgo) {
    errors.push(`${where}: ${label} uses unknown algorithm ${algo}`);
    return;
  }
  const got = base32(crypto.createHash(nodeAlgo).update(data).digest());
  if (got !== value) {
    errors.push(`${where}: ${label} ${declared} but data gives ${algo}:${got}`);
  }
}

const files = process.argv.slice(2);
const errors = [];
const records = [];
const payloadDigests = new Map(); // digest -> target URIs of responses

for (const file of files) {
  const name = path.basename(file);
  // Pass 1: blocks exactly as stored (no HTTP parsing).
  let n = 0;
  try {
    const parser = new WARCParser(fs.createReadStream(file), { parseHttp: false });
    for await (const record of parser) {
      const where = `${name} record ${n}`;
      const block = await record.readFully(false);
      const declared = Number(record.warcHeader("Content-Length"));
      if (declared !== block.length) {
        errors.push(`${where}: Content-Length ${declared} but block is ${block.length} bytes`);
      }
      if (record.warcHeaders.protocol !== "WARC/1.1") {
        errors.push(`${where}: version ${record.warcHeaders.protocol}`);
      }
      for (const f of ["WARC-Record-ID", "WARC-Date", "WARC-Type"]) {
        if (!record.warcHeader(f)) errors.push(`${where}: missing ${f}`);
      }
      checkDigest("WARC-Block-Digest", record.warcHeader("WARC-Block-Digest"), block, where, errors);
      n++;
    }
  } catch (e) {
    errors.push(`${name}: parse error after ${n} records: ${e}`);
  }

  // Pass 2: HTTP parsed; payload digests; revisit references.
  n = 0;
  try {
    const parser = new WARCParser(fs.createReadStream(file));
    for await (const record of parser) {
      const where = `${name} record ${n}`;
      const type = record.warcType;
      const entry = { file: name, type, uri: record.warcTargetURI ?? null };
      if (record.httpHeaders) {
        if (type === "response" || type === "revisit") entry.status = record.httpHeaders.statusCode;
        if (type === "request") entry.method = record.httpHeaders.method;
      }
      const payload = await record.readFully(false);
      if (type === "request" || type === "response") {
        if (!record.httpHeaders) {
          errors.push(`${where}: ${type} without HTTP headers`);
        } else if (record.warcPayloadDigest) {
          checkDigest("WARC-Payload-Digest", record.warcPayloadDigest, payload, where, errors);
        }
        if (type === "response" && record.warcPayloadDigest) {
          payloadDigests.set(record.warcPayloadDigest, record.warcTargetURI);
        }
      }
      if (type === "revisit") {
        const profile = record.warcHeader("WARC-Profile");
        if (profile !== "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest") {
          errors.push(`${where}: revisit profile ${profile}`);
        }
        const refURI = record.warcHeader("WARC-Refers-To-Target-URI");
        if (!refURI || !record.warcHeader("WARC-Refers-To-Date")) {
          errors.push(`${where}: revisit without WARC-Refers-To-Target-URI/Date`);
        }
        if (payloadDigests.get(record.warcPayloadDigest) !== refURI) {
          errors.push(`${where}: revisit refers to ${refURI}, no earlier response with ${record.warcPayloadDigest}`);
        }
        entry.refersTo = refURI;
      }
      if (record.warcHeader("WARC-Concurrent-To")) entry.concurrentTo = record.warcHeader("WARC-Concurrent-To");
      entry.id = record.warcHeader("WARC-Record-ID");
      records.push(entry);
      n++;
    }
  } catch (e) {
    errors.push(`${name}: parse error after ${n} records: ${e}`);
  }
}

// warcio's own CDXJ indexer.
const cdx = [];
try {
  const indexer = new CDXIndexer({ format: "cdxj" });
  const streams = files.map((f) => ({ filename: path.basename(f), reader: fs.createReadStream(f) }));
  for await (const line of indexer.iterIndex(streams)) {
    cdx.push(line);
  }
} catch (e) {
  errors.push(`cdx indexer: ${e}`);
}

process.stdout.write(JSON.stringify({ records, cdx, errors }, null, 1) + "\n");
process.exit(errors.length ? 1 : 0);
