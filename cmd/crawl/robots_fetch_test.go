package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// closedPort returns a 127.0.0.1 address on which nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// statusServer answers every request with code and no body.
func statusServer(t *testing.T, code int) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(code) }))
	t.Cleanup(s.Close)
	return s.URL
}

// TestRobotsExplainFetchOutcome: for a robots.txt that could not be had,
// explain states the fetch outcome (the status, or the network error) and
// the policy applied instead, per RFC 9309:
//
//	2.3.1.3 "If a server status code indicates that the robots.txt file is
//	unavailable to the client, then crawlers MAY access any resources on
//	the server"
//	2.3.1.4 "If the robots.txt is unreachable due to server or network
//	errors, this means the robots.txt is undefined and the crawler MUST
//	assume complete disallow."
//
// in text (with no "* group" for a policy that has no group), in JSON (the
// robots_txt object) and as a warning. The JSON used to be byte-identical
// to that of an allow-all file, and the error was never shown.
func TestRobotsExplainFetchOutcome(t *testing.T) {
	refused := "http://" + closedPort(t)
	const (
		disallow = "everything but /robots.txt is disallowed (RFC 9309 2.3.1.4: an unreachable robots.txt means complete disallow)"
		allow    = "everything is allowed (RFC 9309 2.3.1.3: when robots.txt is unavailable, any resource may be accessed)"
	)
	for _, c := range []struct {
		name, site       string
		outcome          string // in the text, after the URL
		policy           string
		jsonStatus       any // float64 or nil
		jsonOutcome      string
		jsonPolicy       string
		errorMentions    string // in the JSON error, or "" for null
		probe, probeWant string // a check of probe must print probeWant
	}{
		{"connection refused", refused, "unreachable: ", disallow, nil, "unreachable", "disallow_all", "connection refused",
			"/x", "DISALLOWED " + refused + "/x  (robots.txt unreachable: "},
		{"500", statusServer(t, 500), "HTTP 500: unreachable", disallow, 500.0, "unreachable", "disallow_all", "",
			"/x", "DISALLOWED %s/x  (robots.txt HTTP 500: unreachable)"},
		{"429", statusServer(t, 429), "HTTP 429: unreachable", disallow, 429.0, "unreachable", "disallow_all", "",
			"/x", "DISALLOWED %s/x  (robots.txt HTTP 429: unreachable)"},
		{"404", statusServer(t, 404), "HTTP 404: unavailable", allow, 404.0, "unavailable", "allow_all", "",
			"/x", "ALLOWED    %s/x  (robots.txt HTTP 404: unavailable)"},
		{"403 without forbidden_disallows", statusServer(t, 403), "HTTP 403: unavailable", allow, 403.0, "unavailable", "allow_all", "",
			"/x", "ALLOWED    %s/x  (robots.txt HTTP 403: unavailable)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, "robots", "explain", c.site+"/", "--agent", "x")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			head := "robots.txt: " + c.site + "/robots.txt (" + c.outcome
			for _, want := range []string{
				head,
				"\npolicy: " + c.policy + "\n",
				"\nagent \"x\" -> no group; the policy applies to every agent\n",
				"\nrules: none (the policy decides every URL)\n",
				"\nwarnings: 1\n  robots.txt " + c.outcome,
			} {
				if !strings.Contains(out, want) {
					t.Errorf("text lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "* group") || strings.Contains(out, "rules: 0") {
				t.Errorf("text names a group the policy does not have:\n%s", out)
			}

			code, out, stderr = runCLI(t, "robots", "explain", c.site+"/", "--agent", "x", "--json")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got struct {
				RobotsTxt map[string]any `json:"robots_txt"`
				Warnings  []string
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			rt := got.RobotsTxt
			if rt["source"] != c.site+"/robots.txt" || rt["fetched"] != true || rt["status"] != c.jsonStatus ||
				rt["outcome"] != c.jsonOutcome || rt["policy"] != c.jsonPolicy {
				t.Errorf("robots_txt = %v", rt)
			}
			if e, _ := rt["error"].(string); (c.errorMentions == "") != (rt["error"] == nil) || !strings.Contains(e, c.errorMentions) {
				t.Errorf("robots_txt.error = %v, want one mentioning %q", rt["error"], c.errorMentions)
			}
			if len(got.Warnings) != 1 || !strings.HasPrefix(got.Warnings[0], "robots.txt "+c.outcome) || !strings.HasSuffix(got.Warnings[0], "; "+c.policy) {
				t.Errorf("warnings = %q", got.Warnings)
			}

			code, out, stderr = runCLI(t, "robots", "check", c.site+c.probe, "--agent", "x")
			want := c.probeWant
			if strings.Contains(want, "%s") {
				want = fmt.Sprintf(want, c.site)
			}
			if code != exitOK || !strings.HasPrefix(out, want) || strings.Contains(out, "* group") ||
				!strings.Contains(out, "\nno group: robots.txt "+c.outcome) ||
				!strings.HasPrefix(stderr, "warning: "+c.site+"/robots.txt: robots.txt "+c.outcome) {
				t.Errorf("check: exit %d\nstdout %s\nstderr %s", code, out, stderr)
			}
		})
	}
}

// TestRobotsHonourCrawlConfig: the robots commands read the same config
// as a crawl (--config file and CRAWL_* environment, through the crawl's
// loader), so robots.forbidden_disallows turns a 403 into "disallow all"
// as it does in a crawl; RFC 9309 2.3.1.3 alone would allow everything.
// A config the crawl would refuse is a usage error.
func TestRobotsHonourCrawlConfig(t *testing.T) {
	site := statusServer(t, 403)
	dir := t.TempDir()
	strict := filepath.Join(dir, "strict.yaml")
	typo := filepath.Join(dir, "typo.yaml")
	os.WriteFile(strict, []byte("robots:\n  forbidden_disallows: true\n"), 0o644)
	os.WriteFile(typo, []byte("robots:\n  forbiden_disallows: true\n"), 0o644)
	const restricted = "everything but /robots.txt is disallowed (robots.forbidden_disallows: 401 and 403 disallow all, as the 1996 draft recommended; RFC 9309 2.3.1.3 alone would allow all)"

	code, out, stderr := runCLI(t, "robots", "explain", site+"/", "--agent", "x", "--config", strict)
	if code != exitOK || !strings.Contains(out, "(HTTP 403: access restricted)\npolicy: "+restricted+"\n") {
		t.Errorf("explain --config: exit %d\n%s%s", code, out, stderr)
	}
	code, out, _ = runCLI(t, "robots", "explain", site+"/", "--agent", "x", "--config", strict, "--json")
	if code != exitOK || !strings.Contains(out, `"status":403,"error":null,"outcome":"restricted","policy":"disallow_all"`) {
		t.Errorf("explain --config --json: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "robots", "check", site+"/x", "--agent", "x", "--config", strict)
	if code != exitOK || !strings.HasPrefix(out, "DISALLOWED "+site+"/x  (robots.txt HTTP 403: access restricted)\n") {
		t.Errorf("check --config: exit %d\n%s", code, out)
	}
	// Without the key, RFC 9309 2.3.1.3: allow all.
	code, out, _ = runCLI(t, "robots", "check", site+"/x", "--agent", "x")
	if code != exitOK || !strings.HasPrefix(out, "ALLOWED    "+site+"/x  (robots.txt HTTP 403: unavailable)\n") {
		t.Errorf("check without config: exit %d\n%s", code, out)
	}
	t.Setenv("CRAWL_ROBOTS_FORBIDDEN_DISALLOWS", "true")
	code, out, _ = runCLI(t, "robots", "check", site+"/x", "--agent", "x")
	if code != exitOK || !strings.HasPrefix(out, "DISALLOWED "+site+"/x  (robots.txt HTTP 403: access restricted)\n") {
		t.Errorf("check with CRAWL_ROBOTS_FORBIDDEN_DISALLOWS: exit %d\n%s", code, out)
	}
	code, out, stderr = runCLI(t, "robots", "explain", "--file", strict, "--agent", "x", "--config", typo)
	if code != exitUsage || out != "" || !strings.Contains(stderr, "robots.forbiden_disallows") {
		t.Errorf("config with an unknown key: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// robotsServer serves body as /robots.txt.
func robotsServer(t *testing.T, body string) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, body)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.Close)
	return s.URL
}

// TestRobotsCheckSeveralHosts: URLs on several hosts are checked against
// several robots.txt files, each with its own group and pace; each file's
// line names it, instead of one unnamed line that belonged to the last URL's
// host only.
func TestRobotsCheckSeveralHosts(t *testing.T) {
	a := robotsServer(t, "User-agent: *\nDisallow: /private\nCrawl-delay: 0.2\n")
	b := robotsServer(t, "User-agent: mybot\nDisallow: /no\nRequest-rate: 1/5s\n")
	code, out, stderr := runCLI(t, "robots", "check", "--agent", "mybot", a+"/private", b+"/no/x", b+"/", a+"/ok")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		a + "/robots.txt: the * group; pace now: at most one request every 200ms (line 3: Crawl-delay: 0.2)\n",
		b + "/robots.txt: group User-agent: mybot; pace now: at most one request every 5s (line 3: Request-rate: 1/5s)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "pace now"); n != 2 {
		t.Errorf("%d pace lines, want one per robots.txt:\n%s", n, out)
	}
	// One host: one line, as before, without the file's name.
	_, out, _ = runCLI(t, "robots", "check", "--agent", "mybot", b+"/no/x", b+"/")
	if !strings.HasSuffix(out, "\ngroup User-agent: mybot; pace now: at most one request every 5s (line 3: Request-rate: 1/5s)\n") {
		t.Errorf("one host:\n%s", out)
	}
}
