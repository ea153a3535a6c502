package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
)

// TestRobotsStatusKeptWhenTheBodyFails: a server that answers 200 and then
// cuts the body short (or sends it slower than fetch.timeout) leaves the
// robots.txt unreachable (RFC 9309 2.3.1.4: complete disallow), but check
// and explain still say the status the server gave, in text and JSON, so a
// site owner sees what to fix. The fetch function stands for one that
// keeps the status with the error.
func TestRobotsStatusKeptWhenTheBodyFails(t *testing.T) {
	fetch := func(context.Context, config.Config, string, string) (crawler.RobotsFetch, error) {
		return crawler.RobotsFetch{Status: 200, Err: io.ErrUnexpectedEOF}, nil
	}
	out, err := runRobotsCmd(t, robotsOptions{fetch: fetch}, "check", "--agent", "bot", "--json", "https://cut.example/x")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"allowed":false`) ||
		!strings.Contains(out, `"status":200,"error":"unexpected EOF","outcome":"unreachable","policy":"disallow_all"`) {
		t.Errorf("check --json: %s", out)
	}
	out, err = runRobotsCmd(t, robotsOptions{fetch: fetch}, "explain", "--agent", "bot", "https://cut.example/")
	if err != nil {
		t.Fatal(err)
	}
	if want := "robots.txt: https://cut.example/robots.txt (HTTP 200, but the body was not received whole (unexpected EOF): unreachable)"; !strings.Contains(out, want) {
		t.Errorf("explain lacks %q:\n%s", want, out)
	}
	// Without an answer the status stays null.
	refused := func(context.Context, config.Config, string, string) (crawler.RobotsFetch, error) {
		return crawler.RobotsFetch{Err: io.EOF}, nil
	}
	out, _ = runRobotsCmd(t, robotsOptions{fetch: refused}, "check", "--agent", "bot", "--json", "https://down.example/x")
	if !strings.Contains(out, `"status":null,"error":"EOF"`) {
		t.Errorf("no answer: %s", out)
	}
}
