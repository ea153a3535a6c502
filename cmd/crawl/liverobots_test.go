package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRobotsExplainLiveFollowsRedirects checks "crawl robots explain URL"
// fetches through the crawler's robots layer: a User-Agent built on the
// agent's product token, a redirect to another host followed, and the
// result explained for the agent.
func TestRobotsExplainLiveFollowsRedirects(t *testing.T) {
	var ua string
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua = r.UserAgent()
		fmt.Fprint(w, "User-agent: livebot\nCrawl-delay: 3\nDisallow: /no\nComment: hello operator\n")
	}))
	defer target.Close()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/robots.txt", http.StatusMovedPermanently)
	}))
	defer origin.Close()
	code, out, stderr := runCLI(t, "robots", "explain", origin.URL+"/", "--agent", "livebot", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, `"crawl_delay_seconds":3`) || !strings.Contains(out, "hello operator") {
		t.Errorf("explain output: %s", out)
	}
	if !strings.HasPrefix(ua, "livebot/") {
		t.Errorf("robots.txt fetched with User-Agent %q", ua)
	}
	code, out, _ = runCLI(t, "robots", "check", origin.URL+"/no/x", "--agent", "livebot", "--json")
	if code != exitOK || !strings.Contains(out, `"allowed":false`) {
		t.Errorf("live check: %d %s", code, out)
	}
}

// A live fetch by the robots commands uses --config as a crawl would: for
// the config's own agent, its configured User-Agent (with the operator's
// contact) is what the site sees.
func TestRobotsExplainLiveUsesConfig(t *testing.T) {
	var ua string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua = r.UserAgent()
		fmt.Fprint(w, "User-agent: *\nDisallow: /no\n")
	}))
	defer srv.Close()
	cfgFile := filepath.Join(t.TempDir(), "crawl.yaml")
	const configured = "opsbot/2 (+mailto:ops@example.org)"
	if err := os.WriteFile(cfgFile, []byte("agent:\n  token: opsbot\n  user_agent: \""+configured+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "robots", "explain", srv.URL+"/", "--agent", "opsbot", "--config", cfgFile)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if ua != configured {
		t.Errorf("robots.txt fetched with User-Agent %q, want the configured %q", ua, configured)
	}
	// Another agent than the config's: a User-Agent built on its token.
	if code, _, stderr = runCLI(t, "robots", "explain", srv.URL+"/", "--agent", "otherbot", "--config", cfgFile); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(ua, "otherbot/") {
		t.Errorf("User-Agent %q, want one built on otherbot", ua)
	}
}
