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

// TestReadSeedsOverlongLine: a line over 1 MiB is reported with its line
// number and the lines around it are still read (it used to reject the
// whole file with "bufio.Scanner: token too long").
func TestReadSeedsOverlongLine(t *testing.T) {
	t.Parallel()
	in := "http://a.example/\nhttp://b.example/" + strings.Repeat("M", 3<<20) + "\r\nhttp://c.example/\r\nhttp://d.example/"
	seeds, bad, err := ReadSeeds(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(seeds, " ") != "http://a.example/ http://c.example/ http://d.example/" {
		t.Errorf("seeds %q: want a, c and d", seeds)
	}
	if len(bad) != 1 || bad[0].Line != 2 || !strings.Contains(bad[0].Reason, "longer than 1 MiB") {
		t.Fatalf("bad %v: want line 2 reported as too long", bad)
	}
	if msg := bad[0].Error(); len(msg) > 300 || !strings.Contains(msg, "seed line 2") {
		t.Errorf("message %d octets: %.100q; want a short one naming line 2", len(msg), msg)
	}
	if len(bad[0].Text) > maxSeedErrorText {
		t.Errorf("the bad line keeps %d octets, want at most %d", len(bad[0].Text), maxSeedErrorText)
	}
	// One octet over, with a bare LF: a bad line too.
	over := "http://f.example/" + strings.Repeat("a", maxSeedLine+1-len("http://f.example/"))
	if _, bad, _ := ReadSeeds(strings.NewReader(over + "\n")); len(bad) != 1 {
		t.Errorf("a line of 1 MiB + 1 octet: bad %v, want it refused", bad)
	}
	// Exactly at the limit is a line like any other.
	at := "http://e.example/" + strings.Repeat("a", maxSeedLine-len("http://e.example/"))
	seeds, bad, err = ReadSeeds(strings.NewReader(at + "\n"))
	if err != nil || len(seeds) != 1 || len(bad) != 0 {
		t.Errorf("a 1 MiB line: seeds %d, bad %v, err %v; want it read", len(seeds), bad, err)
	}
}
