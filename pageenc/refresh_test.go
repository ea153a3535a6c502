package pageenc

import "testing"

// TestRefreshURL follows the HTML Standard's shared declarative refresh
// steps (4.2.5.3, "refresh" state of http-equiv): a time, then ";" or
// ",", then an optional "URL =", then the URL, optionally quoted.
func TestRefreshURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0; URL=moved.html", "moved.html"},
		{"0;url=moved.html", "moved.html"},
		{"5 ; URL = 'moved.html' trailing", "moved.html"},
		{`0; url="a b.html"`, "a b.html"},
		{"0, moved.html", "moved.html"},
		{"0 moved.html", "moved.html"},
		{"1.5; URL=/x", "/x"},
		{".5; URL=/x", "/x"},
		{"0; URLs.html", "URLs.html"}, // "URL" without "=": the URL starts at "U"
		{"0; URL", "URL"},
		{"30", ""},         // reloads itself
		{"0;  ", ""},       // likewise
		{"URL=/x", ""},     // no time: not a refresh declaration
		{"0x; URL=/x", ""}, // junk after the time
		{"", ""},
	} {
		if got := RefreshURL(c.in); got != c.want {
			t.Errorf("RefreshURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestRefreshURLSpan: the span is where the URL stands in the content,
// so the mirror can put its rewritten link in its place.
func TestRefreshURLSpan(t *testing.T) {
	for _, c := range []string{"0; URL=moved.html", "5 ; url = 'a b.html' x", "0, next.html  ", `0;URL="q.html"`} {
		start, end := RefreshURLSpan(c)
		if got, want := c[start:end], RefreshURL(c); got != want {
			t.Errorf("RefreshURLSpan(%q) = %q, want %q", c, got, want)
		}
	}
	if s, e := RefreshURLSpan("30"); s != e {
		t.Errorf("RefreshURLSpan(\"30\") = %d, %d: want an empty span", s, e)
	}
}
