package crawler

import (
	"reflect"
	"strings"
	"testing"
)

func TestReadSeedsReportsUnusableLines(t *testing.T) {
	cases := []struct {
		line   string
		reason string // "" means accepted
	}{
		{"http://127.0.0.1:8080/", ""},
		{"https://example.org/a?b=c#frag", ""},
		{"HTTP://Example.ORG:080/", ""},
		{"http://[::1]:65535/", ""},
		{"http://127.0.0.1:1/", ""},
		{"http://127.0.0.1:99999/", "port 99999 is not in 1-65535"},
		{"http://127.0.0.1:65536/", "port 65536 is not in 1-65535"},
		{"http://127.0.0.1:0/", "port 0 is not in 1-65535"},
		{"http://:80/", "no host"},
		{"http:///path", "no host"},
		{"http://user@:8080/", "no host"},
		{"http://127.0.0.1:8x/", "not a URL"},
		{"http://[::1/", "not a URL"},
		{"http:example.org", "not an absolute URL"},
		{"ftp://example.org/", "not an http or https URL"},
		{"example.org/page", "not an http or https URL"},
		{"mailto:x@example.org", "not an http or https URL"},
	}
	var b strings.Builder
	b.WriteString("\uFEFF# seeds\n\n")
	for _, tc := range cases {
		b.WriteString(tc.line + "  # comment\n")
	}
	seeds, bad, err := ReadSeeds(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var wantSeeds []string
	wantBad := map[int]string{}
	for i, tc := range cases {
		if tc.reason == "" {
			wantSeeds = append(wantSeeds, tc.line)
		} else {
			wantBad[i+3] = tc.reason // two header lines, 1-based
		}
	}
	if !reflect.DeepEqual(seeds, wantSeeds) {
		t.Errorf("seeds = %q, want %q", seeds, wantSeeds)
	}
	gotBad := map[int]*SeedError{}
	for _, e := range bad {
		gotBad[e.Line] = e
	}
	for line, reason := range wantBad {
		e, ok := gotBad[line]
		if !ok {
			t.Errorf("line %d (%q) not reported", line, cases[line-3].line)
			continue
		}
		if !strings.Contains(e.Reason, reason) || e.Text != cases[line-3].line {
			t.Errorf("line %d: got %v, want reason %q", line, e, reason)
		}
		if msg := e.Error(); !strings.Contains(msg, "seed line ") || !strings.Contains(msg, cases[line-3].line) {
			t.Errorf("line %d: message %q lacks the line number or text", line, msg)
		}
	}
	if len(bad) != len(wantBad) {
		t.Errorf("%d bad lines reported, want %d: %v", len(bad), len(wantBad), bad)
	}
}
