package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// builtCrawl builds the crawl binary once per test binary run, into a
// directory removed by TestMain.
type builtCrawl struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
}

var testBinary builtCrawl

func TestMain(m *testing.M) {
	code := m.Run()
	if testBinary.dir != "" {
		os.RemoveAll(testBinary.dir)
	}
	os.Exit(code)
}

// buildCrawl returns the path of the crawl binary built from this package.
func buildCrawl(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; skipped in -short mode")
	}
	b := &testBinary
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", "crawl-bin-")
		if b.err != nil {
			return
		}
		b.bin = filepath.Join(b.dir, "crawl")
		if runtime.GOOS == "windows" {
			b.bin += ".exe"
		}
		b.out, b.err = exec.Command("go", "build", "-o", b.bin, ".").CombinedOutput()
	})
	if b.err != nil {
		t.Fatalf("go build: %v\n%s", b.err, b.out)
	}
	return b.bin
}

// logSite is a local site that logs every request start, server side.
type logSite struct {
	url   string
	mu    sync.Mutex
	log   []siteHit
	pages int
}

type siteHit struct {
	at   time.Time
	path string
}

func startLogSite(t *testing.T, robots string, pages int) *logSite {
	s := &logSite{pages: pages}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.log = append(s.log, siteHit{time.Now(), r.URL.Path})
		s.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, robots)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		var b strings.Builder
		b.WriteString("<html><body>")
		for i := range s.pages {
			fmt.Fprintf(&b, `<a href="/p%d">p%d</a>`, i, i)
		}
		b.WriteString("</body></html>")
		fmt.Fprint(w, b.String())
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	s.url = "http://" + l.Addr().String()
	return s
}

func (s *logSite) hits() []siteHit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]siteHit(nil), s.log...)
}

// TestKill9Resume kills a crawl with SIGKILL mid-way, runs the same command
// again, and proves from the servers' own logs (DESIGN invariant 6) that
// every URL was fetched, none more than once beyond those in flight at the
// kill, and no two requests to a host came closer than its pace across the
// restart.
func TestKill9Resume(t *testing.T) {
	bin := buildCrawl(t)
	const pages = 12
	const delay = 250 * time.Millisecond
	var sites []*logSite
	var seeds strings.Builder
	for range 3 {
		s := startLogSite(t, "User-agent: *\nCrawl-delay: 0.25\n", pages)
		sites = append(sites, s)
		fmt.Fprintln(&seeds, s.url+"/")
	}
	dir := t.TempDir()
	seedFile := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seedFile, []byte(seeds.String()), 0o644)
	out := filepath.Join(dir, "out")
	args := []string{"--seed", seedFile, "--out", out, "--agent", "killtest", "--progress", "never"}
	// A request the kill leaves unanswered counts, on resume, as lasting
	// fetch.timeout: its host's next start waits for the kill plus that
	// and the pace. A 3 s timeout keeps that wait short (the default 30 s
	// made it most of the test's time); the pages answer at once.
	env := append(os.Environ(), "CRAWL_POLITENESS_DEFAULT_DELAY=200ms", "CRAWL_FETCH_TIMEOUT=3s")

	first := exec.Command(bin, args...)
	first.Env = env
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		n := 0
		for _, s := range sites {
			n += len(s.hits())
		}
		if n >= 15 {
			break
		}
		if time.Now().After(deadline) {
			first.Process.Kill()
			t.Fatal("first run made too few requests")
		}
		time.Sleep(5 * time.Millisecond)
	}
	first.Process.Signal(syscall.SIGKILL)
	first.Wait()
	killedAt := make([]int, len(sites))
	for i, s := range sites {
		killedAt[i] = len(s.hits())
	}

	second := exec.Command(bin, args...)
	second.Env = env
	if b, err := second.CombinedOutput(); err != nil {
		t.Fatalf("second run: %v\n%s", err, b)
	}

	for i, s := range sites {
		hits := s.hits()
		if killedAt[i] == len(hits) {
			t.Logf("%s: all requests happened before the kill", s.url)
		}
		counts := map[string]int{}
		for _, h := range hits {
			counts[h.path]++
		}
		want := []string{"/robots.txt", "/"}
		for p := range pages {
			want = append(want, fmt.Sprintf("/p%d", p))
		}
		again := 0
		for _, p := range want {
			switch c := counts[p]; {
			case c == 0:
				t.Errorf("%s: %s never fetched", s.url, p)
			case c == 2:
				again++
				t.Logf("%s: %s fetched twice (kill after request %d)", s.url, p, killedAt[i])
			case c > 2:
				t.Errorf("%s: %s fetched %d times", s.url, p, c)
			}
		}
		// per_host is 1: at most one URL per host was in flight at the kill.
		if again > 1 {
			t.Errorf("%s: %d URLs fetched twice; at most the 1 in flight may be", s.url, again)
		}
		for j := 1; j < len(hits); j++ {
			if d := hits[j].at.Sub(hits[j-1].at); d < delay {
				t.Errorf("%s: %s then %s only %v apart across the restart (request %d, kill after %d)", s.url, hits[j-1].path, hits[j].path, d, j, killedAt[i])
				if b, err := os.ReadFile(filepath.Join(out, "crawl.jsonl")); err == nil {
					for _, line := range strings.Split(string(b), "\n") {
						if strings.Contains(line, s.url) {
							t.Log(line[:min(len(line), 120)])
						}
					}
				}
				for _, h := range hits {
					t.Log(h.at.Format("15:04:05.000"), h.path)
				}
			}
		}
	}
}

// TestInterruptStopsCleanlyAndResumes sends SIGINT mid-crawl: the process
// exits 130 with a line saying how to continue, and the same command then
// finishes the crawl without fetching anything twice.
func TestInterruptStopsCleanlyAndResumes(t *testing.T) {
	t.Parallel()
	bin := buildCrawl(t)
	site := startLogSite(t, "User-agent: *\nCrawl-delay: 0.1\n", 8)
	dir := t.TempDir()
	seedFile := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seedFile, []byte(site.url+"/\n"), 0o644)
	args := []string{"--seed", seedFile, "--out", filepath.Join(dir, "out"), "--progress", "never"}
	cmd := exec.Command(bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for len(site.hits()) < 4 {
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Fatalf("want exit %d after SIGINT, got %v", exitInterrupted, err)
	}
	if !strings.Contains(stderr.String(), "Run the same command again to continue") {
		t.Errorf("stderr does not say how to continue: %q", stderr.String())
	}
	again := exec.Command(bin, args...)
	if b, err := again.CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, b)
	}
	counts := map[string]int{}
	for _, h := range site.hits() {
		counts[h.path]++
	}
	for p := range 8 {
		if c := counts[fmt.Sprintf("/p%d", p)]; c < 1 || c > 2 {
			t.Errorf("/p%d fetched %d times", p, c)
		}
	}
	if counts["/robots.txt"] != 1 {
		t.Errorf("robots.txt fetched %d times; the persisted copy must be reused", counts["/robots.txt"])
	}
}
