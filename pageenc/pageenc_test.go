package pageenc

import (
	"strings"
	"testing"
)

// TestOf follows HTML Standard 13.2.3.1-2: the byte order mark first, then
// the transport layer's charset, then the <meta> prescan; labels map as
// the Encoding Standard says (iso-8859-1 is windows-1252).
func TestOf(t *testing.T) {
	for _, c := range []struct {
		name, body, contentType, want string
	}{
		{"header charset", "<a href=x>", "text/html; charset=ISO-8859-1", "windows-1252"},
		{"header beats meta", `<meta charset="shift_jis">`, "text/html; charset=utf-8", "utf-8"},
		{"meta charset", `<html><head><meta charset="shift_jis">`, "text/html", "shift_jis"},
		{"meta http-equiv", `<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=iso-8859-1">`, "text/html", "windows-1252"},
		{"BOM beats header", "\xef\xbb\xbf<p>", "text/html; charset=windows-1252", "utf-8"},
		{"utf-16 BOM", "\xff\xfe<\x00p\x00", "text/html", "utf-16le"},
		{"undeclared, valid UTF-8", "<p>caf\xc3\xa9</p>", "text/html", "utf-8"},
		{"undeclared, not UTF-8", "<p>caf\xe9</p>", "text/html", "windows-1252"},
		{"unknown label", `<meta charset="no-such-thing"><p>caf\xe9`, "text/html", "windows-1252"},
		// The whole body decides when nothing is declared: a UTF-8 page
		// whose first 1024 bytes are ASCII is not read as windows-1252.
		{"undeclared, UTF-8 after 1024 ASCII bytes", strings.Repeat("a", 1100) + "caf\xc3\xa9", "text/html", "utf-8"},
		{"undeclared, Latin-1 after 1024 ASCII bytes", strings.Repeat("a", 1100) + "caf\xe9", "text/html", "windows-1252"},
		{"meta latin-1 in the head, UTF-8-looking body", `<meta charset="iso-8859-1">` + strings.Repeat("a", 1100) + "caf\xc3\xa9", "text/html", "windows-1252"},
	} {
		if got := Of([]byte(c.body), c.contentType).Name(); got != c.want {
			t.Errorf("%s: Of = %s, want %s", c.name, got, c.want)
		}
	}
}

func TestDecode(t *testing.T) {
	for _, c := range []struct{ body, contentType, want string }{
		{"/caf\xe9.html", "text/html; charset=iso-8859-1", "/caf\u00e9.html"},
		{"\x80", "text/html; charset=windows-1252", "\u20ac"},
		{"\x93\xfa\x96\x7b", "text/html; charset=shift_jis", "\u65e5\u672c"},
		{"caf\xc3\xa9", "text/html; charset=utf-8", "caf\u00e9"},
	} {
		if got := string(Of(nil, c.contentType).Decode([]byte(c.body))); got != c.want {
			t.Errorf("Decode(%q) in %s = %q, want %q", c.body, c.contentType, got, c.want)
		}
	}
	if got := (Encoding{}).DecodeString("caf\xe9"); got != "caf\xe9" {
		t.Errorf("UTF-8 DecodeString changed its input: %q", got)
	}
}

// TestEncodeQuery: URL Standard, basic URL parser, query state: the
// query's code points are encoded with the document's encoding and
// percent-encoded; one the encoding cannot represent is written as an
// HTML numeric character reference, percent-encoded. The path and the
// fragment stay UTF-8, and a UTF-8 or UTF-16 page keeps its query as it is.
func TestEncodeQuery(t *testing.T) {
	for _, c := range []struct{ contentType, ref, want string }{
		{"charset=iso-8859-1", "/caf\u00e9?q=caf\u00e9&x=1#caf\u00e9", "/caf\u00e9?q=caf%E9&x=1#caf\u00e9"},
		{"charset=windows-1252", "?q=\u20ac", "?q=%80"},
		{"charset=iso-8859-1", "?q=\u65e5", "?q=%26%2326085%3B"},
		{"charset=shift_jis", "/a?q=\u65e5\u672c", "/a?q=%93%FA%96{"},
		{"charset=euc-jp", "?q=\u65e5", "?q=%C6%FC"},
		{"charset=iso-8859-1", "/a?q=%E9&r=plain", "/a?q=%E9&r=plain"},
		{"charset=iso-8859-1", "/caf\u00e9", "/caf\u00e9"},
		{"charset=utf-8", "?q=caf\u00e9", "?q=caf\u00e9"},
		{"charset=utf-16le", "?q=caf\u00e9", "?q=caf\u00e9"},
		{"charset=iso-8859-1", "?q=a\u00e9b?c\u00e9", "?q=a%E9b?c%E9"},
	} {
		e := Of(nil, "text/html; "+c.contentType)
		if got := e.EncodeQuery(c.ref); got != c.want {
			t.Errorf("%s: EncodeQuery(%q) = %q, want %q", c.contentType, c.ref, got, c.want)
		}
	}
}
