package wire

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"net/http"
	"strings"
	"testing"
)

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
		{"brotli", hdr("br"), text, "", false, `content coding "br"`},
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
			if cut != tc.cut || tc.want != "" && string(got) != tc.want || tc.name == "stream ends early" && !strings.HasPrefix(string(text), string(got)) {
				t.Errorf("got %d octets %q, cut %v; want %q, cut %v", len(got), got, cut, tc.want, tc.cut)
			}
		})
	}
}
