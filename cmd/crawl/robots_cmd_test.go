package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
)

const cmdRobotsBody = `User-agent: *
Disallow: /private/
Allow: /private/press/
Crawl-delay: 2.5

User-agent: hackerbot
Robot-version: 2.0
Request-rate: 1/10m 1300-1659
Request-rate: 10
Visit-time: 0600-0845
Comment: slow down, please
Disallow: /*.cgi$
Sitemap: https://example.com/sitemap.xml
bogus line here
`

func writeRobotsFile(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runRobotsCmd(t *testing.T, opts robotsOptions, args ...string) (string, error) {
	t.Helper()
	if opts.now == nil {
		opts.now = func() time.Time { return time.Date(2026, 1, 1, 14, 0, 0, 0, time.UTC) }
	}
	cmd := newRobotsCommandWith(opts)
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func TestRobotsCheckJSON(t *testing.T) {
	file := writeRobotsFile(t, cmdRobotsBody)
	out, err := runRobotsCmd(t, robotsOptions{}, "check", "--file", file, "--agent", "ExampleBot/1.0", "--json",
		"https://example.com/private/x", "/private/press/a?b=<c>", "/public", "http://h/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	src := `"robots_txt":{"source":"` + file + `","fetched":false,"status":null,"error":null,"outcome":"available","policy":"rules","truncated":false,"redirects":[]}` +
		`,"agent":"ExampleBot","group":["*"],"pace_now":{"interval_seconds":2.5,"line":4,"rule":"Crawl-delay: 2.5"},"visit_open_now":true,"next_visit":null,"at":"2026-01-01T14:00:00Z"`
	want := `{"url":"https://example.com/private/x","checked_as":"https://example.com/private/x","allowed":false,"rule":"Disallow: /private/","line":2,` + src + `}
{"url":"/private/press/a?b=<c>","checked_as":"/private/press/a?b=%3Cc%3E","allowed":true,"rule":"Allow: /private/press/","line":3,` + src + `}
{"url":"/public","checked_as":"/public","allowed":true,"rule":"","line":0,` + src + `}
{"url":"http://h/robots.txt","checked_as":"http://h/robots.txt","allowed":true,"rule":"","line":0,` + src + `}
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestRobotsCheckText(t *testing.T) {
	file := writeRobotsFile(t, cmdRobotsBody)
	out, err := runRobotsCmd(t, robotsOptions{}, "check", "--file", file, "--agent", "hackerbot", "/a/b.cgi", "/a/b.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"DISALLOWED /a/b.cgi  (line 12: Disallow: /*.cgi$)",
		"ALLOWED    /a/b.html  (no rule matches)",
		// 14:00 is outside hackerbot's Visit-time: no request until 06:00,
		// when the 13:00-16:59 rate is not in force.
		"\ngroup User-agent: hackerbot; visits only from 06:00 to 08:45:59 UTC: closed now, no request before 2026-01-02 06:00 UTC; pace then: at most one request every 10s (line 9: Request-rate: 10)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestRobotsCheckNamesGroupOnce: the summary line names the group once
// ("group: group User-agent: ..." said it twice).
func TestRobotsCheckNamesGroupOnce(t *testing.T) {
	file := writeRobotsFile(t, cmdRobotsBody)
	for agent, want := range map[string]string{
		"hackerbot": "group User-agent: hackerbot; visits only",
		"otherbot":  "the * group; pace now:",
	} {
		out, err := runRobotsCmd(t, robotsOptions{}, "check", "--file", file, "--agent", agent, "/x")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "\n"+want) || strings.Count(out, "group") != 1 {
			t.Errorf("%s: want one line starting %q:\n%s", agent, want, out)
		}
	}
}

func TestRobotsExplainJSON(t *testing.T) {
	file := writeRobotsFile(t, cmdRobotsBody)
	out, err := runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", "HackerBot", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("want one line, got %q", out)
	}
	if got["crawl_delay_seconds"] != nil {
		t.Errorf("crawl_delay_seconds = %v, want null", got["crawl_delay_seconds"])
	}
	rates, _ := got["request_rates"].([]any)
	if len(rates) != 2 {
		t.Fatalf("request_rates = %v", got["request_rates"])
	}
	r0, r1 := rates[0].(map[string]any), rates[1].(map[string]any)
	if r0["requests"] != 1.0 || r0["seconds"] != 600.0 || r0["from"] != "13:00" || r0["to"] != "16:59" {
		t.Errorf("rate 0 = %v", r0)
	}
	if r1["requests"] != 1.0 || r1["seconds"] != 10.0 || r1["from"] != nil || r1["to"] != nil {
		t.Errorf("rate 1 (Request-rate: 10) = %v", r1)
	}
	if v := got["visit_times"].([]any); len(v) != 1 || v[0].(map[string]any)["from"] != "06:00" || v[0].(map[string]any)["to"] != "08:45" {
		t.Errorf("visit_times = %v", got["visit_times"])
	}
	if c := got["comments"].([]any); len(c) != 1 || c[0] != "slow down, please" {
		t.Errorf("comments = %v", got["comments"])
	}
	if s := got["sitemaps"].([]any); len(s) != 1 || s[0] != "https://example.com/sitemap.xml" {
		t.Errorf("sitemaps = %v", got["sitemaps"])
	}
	if got["robot_version"] != "2.0" {
		t.Errorf("robot_version = %v", got["robot_version"])
	}
	if w := got["warnings"].([]any); len(w) != 2 || !strings.Contains(w[0].(string), "line 9") || !strings.Contains(w[1].(string), "line 14") {
		t.Errorf("warnings = %v", got["warnings"])
	}

	other := writeRobotsFile(t, "User-agent: other\nDisallow: /\n")
	out, err = runRobotsCmd(t, robotsOptions{}, "explain", "--file", other, "--agent", "bot", "--json")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"robots_txt":{"source":"` + other + `","fetched":false,"status":null,"error":null,"outcome":"available","policy":"rules","truncated":false,"redirects":[]},"crawl_delay_seconds":null,"request_rates":[],"visit_times":[],"comments":[],"sitemaps":[],"robot_version":null,"warnings":[],` +
		`"rules":[],"group_lines":[],"pace_record":{"star_fallback":true,"user_agents":[],"lines":[]},"agent":"bot","group":null,"pace_now":null,"visit_open_now":true,"next_visit":null,"at":"2026-01-01T14:00:00Z"}` + "\n"
	if out != want {
		t.Errorf("empty group: got %s want %s", out, want)
	}
	out, _ = runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", "bot", "--json")
	if !strings.Contains(out, `"crawl_delay_seconds":2.5`) {
		t.Errorf("* group: %s", out)
	}
}

func TestRobotsExplainText(t *testing.T) {
	file := writeRobotsFile(t, cmdRobotsBody)
	out, err := runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", "hackerbot")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`agent "hackerbot" -> group User-agent: hackerbot`,
		"pace now (14:00 UTC): no request: outside the Visit-time windows until 2026-01-02 06:00 UTC; then at most one request every 10s (line 9: Request-rate: 10)",
		"  line 12: Disallow: /*.cgi$",
		"Request-rate: 1 per 10s (one every 10s) at any time  [line 9]",
		"visit only from 06:00 to 08:45:59 UTC; closed now, next window opens 2026-01-02 06:00 UTC",
		"Request-rate: 1 per 10m (one every 10m) from 13:00 to 16:59:59 UTC  [line 8]",
		"comment: slow down, please",
		"sitemap: https://example.com/sitemap.xml",
		"warnings: 2",
		"line 9: no period",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRobotsUsageErrors(t *testing.T) {
	file := writeRobotsFile(t, cmdRobotsBody)
	for _, c := range []struct {
		name string
		args []string
		msg  string
	}{
		{"check without file", []string{"check", "--agent", "a", "/x"}, "--file is required"},
		{"check without URL", []string{"check", "--file", file, "--agent", "a"}, "at least one URL"},
		{"check unreadable file", []string{"check", "--file", file + ".missing", "--agent", "a", "/x"}, "cannot read --file"},
		{"explain without file", []string{"explain", "--agent", "a"}, "--file is required"},
		{"explain live without fetcher", []string{"explain", "https://example.com/", "--agent", "a"}, "give --file"},
		{"explain unreadable file", []string{"explain", "--file", filepath.Dir(file), "--agent", "a"}, "cannot read --file"},
		{"unknown flag", []string{"check", "--nope"}, "unknown flag"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := runRobotsCmd(t, robotsOptions{}, c.args...)
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Fatalf("err = %v, want a usage error (exit 2)", err)
			}
			if !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "\n") {
				t.Errorf("message %q, want one line containing %q", err.Error(), c.msg)
			}
		})
	}
}

func TestRobotsLiveFetch(t *testing.T) {
	var asked []string
	fetch := func(_ context.Context, _ config.Config, u, _ string) (crawler.RobotsFetch, error) {
		asked = append(asked, u)
		switch {
		case strings.Contains(u, "down.example"):
			return crawler.RobotsFetch{Status: 503}, nil
		case strings.Contains(u, "gone.example"):
			return crawler.RobotsFetch{Status: 404}, nil
		}
		return crawler.RobotsFetch{Body: []byte("User-agent: *\nDisallow: /private\nCrawl-delay: 4\n"), Status: 200}, nil
	}
	opts := robotsOptions{fetch: fetch}
	out, err := runRobotsCmd(t, opts, "check", "--agent", "bot", "--json",
		"https://up.example/private/1", "https://up.example/public", "https://down.example/a", "https://gone.example/private")
	if err != nil {
		t.Fatal(err)
	}
	const (
		at = `,"visit_open_now":true,"next_visit":null,"at":"2026-01-01T14:00:00Z"`
		up = `"robots_txt":{"source":"https://up.example/robots.txt","fetched":true,"status":200,"error":null,"outcome":"available","policy":"rules","truncated":false,"redirects":[]}` +
			`,"agent":"bot","group":["*"],"pace_now":{"interval_seconds":4,"line":3,"rule":"Crawl-delay: 4"}` + at
		// The fetch's policy decides: no group, no pace.
		down = `"robots_txt":{"source":"https://down.example/robots.txt","fetched":true,"status":503,"error":null,"outcome":"unreachable","policy":"disallow_all","truncated":false,"redirects":[]}` +
			`,"agent":"bot","group":null,"pace_now":null` + at
		gone = `"robots_txt":{"source":"https://gone.example/robots.txt","fetched":true,"status":404,"error":null,"outcome":"unavailable","policy":"allow_all","truncated":false,"redirects":[]}` +
			`,"agent":"bot","group":null,"pace_now":null` + at
	)
	want := `{"url":"https://up.example/private/1","checked_as":"https://up.example/private/1","allowed":false,"rule":"Disallow: /private","line":2,` + up + `}
{"url":"https://up.example/public","checked_as":"https://up.example/public","allowed":true,"rule":"","line":0,` + up + `}
warning: https://down.example/robots.txt: robots.txt HTTP 503: unreachable; everything but /robots.txt is disallowed (RFC 9309 2.3.1.4: an unreachable robots.txt means complete disallow)
{"url":"https://down.example/a","checked_as":"https://down.example/a","allowed":false,"rule":"","line":0,` + down + `}
warning: https://gone.example/robots.txt: robots.txt HTTP 404: unavailable; everything is allowed (RFC 9309 2.3.1.3: when robots.txt is unavailable, any resource may be accessed)
{"url":"https://gone.example/private","checked_as":"https://gone.example/private","allowed":true,"rule":"","line":0,` + gone + `}
`
	if out != want { // stdout and stderr in one buffer
		t.Errorf("got\n%s", out)
	}
	if len(asked) != 3 || asked[0] != "https://up.example/robots.txt" {
		t.Errorf("fetched %v, want one fetch per host", asked)
	}
	out, err = runRobotsCmd(t, opts, "explain", "https://up.example/some/page", "--agent", "bot")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "robots.txt: https://up.example/robots.txt (HTTP 200)\nagent \"bot\" -> the * group\n") || !strings.Contains(out, "every 4s") {
		t.Errorf("explain live:\n%s", out)
	}
	if _, err := runRobotsCmd(t, opts, "check", "--agent", "bot", "/relative"); err == nil {
		t.Error("a path without --file must be a usage error")
	}
}

// updateRobotsGolden rewrites the golden files of TestRobotsExplainGolden:
// go test ./cmd/crawl -run RobotsExplainGolden -update-robots-golden
var updateRobotsGolden = flag.Bool("update-robots-golden", false, "rewrite cmd/crawl/testdata/robots-explain files")

// TestRobotsExplainGolden pins what explain prints for each group of the
// 1996 extended standard's example file.
func TestRobotsExplainGolden(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "robots", "extended-1996.txt")
	for _, agent := range []string{"fredsbot", "alfred", "hackerbot", "suckemdry", "vacuumweb", "anybot"} {
		for _, format := range []string{"txt", "json"} {
			args := []string{"explain", "--file", file, "--agent", agent}
			if format == "json" {
				args = append(args, "--json")
			}
			out, err := runRobotsCmd(t, robotsOptions{}, args...)
			if err != nil {
				t.Fatal(err)
			}
			out = strings.ReplaceAll(out, file, "extended-1996.txt")
			golden := filepath.Join("testdata", "robots-explain", agent+"."+format)
			if *updateRobotsGolden {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update-robots-golden to create it)", err)
			}
			if out != string(want) {
				t.Errorf("%s %s:\ngot\n%s\nwant\n%s", agent, format, out, want)
			}
		}
	}
}

// TestRobotsExplainTrueRate: explain states the rate a Request-rate line
// asks for, period as written and interval = period / count (1996 extended
// standard: "100/24h = 1/864"), and says when the interval was capped.
func TestRobotsExplainTrueRate(t *testing.T) {
	file := writeRobotsFile(t, "User-agent: *\nRequest-rate: 100/48h\nRequest-rate: 3/2d\nRequest-rate: 1/2d\n")
	out, err := runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", "bot")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Request-rate: 100 per 48h (one every 28m48s) at any time  [line 2]",
		"Request-rate: 3 per 48h (one every 16h) at any time  [line 3]",
		"Request-rate: 1 per 48h (one every 24h, capped at 24h) at any time  [line 4]",
		"pace now (14:00 UTC): at most one request every 24h (line 4: Request-rate: 1/2d)",
		`line 4: one document every 48h0m0s is slower than one a day; capped at one every 24 h: "Request-rate: 1/2d"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestRobotsCheckOneFetchPerHost: every spelling of one host (port with a
// leading zero, upper-case host, the scheme's default port written or
// not) names one robots.txt, fetched once from a local server, as the
// crawl fetches it once per authority (RFC 9309 2.3: robots.txt is per
// scheme, host and port). It was fetched once per spelling.
func TestRobotsCheckOneFetchPerHost(t *testing.T) {
	var mu sync.Mutex
	hits := 0
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			mu.Lock()
			hits++
			mu.Unlock()
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
	}))
	t.Cleanup(s.Close)
	_, port, err := net.SplitHostPort(strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	targets := []string{
		"http://127.0.0.1:" + port + "/a",
		"http://127.0.0.1:0" + port + "/private/b",
		"HTTP://127.0.0.1:00" + port + "/c",
	}
	out, err := runRobotsCmd(t, robotsOptions{fetch: liveRobotsFetch}, append([]string{"check", "--agent", "foo", "--json"}, targets...)...)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if hits != 1 {
		t.Errorf("robots.txt fetched %d times for one host, want 1; output:\n%s", hits, out)
	}
	source := `"source":"http://127.0.0.1:` + port + `/robots.txt"`
	if n := strings.Count(out, source); n != len(targets) {
		t.Errorf("%d answers name %s, want %d:\n%s", n, source, len(targets), out)
	}
	if !strings.Contains(out, `"url":"http://127.0.0.1:0`+port+`/private/b","checked_as":"http://127.0.0.1:`+port+`/private/b","allowed":false`) {
		t.Errorf("the rule of the one robots.txt is not applied to every spelling:\n%s", out)
	}
}

// TestRobotsURLFor: the robots.txt URL is the canonical scheme and host of
// the target, one per authority (scheduler.Canonicalize), and a target the
// crawl cannot fetch (port 0 or above 65535) is a usage error.
func TestRobotsURLFor(t *testing.T) {
	for _, c := range []struct{ target, want string }{
		{"http://Example.COM/a", "http://example.com/robots.txt"},
		{"http://example.com:80/a", "http://example.com/robots.txt"},
		{"http://example.com:080/a", "http://example.com/robots.txt"},
		{"https://example.com:443/a?q", "https://example.com/robots.txt"},
		{"http://example.com:443/a", "http://example.com:443/robots.txt"},
		{"http://127.0.0.1:018821/b", "http://127.0.0.1:18821/robots.txt"},
		{"http://[::1]:08080/", "http://[::1]:8080/robots.txt"},
	} {
		if got, err := robotsURLFor(c.target); err != nil || got != c.want {
			t.Errorf("robotsURLFor(%q) = %q, %v; want %q", c.target, got, err, c.want)
		}
	}
	for _, bad := range []string{"http://example.com:0/", "http://example.com:65536/", "ftp://example.com/", "/path"} {
		var u *usageError
		if _, err := robotsURLFor(bad); !errors.As(err, &u) {
			t.Errorf("robotsURLFor(%q) error %v, want a usage error", bad, err)
		}
	}
}

// "Crawl-delay: 0" asks for no pace (the crawl keeps its default delay):
// explain must not say the site allows a request every 0 s.
func TestRobotsExplainCrawlDelayZero(t *testing.T) {
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte("User-agent: *\nCrawl-delay: 0\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", "bot")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "every 0s") || !strings.Contains(out, "no pace asked for (line 2: Crawl-delay: 0; a crawl keeps its politeness.default_delay") ||
		!strings.Contains(out, "Crawl-delay: 0, no pace asked for") {
		t.Errorf("explain output:\n%s", out)
	}
}
