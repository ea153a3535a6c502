package pageenc

import "testing"

// TestCleanRef follows the WHATWG URL Standard's basic URL parser: it
// removes leading and trailing C0 control or space, removes all ASCII tab
// or newline, and in a special URL (http, https) reads "\" as "/" in the
// scheme's slashes, the authority's end and the path, but not in the
// query or fragment.
func TestCleanRef(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/a.html", "/a.html"},
		{"  /a.html\n", "/a.html"},
		{"\x00\x1f /a.html\x7f", "/a.html\x7f"}, // DEL is not a C0 control
		{"/docs/chapter1/\n  intro.html", "/docs/chapter1/  intro.html"},
		{"/pics/\tphoto.html", "/pics/photo.html"},
		{"/q?a=1&\r\nb=2", "/q?a=1&b=2"},
		{"\u00a0/a", "\u00a0/a"}, // not a C0 control: kept, then percent-encoded
		{`dir\page.html`, "dir/page.html"},
		{`\\127.0.0.1:8080\other.html`, "//127.0.0.1:8080/other.html"},
		{`http:\\example.com\third.html`, "http://example.com/third.html"},
		{`HTTPS:\\example.com\a`, `HTTPS://example.com/a`},
		{`/a\b?x=\y#\z`, `/a/b?x=\y#\z`},
		{`/a\b#x\y`, `/a/b#x\y`},
		{`mailto:a\b@example.com`, `mailto:a\b@example.com`},
		{`javascript:go('\\x')`, `javascript:go('\\x')`},
		{`c:\dir\file.html`, `c:\dir\file.html`}, // a scheme "c", not http: left alone
		{`./a\b`, `./a/b`},
	} {
		if got := CleanRef(c.in); got != c.want {
			t.Errorf("CleanRef(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
