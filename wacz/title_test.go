package wacz

import (
	"bytes"
	"compress/flate"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/andybalholm/brotli"
)

// rawDeflated is s in deflate without the zlib wrapper, as some servers
// send "deflate".
func rawDeflated(s string) string {
	var b bytes.Buffer
	zw, _ := flate.NewWriter(&b, flate.DefaultCompression)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

// brotlied is s in the br coding (RFC 7932).
func brotlied(s string) string {
	var b bytes.Buffer
	bw := brotli.NewWriter(&b)
	bw.Write([]byte(s))
	bw.Close()
	return b.String()
}

// response is an HTTP response message with the given head lines and body.
func response(head, body string) []byte {
	return []byte("HTTP/1.1 200 OK\r\n" + head + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)) + body)
}

// TestResponseTitle covers how a page's title is read from its archived
// response: the HTML Standard's document.title (first title element,
// outside svg, entities decoded, ASCII whitespace stripped and collapsed),
// in the page's encoding (HTML Standard 13.2.3, package pageenc), through
// the content codings a crawl archives as received.
func TestResponseTitle(t *testing.T) {
	page := func(title string) string {
		return "<html><head><title>" + title + "</title></head><body>x</body></html>"
	}
	long := strings.Repeat("é", maxTitle) // 2 bytes each
	cases := []struct {
		name  string
		block []byte
		want  string
	}{
		{"plain", response("Content-Type: text/html\r\n", page("Hello")), "Hello"},
		{"entities and whitespace", response("Content-Type: text/html\r\n", page("\n  Fish &amp;\t chips &lt;3 ")), "Fish & chips <3"},
		{"svg title is not the page's", response("Content-Type: text/html\r\n",
			"<html><body><svg><title>icon</title></svg><title>Real</title></body></html>"), "Real"},
		{"no title", response("Content-Type: text/html\r\n", "<html><body>none</body></html>"), ""},
		{"windows-1252 by header", response("Content-Type: text/html; charset=windows-1252\r\n", page("Caf\xe9 \x80")), "Café €"},
		{"windows-1252 by meta", response("Content-Type: text/html\r\n",
			`<meta charset="iso-8859-1">`+page("na\xefve")), "naïve"},
		{"undeclared, not UTF-8: windows-1252", response("Content-Type: text/html\r\n", page("M\xfcnchen")), "München"},
		{"UTF-16 by byte order mark", response("Content-Type: text/html\r\n", "\xff\xfe"+utf16le(page("Wide"))), "Wide"},
		{"gzip", response("Content-Type: text/html\r\nContent-Encoding: gzip\r\n", gzipped(page("Zipped"))), "Zipped"},
		{"raw deflate", response("Content-Type: text/html\r\nContent-Encoding: deflate\r\n", rawDeflated(page("Raw"))), "Raw"},
		{"chunked", []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n" +
			"10\r\n<html><title>Chu\r\nc\r\nnked</title>\r\n0\r\n\r\n"), "Chunked"},
		{"body cut short after the title", []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 9999\r\n\r\n" +
			page("Cut")), "Cut"},
		{"RFC7932 br", response("Content-Type: text/html\r\nContent-Encoding: br\r\n", brotlied(page("Brotli"))), "Brotli"},
		{"unknown coding: no title", response("Content-Type: text/html\r\nContent-Encoding: zstd\r\n", "\x28\xb5\x2f\xfd"), ""},
		{"not HTTP", []byte("garbage"), ""},
		{"long title cut to maxTitle bytes", response("Content-Type: text/html; charset=utf-8\r\n", page(long)), long[:maxTitle]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := responseTitle(c.block); got != c.want {
				t.Errorf("title %q, want %q", got, c.want)
			}
		})
	}
}

func utf16le(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteByte(byte(r))
		b.WriteByte(byte(r >> 8))
	}
	return b.String()
}

// TestTrimPartialRune checks that a body cut inside a UTF-8 sequence loses
// the incomplete sequence and nothing else, so that it still reads as
// UTF-8.
func TestTrimPartialRune(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"abc", "abc"}, {"ab\xc3", "ab"}, {"ab\xe2\x82", "ab"}, {"ab\xe2\x82\xac", "ab\xe2\x82\xac"},
		{"\xf0\x9f\x98", ""}, {"", ""}, {"é", "é"},
	} {
		if got := string(trimPartialRune([]byte(c.in))); got != c.want {
			t.Errorf("trimPartialRune(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzResponseTitle checks that any response block gives a title that is
// valid UTF-8, at most maxTitle bytes, without ASCII whitespace at its ends.
func FuzzResponseTitle(f *testing.F) {
	f.Add(response("Content-Type: text/html\r\n", "<title> a  b </title>"))
	f.Add(response("Content-Type: text/html\r\nContent-Encoding: gzip\r\n", gzipped("<title>z</title>")))
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<titl\r\n0\r\n\r\n"))
	f.Fuzz(func(t *testing.T, block []byte) {
		got := responseTitle(block)
		if !utf8.ValidString(got) || len(got) > maxTitle || got != strings.Trim(got, " \t\n\f\r") {
			t.Errorf("title %q", got)
		}
	})
}
