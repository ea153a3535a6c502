package scheduler

import (
	"net/url"
	"testing"

	"github.com/crawlproject/crawl/pageenc"
)

// TestCleanRefThenCanonicalize: the references browsers read after the
// URL Standard's clean-up land on the URL a browser requests.
func TestCleanRefThenCanonicalize(t *testing.T) {
	base, _ := url.Parse("http://example.com/site/index.html")
	for _, c := range []struct{ in, want string }{
		{"/docs/chapter1/\n  intro.html", "http://example.com/docs/chapter1/%20%20intro.html"},
		{`images\logo.gif`, "http://example.com/site/images/logo.gif"},
		{`\\example.org\x.html`, "http://example.org/x.html"},
		{`http:\\example.org\y.html`, "http://example.org/y.html"},
		{`..\..\up.html`, "http://example.com/up.html"},
	} {
		u, err := Canonicalize(pageenc.CleanRef(c.in), base)
		if err != nil {
			t.Errorf("Canonicalize(pageenc.CleanRef(%q)): %v", c.in, err)
			continue
		}
		if u.String() != c.want {
			t.Errorf("Canonicalize(pageenc.CleanRef(%q)) = %s, want %s", c.in, u, c.want)
		}
	}
}

// TestRobotsURL: RFC 3986 6.2.3 leaves the default port out of a URL;
// RFC 9309 2.3 puts robots.txt at the top of the host's URI space.
func TestRobotsURL(t *testing.T) {
	for _, c := range []struct{ auth, want string }{
		{"http://example.com:80", "http://example.com/robots.txt"},
		{"https://example.com:443", "https://example.com/robots.txt"},
		{"http://example.com:443", "http://example.com:443/robots.txt"},
		{"https://example.com:80", "https://example.com:80/robots.txt"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/robots.txt"},
		{"http://[::1]:80", "http://[::1]/robots.txt"},
		{"http://example.com:8080", "http://example.com:8080/robots.txt"},
	} {
		if got := RobotsURL(c.auth); got != c.want {
			t.Errorf("RobotsURL(%q) = %q, want %q", c.auth, got, c.want)
		}
	}
	u, _ := url.Parse("http://example.com/a")
	if got := RobotsURL(Authority(u)); got != "http://example.com/robots.txt" {
		t.Errorf("RobotsURL(Authority(%s)) = %q", u, got)
	}
}
