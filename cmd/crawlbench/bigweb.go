package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// maxBigWebHosts is the most hosts a bigWeb serves: 250 addresses in each
// of 256 /24 blocks of 127.1.0.0/16.
const maxBigWebHosts = 250 * 256

// A bigWeb is a generated web of many hosts on loopback, one address of
// 127.1.0.0/16 per host, all on one port: a crawl of it opens connections
// to thousands of hosts without running out of local ports, as a crawl of
// the real web does. Each host serves robots.txt allowing everything and
// asking for no pace, and pages 0 to pages-1 ("/" and "/p1", "/p2", ...)
// that link to the next five pages of their host and to two pages of other
// hosts. The server counts the page requests (not robots.txt) and keeps
// the time of each, for the crawl being measured.
type bigWeb struct {
	hosts, pages int
	port         int
	latency      time.Duration
	srv          *http.Server
	listeners    []net.Listener

	served    atomic.Int64 // page requests since reset
	requests  atomic.Int64 // requests of any kind since reset
	conns     atomic.Int64 // connections accepted since reset
	firstNano atomic.Int64 // unix nanoseconds of the first request since reset, 0 if none
	mu        sync.Mutex
	times     []int64 // unix nanoseconds of the page requests, in arrival order (capacity hosts*pages)
	// last is the unix nanoseconds of each page's latest request (host
	// h's page i at h*pages+i), kept across resets.
	last []atomic.Int64
}

// startBigWeb listens on hosts loopback addresses and serves the web. It
// needs a file descriptor per host: see raiseFileLimit.
func startBigWeb(hosts, pages int, latency time.Duration) (*bigWeb, error) {
	if hosts < 1 || hosts > maxBigWebHosts || pages < 1 {
		return nil, fmt.Errorf("crawlbench: web of %d hosts x %d pages: hosts must be 1 to %d, pages at least 1", hosts, pages, maxBigWebHosts)
	}
	w := &bigWeb{hosts: hosts, pages: pages, latency: latency, times: make([]int64, 0, hosts*pages), last: make([]atomic.Int64, hosts*pages)}
	w.srv = &http.Server{Handler: w, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 5 * time.Second,
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				w.conns.Add(1)
			}
		}}
	var err error
	for range 10 { // another program may hold the port on one of the addresses
		if err = w.listen(); err == nil {
			for _, l := range w.listeners {
				go w.srv.Serve(l)
			}
			return w, nil
		}
		w.closeListeners()
	}
	return nil, fmt.Errorf("crawlbench: listen on %d loopback addresses: %w", hosts, err)
}

// listen opens one listener per host on the port the first one gets.
func (w *bigWeb) listen() error {
	for i := range w.hosts {
		addr := net.JoinHostPort(hostIP(i), strconv.Itoa(w.port))
		l, err := net.Listen("tcp", addr)
		if err != nil {
			if errors.Is(err, syscall.EMFILE) {
				return fmt.Errorf("%w (raise the open-file limit: ulimit -n)", err)
			}
			return err
		}
		if i == 0 {
			w.port = l.Addr().(*net.TCPAddr).Port
		}
		w.listeners = append(w.listeners, l)
	}
	return nil
}

func (w *bigWeb) closeListeners() {
	for _, l := range w.listeners {
		l.Close()
	}
	w.listeners, w.port = nil, 0
}

func (w *bigWeb) close() {
	w.srv.Close()
	w.closeListeners()
}

// hostIP is host i's address: 127.1.(i/250).(i%250+1).
func hostIP(i int) string { return fmt.Sprintf("127.1.%d.%d", i/250, i%250+1) }

// hostIndex is the host of a "127.1.b.c" address, or -1.
func hostIndex(ip string) int {
	var b, c int
	if n, err := fmt.Sscanf(ip, "127.1.%d.%d", &b, &c); n != 2 || err != nil || c < 1 || c > 250 {
		return -1
	}
	return b*250 + c - 1
}

// pageURL is the URL of page i of host h.
func (w *bigWeb) pageURL(h, i int) string {
	return "http://" + net.JoinHostPort(hostIP(h), strconv.Itoa(w.port)) + pagePath(i)
}

func pagePath(i int) string {
	if i == 0 {
		return "/"
	}
	return "/p" + strconv.Itoa(i)
}

// pageOf returns the host and page of a page URL of the web, ok false for
// any other URL.
func (w *bigWeb) pageOf(u string) (h, i int, ok bool) {
	rest, found := strings.CutPrefix(u, "http://")
	if !found {
		return 0, 0, false
	}
	hostport, path, _ := strings.Cut(rest, "/")
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || port != strconv.Itoa(w.port) {
		return 0, 0, false
	}
	if h = hostIndex(host); h < 0 || h >= w.hosts {
		return 0, 0, false
	}
	i, ok = w.pageIndex("/" + path)
	return h, i, ok
}

// pageIndex is the page a path names: 0 for "/", n for "/pn" (written
// without leading zeros) where 0 < n < pages.
func (w *bigWeb) pageIndex(path string) (int, bool) {
	if path == "/" {
		return 0, true
	}
	digits, found := strings.CutPrefix(path, "/p")
	n, err := strconv.Atoi(digits)
	if !found || err != nil || n < 1 || n >= w.pages || pagePath(n) != path {
		return 0, false
	}
	return n, true
}

// seeds are the root pages of every host.
func (w *bigWeb) seeds() []string {
	s := make([]string, w.hosts)
	for h := range s {
		s[h] = w.pageURL(h, 0)
	}
	return s
}

// reset starts counting afresh for the next crawl.
func (w *bigWeb) reset() {
	w.mu.Lock()
	w.times = w.times[:0]
	w.served.Store(0)
	w.requests.Store(0)
	w.conns.Store(0)
	w.firstNano.Store(0)
	w.mu.Unlock()
}

// lastTimes returns the time of each page's latest request, by page
// (host h's page i at h*pages+i), 0 for a page never requested.
func (w *bigWeb) lastTimes() []int64 {
	out := make([]int64, len(w.last))
	for i := range w.last {
		out[i] = w.last[i].Load()
	}
	return out
}

// pageTimes returns the times of the page requests since reset.
func (w *bigWeb) pageTimes() []int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]int64(nil), w.times...)
}

func (w *bigWeb) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	now := time.Now().UnixNano()
	w.requests.Add(1)
	w.firstNano.CompareAndSwap(0, now)
	if w.latency > 0 {
		time.Sleep(w.latency)
	}
	host, _, _ := net.SplitHostPort(r.Host)
	h := hostIndex(host)
	if h < 0 || h >= w.hosts {
		http.NotFound(rw, r)
		return
	}
	if r.URL.Path == "/robots.txt" {
		fmt.Fprint(rw, "User-agent: *\nDisallow: /private/\n")
		return
	}
	i, ok := w.pageIndex(r.URL.Path)
	if !ok {
		http.NotFound(rw, r)
		return
	}
	w.mu.Lock()
	if len(w.times) < cap(w.times) {
		w.times = append(w.times, now)
	}
	w.mu.Unlock()
	w.last[h*w.pages+i].Store(now)
	w.served.Add(1)
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.writePage(rw, h, i)
}

// writePage writes page i of host h: its next five pages, page i+1 of the
// next host and page i of a host further away. The body names its host,
// so no two pages of the web are alike (nor deduplicated as revisits).
func (w *bigWeb) writePage(rw http.ResponseWriter, h, i int) {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><title>host %d page %d</title></head><body><h1>Page %d of host %d</h1><p>%s</p>", h, i, i, h, filler)
	for j := i + 1; j <= i+5 && j < w.pages; j++ {
		fmt.Fprintf(&b, `<a href="%s">next %d</a> `, pagePath(j), j)
	}
	far := (h*7919 + 104729) % w.hosts
	fmt.Fprintf(&b, `<a href="%s">neighbour</a> <a href="%s">elsewhere</a>`, w.pageURL((h+1)%w.hosts, (i+1)%w.pages), w.pageURL(far, i))
	b.WriteString("</body></html>")
	rw.Write([]byte(b.String()))
}
