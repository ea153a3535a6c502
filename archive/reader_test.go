package archive

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
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
