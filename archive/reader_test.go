package archive

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// A hand-written uncompressed WARC/1.0 stream with a folded field.
const plainWARC = "WARC/1.0\r\n" +
	"WARC-Type: resource\r\n" +
	"WARC-Target-URI: http://example.com/x\r\n" +
	"X-Folded: first\r\n" +
	"  second\r\n" +
	"WARC-Block-Digest: sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5\r\n" +
	"Content-Length: 3\r\n" +
	"\r\n" +
	"abc\r\n\r\n" +
	"WARC/1.1\r\n" +
	"WARC-Type: response\r\n" +
	"Content-Type: application/http;msgtype=response\r\n" +
	"WARC-Payload-Digest: sha1:FKXGYNOJJ7H3IFO35FPUBC445EPOQRXN\r\n" +
	"Content-Length: 30\r\n" +
	"\r\n" +
	"HTTP/1.1 200 OK\r\n\r\nhello world\r\n\r\n"

func TestWARC11Section4ReaderParsesPlainStream(t *testing.T) {
	r := NewReader(strings.NewReader(plainWARC))
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Version != "WARC/1.0" || rec.Type() != "resource" || string(rec.Block) != "abc" {
		t.Errorf("record 1 = %+v", rec)
	}
	if got := rec.Get("x-folded"); got != "first second" {
		t.Errorf("folded field = %q", got)
	}
	if err := rec.VerifyBlockDigest(); err != nil {
		t.Errorf("block digest: %v", err)
	}
	rec, err = r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := rec.Payload(); !ok || string(p) != "hello world" {
		t.Errorf("payload = %q, %v", p, ok)
	}
	if err := rec.VerifyPayloadDigest(); err != nil {
		t.Errorf("payload digest: %v", err)
	}
	if err := rec.VerifyBlockDigest(); !errors.Is(err, ErrFormat) {
		t.Errorf("missing block digest: err = %v, want ErrFormat", err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after last record: %v, want io.EOF", err)
	}
}

func TestReaderDetectsDamage(t *testing.T) {
	tests := []struct{ name, in string }{
		{"cut in block", plainWARC[:150]},
		{"cut in header", plainWARC[:40]},
		{"not warc", "HTTP/1.1 200 OK\r\n\r\n"},
		{"bad length", strings.Replace(plainWARC, "Content-Length: 3", "Content-Length: x", 1)},
		{"length too short", strings.Replace(plainWARC, "Content-Length: 3", "Content-Length: 2", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.in))
			var err error
			for err == nil {
				_, err = r.Next()
			}
			if !errors.Is(err, ErrFormat) {
				t.Errorf("err = %v, want ErrFormat", err)
			}
		})
	}
}

func TestReaderDigestMismatch(t *testing.T) {
	bad := strings.Replace(plainWARC, "abc\r\n", "abd\r\n", 1)
	rec, err := NewReader(strings.NewReader(bad)).Next()
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.VerifyBlockDigest(); !errors.Is(err, ErrDigestMismatch) {
		t.Errorf("err = %v, want ErrDigestMismatch", err)
	}
}

func TestReaderGzipStream(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(plainWARC))
	zw.Close()
	r := NewReader(&buf)
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d records, want 2", n)
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte(plainWARC))
	f.Add([]byte("WARC/1.1\r\nContent-Length: 99999999999\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		for i := 0; i < 100; i++ {
			rec, err := r.Next()
			if err != nil {
				return
			}
			rec.VerifyBlockDigest()
			rec.VerifyPayloadDigest()
		}
	})
}

// A WARC written by webrecorder's warcio.js (interop/make-fixture.mjs):
// sha256 digests in hex, "application/http; msgtype=..." with a space.
func TestReaderReadsWarcioJSOutput(t *testing.T) {
	recs := readAll(t, "../testdata/archive/warcio-written.warc.gz")
	var types []string
	for _, r := range recs {
		types = append(types, r.Type())
		if r.Get("WARC-Block-Digest") != "" {
			if err := r.VerifyBlockDigest(); err != nil {
				t.Errorf("%s: %v", r.Type(), err)
			}
		}
		if err := r.VerifyPayloadDigest(); err != nil {
			t.Errorf("%s: %v", r.Type(), err)
		}
	}
	if strings.Join(types, " ") != "warcinfo request response revisit" {
		t.Errorf("types %v", types)
	}
	if p, ok := recs[2].Payload(); !ok || string(p) != "<p>from warcio.js</p>" {
		t.Errorf("payload %q", p)
	}
	// Each member is one record with the right offsets: the scanner agrees.
	f, err := os.Open("../testdata/archive/warcio-written.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	_, bad, _ := scanMembers(f, 0, func(off, length int64, rec *Record) error { n++; return nil })
	if bad != nil || n != 4 {
		t.Errorf("scan: %d members, %v", n, bad)
	}
}

func TestVerifyDigestEncodings(t *testing.T) {
	// sha1("abc") in base32, hex and base64; sha256("abc") in hex.
	for _, d := range []string{
		"sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5",
		"sha1:vgmt4nsha2awvor6evyxqugcnsonbwe5",
		"sha1:a9993e364706816aba3e25717850c26c9cd0d89d",
		"sha1:qZk+NkcGgWq6PiVxeFDCbJzQ2J0=",
		"SHA256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	} {
		if err := verifyDigest("X", d, []byte("abc")); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}
	if err := verifyDigest("X", "sha1:a9993e364706816aba3e25717850c26c9cd0d89e", []byte("abc")); !errors.Is(err, ErrDigestMismatch) {
		t.Errorf("wrong hex digest: %v", err)
	}
	if err := verifyDigest("X", "sha1:zzz", []byte("abc")); !errors.Is(err, ErrFormat) {
		t.Errorf("garbage digest: %v", err)
	}
}
