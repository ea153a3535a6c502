package cssref

import (
	"testing"

	"golang.org/x/net/html/charset"

	"github.com/crawlproject/crawl/pageenc"
)

// named is the Encoding of a WHATWG label, for the tests.
func named(t *testing.T, label string) pageenc.Encoding {
	t.Helper()
	e, name := charset.Lookup(label)
	if e == nil {
		t.Fatalf("no encoding %q", label)
	}
	return pageenc.Named(name, e)
}

// TestEncoding: the encoding of a style sheet, in the order CSS Syntax
// Level 3 section 3.2 gives.
func TestEncoding(t *testing.T) {
	sjis := named(t, "shift_jis")
	cases := []struct {
		name, body, contentType string
		env                     pageenc.Encoding
		want                    string
	}{
		{"Syntax 3.2 nothing declared: UTF-8", "a{}", "text/css", pageenc.Encoding{}, "utf-8"},
		{"Syntax 3.2 nothing declared: the referring document's", "a{}", "text/css", sjis, "shift_jis"},
		{"Syntax 3.2 the Content-Type charset", `@charset "shift_jis"; a{}`, "text/css; charset=ISO-8859-1", sjis, "windows-1252"},
		{"Syntax 3.2 @charset before the environment", `@charset "euc-jp"; a{}`, "text/css", sjis, "euc-jp"},
		{"Syntax 3.2 @charset naming UTF-16 means UTF-8", `@charset "utf-16le"; a{}`, "text/css", sjis, "utf-8"},
		{"Syntax 3.2 @charset must be written exactly", `@charset 'euc-jp'; a{}`, "", sjis, "shift_jis"},
		{"Syntax 3.2 @charset with two spaces is no rule", `@charset  "euc-jp"; a{}`, "", pageenc.Encoding{}, "utf-8"},
		{"Syntax 3.2 @charset not at the start is no rule", ` @charset "euc-jp"; a{}`, "", pageenc.Encoding{}, "utf-8"},
		{"Syntax 3.2 an unknown label is none", `@charset "klingon"; a{}`, "text/css; charset=nope", sjis, "shift_jis"},
		{"Encoding Standard: a UTF-8 byte order mark wins", "\xEF\xBB\xBFa{}", "text/css; charset=shift_jis", sjis, "utf-8"},
		{"Encoding Standard: a UTF-16LE byte order mark wins", "\xFF\xFEa\x00", "text/css; charset=utf-8", pageenc.Encoding{}, "utf-16le"},
		{"Encoding Standard: a UTF-16BE byte order mark wins", "\xFE\xFF\x00a", "", pageenc.Encoding{}, "utf-16be"},
	}
	for _, c := range cases {
		if got := Encoding([]byte(c.body), c.contentType, c.env).Name(); got != c.want {
			t.Errorf("%s: Encoding = %s, want %s", c.name, got, c.want)
		}
	}
}
