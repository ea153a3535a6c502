package crawler

import (
	"bufio"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/crawllog"
)

// resetServer answers every request on 127.0.0.1 with resp, waits for the
// client to read it, and resets the connection (TCP RST): a body broken
// off, not ended by the server.
func resetServer(t *testing.T, resp string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			br := bufio.NewReader(c)
			for {
				line, err := br.ReadString('\n')
				if err != nil || line == "\r\n" {
					break
				}
			}
			c.Write([]byte(resp))
			time.Sleep(200 * time.Millisecond) // the client reads what was sent
			c.(*net.TCPConn).SetLinger(0)
			c.Close()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	return "http://" + ln.Addr().String()
}

// A body the server ended by closing the connection early is the answer
// (the pace sees an answer, colly reads what arrived); one broken off by a
// reset is a failure, as before.
func TestTransportTellsEndedEarlyFromBrokenOff(t *testing.T) {
	t.Parallel()
	const head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n"
	reset := resetServer(t, head+"twenty bytes arrived")
	tr, pace := newBareTransport(1<<20, 5*time.Second)
	ex, err := fetchVia(t, tr, reset+"/reset")
	if err == nil || ex.Err == nil || ex.EndedEarly != "" || ex.Truncation != archive.TruncatedDisconnect {
		t.Errorf("reset: error %v, ended early %q, truncation %q: want a failure, disconnect", err, ex.EndedEarly, ex.Truncation)
	}
	if len(pace.observed) != 1 || pace.observed[0] != "0 true" {
		t.Errorf("reset: pace observed %q, want a failure", pace.observed)
	}

	s := newRawServer(t, map[string]rawRoute{
		"/longcl": {resp: head + "twenty bytes arrived", end: "close"},
		"/chunk":  {resp: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", end: "close"},
	}, nil)
	for path, want := range map[string]string{
		"/longcl": "after 20 of the 100 body octets its Content-Length announced",
		"/chunk":  "inside the chunked body, after 5 octets, before its last chunk",
	} {
		tr, pace := newBareTransport(1<<20, 5*time.Second)
		ex, err := fetchVia(t, tr, s.URL(path))
		if err != nil || ex.Err != nil || !strings.Contains(ex.EndedEarly, want) || ex.Truncation != archive.TruncatedDisconnect {
			t.Errorf("%s: error %v, ended early %q, truncation %q: want an answer, ended early %q", path, err, ex.EndedEarly, ex.Truncation, want)
		}
		if len(pace.observed) != 1 || pace.observed[0] != "200 false" {
			t.Errorf("%s: pace observed %q, want an answer", path, pace.observed)
		}
	}
}

// TestCrawlTakesPagesTheServerEndedEarly: a page whose server over-states
// its Content-Length (or ends a chunked body early) is archived as far as
// it came; its links are followed; it is fetched once more in case that
// was a passing fault, and if the second answer is cut alike (a proxy's
// idle timeout can cut a page in half for good) the part received is the
// page; the crawl log and the metadata records say so; the host is not
// failing. A page cut only the first time is archived whole the second. A
// robots.txt that ends early is still an unreachable one (RFC 9309
// 2.3.1.4), tried again.
func TestCrawlTakesPagesTheServerEndedEarly(t *testing.T) {
	t.Parallel()
	long := `<html><body><a href="/fromlong">x</a></body></html>`
	chunk := `<html><a href="/fromchunk">y</a>`
	whole := `<html><a href="/fromwhole">w</a></html>`
	index := `<a href="/longcl">l</a><a href="/chunkcut">c</a><a href="/passing">p</a>`
	routes := map[string]rawRoute{
		"/":         {resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(index), index)},
		"/longcl":   {resp: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n" + long, end: "close"},
		"/chunkcut": {resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(chunk), chunk), end: "close"},
		"/passing": {resp: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<html><a href=", end: "close",
			then: &rawRoute{resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(whole), whole)}},
		"/fromwhole": {resp: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
		"/fromlong":  {resp: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
		"/fromchunk": {resp: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
	}
	s := newRawServer(t, routes, nil)
	robotsCut := newRawServer(t, map[string]rawRoute{
		"/robots.txt": {resp: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 500\r\n\r\nUser-agent: *\nAllow: /\n", end: "close"},
	}, nil)
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 10 * time.Millisecond
	cfg.Robots.RetryBase = 50 * time.Millisecond
	sum := crawlFor(t, cfg, s.URL("/"), robotsCut.URL("/page"))

	for path, want := range map[string]int{"/longcl": 2, "/chunkcut": 2, "/passing": 2, "/fromlong": 1, "/fromchunk": 1, "/fromwhole": 1} {
		if n := len(s.requests(path)); n != want {
			t.Errorf("%s requested %d times, want %d", path, n, want)
		}
	}
	entries := map[string][]crawllog.CrawlEntry{}
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		entries[e.URL] = append(entries[e.URL], e)
	}
	recs := warcRecords(t, cfg.Out)
	for path, want := range map[string]string{
		"/longcl":   fmt.Sprintf("after %d of the 5000 body octets", len(long)),
		"/chunkcut": fmt.Sprintf("inside the chunked body, after %d octets", len(chunk)),
	} {
		es := entries[s.URL(path)]
		if len(es) != 2 {
			t.Fatalf("%s: crawl log %+v, want two lines", path, es)
		}
		for i, then := range []string{"fetched once more", "not fetched again"} {
			if e := es[i]; e.Status != 200 || e.Error != "" || !e.Truncated || !strings.Contains(e.Note, want) || !strings.Contains(e.Note, then) {
				t.Errorf("%s: crawl log line %d %+v: want 200, no error, truncated, a note saying %q and %q", path, i+1, e, want, then)
			}
		}
		resps, meta := recordsOf(recs, "response", s.URL(path)), recordsOf(recs, "metadata", s.URL(path))
		if len(resps) != 2 || resps[1].Get("WARC-Truncated") != archive.TruncatedDisconnect {
			t.Errorf("%s: %d response records, want 2 with WARC-Truncated: disconnect", path, len(resps))
		}
		if len(meta) != 2 || !strings.Contains(string(meta[1].Block), "body-ended-early: the server closed the connection") ||
			!strings.Contains(string(meta[1].Block), "not fetched again") || !strings.Contains(string(meta[1].Block), "outlink: ") {
			t.Errorf("%s: metadata records %d, want two saying why and listing the outlink", path, len(meta))
		}
	}
	if es := entries[s.URL("/passing")]; len(es) != 2 || !es[0].Truncated || es[1].Truncated || es[1].Note != "" {
		t.Errorf("/passing: crawl log %+v, want the cut answer, then the whole one", es)
	}
	if resps := recordsOf(recs, "response", s.URL("/passing")); len(resps) != 2 || resps[1].Get("WARC-Truncated") != "" {
		t.Errorf("/passing: %d response records, want the cut one, then the whole one", len(resps))
	}
	if n := len(robotsCut.requests("/robots.txt")); n < 2 || len(robotsCut.requests("/page")) != 0 {
		t.Errorf("robots.txt ended early: asked %d times, /page %d times; want it retried as unreachable, /page never asked",
			n, len(robotsCut.requests("/page")))
	}
	for _, h := range sum.Hosts {
		if h.Host == "http://"+s.ln.Addr().String() && (h.State == "dropped" || h.Errors != 0) {
			t.Errorf("host %+v: want no errors, not dropped", h)
		}
	}
}

// TestEndedEarlyWithOneAttempt: with politeness.max_failures 1 there is no
// attempt left for the second fetch, so the first cut answer is the page,
// and the note says so instead of promising a fetch that will not come.
func TestEndedEarlyWithOneAttempt(t *testing.T) {
	t.Parallel()
	page := `<html><a href="/next">n</a></html>`
	s := newRawServer(t, map[string]rawRoute{
		"/cut":  {resp: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 900\r\n\r\n" + page, end: "close"},
		"/next": {resp: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
	}, nil)
	cfg := testConfig(t)
	cfg.Politeness.MaxFailures = 1
	crawlFor(t, cfg, s.URL("/cut"))
	if n := len(s.requests("/cut")); n != 1 {
		t.Errorf("/cut requested %d times, want once", n)
	}
	if n := len(s.requests("/next")); n != 1 {
		t.Errorf("/next requested %d times, want once (the cut page's link)", n)
	}
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.URL == s.URL("/cut") && (!strings.Contains(e.Note, "taken as the page") || strings.Contains(e.Note, "once more")) {
			t.Errorf("/cut note %q: want the part taken as the page, no second fetch promised", e.Note)
		}
	}
}
