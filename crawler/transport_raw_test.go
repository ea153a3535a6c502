package crawler

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/internal/wiretest"
)

// The WARC holds the request exactly as sent and the response
// head exactly as received: names in the server's case, fields in its
// order, folded lines, bare LF endings and odd whitespace kept. Interim 1xx
// responses are left out and named in the metadata record; only a removed
// chunked coding's Transfer-Encoding line leaves the head. A body the
// server ended early is archived as far as it arrived, marked
// WARC-Truncated, once.
func TestArchiveHoldsMessagesAsOnTheWire(t *testing.T) {
	t.Parallel()
	routes := map[string]wiretest.Route{
		"/robots.txt": {Resp: "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 13\r\n\r\nUser-agent: *"},
		"/lower": {Resp: "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nx-lower: a\r\nSet-Cookie: a=1\r\nX-Between: b\r\n" +
			"Set-Cookie: b=2\r\ncontent-length: 5\r\n\r\nlower"},
		"/fold": {Resp: "HTTP/1.1 200 OK\r\nX-Fold: a\r\n b\r\n\tc\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nfolded"},
		"/lf":   {Resp: "HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: 7\n\nbare lf"},
		"/ws":   {Resp: "HTTP/1.1 200 Fine  By Me\r\nContent-Type:    text/plain   \r\nX-Empty:\r\nX-Tab:\tv\t\r\nContent-Length: 2\r\n\r\nws"},
		"/interim": {Resp: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n" +
			"HTTP/1.1 200 OK\r\nContent-Length: 7\r\nContent-Type: text/plain\r\n\r\nhinted!"},
		"/chunked": {Resp: "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\nX-After: 1\r\n\r\n" +
			"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"},
		"/close": {Resp: "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nread until close", End: "close"},
		// RFC 9112 6.3: Content-Length is ignored beside a chunked coding;
		// the record must not keep it once the coding is gone.
		"/chunkcl": {Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" +
			"b\r\nhello again\r\n0\r\n\r\n"},
		// A trailer field after the last chunk (RFC 9112 7.1.2).
		"/trailer": {Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTrailer: X-Sum\r\nTransfer-Encoding: chunked\r\n\r\n" +
			"2\r\nok\r\n0\r\nX-Sum: abc\r\n\r\n"},
		// No body: net/http decodes nothing, so the head stays whole.
		"/n304": {Resp: "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nTransfer-Encoding: chunked\r\n\r\n"},
	}
	want := map[string]string{
		"/robots.txt": routes["/robots.txt"].Resp,
		"/lower":      routes["/lower"].Resp,
		"/fold":       routes["/fold"].Resp,
		"/lf":         routes["/lf"].Resp,
		"/ws":         routes["/ws"].Resp,
		"/interim":    "HTTP/1.1 200 OK\r\nContent-Length: 7\r\nContent-Type: text/plain\r\n\r\nhinted!",
		"/chunked":    "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nX-After: 1\r\n\r\nhello world",
		"/close":      routes["/close"].Resp,
		"/chunkcl":    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello again",
		"/trailer":    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTrailer: X-Sum\r\n\r\nok",
		"/n304":       routes["/n304"].Resp,
	}
	s := wiretest.NewServer(t, routes, nil)
	// A host of its own, whose answer is cut short.
	const cutResp = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nonly this arrived"
	cut := wiretest.NewServer(t, map[string]wiretest.Route{"/cut": {Resp: cutResp, End: "close"}}, nil)
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 20 * time.Millisecond
	var seeds []string
	for p := range want {
		if p != "/robots.txt" {
			seeds = append(seeds, s.URL(p))
		}
	}
	slices.Sort(seeds)
	crawlFor(t, cfg, append(seeds, cut.URL("/cut"))...)

	recs := wiretest.WARCRecords(t, cfg.Out)
	for path, body := range want {
		target := s.URL(path)
		resps, reqs := wiretest.RecordsOf(recs, "response", target), wiretest.RecordsOf(recs, "request", target)
		sent := s.Requests(path)
		if len(resps) != 1 || len(reqs) != 1 || len(sent) != 1 {
			t.Errorf("%s: %d response and %d request records for %d requests, want 1 each", path, len(resps), len(reqs), len(sent))
			continue
		}
		if got := string(resps[0].Block); got != body {
			t.Errorf("%s: response record\n%q\nwant\n%q", path, got, body)
		}
		if got := string(reqs[0].Block); got != string(sent[0]) {
			t.Errorf("%s: request record\n%q\nwant the bytes the server received\n%q", path, got, sent[0])
		}
		if tr := resps[0].Get("WARC-Truncated"); tr != "" {
			t.Errorf("%s: WARC-Truncated %q on a whole response", path, tr)
		}
	}
	notes := func(path string) string {
		m := wiretest.RecordsOf(recs, "metadata", s.URL(path))
		if len(m) != 1 {
			t.Fatalf("%s: %d metadata records", path, len(m))
		}
		return string(m[0].Block)
	}
	if n := notes("/interim"); !strings.Contains(n, "interim-response: HTTP/1.1 100 Continue\r\ninterim-response: HTTP/1.1 103 Early Hints\r\n") {
		t.Errorf("/interim metadata does not name the interim responses:\n%s", n)
	}
	if n := notes("/chunked"); !strings.Contains(n, "transfer-encoding: chunked (decoded") {
		t.Errorf("/chunked metadata does not say the coding was removed:\n%s", n)
	}
	if n := notes("/trailer"); !strings.Contains(n, "http-trailer: X-Sum: abc\r\n") {
		t.Errorf("/trailer metadata does not keep the trailer field:\n%s", n)
	}
	if n := notes("/n304"); strings.Contains(n, "transfer-encoding") {
		t.Errorf("/n304 metadata claims a decoding that did not happen:\n%s", n)
	}
	if n := notes("/lower"); strings.Contains(n, "http-record") || strings.Contains(n, "interim-response") {
		t.Errorf("/lower metadata has notes for a plain exchange:\n%s", n)
	}

	// WARC 1.1 section 5.13: the cut body is archived, marked, and the
	// crawl log says why: fetched once more, then, cut alike (the server
	// sends the same every time), taken as it is.
	cutResps := wiretest.RecordsOf(recs, "response", cut.URL("/cut"))
	if len(cutResps) != 2 || len(cut.Requests("/cut")) != 2 {
		t.Fatalf("/cut: %d response records for %d requests, want 2", len(cutResps), len(cut.Requests("/cut")))
	}
	for _, r := range cutResps {
		if got := string(r.Block); got != cutResp {
			t.Errorf("/cut: response record %q, want %q", got, cutResp)
		}
		if tr := r.Get("WARC-Truncated"); tr != archive.TruncatedDisconnect {
			t.Errorf("/cut: WARC-Truncated %q, want %q", tr, archive.TruncatedDisconnect)
		}
	}
	var logged int
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.URL == cut.URL("/cut") {
			logged++
			if e.Error != "" || !strings.Contains(e.Note, "closed the connection after 17 of the 100 body octets") ||
				!e.Truncated || e.Status != 200 || e.Bytes != int64(len("only this arrived")) {
				t.Errorf("/cut crawl log entry %+v: want no error, a note, truncated, status 200, 17 bytes", e)
			}
		}
	}
	if logged != len(cutResps) {
		t.Errorf("/cut: %d crawl log entries for %d archived attempts", logged, len(cutResps))
	}
}
