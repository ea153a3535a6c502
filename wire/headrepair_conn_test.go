package wire

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/wiretest"
)

// trickleConn is a connection that answers each request written with the
// next of its answers, read at most step bytes at a time: like a server,
// it sends nothing of an answer before its request.
type trickleConn struct {
	net.Conn // nil: only Read, Write and Close are called
	answers  []string
	sent     int // answers released by requests
	in       bytes.Reader
	step     int
}

func (c *trickleConn) Read(p []byte) (int, error) {
	if c.in.Len() == 0 {
		if c.sent == len(c.answers) {
			return 0, io.EOF
		}
		return 0, errors.New("read before the request was written")
	}
	return c.in.Read(p[:min(len(p), c.step)])
}

func (c *trickleConn) Write(p []byte) (int, error) {
	c.in.Reset([]byte(c.answers[c.sent]))
	c.sent++
	return len(p), nil
}

func (c *trickleConn) Close() error { return nil }

// On one kept-alive connection, however the bytes are split into reads,
// net/http reads each response head repaired (interim heads too) and each
// body as it came, while each recorder keeps its final head as received.
func TestRawConnHandsOnRepairedHeads(t *testing.T) {
	type answer struct {
		wire, head, body string
		status           int
		interim          []string
		repairs          int
	}
	answers := []answer{
		{wire: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nWarning - could not open counter.dat\r\nContent-Length: 5\r\n\r\nfirst",
			head: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nWarning - could not open counter.dat\r\nContent-Length: 5\r\n\r\n",
			body: "first", status: 200, repairs: 1},
		{wire: "http/1.1 100 continue\r\nX (odd): 1\r\n\r\nhttp/1.1 404 Not Found\r\nX(A): b\r\nX-N: a\x00b\r\nContent-Length: 6\r\n\r\nsecond",
			head: "http/1.1 404 Not Found\r\nX(A): b\r\nX-N: a\x00b\r\nContent-Length: 6\r\n\r\n",
			body: "second", status: 404, interim: []string{"http/1.1 100 continue"}, repairs: 5},
		{wire: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nthird",
			head: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
			body: "third", status: 200},
	}
	var wires []string
	for _, a := range answers {
		wires = append(wires, a.wire)
	}
	for _, step := range []int{1, 2, 3, 7, 64, 4096} {
		rc := &rawConn{Conn: &trickleConn{answers: wires, step: step}}
		br := bufio.NewReader(rc)
		for i, a := range answers {
			rec := newRawRecorder(maxRawRequest, maxResponseHead)
			rc.attach(rec)
			if _, err := rc.Write([]byte("GET / HTTP/1.1\r\n\r\n")); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(br, nil)
			for err == nil && resp.StatusCode == http.StatusContinue { // as net/http's Transport does
				resp, err = http.ReadResponse(br, nil)
			}
			if err != nil {
				t.Fatalf("reads of %d, answer %d: %v", step, i, err)
			}
			body, err := io.ReadAll(resp.Body)
			rec.detach()
			if err != nil || string(body) != a.body || resp.StatusCode != a.status {
				t.Errorf("reads of %d, answer %d: status %d, body %q (%v), want %d %q", step, i, resp.StatusCode, body, err, a.status, a.body)
			}
			if string(rec.head()) != a.head {
				t.Errorf("reads of %d, answer %d: recorded head %q, want as received %q", step, i, rec.head(), a.head)
			}
			if !slices.Equal(rec.interim, a.interim) || len(rec.repairs) != a.repairs {
				t.Errorf("reads of %d, answer %d: interim %q, repairs %q; want %q and %d repairs", step, i, rec.interim, rec.repairs, a.interim, a.repairs)
			}
		}
		if n, err := br.Read(make([]byte, 1)); n != 0 || err != io.EOF {
			t.Errorf("reads of %d: %d bytes left over (%v)", step, n, err)
		}
	}
}

// The recorder hands on nothing of a head until it is whole, then all of
// it at once, repaired, with the body's first bytes as they came; bytes
// that cannot begin a status line are handed on as soon as they come.
func TestRawRecorderHoldsHeadsUntilWhole(t *testing.T) {
	tests := []struct {
		name  string
		reads []string
		gives []string // what each read hands on ("=" for the read itself)
	}{
		{name: "RFC9112 2.1 a head held until its empty line",
			reads: []string{"HTTP/1.1 200 OK\r\n", "Bad line\r\nA: b\r", "\n\r\nbo", "dy"},
			gives: []string{"", "", "HTTP/1.1 200 OK\r\nA: b\r\n\r\nbo", "="}},
		{name: "RFC9110 15.2 an interim head handed on when whole",
			reads: []string{"HTTP/1.1 100 Continue\r\nx\r\n\r\nHTTP/1.1 2", "00 OK\r\n\r\n"},
			gives: []string{"HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 200 OK\r\n\r\n"}},
		{name: "RFC9112 4 a first line that is no status line: handed on at once",
			reads: []string{"\r\n<ht", "ml>\r\n", "\r\n"},
			gives: []string{"=", "=", "="}},
		{name: "RFC9112 4 held empty lines handed on with what shows no status line comes",
			reads: []string{"\r\n", "<x"},
			gives: []string{"", "\r\n<x"}},
		{name: "RFC9112 4 a first line that ends as no status line",
			reads: []string{"HTTP", " 200 OK\r\n\r\n"},
			gives: []string{"", "HTTP 200 OK\r\n\r\n"}},
	}
	for _, tt := range tests {
		r := newRawRecorder(maxRawRequest, maxResponseHead)
		for i, in := range tt.reads {
			out, through := r.read([]byte(in), nil)
			got := string(out)
			if through {
				got = "="
			}
			if got != tt.gives[i] {
				t.Errorf("%s: read %d %q gives %q, want %q", tt.name, i, in, got, tt.gives[i])
			}
		}
	}
}

// Through the transport, on one kept-alive connection, pages whose heads
// net/http refused are answers: archived as received byte for byte, read
// repaired, observed as answers by the pace, each change listed.
func TestTransportReadsRepairedHeads(t *testing.T) {
	routes := map[string]wiretest.Route{
		"/nocolon": {Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nDEBUG: user=guest\r\nWarning - could not open counter.dat\r\nContent-Length: 7\r\n\r\nno col!"},
		"/badname": {Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX(Powered)By: PHP/4.0\r\nContent-Length: 8\r\n\r\nbad name"},
		"/lower":   {Resp: "http/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nlower"},
		"/nul":     {Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-A: a\x00b\r\nContent-Length: 3\r\n\r\nnul"},
		"/interim": {Resp: "http/1.1 103 Early Hints\r\nLink </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nhinted!"},
	}
	s := wiretest.NewServer(t, routes, nil)
	tr, pace := newBareTransport(1<<20, 5*time.Second)
	want := []struct {
		path, body, note string
		interim          []string
	}{
		{"/nocolon", "no col!", `line 4 dropped, not a field line (no colon): "Warning - could not open counter.dat"`, nil},
		{"/badname", "bad name", "line 3 dropped, its field name is not a token", nil},
		{"/lower", "lower", `"http/" written "HTTP/"`, nil},
		{"/nul", "nul", `line 3, field "X-A": 1 control octet(s)`, nil},
		{"/interim", "hinted!", "line 2 dropped, not a field line", []string{"http/1.1 103 Early Hints"}},
	}
	var reused []bool
	for _, w := range want {
		ex, err := fetchVia(t, tr, s.URL(w.path), func(r *http.Request) {
			*r = *r.WithContext(httptrace.WithClientTrace(r.Context(), &httptrace.ClientTrace{
				GotConn: func(ci httptrace.GotConnInfo) { reused = append(reused, ci.Reused) }}))
		})
		if err != nil {
			t.Errorf("%s: %v", w.path, err)
			continue
		}
		whole := routes[w.path].Resp
		if w.interim != nil {
			whole = whole[strings.Index(whole, "HTTP/1.1 200"):]
		}
		if string(ex.RawResponse) != whole || string(ex.Body) != w.body || ex.Status != 200 {
			t.Errorf("%s: status %d, record %q, body %q; want the bytes received %q", w.path, ex.Status, ex.RawResponse, ex.Body, whole)
		}
		if len(ex.HeadRepairs) == 0 || !strings.Contains(strings.Join(ex.HeadRepairs, "\n"), w.note) {
			t.Errorf("%s: repairs %q, want one saying %q", w.path, ex.HeadRepairs, w.note)
		}
		if !slices.Equal(ex.Interim, w.interim) {
			t.Errorf("%s: interim %q, want %q", w.path, ex.Interim, w.interim)
		}
	}
	if !slices.Equal(reused, []bool{false, true, true, true, true}) {
		t.Errorf("connections reused %v: want one kept-alive connection for all", reused)
	}
	if want := slices.Repeat([]string{"200 false"}, len(want)); !slices.Equal(pace.observed, want) {
		t.Errorf("pace observed %q, want %q", pace.observed, want)
	}
}

// A head with no status line cannot be read by it: net/http refuses it as
// it did, at once (not at the timeout: nothing waits for the rest of a
// head that is none), and
// a head past maxResponseHead is refused as too large, not held back; a
// head the server cut short is read as far as it came, then its end.
func TestTransportLeavesUnrepairableHeads(t *testing.T) {
	t.Parallel()
	big := "HTTP/1.1 200 OK\r\nX-Big: " + strings.Repeat("b", maxResponseHead) + "\r\n\r\n"
	s := wiretest.NewServer(t, map[string]wiretest.Route{
		"/nostatus": {Resp: "<html>\r\n<p>a page with no head\r\n", End: "stall"},
		"/big":      {Resp: big, End: "close"},
		"/cuthead":  {Resp: "HTTP/1.1 200 OK\r\nBad line\r\n", End: "close"},
	}, nil)
	for path, want := range map[string]string{
		"/nostatus": `malformed HTTP response "<html>"`,
		"/cuthead":  `missing colon: "Bad line"`, // what was held back is read as it came
		"/big":      "exceeded 1048576 bytes",
	} {
		tr, pace := newBareTransport(1<<20, 3*time.Second)
		ex, err := fetchVia(t, tr, s.URL(path))
		if err == nil || !strings.Contains(err.Error(), want) || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: error %v, want one saying %q", path, err, want)
		}
		if ex.RawResponse != nil || len(pace.observed) != 1 || pace.observed[0] != "0 true" {
			t.Errorf("%s: record %q, pace %q: want nothing archived, a failure observed", path, ex.RawResponse, pace.observed)
		}
	}
}
