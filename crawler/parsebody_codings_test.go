package crawler

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/wiretest"
)

func zlibbed(b []byte) []byte {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func rawDeflated(b []byte) []byte {
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestSpeed)
	fw.Write(b)
	fw.Close()
	return buf.Bytes()
}

// rawDeflatedZeros is rawDeflated(make([]byte, mib<<20)) for the price of
// compressing 1 MiB: the blocks that deflate 1 MiB of zeros from an empty
// window, flushed to an octet boundary, refer back only within that MiB,
// so repeated they inflate to as many MiB of zeros (RFC 1951 section 3.2:
// a stream is a series of blocks), and a final empty block ends them.
func rawDeflatedZeros(mib int) []byte {
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestSpeed)
	fw.Write(make([]byte, 1<<20))
	fw.Flush()
	out := bytes.Repeat(buf.Bytes(), mib)
	buf.Reset()
	fw.Close()
	return append(out, buf.Bytes()...)
}

// RFC 9110 8.4.1: a page in any content coding the crawler can undo is
// parsed as its content, as robots.txt is (one decoder serves both):
// deflate in the zlib form RFC 9110 8.4.1.2 names and in the raw form old
// IIS sent, x-gzip, br (RFC 7932), and lists of codings; always bounded
// by the limit.
func TestParseBodyUndoesEveryCoding(t *testing.T) {
	t.Parallel()
	page := []byte(`<html><a href="/x">x</a></html>`)
	const limit = 1 << 20
	bomb := rawDeflatedZeros(64)
	badSum := gzipped(t, page)
	badSum[len(badSum)-8] ^= 0xff // the CRC-32 of the trailer
	hdr := func(ce, ct string) http.Header {
		h := http.Header{}
		if ce != "" {
			h.Set("Content-Encoding", ce)
		}
		if ct != "" {
			h.Set("Content-Type", ct)
		}
		return h
	}
	for _, c := range []struct {
		name string
		h    http.Header
		body []byte
		want []byte // nil: the body as it came
	}{
		{"RFC9110 8.4.1.2 deflate, zlib form", hdr("deflate", "text/html"), zlibbed(page), page},
		{"RFC9110 8.4.1.2 deflate, raw form", hdr("deflate", "text/html"), rawDeflated(page), page},
		{"RFC9110 8.4.1.3 x-gzip", hdr("X-Gzip", ""), gzipped(t, page), page},
		{"RFC9110 8.4 a list, the last applied undone first", hdr("gzip, deflate", "text/html"), zlibbed(gzipped(t, page)), page},
		{"RFC9110 8.4 gzip twice", hdr("gzip, gzip", "text/html; charset=iso-8859-1"), gzipped(t, gzipped(t, page)), page},
		{"RFC9110 8.4 identity is no coding", hdr("identity", "text/html"), page, nil},
		{"a bad checksum: what inflated", hdr("gzip", "text/html"), badSum, page},
		{"a deflate bomb: cut at the limit", hdr("deflate", "text/html"), bomb, make([]byte, limit)},
		{"RFC7932 br", hdr("br", "text/html"), brotlied(t, page), page},
		{"zstd: not undone", hdr("zstd", "text/html"), []byte("\x28\xb5\x2f\xfdcoded"), nil},
		{"a coding on a page that is no HTML: not undone", hdr("deflate", "image/gif"), zlibbed(page), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := parseBody(c.h, "/", c.body, limit)
			want := c.want
			if want == nil {
				want = c.body
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got %d octets %.40q, want %d %.40q", len(got), got, len(want), want)
			}
		})
	}
}

// The links of pages sent deflate-coded (zlib or raw), x-gzip or gzip
// twice are followed, as those of gzip pages are.
func TestCrawlFollowsLinksOfEveryCoding(t *testing.T) {
	t.Parallel()
	link := func(to string) []byte { // long enough to be compressed, not stored
		return []byte(fmt.Sprintf(`<html><a href="%s">next</a>%s</html>`, to, strings.Repeat("<p>filler</p>", 20)))
	}
	coded := map[string]struct {
		coding string
		body   []byte
	}{
		"/deflate":    {"deflate", zlibbed(link("/fromdeflate"))},
		"/rawdeflate": {"deflate", rawDeflated(link("/fromrawdeflate"))},
		"/xgzip":      {"x-gzip", gzipped(t, link("/fromxgzip"))},
		"/doublegz":   {"gzip, gzip", gzipped(t, gzipped(t, link("/fromdoublegz")))},
	}
	routes := map[string]wiretest.Route{}
	var index strings.Builder
	for path, c := range coded {
		routes[path] = wiretest.Route{Resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: %s\r\nContent-Length: %d\r\n\r\n%s",
			c.coding, len(c.body), c.body)}
		fmt.Fprintf(&index, `<a href="%s">c</a>`, path)
	}
	routes["/"] = wiretest.Route{Resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", index.Len(), index.String())}
	s := wiretest.NewServer(t, routes, nil)
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 10 * time.Millisecond
	crawlFor(t, cfg, s.URL("/"))
	recs := wiretest.WARCRecords(t, cfg.Out)
	for path := range coded {
		if to := "/from" + path[1:]; len(s.Requests(to)) != 1 {
			t.Errorf("%s: its link %s was not followed", path, to)
		}
		// The archive keeps the coded bytes as they came.
		if r := wiretest.RecordsOf(recs, "response", s.URL(path)); len(r) != 1 || string(r[0].Block) != routes[path].Resp {
			t.Errorf("%s: response record not the bytes received", path)
		}
	}
}
