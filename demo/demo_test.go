package demo

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/crawlproject/crawl/robots"
)

const testAgent = "crawl-test"

// noRedirect is a client that reports redirects instead of following them.
func noRedirect() *http.Client {
	return &http.Client{
		Timeout:       5 * time.Second,
		Transport:     &http.Transport{DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func get(t *testing.T, c *http.Client, u string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("User-Agent", testAgent+"/1.0")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read %s: %v", u, err)
	}
	return resp, string(b)
}

func start(t *testing.T, now time.Time) *Web {
	t.Helper()
	w, err := Start(t.Context(), now, testAgent)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w
}

func site(t *testing.T, w *Web, name string) Site {
	t.Helper()
	for _, s := range w.Sites() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no site %q", name)
	return Site{}
}

var windowRE = regexp.MustCompile(`(\d{2})(\d{2})-(\d{2})(\d{2})`)

// lineWindow finds the directive line starting with prefix in body and
// returns the UTC window written on it.
func lineWindow(t *testing.T, body, prefix string) robots.Window {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		m := windowRE.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %q has no window", line)
		}
		n := func(s string) int { v, _ := strconv.Atoi(s); return v }
		return robots.Window{From: n(m[1])*60 + n(m[2]), To: n(m[3])*60 + n(m[4])}
	}
	t.Fatalf("no line starting %q in:\n%s", prefix, body)
	return robots.Window{}
}

// Times chosen so that windows wrap past midnight in either direction.
var testTimes = []time.Time{
	time.Date(2026, 11, 21, 14, 7, 30, 0, time.UTC),
	time.Date(2026, 11, 21, 23, 30, 0, 0, time.UTC),
	time.Date(2026, 11, 22, 0, 20, 0, 0, time.UTC),
	time.Date(2026, 11, 21, 21, 0, 0, 0, time.UTC),
}

func TestExtended1996RequestRateWindows(t *testing.T) {
	for _, now := range testTimes {
		t.Run(now.Format("1504"), func(t *testing.T) {
			w := start(t, now)
			s := site(t, w, "request-rate")
			fast := lineWindow(t, s.Robots, "Request-rate: 1/2s")
			slow := lineWindow(t, s.Robots, "Request-rate: 1/10s")
			if !fast.Contains(now) {
				t.Errorf("1/2s window %v does not contain now %v", fast, now)
			}
			if slow.Contains(now) {
				t.Errorf("1/10s window %v contains now %v", slow, now)
			}
			day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			for m := range 24 * 60 {
				at := day.Add(time.Duration(m) * time.Minute)
				if fast.Contains(at) == slow.Contains(at) {
					t.Fatalf("minute %s covered by both or neither of %v and %v", at.Format("15:04"), fast, slow)
				}
			}
		})
	}
}

func TestExtended1996VisitTime(t *testing.T) {
	for _, now := range testTimes {
		t.Run(now.Format("1504"), func(t *testing.T) {
			w := start(t, now)
			open := lineWindow(t, site(t, w, "visit-time-open").Robots, "Visit-time:")
			if !open.Contains(now) {
				t.Errorf("open window %v does not contain %v", open, now)
			}
			closed := lineWindow(t, site(t, w, "visit-time-closed").Robots, "Visit-time:")
			if closed.Contains(now) {
				t.Errorf("closed window %v contains %v", closed, now)
			}
			wait := closed.NextOpen(now).Sub(now)
			if wait <= 2*time.Hour+59*time.Minute || wait > 3*time.Hour {
				t.Errorf("closed window opens in %v, want about 3h", wait)
			}
		})
	}
}

func TestRobotsAnswers(t *testing.T) {
	now := testTimes[0]
	w := start(t, now)
	c := noRedirect()
	for _, s := range w.Sites() {
		t.Run(s.Name, func(t *testing.T) {
			if s.Lesson == "" || strings.Count(s.Lesson, ". ") > 0 {
				t.Errorf("lesson should be one sentence: %q", s.Lesson)
			}
			if s.Seed != s.Authority+"/" {
				t.Errorf("seed %q not on authority %q", s.Seed, s.Authority)
			}
			resp, body := get(t, c, s.Authority+"/robots.txt")
			if resp.StatusCode != s.RobotsStatus {
				t.Fatalf("robots.txt status %d, want %d", resp.StatusCode, s.RobotsStatus)
			}
			if s.RobotsStatus == http.StatusOK && body != s.Robots {
				t.Errorf("robots.txt body:\n%s\nwant:\n%s", body, s.Robots)
			}
		})
	}
}

func TestRFC9309Status5xxDisallowsAll(t *testing.T) {
	w := start(t, testTimes[0])
	s := site(t, w, "robots-503")
	resp, _ := get(t, noRedirect(), s.Authority+"/robots.txt")
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", resp.StatusCode)
	}
	reqs := w.Requests(s.Authority)
	if len(reqs) != 1 || reqs[0].Path != "/robots.txt" || reqs[0].Status != 503 || reqs[0].UserAgent != testAgent+"/1.0" {
		t.Errorf("request log = %+v, want one robots.txt request answered 503", reqs)
	}
}

func TestRFC9309RedirectToOtherHost(t *testing.T) {
	w := start(t, testTimes[0])
	s := site(t, w, "robots-redirect")
	c := noRedirect()
	resp, _ := get(t, c, s.Authority+"/robots.txt")
	if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != s.RobotsLocation {
		t.Fatalf("status %d location %q, want 301 to %q", resp.StatusCode, resp.Header.Get("Location"), s.RobotsLocation)
	}
	loc, err := url.Parse(s.RobotsLocation)
	if err != nil {
		t.Fatal(err)
	}
	target := loc.Scheme + "://" + loc.Host
	if target == s.Authority {
		t.Fatalf("redirect stays on %s", target)
	}
	_, body := get(t, c, s.RobotsLocation)
	if body != s.Robots || !strings.Contains(body, "Disallow: /private/") {
		t.Errorf("redirected body %q, want %q", body, s.Robots)
	}
	if n := len(w.Requests(target)); n != 1 {
		t.Errorf("target host logged %d requests, want 1", n)
	}
	if resp, _ := get(t, c, s.Authority+"/private/secret"); resp.StatusCode != 200 {
		t.Errorf("the disallowed page should exist for a crawler to skip; got %d", resp.StatusCode)
	}
}

func TestRetryAfterOnce(t *testing.T) {
	w := start(t, testTimes[0])
	s := site(t, w, "retry-after")
	c := noRedirect()
	resp, _ := get(t, c, s.Authority+"/busy")
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "2" {
		t.Fatalf("first /busy: %d Retry-After %q, want 429 and 2", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	resp, _ = get(t, c, s.Authority+"/busy")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("second /busy: %d, want 200", resp.StatusCode)
	}
}

var hrefRE = regexp.MustCompile(`href="([^"]+)"`)

func TestTrapIsEndlessAndDisallowed(t *testing.T) {
	w := start(t, testTimes[0])
	s := site(t, w, "trap")
	if !strings.Contains(s.Robots, "Disallow: /calendar/\n") {
		t.Fatalf("robots.txt lacks Disallow: /calendar/:\n%s", s.Robots)
	}
	c := noRedirect()
	path := "/calendar/2026/11/"
	seen := map[string]bool{}
	for range 30 { // always a page not yet seen
		seen[path] = true
		resp, body := get(t, c, s.Authority+path)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		next := ""
		for _, m := range hrefRE.FindAllStringSubmatch(body, -1) {
			if strings.HasPrefix(m[1], "/calendar/") && !seen[m[1]] {
				next = m[1]
			}
		}
		if next == "" {
			t.Fatalf("%s links to no new calendar page", path)
		}
		path = next
	}
}

// TestGalleryIsARelativeLinkTrap: every path under /gallery/ answers with
// a relative link to photos/, so each page leads one level deeper, and
// robots.txt does not keep a crawler out.
func TestGalleryIsARelativeLinkTrap(t *testing.T) {
	w := start(t, testTimes[0])
	s := site(t, w, "trap")
	if strings.Contains(s.Robots, "/gallery") {
		t.Fatalf("robots.txt names the gallery:\n%s", s.Robots)
	}
	c := noRedirect()
	for _, path := range []string{"/gallery/", "/gallery/photos/", "/gallery/photos/photos/photos/photos/"} {
		resp, body := get(t, c, s.Authority+path)
		if resp.StatusCode != 200 || !strings.Contains(body, `href="photos/"`) {
			t.Errorf("%s: %d, want 200 with a relative link to photos/:\n%s", path, resp.StatusCode, body)
		}
	}
	if _, home := get(t, c, s.Authority+"/"); !strings.Contains(home, `href="/gallery/"`) {
		t.Error("the trap site's home page does not link to the gallery")
	}
}

// TestNofollowPages: the nofollow site's members page asks every robot not
// to follow its links in a robots <meta> element, its archive page in an
// X-Robots-Tag header, and its guestbook marks one link rel="nofollow".
func TestNofollowPages(t *testing.T) {
	w := start(t, testTimes[0])
	s := site(t, w, "nofollow")
	c := noRedirect()
	if _, body := get(t, c, s.Authority+"/members"); !strings.Contains(body, `<meta name="robots" content="nofollow">`) || !strings.Contains(body, `href="/members/list"`) {
		t.Errorf("/members lacks its robots meta or its link:\n%s", body)
	}
	if resp, body := get(t, c, s.Authority+"/archive"); resp.Header.Get("X-Robots-Tag") != "nofollow" || !strings.Contains(body, `href="/archive/2019"`) {
		t.Errorf("/archive: X-Robots-Tag %q, want nofollow, and a link to /archive/2019:\n%s", resp.Header.Get("X-Robots-Tag"), body)
	}
	if _, body := get(t, c, s.Authority+"/guestbook"); !strings.Contains(body, `<a rel="nofollow" href="/guestbook/visitor">`) {
		t.Errorf("/guestbook lacks its rel=nofollow link:\n%s", body)
	}
	if _, home := get(t, c, s.Authority+"/"); strings.Contains(home, "nofollow") {
		t.Errorf("the home page itself asks nofollow:\n%s", home)
	}
}

func TestCommentsForOurAgent(t *testing.T) {
	w := start(t, testTimes[0])
	s := site(t, w, "comments")
	if !strings.Contains(s.Robots, "User-agent: "+testAgent+"\nComment: ") {
		t.Errorf("no Comment: lines in a group for %s:\n%s", testAgent, s.Robots)
	}
	if n := strings.Count(s.Robots, "\nComment: "); n != 2 {
		t.Errorf("%d Comment: lines, want 2", n)
	}
}

// TestLinksResolve walks every site's own pages (outside the traps:
// /calendar/, and /gallery/ below the gallery's own page) and
// checks that each same-site link answers, that cross-site links exist, and
// that the request log records what was asked.
func TestLinksResolve(t *testing.T) {
	begin := time.Now()
	w := start(t, testTimes[0])
	c := noRedirect()
	cross := 0
	for _, s := range w.Sites() {
		queue := []string{"/"}
		seen := map[string]bool{"/": true}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			if p == "/busy" {
				get(t, c, s.Authority+p) // the 429, once
			}
			resp, body := get(t, c, s.Authority+p)
			if resp.StatusCode != 200 {
				t.Errorf("%s%s: %d", s.Name, p, resp.StatusCode)
			}
			for _, m := range hrefRE.FindAllStringSubmatch(body, -1) {
				href := strings.ReplaceAll(m[1], "&amp;", "&")
				if strings.HasPrefix(href, "http://") {
					cross++
					continue
				}
				if !strings.HasPrefix(href, "/") { // relative to the page's directory
					href = p[:strings.LastIndex(p, "/")+1] + href
				}
				inTrap := strings.HasPrefix(href, "/calendar/") || strings.HasPrefix(href, "/gallery/") && href != "/gallery/"
				if !seen[href] && !inTrap {
					seen[href] = true
					queue = append(queue, href)
				}
			}
		}
		log := w.Requests(s.Authority)
		if len(log) < len(seen) {
			t.Errorf("%s logged %d requests, fetched %d pages", s.Name, len(log), len(seen))
		}
		for i, r := range log {
			if r.Time.Before(begin) || r.Time.After(time.Now()) || i > 0 && r.Time.Before(log[i-1].Time) {
				t.Errorf("%s: request %d logged at %v, out of order or outside the test", s.Name, i, r.Time)
			}
			if r.Method != http.MethodGet || r.UserAgent != testAgent+"/1.0" {
				t.Errorf("%s: request %d logged as %s by %q", s.Name, i, r.Method, r.UserAgent)
			}
		}
	}
	if cross == 0 {
		t.Error("no cross-site links")
	}
	if w.Requests("http://127.0.0.1:1") != nil {
		t.Error("unknown authority has a log")
	}
}

func TestStartRejectsEmptyToken(t *testing.T) {
	if _, err := Start(t.Context(), testTimes[0], ""); err == nil {
		t.Fatal("no error for an empty agent token")
	}
}

func TestContextCancelStopsServers(t *testing.T) {
	defer goleak.VerifyNone(t)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := Start(ctx, testTimes[0], testAgent)
	if err != nil {
		t.Fatal(err)
	}
	seed := w.Sites()[0].Seed
	cancel()
	w.Close()
	w.Close()
	if _, err := noRedirect().Get(seed); err == nil {
		t.Error("site still answers after cancel and Close")
	}
}
