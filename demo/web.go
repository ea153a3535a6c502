package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// A Site is one demo web site and the etiquette point it shows.
//
// A Site is a plain value and safe for concurrent use.
type Site struct {
	Name           string // short slug, e.g. "crawl-delay"
	Lesson         string // one plain sentence stating the etiquette point
	Seed           string // URL to start crawling from
	Authority      string // "http://127.0.0.1:PORT"
	Robots         string // the robots.txt body that applies (after a redirect, the target's body); "" if none
	RobotsStatus   int    // HTTP status its /robots.txt answers with
	RobotsLocation string // for a redirecting robots.txt, the Location it points to
}

// A Request is one HTTP request a demo site received.
type Request struct {
	Time      time.Time // when the request arrived (wall clock)
	Method    string
	Path      string // path and query as requested
	UserAgent string
	Status    int // status code the site answered with
}

// A Web is a set of running demo sites. Create one with Start and stop it
// with Close (or by cancelling the context given to Start).
//
// The zero Web is not usable. A Web's methods are safe for concurrent use.
type Web struct {
	sites   []Site
	servers []*server
	byAuth  map[string]*server
	stop    chan struct{}
	once    sync.Once // guards shutting the servers down
	stopped sync.Once // guards closing stop
	wg      sync.WaitGroup
}

// server is one listening host and its request log.
type server struct {
	authority string
	srv       *http.Server
	ln        net.Listener

	mu  sync.Mutex
	log []Request
}

func (s *server) record(r Request) {
	s.mu.Lock()
	s.log = append(s.log, r)
	s.mu.Unlock()
}

func (s *server) requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// statusRecorder remembers the status code a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (w *statusRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Start listens on 127.0.0.1 with one ephemeral port per demo site and serves
// them until Close is called or ctx is done. now sets the UTC windows of the
// Request-rate and Visit-time sites (one window open at now, one closed).
// agentToken is the product token the crawler matches groups with; the
// Comment: site addresses its group to it.
func Start(ctx context.Context, now time.Time, agentToken string) (*Web, error) {
	if agentToken == "" {
		return nil, errors.New("demo: empty agent token")
	}
	specs := siteSpecs(now, agentToken)
	w := &Web{byAuth: make(map[string]*server), stop: make(chan struct{})}
	// Listen first so that every site knows every other site's authority.
	for range len(specs) + 1 { // +1: the host the redirecting robots.txt points to
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			for _, s := range w.servers {
				s.ln.Close()
			}
			return nil, fmt.Errorf("demo: listen: %w", err)
		}
		s := &server{authority: "http://" + ln.Addr().String(), ln: ln}
		w.servers = append(w.servers, s)
		w.byAuth[s.authority] = s
	}
	auth := make(map[string]string, len(specs)+1)
	for i, sp := range specs {
		auth[sp.name] = w.servers[i].authority
	}
	policy := w.servers[len(specs)]
	auth[policyHost] = policy.authority

	handlers := make([]http.Handler, 0, len(specs)+1)
	for _, sp := range specs {
		h := sp.build(auth)
		handlers = append(handlers, h.handler)
		w.sites = append(w.sites, Site{
			Name:           sp.name,
			Lesson:         sp.lesson,
			Seed:           auth[sp.name] + "/",
			Authority:      auth[sp.name],
			Robots:         h.robots,
			RobotsStatus:   h.robotsStatus,
			RobotsLocation: h.robotsLocation,
		})
	}
	handlers = append(handlers, policyHandler())

	for i, s := range w.servers {
		s.srv = &http.Server{Handler: logged(s, handlers[i]), ReadHeaderTimeout: 10 * time.Second}
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			_ = s.srv.Serve(s.ln) // returns http.ErrServerClosed after Close
		}()
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		select {
		case <-ctx.Done():
			w.shutdown()
		case <-w.stop:
		}
	}()
	return w, nil
}

// logged wraps h so that every request is recorded in s's log.
func logged(s *server, h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		arrived := time.Now()
		rec := &statusRecorder{ResponseWriter: rw}
		h.ServeHTTP(rec, r)
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		s.record(Request{
			Time:      arrived,
			Method:    r.Method,
			Path:      r.URL.RequestURI(),
			UserAgent: r.UserAgent(),
			Status:    status,
		})
	})
}

func (w *Web) shutdown() {
	w.once.Do(func() {
		for _, s := range w.servers {
			s.srv.Close()
		}
	})
}

// Close stops every site and waits for the servers' goroutines to end.
// It is safe to call more than once.
func (w *Web) Close() {
	w.shutdown()
	w.stopped.Do(func() { close(w.stop) })
	w.wg.Wait()
}

// Sites returns the demo sites in the order they are meant to be narrated.
func (w *Web) Sites() []Site {
	return append([]Site(nil), w.sites...)
}

// Requests returns the requests the host at authority ("http://127.0.0.1:PORT")
// has received so far, oldest first; nil for an unknown authority. It covers
// the hidden host that the redirecting robots.txt points to as well.
func (w *Web) Requests(authority string) []Request {
	s, ok := w.byAuth[authority]
	if !ok {
		return nil
	}
	return s.requests()
}
