package main

import (
	"fmt"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The kinds of host of the distributed crawl's test web, each asking for
// its pace in robots.txt in one of the ways the 1996 extended standard for
// robot exclusion (Request-rate, Visit-time) and the de-facto Crawl-delay
// allow, or failing it as RFC 9309 section 2.3.1.4 describes.
type distKind int

const (
	kindDelay       distKind = iota // Crawl-delay 0.2 to 0.5 s
	kindRate                        // Request-rate 3/1s in a window around now, 1/5s outside it
	kindVisitOpen                   // Visit-time window open now, Crawl-delay 0.25 s
	kindVisitClosed                 // Visit-time window closed now: no page may be fetched
	kindRobots5xx                   // robots.txt answers 500: unreachable, complete disallow
)

// distPages is the pages of each host besides "/": "/" links to /p1 ..
// /p6 and to /private/secret, which robots.txt disallows; each /pI links
// back to "/" and on to the next page.
const distPages = 6

// A distHost is one host of the test web and what its robots.txt asks.
type distHost struct {
	addr   string // "127.3.B.N:PORT"
	kind   distKind
	pace   time.Duration // the interval robots.txt asks for now
	window [2]int        // Visit-time hosts: the window's first and last minute of the UTC day
	robots string
}

// A distHit is one request a host of the test web received, logged when
// its handler started: after the whole request had arrived.
type distHit struct {
	at     time.Time
	host   string
	path   string
	proc   int // the crawl process that sent it (distProcAgent), -1 if unknown
	remote string
}

// distProcAgent is the User-Agent header crawl process i of a distributed
// test sends: agent.user_agent differs per process, agent.token (what
// robots.txt groups match) is the same, so each server can tell which
// process each request came from.
func distProcAgent(i int) string {
	return fmt.Sprintf("disttest/0.1 (process %d; +http://127.0.0.1/)", i)
}

// procOf is the process whose distProcAgent ua is, or -1.
func procOf(ua string) int {
	var i int
	if _, err := fmt.Sscanf(ua, "disttest/0.1 (process %d;", &i); err != nil {
		return -1
	}
	return i
}

// A distWeb is dozens of hosts on one port of as many loopback addresses
// (127.3.B.1 .. 127.3.B.N), logging every request they receive.
type distWeb struct {
	hosts     []*distHost
	byAddr    map[string]*distHost
	srv       *http.Server
	listeners []net.Listener

	mu  sync.Mutex
	log []distHit
	// slow is how long the pages distSlowPage take to answer (0: at
	// once); inFlight holds each process's slow request while its handler
	// waits.
	slow     time.Duration
	inFlight map[int]distHit
}

// distSlowPage is the page of every host that answers only after the
// web's slow delay, so that a test can catch a process with a request in
// flight.
const distSlowPage = "/p3"

// setSlow makes distSlowPage of every host answer after d.
func (w *distWeb) setSlow(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.slow = d
}

// slowInFlight is a request for distSlowPage from process proc whose
// handler is still waiting to answer, if there is one.
func (w *distWeb) slowInFlight(proc int) (distHit, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	h, ok := w.inFlight[proc]
	return h, ok
}

// holdSlow waits the web's slow delay when hit is for distSlowPage,
// listing it as in flight meanwhile.
func (w *distWeb) holdSlow(hit distHit) {
	w.mu.Lock()
	slow := w.slow
	if slow > 0 && hit.path == distSlowPage && hit.proc >= 0 {
		w.inFlight[hit.proc] = hit
	}
	w.mu.Unlock()
	if slow == 0 || hit.path != distSlowPage {
		return
	}
	time.Sleep(slow)
	w.mu.Lock()
	if w.inFlight[hit.proc] == hit {
		delete(w.inFlight, hit.proc)
	}
	w.mu.Unlock()
}

// distHostKinds is the mix of hosts of the test web: mostly Crawl-delay
// hosts, and one or more of every other kind.
func distHostKinds() []distKind {
	kinds := make([]distKind, 0, 24)
	for range 16 {
		kinds = append(kinds, kindDelay)
	}
	return append(kinds, kindRate, kindRate, kindRate, kindRate, kindVisitOpen, kindVisitOpen, kindVisitClosed, kindRobots5xx)
}

// startDistWeb serves the test web on 127.3.block.1 and following, one
// address per host, all on one port; block keeps the webs of tests that
// run at once apart. Its robots.txt files are written for now: the
// windows around now stay open for an hour either side.
func startDistWeb(t *testing.T, block int) *distWeb {
	t.Helper()
	w := &distWeb{byAddr: map[string]*distHost{}, inFlight: map[int]distHit{}}
	w.srv = &http.Server{Handler: w, ReadHeaderTimeout: 10 * time.Second}
	kinds := distHostKinds()
	var err error
	for range 10 { // another program may hold the port on one of the addresses
		if err = w.listen(block, len(kinds)); err == nil {
			break
		}
		w.closeListeners()
	}
	if err != nil {
		t.Fatalf("listen on 127.3.%d.x: %v", block, err)
	}
	now := time.Now().UTC()
	for i, k := range kinds {
		h := newDistHost(w.listeners[i].Addr().String(), k, i, now)
		w.hosts = append(w.hosts, h)
		w.byAddr[h.addr] = h
	}
	for _, l := range w.listeners {
		go w.srv.Serve(l)
	}
	t.Cleanup(func() { w.srv.Close(); w.closeListeners() })
	return w
}

// listen opens n listeners on 127.3.block.1 .. n, on the port the first
// one gets.
func (w *distWeb) listen(block, n int) error {
	port := 0
	for i := range n {
		l, err := net.Listen("tcp", net.JoinHostPort(fmt.Sprintf("127.3.%d.%d", block, i+1), strconv.Itoa(port)))
		if err != nil {
			return err
		}
		port = l.Addr().(*net.TCPAddr).Port
		w.listeners = append(w.listeners, l)
	}
	return nil
}

func (w *distWeb) closeListeners() {
	for _, l := range w.listeners {
		l.Close()
	}
	w.listeners = nil
}

// newDistHost is host i of kind k, its robots.txt written for now.
func newDistHost(addr string, k distKind, i int, now time.Time) *distHost {
	h := &distHost{addr: addr, kind: k}
	minute := now.Hour()*60 + now.Minute()
	around := [2]int{minute - 60, minute + 60}  // open now
	later := [2]int{minute + 120, minute + 180} // closed now
	switch k {
	case kindDelay:
		h.pace = time.Duration(200+100*(i%4)) * time.Millisecond
		h.robots = fmt.Sprintf("User-agent: *\nCrawl-delay: %g\nDisallow: /private/\n", h.pace.Seconds())
	case kindRate:
		// 3 per second inside the window, one per 5 s in the rest of the day.
		h.pace = time.Second / 3
		h.robots = fmt.Sprintf("User-agent: *\nRequest-rate: 3/1s %s\nRequest-rate: 1/5s %s\nDisallow: /private/\n",
			hhmm(around), hhmm([2]int{around[1] + 1, around[0] - 1}))
	case kindVisitOpen, kindVisitClosed:
		h.pace = 250 * time.Millisecond
		h.window = around
		if k == kindVisitClosed {
			h.window = later
		}
		h.robots = fmt.Sprintf("User-agent: *\nVisit-time: %s\nCrawl-delay: 0.25\nDisallow: /private/\n", hhmm(h.window))
	}
	return h
}

// hhmm writes a window of minutes of the UTC day as the 1996 extended
// standard's "HHMM-HHMM" (its last minute inside it); minutes wrap past
// midnight.
func hhmm(win [2]int) string {
	f := func(m int) string {
		m = ((m % 1440) + 1440) % 1440
		return fmt.Sprintf("%02d%02d", m/60, m%60)
	}
	return f(win[0]) + "-" + f(win[1])
}

// inWindow reports whether t falls in the host's Visit-time window.
func (h *distHost) inWindow(t time.Time) bool {
	t = t.UTC()
	m := t.Hour()*60 + t.Minute()
	from := ((h.window[0] % 1440) + 1440) % 1440
	to := ((h.window[1] % 1440) + 1440) % 1440
	if from <= to {
		return m >= from && m <= to
	}
	return m >= from || m <= to
}

// ServeHTTP logs the request, then answers it as its host's kind says.
func (w *distWeb) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	hit := distHit{at: time.Now(), host: r.Host, path: r.URL.Path, proc: procOf(r.UserAgent()), remote: r.RemoteAddr}
	h := w.byAddr[r.Host]
	w.mu.Lock()
	w.log = append(w.log, hit)
	w.mu.Unlock()
	if h == nil {
		http.Error(rw, "unknown host", http.StatusMisdirectedRequest)
		return
	}
	if r.URL.Path == "/robots.txt" {
		if h.kind == kindRobots5xx {
			http.Error(rw, "robots.txt is failing", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(rw, h.robots)
		return
	}
	page, ok := pageIndex(r.URL.Path)
	if !ok {
		http.NotFound(rw, r)
		return
	}
	w.holdSlow(hit)
	rw.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(rw, pageHTML(page))
}

// pageIndex is the page of path: 0 for "/", I for "/pI".
func pageIndex(path string) (int, bool) {
	if path == "/" {
		return 0, true
	}
	i, err := strconv.Atoi(strings.TrimPrefix(path, "/p"))
	if !strings.HasPrefix(path, "/p") || err != nil || i < 1 || i > distPages {
		return 0, false
	}
	return i, true
}

func pageHTML(page int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><title>page %d</title><body>", page)
	if page == 0 {
		for i := 1; i <= distPages; i++ {
			fmt.Fprintf(&b, `<a href="/p%d">p%d</a> `, i, i)
		}
		b.WriteString(`<a href="/private/secret">secret</a>`)
	} else {
		fmt.Fprintf(&b, `<a href="/">home</a> <a href="/p%d">next</a>`, page%distPages+1)
	}
	return b.String()
}

// seeds is the seed list: every host's "/".
func (w *distWeb) seeds() string {
	var b strings.Builder
	for _, h := range w.hosts {
		fmt.Fprintf(&b, "http://%s/\n", h.addr)
	}
	return b.String()
}

// hits is the request log so far, per host, each host's in time order.
func (w *distWeb) hits() map[string][]distHit {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := map[string][]distHit{}
	for _, h := range w.log {
		m[h.host] = append(m[h.host], h)
	}
	for _, hs := range m {
		sort.Slice(hs, func(i, j int) bool { return hs[i].at.Before(hs[j].at) })
	}
	return m
}

// requests is how many requests the web received from each of procs
// processes, as their User-Agent tells.
func (w *distWeb) requests(procs int) []int {
	w.mu.Lock()
	defer w.mu.Unlock()
	per := make([]int, procs)
	for _, h := range w.log {
		if h.proc >= 0 && h.proc < procs {
			per[h.proc]++
		}
	}
	return per
}

// total is how many requests the web received, and the times of the first
// and the last.
func (w *distWeb) total() (n int, first, last time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, h := range w.log {
		if first.IsZero() || h.at.Before(first) {
			first = h.at
		}
		if h.at.After(last) {
			last = h.at
		}
	}
	return len(w.log), first, last
}
