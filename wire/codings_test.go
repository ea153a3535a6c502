package wire

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/crawlproject/crawl/internal/wiretest"
)

// brFlushedHalf returns b in the br coding, flushed after its first half
// and cut there: a stream that ends early with what it holds decodable.
func brFlushedHalf(b []byte) []byte {
	var buf bytes.Buffer
	bw := brotli.NewWriter(&buf)
	bw.Write(b[:len(b)/2])
	bw.Flush()
	n := buf.Len()
	bw.Write(b[len(b)/2:])
	bw.Close()
	return buf.Bytes()[:n]
}

// brotlied returns b in the br coding (RFC 7932).
func brotlied(b []byte) []byte {
	var buf bytes.Buffer
	bw := brotli.NewWriter(&buf)
	bw.Write(b)
	bw.Close()
	return buf.Bytes()
}

// gzipped returns b in the gzip coding.
func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil || zw.Close() != nil {
		t.Fatal("gzip: write failed")
	}
	return buf.Bytes()
}

// TestDecodeRobots: RFC 9110 12.5.3 lets a server send robots.txt in a
// content coding; its text is what RFC 9309 2.3.1.1 asks to parse, read
// up to the limit.
func TestDecodeRobots(t *testing.T) {
	text := []byte("User-agent: *\nDisallow: /private\n")
	var zl, raw bytes.Buffer
	zw := zlib.NewWriter(&zl)
	zw.Write(text)
	zw.Close()
	fw, _ := flate.NewWriter(&raw, 5)
	fw.Write(text)
	fw.Close()
	hdr := func(v ...string) http.Header {
		h := http.Header{}
		for _, s := range v {
			h.Add("Content-Encoding", s)
		}
		return h
	}
	big := gzipped(t, bytes.Repeat([]byte("Disallow: /x\n"), 10000)) // 130,000 octets inflated
	cutShort := gzipped(t, text)
	cutShort = cutShort[:len(cutShort)-12] // the stream ends early
	brCutShort := brFlushedHalf(text)      // the stream ends after its first flushed half
	for _, tc := range []struct {
		name    string
		h       http.Header
		body    []byte
		want    string
		cut     bool
		wantErr string
	}{
		{"plain", hdr(), text, string(text), false, ""},
		{"identity", hdr("identity"), text, string(text), false, ""},
		{"gzip", hdr("gzip"), gzipped(t, text), string(text), false, ""},
		{"x-gzip, upper case", hdr("X-GZIP"), gzipped(t, text), string(text), false, ""},
		{"gzip twice, one header", hdr("gzip, gzip"), gzipped(t, gzipped(t, text)), string(text), false, ""},
		{"gzip twice, two headers", hdr("gzip", "gzip"), gzipped(t, gzipped(t, text)), string(text), false, ""},
		{"deflate (zlib)", hdr("deflate"), zl.Bytes(), string(text), false, ""},
		{"deflate (raw)", hdr("deflate"), raw.Bytes(), string(text), false, ""},
		{"inflates past the limit", hdr("gzip"), big, strings.Repeat("Disallow: /x\n", 10000)[:1001], true, ""},
		{"stream ends early", hdr("gzip"), cutShort, "", true, ""},
		{"RFC7932 br", hdr("br"), brotlied(text), string(text), false, ""},
		{"gzip then br", hdr("gzip, br"), brotlied(gzipped(t, text)), string(text), false, ""},
		{"br inflates past the limit", hdr("br"), brotlied(bytes.Repeat([]byte("Disallow: /x\n"), 10000)), strings.Repeat("Disallow: /x\n", 10000)[:1001], true, ""},
		{"br stream ends early", hdr("br"), brCutShort, string(text[:len(text)/2]), true, ""},
		{"not br", hdr("br"), text, "", false, "does not decode as br"},
		{"zstd: a coding the crawler cannot undo", hdr("zstd"), text, "", false, `content coding "zstd"`},
		{"not gzip", hdr("gzip"), text, "", false, "does not decode as gzip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, cut, err := DecodeContent(tc.h, tc.body, 1001, "robots.txt body")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cut != tc.cut || tc.want != "" && string(got) != tc.want || strings.HasSuffix(tc.name, "stream ends early") && !strings.HasPrefix(string(text), string(got)) {
				t.Errorf("got %d octets %q, cut %v; want %q, cut %v", len(got), got, cut, tc.want, tc.cut)
			}
		})
	}
}

// TestUnsupportedCodingIsTyped: a coding the crawler cannot undo is told
// apart from a body that does not decode, by type, with the message the
// logs have always carried.
func TestUnsupportedCodingIsTyped(t *testing.T) {
	h := http.Header{"Content-Encoding": {"zstd"}}
	_, _, err := DecodeContent(h, []byte("x"), 10, "page body")
	uc, ok := errors.AsType[*UnsupportedCodingError](err)
	if !ok || uc.Coding != "zstd" || err.Error() != `crawler: page body in content coding "zstd", which the crawler cannot decode` {
		t.Errorf("err %v (%T); want an *UnsupportedCodingError for zstd", err, err)
	}
	if _, _, err := DecodeContent(http.Header{"Content-Encoding": {"gzip"}}, []byte("x"), 10, "page body"); err == nil {
		t.Error("a body that is no gzip decoded")
	} else if _, ok := errors.AsType[*UnsupportedCodingError](err); ok {
		t.Errorf("a body that is no gzip reported as an unsupported coding: %v", err)
	}
}

// TestTransportAsksForCodings: every request but robots.txt's says
// Accept-Encoding: gzip, br whatever its caller set (RFC 9110 12.5.3);
// robots.txt's says identity. net/http adds no coding of its own and
// undoes none: the exchange, the record and the caller (no ParseBody)
// get the gzip octets as they came.
func TestTransportAsksForCodings(t *testing.T) {
	page := gzipped(t, []byte("<html>coded</html>"))
	resp := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", len(page), page)
	s := wiretest.NewServer(t, map[string]wiretest.Route{
		"/page":       {Resp: resp},
		"/robots.txt": {Resp: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
	}, nil)
	tr, _ := newBareTransport(1<<20, 5*time.Second)
	ex, err := fetchVia(t, tr, s.URL("/page"), func(r *http.Request) { r.Header.Set("Accept-Encoding", "zstd") })
	if err != nil {
		t.Fatal(err)
	}
	id, rex := tr.Track()
	rex.Robots = true
	req, _ := http.NewRequest(http.MethodGet, s.URL("/robots.txt"), nil)
	req.Header.Set(JobHeader, id)
	if r, err := tr.RoundTrip(req); err != nil {
		t.Fatal(err)
	} else {
		r.Body.Close()
	}
	tr.Untrack(id)
	for path, want := range map[string]string{"/page": "\r\nAccept-Encoding: gzip, br\r\n", "/robots.txt": "\r\nAccept-Encoding: identity\r\n"} {
		got := s.Requests(path)
		if len(got) != 1 || !strings.Contains(string(got[0]), want) || strings.Count(string(got[0]), "Accept-Encoding") != 1 {
			t.Errorf("%s: server received %q; want one field %q", path, got, strings.TrimSpace(want))
		}
	}
	if !bytes.Equal(ex.Body, page) || !bytes.HasSuffix(ex.RawResponse, page) {
		t.Errorf("exchange body %.30q; want the %d gzip octets as received", ex.Body, len(page))
	}
}
