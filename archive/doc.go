// Package archive writes what the crawler fetched as a web archive that
// replay and preservation tools read: WARC 1.1 files (one gzip member per
// record, rotated by size), a sorted CDXJ index, and optionally a browsable
// mirror on disk.
//
// Specifications followed:
//   - WARC 1.1 (ISO 28500:2017), https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/
//     records (section 4), named fields (5), warcinfo/request/response/
//     metadata/revisit records (6), Annex D record-at-a-time gzip.
//   - Revisit profile "identical payload digest" (WARC 1.1 section 6.7.2).
//   - CDXJ as read by pywb, https://pywb.readthedocs.io/en/latest/manual/indexing.html,
//     with SURT keys (http://crawler.archive.org/articles/user_manual/glossary.html#surt).
//   - RFC 4648 base32 for digests, RFC 9562 (version 4) for record ids,
//     RFC 9112 section 2.2 for reading raw HTTP/1.x messages.
//
// Writing: Open(Options) returns a Writer; WriteExchange archives one fetch
// (request, response or revisit, metadata, linked by WARC-Concurrent-To);
// Close writes index.cdxj. A Writer is safe for concurrent use. Each
// exchange's records are compressed outside the lock and appended with one
// write, so a crash can only tear the last record; Open on an existing
// directory validates what the journal does not cover, truncates a torn
// tail of the newest file and appends.
//
// Reading: NewReader/Next parse any WARC stream (gzip or not); Record has
// VerifyBlockDigest and VerifyPayloadDigest. RebuildIndex regenerates
// index.cdxj from the WARC files.
//
// Deviations and decisions where the specifications leave room:
//   - WARC-Payload-Digest is computed over the payload exactly as recorded
//     (bytes after the HTTP header block, transfer and content codings left
//     in place), as webrecorder's warcio (python and js) computes and checks
//     it; WARC 1.1 section 6.3.2 leaves the transfer-coding case open.
//     The HTTP header block ends at the first empty line, CRLF or a bare
//     LF (RFC 9112 section 2.2 lets a recipient accept bare LF), as python
//     warcio reads it; warcio.js only looks for CRLF CRLF after the status
//     line, so for the rare server that ends its head with bare LFs, or
//     sends a status line with no header fields at all, it reads an empty
//     payload and reports a payload digest mismatch. The record holds the
//     bytes as received either way (WARC 1.1 section 6.3.2).
//   - Digests are "sha1:" or "sha256:" with RFC 4648 base32 (padded for
//     sha256); one algorithm is used for the whole archive.
//   - WARC-Date has whole-second precision (valid for WARC 1.0 readers too).
//   - Records are compressed with klauspost/compress's gzip at
//     Options.GzipLevel (default: its DefaultCompression, level 5).
//   - Records are not fsynced one by one (the file is synced on rotation and
//     Close): kill -9 loses nothing written, a power loss can lose the tail,
//     which Open then truncates.
//   - Only 2xx, untruncated, non-empty payloads become revisit records; the
//     revisit table holds at most 1<<20 digests (then new payloads are still
//     stored in full). Open reloads it from the journal and the files, so
//     revisits after a resume refer to responses of earlier runs.
//   - A metadata record is written only when Exchange.Metadata is not
//     empty; robots.txt exchanges (IsRobots) are archived and indexed but
//     never mirrored.
//   - The CDXJ "digest" drops the "sha1:" label as pywb does; sha256 keeps
//     its label. SURT keys are those pywb computes (python surt's
//     default transform, see SURT), with three approximations: a
//     non-ASCII host is IDNA-encoded by UTS #46 (x/net/idna), not IDNA
//     2003, so "ß" stays a letter; an escape that decodes to bytes that
//     are not UTF-8 becomes one U+FFFD per byte; a numeric host that
//     inet_aton rejects stays a name where surt would ask DNS. An index
//     resumed from an older version keeps the keys it was written with;
//     RebuildIndex recomputes them.
//   - index.cdxj is written (sorted) at Close; until then the entries live
//     in memory (a few hundred bytes per response) and in an append-only
//     journal (index.journal), so Open after a crash only decompresses the
//     records each file holds beyond its last journalled one. Records the
//     journal covers are trusted, not re-validated. The journal is written
//     through a 64 KiB buffer, flushed when a file is synced (rotation,
//     Close): a crash loses at most that tail of it, and Open finds those
//     records by scanning. WARC data is never buffered: each exchange is
//     one write to the file.
//   - The mirror stores decoded bodies (chunked, gzip, deflate) of 2xx
//     responses; bodies in other codings (br, zstd) or larger than 256 MiB
//     decoded stay in the WARC only. A body cut short (WARC-Truncated) is
//     mirrored as far as it came and decoded, as a browser shows it, unless
//     the fetch failed (Exchange.Failed: a reset or timeout mid-body); a
//     later whole fetch of the URL replaces the file. Link rewriting covers
//     href/src of the usual tags, img lowsrc, the background of body, table,
//     td and th, object data and video poster and the URL in a meta
//     refresh's content, not srcset or CSS url(); a <base href> is honoured
//     and then removed, as the rewritten links are relative to the file.
//     Only the URL text of a rewritten attribute changes (as with wget -k):
//     the case of tags, quoting, entities and every octet of a page in
//     another charset stay as received; of duplicate link attributes the
//     first is the link, as for a browser. Links are read as the crawler
//     read them (package pageenc): in the page's encoding, the path in UTF-8
//     and the query in that encoding, tabs and newlines dropped and
//     back-slashes read as slashes. Links to pages not mirrored become
//     absolute URLs (as wget -k makes them), links to a URL that redirected
//     lead to its target's file. URLs that RFC 3986 6.2.2.1 and 6.2.2.2 make
//     equal (case of scheme, host and escapes, escaped unreserved
//     characters), or that differ by an empty port ("host:", 6.2.3), share
//     one file; all others get their own: https hosts live in "host@https",
//     and a reserved character the URL percent-encoded is written "%%XX",
//     apart from the literal one (see MirrorPath). A link is matched to a
//     file after the rest of 6.2.2 and 6.2.3 too (dot segments, default
//     port, empty query), so it finds the file of a URL that differs from it
//     only so. When a path is both a file and a directory prefix ("/a" and
//     "/a/b"), the file is stored as "a@f" beside the directory (see
//     MirrorPath for the other '@' tags). Windows device names (CON,
//     NUL, ...) are not renamed.
//   - One Writer per directory: Open takes a flock on Dir/.lock (released
//     by the kernel if the process dies). Platforms without flock get no
//     such protection.
//   - Mirror failures do not lose archive data: WriteExchange reports them
//     wrapped in ErrMirror after the WARC records are written.
package archive
