package mirror

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// latin1Page is an HTML 3.2 page in ISO-8859-1 as an old editor wrote it:
// upper-case tags, unquoted and single-quoted values, entities in
// attributes, Latin-1 octets in text and attributes, CRLF line ends.
var latin1Page = []byte("<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 3.2 Final//EN\">\r\n" +
	"<HTML><HEAD><TITLE>Caf\xe9 \xab Ol\xe9 \xbb</TITLE>\r\n" +
	"<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=iso-8859-1\"></HEAD>\r\n" +
	"<BODY BGCOLOR=#FFFFFF>\r\n" +
	"<A HREF=a.html>A</A> | <a href='b.html?x=1&amp;y=2'>B</a> | <a  href = \"c.html\"  onclick=\"return true\">C</a>\r\n" +
	"<!-- <a href=\"d.html\">old</a> -->\r\n<script>document.write('<a href=\"e.html\">')</script>\r\n" +
	"<p>Ren\xe9e&nbsp;&copy; 1998 &#169; <a href=\"f.html\"/>F<br>\r\n" +
	"<A HREF=\"http://example.com/a.html\" TITLE=\"Caf&eacute; &amp; bar\">A</A>\r\n" +
	"<IMG SRC=\"/x.jpg\" ALT=\"&copy;&nbsp;Ren&eacute;e 1998\" width=10 height=10>\r\n" +
	"<a href=\"/b.html\" title=\"caf\xe9\">B</a>\r\n" +
	"<a href=\"#top\">top</a> <a href=\"h.html#sec\">H</a>\r\n</BODY></HTML>\r\n")

// shiftJISPage is a page in Shift_JIS, whose second bytes may be '\\'
// (表 is 95 5C, ソ 83 5C, 能 94 5C), with entity-written attributes.
var shiftJISPage = []byte("<HTML><HEAD><META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=Shift_JIS\">" +
	"<TITLE>\x93\xfa\x96{\x8c\xea</TITLE></HEAD>\n<BODY>\n" +
	"<A HREF=\"/a.html\" TITLE=\"\x95\\\x8e\xa6 &amp; \x83\\\x83t\x83g\">\x95\\\x8e\xa6</A>\n" +
	"<IMG SRC=x.gif ALT='&#26085;&#26412; &copy;'>\n" +
	"<A HREF=\"later.html\" TITLE=\x94\\>\x94\\</A>\n</BODY></HTML>\n")

// replaceInOrder returns in with each pair's old text replaced by its new
// text, each found after the one before: the page a rewrite should make.
func replaceInOrder(t *testing.T, in []byte, pairs ...string) []byte {
	t.Helper()
	var out []byte
	rest := in
	for i := 0; i < len(pairs); i += 2 {
		j := bytes.Index(rest, []byte(pairs[i]))
		if j < 0 {
			t.Fatalf("%q is not in the page after the earlier pairs", pairs[i])
		}
		out = append(append(out, rest[:j]...), pairs[i+1]...)
		rest = rest[j+len(pairs[i]):]
	}
	return append(out, rest...)
}

// TestMirrorKeepsPageBytes: a page in Latin-1 or Shift_JIS comes out of
// the mirror byte for byte as received except for the URL text of the
// links it rewrites (wget -k): the case of tags, quoting, whitespace,
// entities in titles and alt texts, and non-UTF-8 octets stay.
func TestMirrorKeepsPageBytes(t *testing.T) {
	dir, w, must := openMirrorWriter(t)
	must(page("http://example.com/", "/", string(latin1Page)))
	must(page("http://example.com/jp/", "/jp/", string(shiftJISPage)))
	for _, u := range []string{"/a.html", "/b.html?x=1&y=2", "/c.html", "/x.jpg", "/b.html"} {
		must(page("http://example.com"+u, u, "leaf"))
	}
	untouched := []byte("<HTML><BODY BGCOLOR=#FFFFFF><A HREF=\"c.html\" TITLE=\"Caf&eacute; \xe9\">C</A></BODY></HTML>")
	must(page("http://example.com/same.html", "/same.html", string(untouched)))
	dup := []byte(`<BASE HREF="/jp/" target=t href="/other/"><A HREF="/a.html" href="/c.html">x</A><IMG SRC=later.html>`)
	must(page("http://example.com/dup.html", "/dup.html", string(dup)))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	bq := relLink(filepath.Base(mustMirrorPath(t, filepath.Join(dir, "mirror"), "http://example.com/b.html?x=1&y=2")))
	tests := []struct {
		file string
		in   []byte
		want []byte
	}{
		{"index.html", latin1Page, replaceInOrder(t, latin1Page,
			"'b.html?x=1&amp;y=2'", "'"+strings.ReplaceAll(bq, "&", "&amp;")+"'",
			`<a href="f.html"/>`, `<a href="http://example.com/f.html"/>`,
			`"http://example.com/a.html"`, `"a.html"`,
			`"/x.jpg"`, `"x.jpg"`,
			`"/b.html"`, `"b.html"`,
			`"h.html#sec"`, `"http://example.com/h.html#sec"`)},
		{"jp/index.html", shiftJISPage, replaceInOrder(t, shiftJISPage,
			`"/a.html"`, `"../a.html"`,
			`SRC=x.gif`, `SRC=http://example.com/jp/x.gif`,
			`"later.html"`, `"http://example.com/jp/later.html"`)},
		{"same.html", untouched, untouched},
		// WHATWG HTML 13.2.5.33: the first of duplicate attributes is
		// the one; a <base> loses all its hrefs.
		{"dup.html", dup, []byte(`<BASE target=t><A HREF="a.html" href="/c.html">x</A><IMG SRC=http://example.com/jp/later.html>`)},
	}
	for _, tt := range tests {
		got, err := os.ReadFile(filepath.Join(dir, "mirror", "example.com", filepath.FromSlash(tt.file)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, tt.want) {
			t.Errorf("%s: mirrored as\n%q\nwant\n%q", tt.file, got, tt.want)
		}
	}
}
