package wire

import (
	"bytes"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
)

// The recorder finds the final response head in the bytes read, however
// they are split into reads.
func TestRawRecorderFindsTheFinalHead(t *testing.T) {
	tests := []struct {
		name, in, head string
		interim        []string
	}{
		{name: "RFC9112 2.1 CRLF head then body",
			in:   "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
			head: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n"},
		{name: "RFC9112 2.2 bare LF line endings",
			in:   "HTTP/1.1 200 OK\nContent-Length: 2\n\nhi",
			head: "HTTP/1.1 200 OK\nContent-Length: 2\n\n"},
		{name: "RFC9112 2.2 CRLF fields ended by a bare LF",
			in:   "HTTP/1.1 200 OK\r\nA: b\r\n\n\r\nbody",
			head: "HTTP/1.1 200 OK\r\nA: b\r\n\n"},
		{name: "RFC9112 5.2 folded field stays in the head",
			in:   "HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n",
			head: "HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n"},
		{name: "RFC9110 15.2 interim 100 and 103 skipped",
			in:      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
			head:    "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
			interim: []string{"HTTP/1.1 100 Continue", "HTTP/1.1 103 Early Hints"}},
		{name: "RFC9110 15.2.2 101 is final",
			in:   "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\nraw",
			head: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n"},
		{name: "RFC9112 2.2 empty lines before the status line are no part of the message",
			in:   "\r\n\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
			head: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n"},
		{name: "head not ended yet",
			in:   "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n",
			head: ""},
	}
	for _, tt := range tests {
		for _, step := range []int{1, 2, 3, 7, len(tt.in)} {
			r := newRawRecorder(maxRawRequest, maxResponseHead)
			for in := []byte(tt.in); len(in) > 0; {
				n := min(step, len(in))
				r.read(in[:n], nil)
				in = in[n:]
			}
			if got := string(r.head()); got != tt.head {
				t.Errorf("%s, reads of %d: head %q, want %q", tt.name, step, got, tt.head)
			}
			if !slices.Equal(r.interim, tt.interim) {
				t.Errorf("%s, reads of %d: interim %q, want %q", tt.name, step, r.interim, tt.interim)
			}
		}
	}
}

// Memory stays bounded: past the limit a side is dropped, not grown, and
// the transport falls back to a rebuilt message.
func TestRawRecorderBoundsWhatItKeeps(t *testing.T) {
	r := newRawRecorder(16, 32)
	r.wrote([]byte("GET / HTTP/1.1\r\n"))
	r.wrote([]byte("Host: x\r\n\r\n"))
	if r.request() != nil || r.req != nil {
		t.Errorf("request over its limit kept: %q", r.request())
	}
	r.read([]byte("HTTP/1.1 200 OK\r\nX-Long: "+strings.Repeat("a", 40)), nil)
	r.read([]byte("\r\n\r\n"), nil)
	if r.head() != nil || r.resp != nil {
		t.Errorf("head over its limit kept: %q", r.head())
	}
	r = newRawRecorder(64, 64)
	r.read([]byte("HTTP/1.1 200 OK\r\n\r\n"+strings.Repeat("body", 100)), nil)
	if string(r.head()) != "HTTP/1.1 200 OK\r\n\r\n" || len(r.resp) != len("HTTP/1.1 200 OK\r\n\r\n") {
		t.Errorf("head %q, kept %d bytes: body bytes after the head are not kept", r.head(), len(r.resp))
	}
	r.read([]byte("more body"), nil)
	if len(r.resp) != len("HTTP/1.1 200 OK\r\n\r\n") {
		t.Errorf("kept %d bytes after the head ended", len(r.resp))
	}
}

// A connection records only while a recorder is attached, a detach never
// takes the connection from the request it serves next, and a request
// retried on a new connection starts over.
func TestRawConnAttachDetach(t *testing.T) {
	pipe := func() (*rawConn, net.Conn) {
		a, b := net.Pipe()
		t.Cleanup(func() { a.Close(); b.Close() })
		go io.Copy(io.Discard, b)
		return &rawConn{Conn: a}, b
	}
	c, _ := pipe()
	write := func(c *rawConn, s string) {
		if _, err := c.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	write(c, "before")
	r1 := newRawRecorder(1024, 1024)
	c.attach(r1)
	write(c, "GET /1 HTTP/1.1\r\n\r\n")
	r2 := newRawRecorder(1024, 1024)
	c.attach(r2) // the connection went back to the pool and serves r2 now
	r1.detach()  // must not detach r2
	write(c, "GET /2 HTTP/1.1\r\n\r\n")
	r2.detach()
	write(c, "after")
	if got := string(r1.request()); got != "GET /1 HTTP/1.1\r\n\r\n" {
		t.Errorf("r1 recorded %q", got)
	}
	if got := string(r2.request()); got != "GET /2 HTTP/1.1\r\n\r\n" {
		t.Errorf("r2 recorded %q", got)
	}

	// net/http retries on a new connection: the recorder starts over there.
	d, _ := pipe()
	r3 := newRawRecorder(1024, 1024)
	c.attach(r3)
	write(c, "GET /3 HTTP/1.1\r\n")
	d.attach(r3)
	write(c, "on the old connection")
	write(d, "GET /3 HTTP/1.1\r\n\r\n")
	r3.detach()
	if got := string(r3.request()); got != "GET /3 HTTP/1.1\r\n\r\n" {
		t.Errorf("r3 recorded %q", got)
	}
	if c.rec != nil || d.rec != nil {
		t.Error("a connection still records after detach")
	}

	// Bytes a write could not send are not recorded as sent.
	f, fpeer := net.Pipe()
	t.Cleanup(func() { f.Close() })
	go func() { // reads the first write, then hangs up
		fpeer.Read(make([]byte, 64))
		fpeer.Close()
	}()
	fc := &rawConn{Conn: f}
	r5 := newRawRecorder(1024, 1024)
	fc.attach(r5)
	write(fc, "GET /5 HTTP/1.1\r\n") // recorded
	if _, err := fc.Write([]byte("never sent")); err == nil {
		t.Fatal("write to a closed pipe succeeded")
	}
	r5.detach()
	if got := string(r5.request()); got != "GET /5 HTTP/1.1\r\n" {
		t.Errorf("r5 recorded %q after a failed write", got)
	}

	// Reads are recorded too, into the attached recorder.
	e, peer := net.Pipe()
	t.Cleanup(func() { e.Close(); peer.Close() })
	rc := &rawConn{Conn: e}
	r4 := newRawRecorder(1024, 1024)
	rc.attach(r4)
	go peer.Write([]byte("HTTP/1.1 204 No Content\r\n\r\n"))
	buf := make([]byte, 64)
	n, err := rc.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	r4.detach()
	if !bytes.Equal(r4.head(), buf[:n]) || string(r4.head()) != "HTTP/1.1 204 No Content\r\n\r\n" {
		t.Errorf("r4 head %q", r4.head())
	}
}

// Only the Transfer-Encoding and Content-Length field lines (and their
// continuation lines) leave the head when net/http removed a chunked
// coding; every other byte stays.
func TestResponseRecordDropsOnlyFramingFields(t *testing.T) {
	tests := []struct {
		name, head string
		chunked    bool
		want       string
	}{
		{"not chunked: head unchanged", "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n", false,
			"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nbody"},
		{"lower-case name", "HTTP/1.1 200 OK\r\nx-a: 1\r\ntransfer-encoding: chunked\r\nX-B:  2 \r\n\r\n", true,
			"HTTP/1.1 200 OK\r\nx-a: 1\r\nX-B:  2 \r\n\r\nbody"},
		{"RFC9112 5.2 folded value dropped with its field", "HTTP/1.1 200 OK\nTransfer-Encoding:\n chunked\nX-Fold: a\n b\n\n", true,
			"HTTP/1.1 200 OK\nX-Fold: a\n b\n\nbody"},
		{"repeated field", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nA: 1\r\nTRANSFER-ENCODING: chunked\r\n\r\n", true,
			"HTTP/1.1 200 OK\r\nA: 1\r\n\r\nbody"},
		{"similar names stay", "HTTP/1.1 200 OK\r\nTransfer-Encodings: x\r\nX-Transfer-Encoding: y\r\n\r\n", true,
			"HTTP/1.1 200 OK\r\nTransfer-Encodings: x\r\nX-Transfer-Encoding: y\r\n\r\nbody"},
		{"RFC9112 6.3 Content-Length beside chunked goes too", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nX-Content-Length: 7\r\n\r\n", true,
			"HTTP/1.1 200 OK\r\nX-Content-Length: 7\r\n\r\nbody"},
	}
	for _, tt := range tests {
		if got := string(responseRecord([]byte(tt.head), tt.chunked, []byte("body"))); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
