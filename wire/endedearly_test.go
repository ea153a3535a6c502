package wire

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/internal/wiretest"
)

// resetServer answers every request on 127.0.0.1 with resp, waits for the
// client to read it, and resets the connection (TCP RST): a body broken
// off, not ended by the server.
func resetServer(t *testing.T, resp string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			br := bufio.NewReader(c)
			for {
				line, err := br.ReadString('\n')
				if err != nil || line == "\r\n" {
					break
				}
			}
			c.Write([]byte(resp))
			time.Sleep(200 * time.Millisecond) // the client reads what was sent
			c.(*net.TCPConn).SetLinger(0)
			c.Close()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	return "http://" + ln.Addr().String()
}

// A body the server ended by closing the connection early is the answer
// (the pace sees an answer, colly reads what arrived); one broken off by a
// reset is a failure, as before.
func TestTransportTellsEndedEarlyFromBrokenOff(t *testing.T) {
	t.Parallel()
	const head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n"
	reset := resetServer(t, head+"twenty bytes arrived")
	tr, pace := newBareTransport(1<<20, 5*time.Second)
	ex, err := fetchVia(t, tr, reset+"/reset")
	if err == nil || ex.Err == nil || ex.EndedEarly != "" || ex.Truncation != archive.TruncatedDisconnect {
		t.Errorf("reset: error %v, ended early %q, truncation %q: want a failure, disconnect", err, ex.EndedEarly, ex.Truncation)
	}
	if len(pace.observed) != 1 || pace.observed[0] != "0 true" {
		t.Errorf("reset: pace observed %q, want a failure", pace.observed)
	}

	s := wiretest.NewServer(t, map[string]wiretest.Route{
		"/longcl": {Resp: head + "twenty bytes arrived", End: "close"},
		"/chunk":  {Resp: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", End: "close"},
	}, nil)
	for path, want := range map[string]string{
		"/longcl": "after 20 of the 100 body octets its Content-Length announced",
		"/chunk":  "inside the chunked body, after 5 octets, before its last chunk",
	} {
		tr, pace := newBareTransport(1<<20, 5*time.Second)
		ex, err := fetchVia(t, tr, s.URL(path))
		if err != nil || ex.Err != nil || !strings.Contains(ex.EndedEarly, want) || ex.Truncation != archive.TruncatedDisconnect {
			t.Errorf("%s: error %v, ended early %q, truncation %q: want an answer, ended early %q", path, err, ex.EndedEarly, ex.Truncation, want)
		}
		if len(pace.observed) != 1 || pace.observed[0] != "200 false" {
			t.Errorf("%s: pace observed %q, want an answer", path, pace.observed)
		}
	}
}
