// Package crawllog defines the files a crawl writes in its output
// directory besides the archive: the crawl log (crawl.jsonl, one line per
// request), the skip log (skips.jsonl, one line per URL not fetched, with
// why), the robots log (robots.jsonl, one line per robots.txt fetch), the
// run log (runs.jsonl, a line when each run of the directory starts and
// ends) and the end-of-crawl summary (summary.json), which covers every
// run of the directory. The crawler writes them and the
// report reads them; both use these types, so the format is defined once,
// and both read the logs back with ReadJSONL.
//
// Times are UTC with nanoseconds (RFC 3339). Every type is a plain value.
//
// Formats followed: JSON Lines (https://jsonlines.org/), one JSON object
// per line, each line written whole in one write so a kill never tears a
// line; RFC 3339 for times.
//
// Deviations:
//   - A reader of the logs passes over a line that does not parse (a disk
//     that filled up mid-line) instead of failing; the crawler counts what
//     did parse (ReadJSONL counts the lines passed over, for the report's
//     notes). A line over MaxLine (1 MiB) is passed over too, so a
//     damaged log cannot make a reader hold an unbounded line.
//   - Printable writes Go escapes (\x1b, \u202e, \\), not the caret
//     notation (^[) of cat -v: the escapes are unambiguous and the same as
//     the robots CLI's.
package crawllog
