package crawler

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// closingServer answers the first request of each connection (keeping it
// alive) and closes the connection on the second without answering, as a
// server with a keep-alive limit of one may. It records when each request
// arrived.
type closingServer struct {
	ln   net.Listener
	mu   sync.Mutex
	seen []time.Time
	wg   sync.WaitGroup
}

func newClosingServer(t *testing.T) *closingServer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &closingServer{ln: ln}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.wg.Add(1)
			go s.serve(c)
		}
	}()
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s
}

func (s *closingServer) serve(c net.Conn) {
	defer s.wg.Done()
	defer c.Close()
	r := bufio.NewReader(c)
	for n := 0; ; n++ {
		req, err := http.ReadRequest(r)
		if err != nil {
			return
		}
		s.mu.Lock()
		s.seen = append(s.seen, time.Now())
		s.mu.Unlock()
		if n == 1 {
			return // read, never answered
		}
		body := "User-agent: *\nCrawl-delay: 0.2\n"
		if req.URL.Path != "/robots.txt" {
			body = `<a href="/a">a</a><a href="/b">b</a>`
		}
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	}
}

// TestKeptAliveCloseIsNotResent: net/http sends a GET again at once on a
// new connection when a kept-alive one closed without an answer, so the
// server got the request twice with no pace between. The
// crawler refuses that second sending: no two requests reach the host
// closer than its Crawl-delay.
func TestKeptAliveCloseIsNotResent(t *testing.T) {
	s := newClosingServer(t)
	cfg := testConfig(t)
	cfg.Politeness.BackoffBase = 300 * time.Millisecond
	crawlFor(t, cfg, "http://"+s.ln.Addr().String()+"/")
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) < 3 {
		t.Fatalf("the server saw %d requests, want robots.txt, / and more", len(s.seen))
	}
	for i := 1; i < len(s.seen); i++ {
		if gap := s.seen[i].Sub(s.seen[i-1]); gap < 190*time.Millisecond {
			t.Errorf("requests %d and %d reached the server %v apart; Crawl-delay is 0.2 s", i, i+1, gap)
		}
	}
}
