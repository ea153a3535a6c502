// Package wacz packages the output directory of a crawl as one WACZ file
// (Web Archive Collection Zipped), the file that ReplayWeb.page and other
// replay tools open: the crawl's WARC files, an index of every response,
// the list of pages fetched with their titles, and a manifest that names
// every file with its size and SHA-256.
//
// Write(dir, opts) reads dir/archive/*.warc.gz (and *.warc),
// dir/archive/index.cdxj and dir/crawl.jsonl and writes dir/NAME.wacz. The file is written whole to a
// temporary name in dir (.NAME.wacz.tmp-*, which a crash may leave behind)
// and renamed into place, so a crash leaves either the previous WACZ or
// none under the final name, never half of one. It is
// streamed: the WARC files are copied into the ZIP with io.Copy, their
// SHA-256 computed on the way, never held in memory.
//
// Specifications followed:
//   - WACZ 1.1.1 (webrecorder specs), "Directory Layout" and "Directories
//     and Files": archive/ holds the WARC files, indexes/ a CDXJ index of
//     them, pages/pages.jsonl a header line and then one Page object per
//     line (url and an RFC 3339 ts; title and id), datapackage.json the
//     manifest (profile "data-package", wacz_version, resources with path,
//     "sha256:" hash and bytes; title, created, software, mainPageUrl and
//     mainPageDate), datapackage-digest.json the hash of the manifest.
//   - WACZ 1.1.1 "Zip Compression": the WARC files, gzip already, are
//     stored (method STORE); the JSON, JSONL and CDXJ files are deflated.
//   - Frictionless Data Package (resources with name, path, hash, bytes).
//   - CDXJ as read by pywb and wabac.js: "SURT timestamp {json}" lines
//     whose filename names a file in archive/ and whose offset and length
//     locate its gzip member.
//   - PKWARE APPNOTE.TXT 6.3, section 4.3.14 onwards (ZIP64): archive/zip
//     writes the ZIP64 records when an entry or an offset passes 4 GiB.
//   - HTML Standard 13.2.3 (encoding of a page, through package pageenc)
//     and the document.title definition (the title element's text with
//     ASCII whitespace stripped and collapsed).
//
// Pages: the crawl log gives the order and which pages were seeds. A page
// is a crawl.jsonl line of kind "page" with a 2xx status and an HTML
// Content-Type (text/html, application/xhtml+xml) whose response the index
// holds. A seed is a page at depth 0 without a parent, or the target of a
// seed's redirect (depth 0, its parent a seed that answered 3xx); seeds
// come first, in crawl order, then the other pages in crawl order, each
// URL once (its first fetch). Each line carries "seed" and "depth" beside
// the fields the specification names. A directory without crawl.jsonl
// gets every 2xx HTML response of the index (and each revisit of one) in
// the order of the WARC files, none marked a seed.
//
// Deviations and decisions where the specification leaves room:
//   - indexes/index.cdx holds CDXJ (the name py-wacz uses; ReplayWeb.page
//     checks the hash of a ".cdx" index against datapackage.json, not of a
//     ".cdxj" one). It is the crawl's archive/index.cdxj line for line,
//     with two changes to the JSON of each line: "filename" is the bare
//     name of the WARC file in archive/ (wabac.js prefixes "archive/"),
//     and an unlabelled "digest" (the crawl writes SHA-1 digests without
//     "sha1:", as pywb does) gets its "sha1:" label, since wabac.js reads
//     an unlabelled digest as SHA-256. A line that names a WARC file the
//     directory lacks is an error.
//   - The index is one uncompressed CDXJ file that a replay tool loads
//     whole; the compressed, block-indexed form (index.cdx.gz with an
//     .idx) for collections of millions of URLs is not written.
//   - A page's title is read from its response record (chunked transfer
//     coding, gzip, deflate and br content codings undone as the crawl
//     undoes them, with wire.DecodeContent; other codings give no title) in the encoding package pageenc finds, from at most the
//     first 1 MiB of the decoded body, and cut to 1024 bytes. A revisit
//     takes the title of the response with the same payload digest. No
//     "text" is extracted, so full-text search over the pages is not
//     offered.
//   - Memory grows with the number of HTML pages and revisits (one small
//     entry each, as the archive's own index keeps one per response),
//     never with the size of the WARCs.
//   - created is the time Write runs, and every ZIP entry carries it as
//     its modification time; page ids are the first 16 hex digits of the
//     SHA-256 of "URL TIMESTAMP", so the same crawl gives the same ids.
package wacz
