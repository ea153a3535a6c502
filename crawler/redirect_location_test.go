package crawler

import (
	"fmt"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/wiretest"
)

// A redirect's Location is read as a browser reads a URL (WHATWG URL
// Standard, basic URL parser): tabs and newlines inside it are removed,
// and in an http(s) reference a "\" before the query is a "/".
func TestResolveLocationAsABrowser(t *testing.T) {
	const base = "http://example.com/dir/page.html"
	tests := []struct{ name, ref, want string }{
		{"URL Standard: a tab inside is removed", "/pics/\tphoto.html", "http://example.com/pics/photo.html"},
		{"URL Standard: LF and CR inside are removed", "/docs/chapter1/\r\n  intro.html", "http://example.com/docs/chapter1/%20%20intro.html"},
		{"URL Standard: a newline in the query is removed", "/q?a=1&\nb=2", "http://example.com/q?a=1&b=2"},
		{"URL Standard: spaces and controls around it are removed", " \t/moved.html\x00 ", "http://example.com/moved.html"},
		{`URL Standard: "\" is "/" in a relative path`, `new\page.html`, "http://example.com/dir/new/page.html"},
		{`URL Standard: "\\" starts a network-path reference`, `\\other.example\x\y.html`, "http://other.example/x/y.html"},
		{`URL Standard: "\" in an absolute http URL`, `http:\\example.org\a\b.html`, "http://example.org/a/b.html"},
		{`URL Standard: "\" in the query stays`, `\a.html?p=c:\tmp`, `http://example.com/a.html?p=c:\tmp`}, // as browsers send it
		{"RFC 3986: a plain reference", "../up.html", "http://example.com/up.html"},
	}
	for _, tt := range tests {
		got, err := resolve(base, tt.ref)
		if err != nil || got != tt.want {
			t.Errorf("%s: resolve(%q) = %q, %v; want %q", tt.name, tt.ref, got, err, tt.want)
		}
	}
}

// A redirect whose Location holds a tab or backslashes, as Windows-era
// servers and scripts wrote them, leads where it leads in a browser.
func TestCrawlFollowsOddLocations(t *testing.T) {
	index := `<a href=/tab>t</a><a href=/backslash>b</a>`
	s := wiretest.NewServer(t, map[string]wiretest.Route{
		"/":                  {Resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(index), index)},
		"/tab":               {Resp: "HTTP/1.1 302 Found\r\nLocation: /moved/\tpage.html\r\nContent-Length: 0\r\n\r\n"},
		"/backslash":         {Resp: "HTTP/1.1 301 Moved\r\nLocation: \\dir\\new\\page.html\r\nContent-Length: 0\r\n\r\n"},
		"/moved/page.html":   {Resp: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"},
		"/dir/new/page.html": {Resp: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"},
	}, nil)
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 10 * time.Millisecond
	crawlFor(t, cfg, s.URL("/"))
	for _, path := range []string{"/moved/page.html", "/dir/new/page.html"} {
		if n := len(s.Requests(path)); n != 1 {
			t.Errorf("%s requested %d times, want once: the redirect to it was not followed as a browser follows it", path, n)
		}
	}
}
