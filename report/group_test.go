package report

import (
	"slices"
	"testing"
	"time"
)

// TestGroupRequests: the requests are reordered by host, in the order the
// hosts first appear, each host's oldest first and in log order at equal
// times; a line with no host is kept (the overview counts it) in no host's
// part. A log written by concurrent workers is not in time order.
func TestGroupRequests(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	sec := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	in := &input{requests: []request{
		{Time: sec(5), Host: "http://b.test:80", URL: "http://b.test/1"},
		{Time: sec(3), Host: "http://a.test:80", URL: "http://a.test/1"},
		{Time: sec(1), URL: "http://c.test/robots.txt"}, // host from the URL
		{Time: sec(2), URL: "not a url"},
		{Time: sec(3), Host: "http://a.test:80", URL: "http://a.test/2"},
		{Time: sec(1), Host: "http://b.test:80", URL: "http://b.test/2"},
		{Time: sec(2), Host: "http://a.test:80", URL: "http://a.test/3"},
	}}
	var noted []string
	by := groupRequests(in, func(h string) { noted = append(noted, h) })
	urls := func(rs []request) (out []string) {
		for _, r := range rs {
			out = append(out, r.URL)
		}
		return out
	}
	want := map[string][]string{
		"http://b.test:80": {"http://b.test/2", "http://b.test/1"},
		"http://a.test:80": {"http://a.test/3", "http://a.test/1", "http://a.test/2"},
		"http://c.test":    {"http://c.test/robots.txt"},
	}
	if len(by) != len(want) {
		t.Fatalf("%d hosts, want %d: %v", len(by), len(want), by)
	}
	for h, w := range want {
		if got := urls(by[h]); !slices.Equal(got, w) {
			t.Errorf("%s: %q, want %q", h, got, w)
		}
	}
	if !slices.Equal(noted, []string{"http://b.test:80", "http://a.test:80", "http://c.test"}) {
		t.Errorf("hosts noted %q, want first-appearance order", noted)
	}
	if len(in.requests) != 7 || in.requests[6].URL != "not a url" {
		t.Errorf("requests after grouping %q; want all 7, the hostless one last", urls(in.requests))
	}
	// The parts are views of in.requests, not copies.
	if &by["http://b.test:80"][0] != &in.requests[0] {
		t.Error("the first host's part is not the start of in.requests")
	}
}
