package cssref

import (
	"fmt"
	"strings"
	"testing"
)

// want is one reference a scan should find: its URL, the raw text its
// span holds, and whether it is an @import's.
type want struct {
	url, raw string
	imp      bool
}

// scanCases are style sheets and the references in them, each named for
// the rule of the specification it follows.
var scanCases = []struct {
	name, css string
	want      []want
}{
	{"Syntax 4.3.6 unquoted url", `a{background:url(img.png)}`, []want{{"img.png", "img.png", false}}},
	{"Syntax 4.3.6 whitespace around an unquoted url is no part of it", "a{b:url( \t img.png \n )}", []want{{"img.png", "img.png", false}}},
	{"Syntax 4.3.4 url( then a quote is a function with a string", `a{b:url( "a b.png" )}`, []want{{"a b.png", "a b.png", false}}},
	{"Syntax 4.3.4 url with an apostrophe", `a{b:url('x.png')}`, []want{{"x.png", "x.png", false}}},
	{"Syntax 4.3.4 url is ASCII case-insensitive", `a{b:URL(x.png);c:Url("y.png")}`, []want{{"x.png", "x.png", false}, {"y.png", "y.png", false}}},
	{"Syntax 4.3.4 an escaped letter in the name still makes url", `a{b:u\72 l(x.png)}`, []want{{"x.png", "x.png", false}}},
	{"Syntax 4.3.4 another function is not url", `a{b:xurl(a.png);c:5url(b.png);d:#url(c.png)}`, nil},
	{"Syntax 4.3.7 escaped parenthesis in an unquoted url", `a{b:url(a\)b.png)}`, []want{{"a)b.png", `a\)b.png`, false}}},
	{"Syntax 4.3.7 hex escape and its whitespace", `a{b:url(caf\e9 .png)}`, []want{{"café.png", `caf\e9 .png`, false}}},
	{"Syntax 4.3.7 hex escape ended by CR LF", "a{b:url(a\\41\r\nb)}", []want{{"aAb", "a\\41\r\nb", false}}},
	{"Syntax 4.3.7 zero and surrogates are U+FFFD", `a{b:url(a\0 b\d800 c)}`, []want{{"a\uFFFDb\uFFFDc", `a\0 b\d800 c`, false}}},
	{"Syntax 4.3.7 escaped space", `a{b:url(a\ b.png)}`, []want{{"a b.png", `a\ b.png`, false}}},
	{"Syntax 3.3 NUL is U+FFFD", "a{b:url(a\x00b)}", []want{{"a\uFFFDb", "a\x00b", false}}},
	{"Syntax 4.3.6 a quote makes a bad url, the next is read", `a{b:url(a"b) c:url(ok.png)}`, []want{{"ok.png", "ok.png", false}}},
	{"Syntax 4.3.6 text after the whitespace makes a bad url", `a{b:url(a b) c:url(ok.png)}`, []want{{"ok.png", "ok.png", false}}},
	{"Syntax 4.3.14 an escaped parenthesis does not end a bad url", `a{b:url(a b\) url(no.png)) c:url(ok.png)}`, []want{{"ok.png", "ok.png", false}}},
	{"Syntax 4.3.6 a url token ended by the end of the sheet", `a{b:url(end.png`, []want{{"end.png", "end.png", false}}},
	{"Syntax 4.3.2 a comment holds no url", `/* url(no.png) */ a{b:url(yes.png)}`, []want{{"yes.png", "yes.png", false}}},
	{"Syntax 4.3.2 an unclosed comment runs to the end", `a{b:url(yes.png)} /* url(no.png)`, []want{{"yes.png", "yes.png", false}}},
	{"Syntax 4.3.2 no comment starts inside a url", `a{b:url(a/*b.png)} c{d:url(e.png)}`, []want{{"a/*b.png", "a/*b.png", false}, {"e.png", "e.png", false}}},
	{"Syntax 4.3.5 a string holds no url", `a{content:"url(no.png)"} b{c:url(yes.png)}`, []want{{"yes.png", "yes.png", false}}},
	{"Syntax 4.3.5 an escaped quote does not end the string", `a{content:"\" url(no.png)"} b{c:url(yes.png)}`, []want{{"yes.png", "yes.png", false}}},
	{"Syntax 4.3.5 a newline ends a bad string", "a{content:\"abc\n b:url(yes.png)}", []want{{"yes.png", "yes.png", false}}},
	{"Syntax 4.3.5 an escaped newline continues a string", "@import \"a\\\nb.css\";", []want{{"ab.css", "a\\\nb.css", true}}},
	{"Cascade 2.1 @import with a string", `@import "basic.css";`, []want{{"basic.css", "basic.css", true}}},
	{"Cascade 2.1 @import with url() and media", `@import url(layout.css) screen;`, []want{{"layout.css", "layout.css", true}}},
	{"Cascade 2.1 @import with url() and a string", `@import url("x.css") layer(base) supports(display:grid);`, []want{{"x.css", "x.css", true}}},
	{"Cascade 2.1 @import after @charset and @layer", `@charset "utf-8"; @layer a, b; @import 'x.css';`, []want{{"x.css", "x.css", true}}},
	{"Cascade 2.1 @import after a style rule is ignored", `a{} @import "x.css"; @import url(y.css); @import url("z.css");`, nil},
	{"Cascade 2.1 @import after another at-rule is ignored", `@font-face{src:url(f.woff)} @import "x.css";`, []want{{"f.woff", "f.woff", false}}},
	{"Cascade 2.1 @import inside a block is none", `@media print { @import "x.css"; a{b:url(p.png)} }`, []want{{"p.png", "p.png", false}}},
	{"Syntax 4.3.1 CDO and CDC between rules are nothing", `<!-- @import "x.css"; -->`, []want{{"x.css", "x.css", true}}},
	{"Syntax 3.2 a byte order mark is skipped", "\uFEFF@import 'x.css';", []want{{"x.css", "x.css", true}}},
	{"Namespaces 3 the URL of @namespace is a name", `@namespace svg url(http://www.w3.org/2000/svg); @namespace url("http://www.w3.org/1999/xhtml"); a{b:url(x.png)}`, []want{{"x.png", "x.png", false}}},
	{"Images 2.4 image-set strings and urls", `a{b:image-set("a.png" 1x, url(b.png) 2x, "c.avif" type("image/avif"))}`, []want{{"a.png", "a.png", false}, {"b.png", "b.png", false}, {"c.avif", "c.avif", false}}},
	{"Images 2.4 -webkit-image-set", `a{b:-webkit-image-set('a.png' 1x)}`, []want{{"a.png", "a.png", false}}},
	{"Values 4.5.1 an empty url is no resource", `a{b:url();c:url("");d:url( )}`, nil},
	{"Values 4.5 url() nested in another function", `a{b:var(--x, url(c.png))}`, []want{{"c.png", "c.png", false}}},
	{"Fonts: only the url() of src, not local() or format()", `@font-face{src:local("X"), url(f.woff2) format("woff2")}`, []want{{"f.woff2", "f.woff2", false}}},
	{"Style attribute declarations", `background: url(bg.gif) no-repeat; color: red`, []want{{"bg.gif", "bg.gif", false}}},
	{"Syntax 5.4.8 a stray closer does not end a block", `a{b:c) ] url(x.png)}`, []want{{"x.png", "x.png", false}}},
	{"A data URL is a reference all the same", `a{b:url(data:image/gif;base64,R0lG)}`, []want{{"data:image/gif;base64,R0lG", "data:image/gif;base64,R0lG", false}}},
	{"Non-ASCII in an unquoted url", `a{b:url(bild-größe.png)}`, []want{{"bild-größe.png", "bild-größe.png", false}}},
}

// TestScan: the references Scan finds, their spans and their @import
// marks, for each case of scanCases.
func TestScan(t *testing.T) {
	for _, c := range scanCases {
		t.Run(c.name, func(t *testing.T) {
			refs := Scan([]byte(c.css))
			var got, exp []string
			for _, r := range refs {
				got = append(got, fmt.Sprintf("%q raw %q import %v", r.URL, c.css[r.Start:r.End], r.Import))
			}
			for _, w := range c.want {
				exp = append(exp, fmt.Sprintf("%q raw %q import %v", w.url, w.raw, w.imp))
			}
			if strings.Join(got, "\n") != strings.Join(exp, "\n") {
				t.Errorf("Scan(%q):\n%s\nwant\n%s", c.css, strings.Join(got, "\n"), strings.Join(exp, "\n"))
			}
		})
	}
}

// TestScanQuote: a reference says which quote surrounds its text.
func TestScanQuote(t *testing.T) {
	refs := Scan([]byte(`@import 'a.css'; a{b:url("b.png");c:url(c.png)}`))
	if len(refs) != 3 || refs[0].Quote != '\'' || refs[1].Quote != '"' || refs[2].Quote != 0 {
		t.Fatalf("refs %+v: want quotes ', \" and none", refs)
	}
}
