package crawler

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// gzipOf compresses n zero octets after prefix. The zeros are one gzip
// member of 1 MiB compressed once and repeated (and one for the rest): a
// gzip file is a series of members that a reader inflates as one stream
// (RFC 1952 section 2.2, which gzip.Reader follows by default), so the body
// inflates to the same octets as one member would, for the price of
// compressing 1 MiB rather than all of them under the race detector.
func gzipOf(t *testing.T, prefix string, n int64) []byte {
	t.Helper()
	const chunk = 1 << 20
	out := gzipMember(t, []byte(prefix))
	if n >= chunk {
		out = append(out, bytes.Repeat(gzipMember(t, make([]byte, chunk)), int(n/chunk))...)
	}
	if n%chunk > 0 {
		out = append(out, gzipMember(t, make([]byte, n%chunk))...)
	}
	return out
}

// gzipMember compresses b as one gzip member.
func gzipMember(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestParseBodyInflatesWithABound: what colly would inflate without bound
// (a gzip Content-Encoding, a gzip Content-Type, a .xml.gz path) is
// inflated here up to the body cap; anything else, and a body that is not
// gzip after all, is parsed as it came.
func TestParseBodyInflatesWithABound(t *testing.T) {
	t.Parallel()
	const limit = 1 << 20
	bomb := gzipOf(t, "<a href=/x>", 64<<20)
	page := gzipOf(t, "<a href=/y>", 10)
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	for _, c := range []struct {
		name string
		h    http.Header
		path string
		body []byte
		want int // length of the result; -1: the body itself
		pre  string
	}{
		{"gzip content-encoding bomb", hdr("Content-Encoding", "gzip"), "/", bomb, limit, "<a href=/x>"},
		{"x-gzip content-encoding", hdr("Content-Encoding", "x-gzip"), "/", page, 21, "<a href=/y>"},
		{"gzip-coded HTML", hdr("Content-Encoding", "gzip", "Content-Type", "text/html; charset=utf-8"), "/", bomb, limit, "<a href=/x>"},
		{"gzip content-type, no HTML to parse", hdr("Content-Type", "application/gzip"), "/f", bomb, -1, ""},
		{".xml.gz path, no HTML to parse", hdr("Content-Type", "application/octet-stream"), "/s.XML.GZ", bomb, -1, ""},
		{"identity", hdr("Content-Type", "text/html"), "/", []byte("<a href=/z>"), -1, ""},
		{"claims gzip, is not", hdr("Content-Encoding", "gzip"), "/", []byte("<a href=/z>"), -1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := parseBody(c.h, c.path, c.body, limit)
			if c.want < 0 {
				if !bytes.Equal(got, c.body) {
					t.Errorf("got %q, want the body as it came", got)
				}
				return
			}
			if len(got) != c.want || !strings.HasPrefix(string(got), c.pre) {
				t.Errorf("got %d octets starting %.20q, want %d starting %q", len(got), got, c.want, c.pre)
			}
		})
	}
}

// TestGzipBombDoesNotInflateUnbounded: a page sent with Content-Encoding:
// gzip that inflates to 256 MiB (a few hundred KB on the wire) is parsed
// for links up to fetch.max_body, not inflated whole in memory, and the
// link before the zeros is still followed.
func TestGzipBombDoesNotInflateUnbounded(t *testing.T) {
	bomb := gzipOf(t, "<html><body><a href=\"/next\">next</a>", 256<<20)
	h := newTestHost(t)
	h.robotsText("User-agent: *\n")
	h.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb)
	}
	h.html("/next")
	cfg := testConfig(t)
	cfg.Fetch.MaxBody = 4 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	crawlFor(t, cfg, h.URL("/"))
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 128<<20 {
		t.Errorf("the crawl allocated %d MiB for a %d KB page: the bomb was inflated", alloc>>20, len(bomb)>>10)
	}
	fetched := map[string]bool{}
	for _, p := range h.paths() {
		fetched[p] = true
	}
	if !fetched["/next"] {
		t.Errorf("fetched %v: the link inside the gzip page was not followed", fetched)
	}
}
