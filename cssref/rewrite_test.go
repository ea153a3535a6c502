package cssref

import (
	"strings"
	"testing"

	"github.com/crawlproject/crawl/pageenc"
)

// upper gives every reference its URL in upper case.
func upper(r Ref) (string, bool) { return strings.ToUpper(r.URL), true }

// TestRewrite: only the URL text of each reference changes, written for
// its context.
func TestRewrite(t *testing.T) {
	cases := []struct {
		name, css string
		newURL    func(Ref) (string, bool)
		want      string
	}{
		{"each context keeps its quotes and spacing", `@import 'a.css'; /* url(c.png) */ a { b : url( "b.png" ) ; c:url(  c.png  ) }`, upper,
			`@import 'A.CSS'; /* url(c.png) */ a { b : url( "B.PNG" ) ; c:url(  C.PNG  ) }`},
		{"a quote in a string is escaped", `a{b:url("x")}`, func(Ref) (string, bool) { return `a"b'c`, true }, `a{b:url("a\"b'c")}`},
		{"an apostrophe in an apostrophe string is escaped", `a{b:url('x')}`, func(Ref) (string, bool) { return `a"b'c`, true }, `a{b:url('a"b\'c')}`},
		{"Syntax 4.3.6: what an unquoted url cannot hold is escaped", `a{b:url(x)}`, func(Ref) (string, bool) { return `a b(c)"d'\e`, true }, `a{b:url(a\20 b\(c\)\"d\'\\e)}`},
		{"non-ASCII is escaped", `a{b:url(x)}`, func(Ref) (string, bool) { return "é", true }, `a{b:url(\e9 )}`},
		{"a reference not changed stays", `a{b:url(x)} c{d:url(y)}`, func(r Ref) (string, bool) { return "z", r.URL == "y" }, `a{b:url(x)} c{d:url(z)}`},
		{"escapes outside the URL stay as written", `a\62 c{b:url(x)}`, upper, `a\62 c{b:url(X)}`},
	}
	for _, c := range cases {
		out, edits := Rewrite([]byte(c.css), pageenc.Encoding{}, c.newURL)
		if string(out) != c.want {
			t.Errorf("%s: Rewrite(%q) = %q, want %q", c.name, c.css, out, c.want)
		}
		checkEdits(t, []byte(c.css), out, edits)
	}
	if out, edits := Rewrite([]byte(`a{b:url(x)}`), pageenc.Encoding{}, func(r Ref) (string, bool) { return r.URL, true }); out != nil || edits != nil {
		t.Errorf("a rewrite that changes nothing gave %q, %v", out, edits)
	}
}

// TestRewriteEncodings: a sheet in another encoding is scanned in it and
// keeps its octets: a Shift_JIS character whose second octet is "\"
// escapes nothing, and a UTF-16 sheet gets its new URL in UTF-16.
func TestRewriteEncodings(t *testing.T) {
	sjis := named(t, "shift_jis")
	// 表 is 0x95 0x5C in Shift_JIS.
	src := []byte("a{content:\"\x95\x5C\"} b{c:url(\x95\x5C.png)} d{e:url(z.png)}")
	var urls []string
	out, _ := Rewrite(src, sjis, func(r Ref) (string, bool) {
		urls = append(urls, r.URL)
		return "new.png", r.URL == "表.png"
	})
	if strings.Join(urls, " ") != "表.png z.png" {
		t.Errorf("Shift_JIS sheet read as %q", urls)
	}
	if want := "a{content:\"\x95\x5C\"} b{c:url(new.png)} d{e:url(z.png)}"; string(out) != want {
		t.Errorf("Shift_JIS sheet rewritten as %q, want %q", out, want)
	}

	u16 := named(t, "utf-16le")
	le := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			b.WriteByte(byte(r))
			b.WriteByte(byte(r >> 8))
		}
		return b.String()
	}
	src = []byte("\xFF\xFE" + le("a{b:url(x.png)}"))
	out, edits := Rewrite(src, u16, upper)
	if want := "\xFF\xFE" + le("a{b:url(X.PNG)}"); string(out) != want {
		t.Errorf("UTF-16LE sheet rewritten as %q, want %q", out, want)
	}
	checkEdits(t, src, out, edits)
}

// checkEdits fails unless out is src with the edits applied, in order and
// within src: every octet outside them is src's.
func checkEdits(t *testing.T, src, out []byte, edits []Edit) {
	t.Helper()
	if out == nil {
		if len(edits) != 0 {
			t.Fatalf("no output but edits %+v", edits)
		}
		return
	}
	var b strings.Builder
	last := 0
	for _, e := range edits {
		if e.Start < last || e.End < e.Start || e.End > len(src) {
			t.Fatalf("edit %+v out of order or out of %d octets", e, len(src))
		}
		b.Write(src[last:e.Start])
		b.WriteString(e.Text)
		last = e.End
	}
	b.Write(src[last:])
	if b.String() != string(out) {
		t.Fatalf("output differs outside the edits:\n%q\n%q", out, b.String())
	}
}
