package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawler"
)

// The demo narrates what sites said (robots.txt comments reach it through
// event details): control sequences are printed escaped, never raw.
func TestNarratorEscapesSiteText(t *testing.T) {
	var out bytes.Buffer
	start := time.Now()
	n := &narrator{w: &out, names: map[string]string{}, start: start}
	n.event(crawler.Event{Kind: crawler.EventRobots, Host: "h", Time: start, Detail: "comment: \x1b[2J\x1b]0;pwned\x07"})
	n.event(crawler.Event{Kind: crawler.EventSkip, Host: "h", Time: start, URL: "http://h/\x1b[31m", Detail: "why", Reason: "robots-disallowed"})
	if bytes.ContainsAny(out.Bytes(), "\x1b\x07") {
		t.Errorf("raw control bytes in the narration: %q", out.String())
	}
	if !strings.Contains(out.String(), `\x1b[2J`) || !strings.Contains(out.String(), `http://h/\x1b[31m`) {
		t.Errorf("narration should show the escapes: %q", out.String())
	}
}
