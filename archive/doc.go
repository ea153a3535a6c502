// Package archive writes what the crawler fetched as a web archive that
// replay and preservation tools read: WARC 1.1 files (one gzip member per
// record, rotated by size) and a sorted CDXJ index. An optional Mirror
// (the browsable copy of package mirror) is handed each archived
// response; the package itself knows nothing of HTML.
//
// Specifications followed:
//   - WARC 1.1, the IIPC's text of ISO 28500:2017 (Information and
//     documentation, WARC file format): the file and record model
//     (section 4), the named fields (section 5: WARC-Date 5.4,
//     WARC-Block-Digest 5.8, WARC-Payload-Digest 5.9, WARC-Truncated
//     5.15), the warcinfo (6.2), response (6.3), request (6.5), metadata
//     (6.6) and revisit (6.7) records, the "identical payload digest"
//     revisit profile (6.7.2), and record-at-a-time compression (Annex
//     D.2: one gzip member per record).
//   - CDXJ as pywb defines and reads it (pywb manual, chapter "Indexing",
//     section "Index Formats", "CDXJ Format"): a SURT key, a 14-digit
//     timestamp and a JSON object per line, sorted; the SURT keys of the
//     python surt library's default transform (Heritrix's "Sort-friendly
//     URI Reordering Transform").
//   - RFC 4648 section 6 (base32) for digests, RFC 9562 section 5.4
//     (version 4 UUIDs) for record ids, RFC 9112 section 2.2 for reading
//     raw HTTP/1.x messages, RFC 1952 (gzip) for the members.
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
//     revisit table holds at most 1<<16 digests, those archived or met
//     again most recently (a payload it has forgotten is stored in full
//     again), so its memory does not grow with the crawl. Open reloads it
//     from the journal and the files, so revisits after a resume refer to
//     responses of earlier runs.
//   - A metadata record is written only when Exchange.Metadata is not
//     empty; robots.txt exchanges (IsRobots) are archived and indexed but
//     never handed to the Mirror.
//   - The CDXJ "digest" drops the "sha1:" label as pywb does; sha256 keeps
//     its label. SURT keys are those pywb computes (python surt's
//     default transform, see SURT), with three approximations: a
//     non-ASCII host is IDNA-encoded by UTS #46 (x/net/idna), not IDNA
//     2003, so "ß" stays a letter; an escape that decodes to bytes that
//     are not UTF-8 becomes one U+FFFD per byte; a numeric host that
//     inet_aton rejects stays a name where surt would ask DNS. An index
//     resumed from an older version keeps the keys it was written with;
//     RebuildIndex recomputes them.
//   - index.cdxj is written (sorted) at Close from an append-only journal
//     (index.journal), not from memory: the lines are sorted in runs of
//     16 MiB in temporary files and merged, so a crawl of millions of
//     pages holds nothing per record. Open after a crash only decompresses
//     the records each file holds beyond its last journalled one, and
//     rewrites the journal line by line. If a write to the journal failed,
//     Close indexes the WARC files instead. Records the
//     journal covers are trusted, not re-validated. The journal is written
//     through a 64 KiB buffer, flushed when a file is synced (rotation,
//     Close): a crash loses at most that tail of it, and Open finds those
//     records by scanning. WARC data is never buffered: each exchange is
//     one write to the file.
//   - One Writer per directory: Open takes a flock on Dir/.lock (released
//     by the kernel if the process dies). Platforms without flock get no
//     such protection.
//   - A write that fails (a full disk) leaves no partial record: the file
//     is cut back to where the exchange's records began, the error names
//     the file and wraps the cause (errors.Is(err, syscall.ENOSPC)), and
//     the Writer refuses every later exchange with the same error, so no
//     record follows a hole. A journal write that fails after the records
//     were written leaves the exchange archived and refuses the next one;
//     Open rebuilds the journal from the files. Close still writes the
//     index of what was written, and returns the failure.
//   - Mirror failures do not lose archive data: WriteExchange reports them
//     wrapped in ErrMirror after the WARC records are written. The journal
//     keeps each response's Content-Type and each redirect's Location, so
//     that Open hands the Mirror what earlier runs archived.
package archive
