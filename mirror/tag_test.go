package mirror

import (
	"bytes"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/pageenc"
	"golang.org/x/net/html"
)

// asciiLower lower-cases the ASCII letters of b, as the Tokenizer does for
// names.
func asciiLower(b []byte) string {
	out := []byte(string(b))
	for i, c := range out {
		if 'A' <= c && c <= 'Z' {
			out[i] = c + 'a' - 'A'
		}
	}
	return string(out)
}

// decodeRawValue is the value the Tokenizer reads from the raw value bytes
// v written with quote q (a double quote, an apostrophe, or 0 for
// unquoted).
func decodeRawValue(t testing.TB, v []byte, q byte) string {
	t.Helper()
	tag := append([]byte("<x v="), q)
	if q == 0 {
		tag = tag[:len(tag)-1]
	}
	tag = append(tag, v...)
	if q != 0 {
		tag = append(tag, q)
	}
	z := html.NewTokenizer(bytes.NewReader(append(tag, '>')))
	z.Next()
	tok := z.Token()
	if len(tok.Attr) != 1 {
		t.Fatalf("value %q (quote %q) does not read back as one attribute: %q", v, q, tok.Attr)
	}
	return tok.Attr[0].Val
}

// checkScan fails t unless scanRawAttrs finds in the raw start tag tag
// the attributes the Tokenizer gives for it, name for name and value for
// value, and returns them.
func checkScan(t testing.TB, tag []byte) []rawAttr {
	t.Helper()
	z := html.NewTokenizer(bytes.NewReader(tag))
	if tt := z.Next(); tt != html.StartTagToken && tt != html.SelfClosingTagToken || len(z.Raw()) != len(tag) {
		t.Fatalf("%q is not one start tag", tag)
	}
	want := z.Token().Attr
	got := scanRawAttrs(tag, nil)
	if len(got) != len(want) {
		t.Fatalf("%q: %d attributes, the Tokenizer reads %d: %q", tag, len(got), len(want), want)
	}
	for i, a := range got {
		if a.keyStart > a.keyEnd || a.keyEnd > a.valStart || a.valStart > a.valEnd || a.valEnd > a.end || a.end > len(tag) ||
			a.quote != 0 && (a.valStart == 0 || tag[a.valStart-1] != a.quote) {
			t.Fatalf("%q attribute %d: bad span %+v", tag, i, a)
		}
		if k := asciiLower(tag[a.keyStart:a.keyEnd]); k != want[i].Key {
			t.Errorf("%q attribute %d: name %q, the Tokenizer reads %q", tag, i, k, want[i].Key)
		}
		v := ""
		if a.eq {
			v = decodeRawValue(t, tag[a.valStart:a.valEnd], a.quote)
		}
		if v != want[i].Val {
			t.Errorf("%q attribute %d (%q): value %q from %q, the Tokenizer reads %q", tag, i, want[i].Key, v, tag[a.valStart:a.valEnd], want[i].Val)
		}
	}
	return got
}

// tagCases are raw start tags of the forms WHATWG HTML 13.2.5.32-40 (as
// x/net/html implements them) reads attributes in.
var tagCases = []string{
	`<a href="x">`,
	`<A HREF="a.html" TITLE="Caf&eacute; &amp; bar">`,
	`<A HREF=a.html>`,
	`<a href='b.html?x=1&amp;y=2'>`,
	`<a  href = "c.html"  onclick="return true">`,
	"<a\nhref\n=\n'x'\r\ntitle=\"t\n2\"\f>",
	`<img alt="&copy;&nbsp;Ren&eacute;e" src=/x.jpg title=&lt;b&gt;>`,
	`<a href="1" HREF="2" href=3>`,
	`<a href>`, `<a href/>`, `<a href=>`, `<a href= >`, `<a href =>`,
	`<img src="x"/>`, `<img src=x />`, `<img src=x/>`, `<p a=/>`,
	`<a =x href=y>`, `<a/href=y>`, `<a / href=y / >`, `<a==x>`, `<a ="y">`,
	`<a title="a>b" href='c>d'>`, `<a title='"' href="'">`,
	"<a title=\"caf\xe9\" href=x>", "<a t\xe9=\"\x95\\\" href=\"\x83\\\">",
	`<a href="x"title="y"id=z>`, `<a x=y"z'w href=v>`, `<BR>`, `<br/>`, `<base target=y href/>`, `<A0/D>`,
	"<a href=\"\x00\" b\x00=1>",
}

// TestScanRawAttrsReadsAsTheTokenizer: the scanner finds the attributes
// x/net/html's Tokenizer reads, in every form of WHATWG HTML 13.2.5.
func TestScanRawAttrsReadsAsTheTokenizer(t *testing.T) {
	for _, tag := range tagCases {
		checkScan(t, []byte(tag))
	}
}

// TestRewriteStartTagsChangesOnlyTheValue: an edited tag keeps its case,
// quoting, whitespace, sibling attributes (entities and non-UTF-8 octets
// as written) and duplicates; only the first of duplicate link
// attributes is the link (WHATWG HTML 13.2.5.33 drops the rest); a <base>
// loses every href.
func TestRewriteStartTagsChangesOnlyTheValue(t *testing.T) {
	tests := []struct{ name, in, val, want string }{
		{"upper case", `<A HREF="a.html" TITLE="Caf&eacute; &amp; bar">`, "new.html", `<A HREF="new.html" TITLE="Caf&eacute; &amp; bar">`},
		{"unquoted", `<A HREF=a.html>A</A>`, "b/c.html", `<A HREF=b/c.html>A</A>`},
		{"unquoted, & written as &amp;", `<a href=a>`, "s?a&b#f", `<a href=s?a&amp;b#f>`},
		{"unquoted, needs quotes", `<a href=a>`, "a b'", `<a href="a b'">`},
		{"unquoted, = needs quotes", `<a href=a>`, "s?a=1", `<a href="s?a=1">`},
		{"single quotes", `<a href='b.html?x=1&amp;y=2'>`, `it's "&"`, `<a href='it&#39;s "&amp;"'>`},
		{"double quotes", `<a href="x">`, `it's "&"`, `<a href="it's &quot;&amp;&quot;">`},
		{"entity-laden siblings", `<IMG ALT="&copy;&nbsp;Ren&eacute;e 1998" SRC="/x.jpg" TITLE=&lt;b&gt; width=10>`, "x.jpg",
			`<IMG ALT="&copy;&nbsp;Ren&eacute;e 1998" SRC="x.jpg" TITLE=&lt;b&gt; width=10>`},
		{"duplicates: first wins", `<a href="1" HREF="2" href=3>`, "n", `<a href="n" HREF="2" href=3>`},
		{"no value", `<a href>x</a>`, "n", `<a href="n">x</a>`},
		{"no value, />", `<a href/>`, "n", `<a href="n"/>`},
		{"empty unquoted", `<a href=>`, "n", `<a href=n>`},
		{"empty unquoted, space", `<a href= >`, "n", `<a href= n>`},
		{"/>", `<img src="x"/>`, "n", `<img src="n"/>`},
		{"unquoted, />", `<img src=x />`, "n", `<img src=n />`},
		{"newlines and spaces", "<a\nhref\n=\n'x'\r\ntitle=\"t\n2\"\f>", "n", "<a\nhref\n=\n'n'\r\ntitle=\"t\n2\"\f>"},
		{"'>' in a sibling", `<a title="a>b" href='c>d'>`, "n", `<a title="a>b" href='n'>`},
		{"Latin-1 sibling", "<A TITLE=\"caf\xe9\" HREF=x>", "n", "<A TITLE=\"caf\xe9\" HREF=n>"},
		{"Shift_JIS sibling", "<A TITLE=\"\x95\\\x8e\xa6\" HREF=\"\x83\\\">", "n", "<A TITLE=\"\x95\\\x8e\xa6\" HREF=\"n\">"},
		{"no space before next", `<a href="x"title="y">`, "n", `<a href="n"title="y">`},
		{"base", `<base href="/sub/" target="_top">`, "", `<base target="_top">`},
		{"base, upper, unquoted", "<BASE\nHREF=/x>", "", "<BASE>"},
		{"base, duplicates", `<base href="a" target=t HREF='b'>`, "", `<base target=t>`},
		{"base before unquoted", `<base target=y href=x id=z>`, "", `<base target=y id=z>`},
		{"base, next runs on", `<base target=y href="x"id=z>`, "", `<base target=y id=z>`},
		{"base, no value before /", `<base target=y href/>`, "", `<base target=y />`},
		{"base, self-closing", `<base href="x"/>`, "", `<base />`},
		{"base, / before", `<base/href="x">`, "", `<base/ >`},
		{"base, / and space before", `<base / href="x">`, "", `<base / >`},
		{"not a link", `<HTML><BODY BGCOLOR=#FFFFFF><P CLASS=x>`, "n", `<HTML><BODY BGCOLOR=#FFFFFF><P CLASS=x>`},
		{"end tags and comments", `<!-- <a href="x"> --><SCRIPT>"<a href='x'>"</SCRIPT></A href=x>`, "n",
			`<!-- <a href="x"> --><SCRIPT>"<a href='x'>"</SCRIPT></A href=x>`},
		{"truncated tail kept", "<a href=x>\xe9<a href=\"y", "n", "<a href=n>\xe9<a href=\"y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, edits := rewriteStartTags([]byte(tt.in), pageenc.Encoding{}, func(tok html.Token) []attrChange {
				var ch []attrChange
				for i, a := range tok.Attr {
					if tok.Data == "base" && a.Key == "href" {
						ch = append(ch, attrChange{attr: i, drop: true})
					} else if tok.Data != "base" && (a.Key == "href" || a.Key == "src") {
						return append(ch, attrChange{attr: i, val: tt.val})
					}
				}
				return ch
			}, nil)
			if got == nil {
				got = []byte(tt.in)
			}
			if string(got) != tt.want {
				t.Errorf("rewrote\n%q\nto\n%q\nwant\n%q", tt.in, got, tt.want)
			}
			checkOutside(t, []byte(tt.in), got, edits)
		})
	}
}

// checkOutside fails t unless edits are in order, within in, and out is
// in with them: the bytes outside the edited spans are the same.
func checkOutside(t testing.TB, in, out []byte, edits []splice) {
	t.Helper()
	var a, b bytes.Buffer
	last, shift := 0, 0
	for _, e := range edits {
		if e.start < last || e.end < e.start || e.end > len(in) {
			t.Fatalf("edits out of order or bounds: %+v", edits)
		}
		a.Write(in[last:e.start])
		ostart := e.start + shift
		if ostart > len(out) || ostart+len(e.repl) > len(out) || string(out[ostart:ostart+len(e.repl)]) != e.repl {
			t.Fatalf("edit %+v is not in the output at %d: %q", e, ostart, out)
		}
		b.Write(out[last+shift : ostart])
		shift += len(e.repl) - (e.end - e.start)
		last = e.end
	}
	a.Write(in[last:])
	if last+shift > len(out) {
		t.Fatalf("output %q is shorter than the input %q with %+v", out, in, edits)
	}
	b.Write(out[last+shift:])
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("outside the edits, the input\n%q\nbecame\n%q", a.Bytes(), b.Bytes())
	}
}

// TestEscapeAttrValue: '&' and the quote in use are written as character
// references, which the Tokenizer reads back as the value.
func TestEscapeAttrValue(t *testing.T) {
	for _, v := range []string{"", "a", "a&b", `"'`, "&amp;", "x?a=1&b=2#f", "\xe9", "a b"} {
		for _, q := range []byte{'"', '\'', 0} {
			if q == 0 && needsQuotes(v) {
				continue
			}
			e := escapeAttrValue(v, q)
			if q != 0 && strings.IndexByte(e, q) >= 0 {
				t.Errorf("%q in quote %q: %q holds the quote", v, q, e)
			}
			if got := decodeRawValue(t, []byte(e), q); got != v {
				t.Errorf("%q in quote %q: written %q, read back %q", v, q, e, got)
			}
		}
	}
}
