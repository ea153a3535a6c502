package mirror

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/archive"
)

// TestMirrorLinksInThePageEncoding: the mirror reads a page's links as
// the crawler fetched them (package pageenc: HTML Standard 13.2.3 for the
// encoding, the URL Standard for the query), so a Latin-1 link written
// as raw octets, or as a character reference, leads to the file of the
// URL that was fetched, whether the charset came in the Content-Type or
// in a <meta>; and a link an old editor wrote with a back-slash or
// wrapped over two lines leads where a browser takes it.
func TestMirrorLinksInThePageEncoding(t *testing.T) {
	dir, w, must := openMirrorWriter(t)
	withType := func(url, path, contentType, body string) archive.Exchange {
		e := page(url, path, body)
		e.Response = []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s", contentType, len(body), body))
		return e
	}
	header := "<a href=\"/caf\xe9.html?q=\xe9\">raw</a> <a href=\"/caf&eacute;.html?q=&#233;\">entity</a> <img src=\"dir\\pic.gif\">"
	meta := "<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=iso-8859-1\"><a href=\"/caf\xe9.html?q=\xe9\">raw</a>" +
		"<a href=\"/docs/\n  intro.html\">wrapped</a> <body background=\"/bg.gif\">"
	must(withType("http://example.com/h/", "/h/", "text/html; charset=ISO-8859-1", header))
	must(withType("http://example.com/m/", "/m/", "text/html", meta))
	for _, u := range []string{"/caf%C3%A9.html?q=%E9", "/h/dir/pic.gif", "/docs/%20%20intro.html", "/bg.gif"} {
		must(page("http://example.com"+u, u, "leaf"))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "mirror")
	target := mustMirrorPath(t, root, "http://example.com/caf%C3%A9.html?q=%E9")
	for _, c := range []struct {
		page  string
		links []string
	}{
		{"http://example.com/h/", []string{"http://example.com/caf%C3%A9.html?q=%E9", "http://example.com/caf%C3%A9.html?q=%E9", "http://example.com/h/dir/pic.gif"}},
		{"http://example.com/m/", []string{"http://example.com/caf%C3%A9.html?q=%E9", "http://example.com/docs/%20%20intro.html", "http://example.com/bg.gif"}},
	} {
		p := mustMirrorPath(t, root, c.page)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range c.links {
			rel, err := filepath.Rel(filepath.Dir(p), mustMirrorPath(t, root, l))
			if err != nil {
				t.Fatal(err)
			}
			want := relLink(filepath.ToSlash(rel))
			if !strings.Contains(string(b), `"`+want+`"`) {
				t.Errorf("%s: no link to the file of %s (%q) in %q", c.page, l, want, b)
			}
		}
		if _, err := os.Stat(target); err != nil {
			t.Errorf("the fetched page's file: %v", err)
		}
	}
}

// TestMirrorKeepsATruncatedPage: a 2xx page whose body was cut short (a
// server that ended it early, fetch.max_body) is mirrored as far as it
// came, decoded as far as its coding goes, as a browser shows it; a later
// whole fetch of the URL replaces the file, and links to it lead to it.
func TestMirrorKeepsATruncatedPage(t *testing.T) {
	dir, w, must := openMirrorWriter(t)
	cut := page("http://example.com/cut.html", "/cut.html", "<html><a href=\"/x\">x</a>")
	cut.Response = []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 500\r\n\r\n<html><a href=\"/x\">x</a>")
	cut.Truncated = archive.TruncatedDisconnect
	must(cut)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	for range 20 { // flushed blocks: what came of the stream decodes
		zw.Write([]byte(strings.Repeat("<p>compressed page</p>\n", 10)))
		zw.Flush()
	}
	zw.Close()
	half := gz.Bytes()[:gz.Len()/2]
	z := page("http://example.com/z.html", "/z.html", "")
	z.Response = append([]byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", gz.Len())), half...)
	z.Truncated = archive.TruncatedDisconnect
	must(z)
	reset := page("http://example.com/reset.html", "/reset.html", "")
	reset.Response = []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 500\r\n\r\n<html>fragment")
	reset.Truncated, reset.Failed = archive.TruncatedDisconnect, true
	must(reset)
	must(page("http://example.com/", "/", `<a href="/cut.html">c</a>`))
	root := filepath.Join(dir, "mirror")
	if b, err := os.ReadFile(mustMirrorPath(t, root, "http://example.com/z.html")); err != nil || !bytes.HasPrefix(b, []byte("<p>compressed page</p>\n<p>")) {
		t.Errorf("the cut gzip page's mirror file: %v, %.40q; want what decoded", err, b)
	}
	must(page("http://example.com/cut.html", "/cut.html", "<html>whole</html>"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(mustMirrorPath(t, root, "http://example.com/cut.html")); err != nil || string(b) != "<html>whole</html>" {
		t.Errorf("cut.html's mirror file after the whole fetch: %v, %q", err, b)
	}
	// A fetch that failed mid-body (a reset, Exchange.Failed) is archived,
	// but what arrived is not taken for the page.
	if _, err := os.Stat(mustMirrorPath(t, root, "http://example.com/reset.html")); err == nil {
		t.Error("a failed fetch's fragment was mirrored as the page")
	}
	if b, _ := os.ReadFile(mustMirrorPath(t, root, "http://example.com/")); !strings.Contains(string(b), `href="cut.html"`) {
		t.Errorf("the link to the mirrored page is not relative: %q", b)
	}
}

// TestMirrorRewritesAMetaRefresh: the URL inside a <meta
// http-equiv="refresh"> content (HTML Standard 4.2.5.3), which the crawler
// follows as a link, leads to the mirrored file of its target; the rest of
// the content stays.
func TestMirrorRewritesAMetaRefresh(t *testing.T) {
	dir, w, must := openMirrorWriter(t)
	must(page("http://example.com/old.html", "/old.html", `<META HTTP-EQUIV="Refresh" CONTENT="0; URL=/new/page.html">`))
	must(page("http://example.com/other.html", "/other.html", `<meta http-equiv="refresh" content="5;url='gone.html'">`))
	must(page("http://example.com/new/page.html", "/new/page.html", "moved here"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "mirror")
	b, _ := os.ReadFile(mustMirrorPath(t, root, "http://example.com/old.html"))
	if want := `<META HTTP-EQUIV="Refresh" CONTENT="0; URL=new/page.html">`; string(b) != want {
		t.Errorf("old.html: %q, want %q", b, want)
	}
	b, _ = os.ReadFile(mustMirrorPath(t, root, "http://example.com/other.html"))
	if want := `<meta http-equiv="refresh" content="5;url='http://example.com/gone.html'">`; string(b) != want {
		t.Errorf("other.html: %q, want %q (a target not mirrored becomes absolute)", b, want)
	}
}
