package mirror

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/cssref"
	"github.com/crawlproject/crawl/pageenc"
	"golang.org/x/net/html"
)

// fuzzValue is the value FuzzMirrorRewrite gives attribute i: it mixes
// values that can stay unquoted with ones holding '&', quotes and
// whitespace.
func fuzzValue(i int) string {
	return "u" + strconv.Itoa(i) + [...]string{"", "&x", "a b", `q"'`, "s?a&b"}[i%5]
}

// fuzzChanges is FuzzMirrorRewrite's decision for a start tag: attributes
// whose name starts with 'd' go (duplicates too, as a <base>'s href), the
// first of every other name gets fuzzValue, duplicates stay. It returns
// the attributes the tag should then read as.
func fuzzChanges(tok html.Token) ([]attrChange, []html.Attribute) {
	var ch []attrChange
	var want []html.Attribute
	var seen []string
	for i, a := range tok.Attr {
		switch {
		case strings.HasPrefix(a.Key, "d"):
			ch = append(ch, attrChange{attr: i, drop: true})
		case slices.Contains(seen, a.Key):
			want = append(want, a)
		default:
			seen = append(seen, a.Key)
			ch = append(ch, attrChange{attr: i, val: fuzzValue(i)})
			want = append(want, html.Attribute{Key: a.Key, Val: fuzzValue(i)})
		}
	}
	return ch, want
}

// fuzzStyleURL is the URL FuzzMirrorRewrite gives reference i of a
// <style>: plain, or holding what CSS must escape, or what would end the
// element in HTML.
func fuzzStyleURL(i int) string {
	return "s" + strconv.Itoa(i) + [...]string{"", "</style>", `"'()`, " \\é"}[i%4]
}

// fuzzStyle gives each reference in a <style> element fuzzStyleURL.
func fuzzStyle(_ html.Token, css []byte) []cssref.Edit {
	i := 0
	_, edits := cssref.Rewrite(css, pageenc.Encoding{}, func(cssref.Ref) (string, bool) { i++; return fuzzStyleURL(i), true })
	return edits
}

// checkStyleText fails unless the raw text out of a <style> element reads
// as the references of in, with fuzzStyleURL's URLs.
func checkStyleText(t *testing.T, in, out []byte) {
	t.Helper()
	before, after := cssref.Scan(in), cssref.Scan(out)
	if len(before) != len(after) {
		t.Fatalf("the <style> %q with %d references became %q with %d", in, len(before), out, len(after))
	}
	for k, r := range after {
		if r.URL != fuzzStyleURL(k+1) {
			t.Fatalf("reference %d of the <style> %q reads %q", k, out, r.URL)
		}
	}
}

// FuzzMirrorRewrite: for any page, the tokens' raw bytes are the page's
// (the offsets rewriteStartTags relies on), the attribute scanner reads
// every start tag as the Tokenizer does, the rewritten page differs from
// the input only inside the edited spans, and it reads back as the same
// tokens with the changed attributes. No input panics.
func FuzzMirrorRewrite(f *testing.F) {
	for _, tag := range tagCases {
		f.Add([]byte(tag))
	}
	for _, p := range [][]byte{latin1Page, shiftJISPage} {
		f.Add(p)
	}
	f.Add([]byte("<base target=y href=x id=z dd d=1><a x dd/><a x=y/ dd><p a=/><a x=y dd/>"))
	f.Add([]byte(`<!DOCTYPE html><title><a href=x></title><textarea><b c=d></textarea><a href="y`))
	f.Add([]byte(`<style>@import "a.css"; p{background:url(b.png)}</style><style/><a href=x><style type=x>a{b:url( 'c' )}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		orig := bytes.Clone(src)
		// The Tokenizer's raw tokens are src, in order, before Token
		// lower-cases and unescapes its buffer.
		var wantTags [][]html.Attribute
		z := html.NewTokenizer(bytes.NewReader(src))
		off := 0
		for {
			tt := z.Next()
			raw := z.Raw()
			if !bytes.Equal(raw, src[off:min(off+len(raw), len(src))]) {
				t.Fatalf("token at %d reads %q, the page holds %q", off, raw, src[off:])
			}
			if tt == html.ErrorToken {
				off += len(raw)
				break
			}
			if tt == html.StartTagToken || tt == html.SelfClosingTagToken {
				checkScan(t, src[off:off+len(raw)])
				_, want := fuzzChanges(z.Token())
				wantTags = append(wantTags, want)
			}
			off += len(raw)
		}
		if off != len(src) {
			t.Fatalf("the tokens hold %d bytes of %d", off, len(src))
		}

		out, edits := rewriteStartTags(src, pageenc.Encoding{}, func(tok html.Token) []attrChange {
			ch, _ := fuzzChanges(tok)
			return ch
		}, fuzzStyle)
		if !bytes.Equal(src, orig) {
			t.Fatalf("the input was modified")
		}
		if out == nil {
			if len(edits) != 0 {
				t.Fatalf("no output but edits %+v", edits)
			}
			out = src
		}
		checkOutside(t, src, out, edits)

		// The output reads as the input's tokens, with the changes: a
		// <style>'s text as the same references with fuzzStyleURL's URLs.
		zi := html.NewTokenizer(bytes.NewReader(src))
		zo := html.NewTokenizer(bytes.NewReader(out))
		inStyle := false
		for n := 0; ; {
			ti, to := zi.Next(), zo.Next()
			if ti != to {
				t.Fatalf("token %d: %v became %v in\n%q", n, ti, to, out)
			}
			if ti == html.ErrorToken {
				break
			}
			if ti == html.TextToken && inStyle {
				checkStyleText(t, zi.Raw(), zo.Raw())
				inStyle = false
				continue
			}
			a, b := zi.Token(), zo.Token()
			inStyle = ti == html.StartTagToken && a.Data == "style"
			if ti == html.StartTagToken || ti == html.SelfClosingTagToken {
				a.Attr = wantTags[n]
				n++
			}
			if a.Data != b.Data || !slices.Equal(a.Attr, b.Attr) {
				t.Fatalf("token %q became %q; want %q, in\n%q", a, b, a.Attr, out)
			}
		}
	})
}
