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
		{"example.org/page", "no scheme: did you mean http://example.org/page?"},
		{"mailto:x@example.org", "not an http or https URL"},
	}
	var b strings.Builder
	b.WriteString("\uFEFF# seeds\n\n")
	for _, tc := range cases {
		b.WriteString(tc.line + "  # comment\n")
	}
	seeds, bad, err := ReadSeeds(strings.NewReader(b.String()), 0)
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
	seeds, bad, err := ReadSeeds(strings.NewReader(in), 0)
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
	if _, bad, _ := ReadSeeds(strings.NewReader(over+"\n"), 0); len(bad) != 1 {
		t.Errorf("a line of 1 MiB + 1 octet: bad %v, want it refused", bad)
	}
	// Exactly at the limit is a line like any other.
	at := "http://e.example/" + strings.Repeat("a", maxSeedLine-len("http://e.example/"))
	seeds, bad, err = ReadSeeds(strings.NewReader(at+"\n"), 0)
	if err != nil || len(seeds) != 1 || len(bad) != 0 {
		t.Errorf("a 1 MiB line: seeds %d, bad %v, err %v; want it read", len(seeds), bad, err)
	}
}

// TestReadSeedsLongerThanMaxURLLength: a seed whose canonical URL is
// longer than scope.max_url_length is a bad seed line with its line
// number, as every other URL of the crawl is refused (seeds were exempt,
// and a 100,000-octet seed was requested); one at the limit, or longer
// only as typed, is a seed.
func TestReadSeedsLongerThanMaxURLLength(t *testing.T) {
	const limit = 2048
	at := "http://a.example/" + strings.Repeat("x", limit-len("http://a.example/"))
	over := "http://b.example/" + strings.Repeat("y", 100000)
	typed := "HTTP://C.EXAMPLE:80/" + strings.Repeat("z", limit-len("http://c.example/"))
	seeds, bad, err := ReadSeeds(strings.NewReader(at+"\n"+over+"\n"+typed+"\nhttp://d.example/\n"), limit)
	if err != nil {
		t.Fatal(err)
	}
	if len(seeds) != 3 || seeds[0] != at || seeds[1] != typed || seeds[2] != "http://d.example/" {
		t.Errorf("seeds %.60q, want the lines at the limit and d", seeds)
	}
	if len(bad) != 1 || bad[0].Line != 2 || bad[0].Reason != "URL of 100017 octets, longer than 2048 (scope.max_url_length)" {
		t.Fatalf("bad %v, want line 2 refused as longer than scope.max_url_length", bad)
	}
	if msg := bad[0].Error(); len(msg) > 400 {
		t.Errorf("message of %d octets: the URL is not cut", len(msg))
	}
	if seeds, bad, _ := ReadSeeds(strings.NewReader(over+"\n"), 0); len(seeds) != 1 || len(bad) != 0 {
		t.Errorf("with no limit: seeds %d, bad %v; want the long seed", len(seeds), bad)
	}
}

// TestReadSeedsTwoURLsOnALine: a line holding two URLs separated by white
// space is a bad seed line (it was crawled as one URL, its space escaped
// as %20); the other lines still run, and a space inside one URL's path
// stays allowed.
func TestReadSeedsTwoURLsOnALine(t *testing.T) {
	in := "http://a.example/ http://b.example/\nhttp://c.example/\thttps://d.example/x  # two\nhttp://e.example/a b\nhttp://f.example/\n"
	seeds, bad, err := ReadSeeds(strings.NewReader(in), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(seeds, []string{"http://e.example/a b", "http://f.example/"}) {
		t.Errorf("seeds %q, want e and f", seeds)
	}
	if len(bad) != 2 || bad[0].Line != 1 || bad[1].Line != 2 {
		t.Fatalf("bad %v, want lines 1 and 2", bad)
	}
	for _, b := range bad {
		if b.Reason != "holds more than one URL; put one per line" {
			t.Errorf("line %d: reason %q", b.Line, b.Reason)
		}
	}
}

// TestSeedWithoutSchemeSaysSo: a seed written without its scheme is
// reported as such, with the URL it may mean, not with net/url's "first
// path segment in URL cannot contain colon"; a line with a scheme of its
// own is not taken for one.
func TestSeedWithoutSchemeSaysSo(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"127.0.0.1:8080/faq/", "no scheme: did you mean http://127.0.0.1:8080/faq/?"},
		{"localhost:8080", "no scheme: did you mean http://localhost:8080?"},
		{"www.example.org", "no scheme: did you mean http://www.example.org?"},
		{"[::1]:8080/x", "no scheme: did you mean http://[::1]:8080/x?"},
		{"mailto:x@example.org", "not an http or https URL"},
		{"ftp:8080x", "not an http or https URL"},
		{"/just/a/path", "not an http or https URL"},
	} {
		_, bad, err := ReadSeeds(strings.NewReader(tc.line+"\n"), 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(bad) != 1 || bad[0].Reason != tc.want {
			t.Errorf("%q: %v; want %q", tc.line, bad, tc.want)
		}
	}
}
