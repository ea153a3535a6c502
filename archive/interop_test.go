package archive

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// interopScript is the warcio.js checker; its dependencies are installed
// with `npm ci --prefix archive/interop`.
const interopScript = "interop/verify.mjs"

// requireInterop finds node and the installed warcio package. Without them
// the test skips, unless CRAWL_REQUIRE_INTEROP=1 (CI) makes it fail.
func requireInterop(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat("interop/node_modules/warcio/package.json")
	}
	if err != nil {
		msg := fmt.Sprintf("warcio.js interop check unavailable (%v): install node >= 18 and run `npm ci --prefix archive/interop`", err)
		if os.Getenv("CRAWL_REQUIRE_INTEROP") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node
}

// verifyOutput is what verify.mjs prints.
type verifyOutput struct {
	Records []struct {
		File, Type, URI string
		Status          int
		RefersTo        string
	}
	CDX    []map[string]any
	Errors []string
}

func gzipBytes(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

// interopExchanges covers each kind of record the crawler writes.
func interopExchanges() []Exchange {
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	req := func(path string) []byte {
		return []byte("GET " + path + " HTTP/1.1\r\nHost: example.com\r\nUser-Agent: crawl/1.0 (+mailto:ops@example.org)\r\nAccept-Encoding: gzip\r\n\r\n")
	}
	html := "<html><a href=\"/b\">b</a></html>"
	zipped := gzipBytes(html + " zipped")
	chunked := "7\r\nchunked\r\n6\r\n body!\r\n0\r\n\r\n"
	zchunk := gzipBytes("chunked and zipped")
	zchunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(zchunk), zchunk)
	meta := []Field{{"pace", "2s"}, {"pace-source", "robots.txt Crawl-delay (line 3)"}, {"outlink", "http://example.com/b"}}
	return []Exchange{
		{TargetURI: "http://example.com/robots.txt", Date: at, IP: "192.0.2.1", IsRobots: true, Request: req("/robots.txt"),
			Response: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 37\r\n\r\nUser-agent: *\nDisallow: /private\n\n\n\n")},
		{TargetURI: "http://example.com/", Date: at.Add(2 * time.Second), IP: "192.0.2.1", Request: req("/"), Metadata: meta,
			Response: []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s", len(html), html))},
		{TargetURI: "http://example.com/gz", Date: at.Add(4 * time.Second), Request: req("/gz"), Metadata: meta,
			Response: []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n%s", len(zipped), zipped))},
		{TargetURI: "http://example.com/chunked", Date: at.Add(6 * time.Second), Request: req("/chunked"),
			Response: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked)},
		{TargetURI: "http://example.com/zchunked", Date: at.Add(8 * time.Second), Request: req("/zchunked"),
			Response: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" + zchunked)},
		{TargetURI: "http://example.com/missing", Date: at.Add(10 * time.Second), Request: req("/missing"),
			Response: []byte("HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\nnot found")},
		{TargetURI: "http://example.com/old", Date: at.Add(12 * time.Second), Request: req("/old"),
			Response: []byte("HTTP/1.1 301 Moved Permanently\r\nLocation: http://example.com/\r\nContent-Length: 0\r\n\r\n")},
		{TargetURI: "http://example.com/big", Date: at.Add(14 * time.Second), Request: req("/big"), Truncated: TruncatedLength,
			Response: []byte("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\nonly the first bytes")},
		{TargetURI: "http://www.example.com:8080/Q?b=2&A=1", Date: at.Add(16 * time.Second), Request: req("/Q?b=2&A=1"), Metadata: meta,
			Response: []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s", len(html), html))},
	}
}

func TestInteropWarcioJS(t *testing.T) {
	node := requireInterop(t)
	for _, algo := range []string{DigestSHA1, DigestSHA256} {
		t.Run(algo, func(t *testing.T) {
			dir := t.TempDir()
			w, err := Open(Options{Dir: dir, Digest: algo, Dedupe: true, MaxFileSize: 2048, Software: "crawl/1.0",
				Info: []Field{{"http-header-user-agent", "crawl/1.0 (+mailto:ops@example.org)"}, {"min-delay", "1s"}}})
			if err != nil {
				t.Fatal(err)
			}
			var wantURIs []string
			for _, e := range interopExchanges() {
				if err := w.WriteExchange(e); err != nil {
					t.Fatal(err)
				}
				wantURIs = append(wantURIs, e.TargetURI, e.TargetURI)
				if len(e.Metadata) > 0 {
					wantURIs = append(wantURIs, e.TargetURI)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			files := warcFiles(t, dir)
			if len(files) < 2 {
				t.Fatalf("want several files (rotation) for the check, got %d", len(files))
			}
			out, err := exec.Command(node, append([]string{interopScript}, files...)...).Output()
			var res verifyOutput
			if jerr := json.Unmarshal(out, &res); jerr != nil {
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					t.Fatalf("verify.mjs: %v\n%s\n%s", err, ee.Stderr, out)
				}
				t.Fatalf("verify.mjs output: %v\n%s", jerr, out)
			}
			for _, e := range res.Errors {
				t.Errorf("warcio.js: %s", e)
			}
			var gotURIs []string
			types := map[string]int{}
			for _, r := range res.Records {
				types[r.Type]++
				if r.Type != "warcinfo" {
					gotURIs = append(gotURIs, r.URI)
				}
			}
			if fmt.Sprint(gotURIs) != fmt.Sprint(wantURIs) {
				t.Errorf("warcio.js read target URIs\n%v\nwant\n%v", gotURIs, wantURIs)
			}
			if types["revisit"] != 1 || types["response"] != 8 || types["request"] != 9 || types["metadata"] != 3 || types["warcinfo"] != len(files) {
				t.Errorf("record types %v", types)
			}
			if algo == DigestSHA1 {
				compareCDX(t, dir, res.CDX)
			}
		})
	}
}

// compareCDX checks index.cdxj line by line against warcio.js's indexer.
// warcio.js's getSurt is a simpler key than python surt's, which pywb uses
// and SURT follows (it keeps a trailing "/" and does not decode escapes),
// so the exchanges here use URLs on which the two agree; surt_test.go
// holds python surt's own vectors.
func compareCDX(t *testing.T, dir string, theirs []map[string]any) {
	t.Helper()
	ours := readIndex(t, dir)
	if len(ours) != len(theirs) {
		t.Fatalf("index.cdxj has %d lines, warcio.js indexes %d", len(ours), len(theirs))
	}
	type key struct{ file, off string }
	byOffset := map[key]cdxLine{}
	for _, c := range ours {
		byOffset[key{c.fields["filename"], c.fields["offset"]}] = c
	}
	str := func(v any) string {
		switch v := v.(type) {
		case nil:
			return ""
		case float64:
			return strconv.FormatInt(int64(v), 10)
		default:
			return fmt.Sprint(v)
		}
	}
	for _, th := range theirs {
		c, ok := byOffset[key{str(th["filename"]), str(th["offset"])}]
		if !ok {
			t.Errorf("warcio.js indexes %v; index.cdxj has no record at that offset", th)
			continue
		}
		if c.key != str(th["urlkey"]) || c.ts != str(th["timestamp"]) {
			t.Errorf("key %q %q, warcio.js %q %q", c.key, c.ts, th["urlkey"], th["timestamp"])
		}
		for _, f := range []string{"url", "mime", "status", "digest", "length"} {
			if c.fields[f] != str(th[f]) {
				t.Errorf("%s %s: ours %q, warcio.js %q", c.fields["url"], f, c.fields[f], str(th[f]))
			}
		}
	}
}
