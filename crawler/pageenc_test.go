package crawler

import (
	"slices"
	"strings"
	"testing"
)

// TestLegacyCharsetLinks: a page is read in the encoding a browser reads
// it in (HTML Standard 13.2.3: the Content-Type charset, else a <meta> in
// its first 1024 bytes, else the bytes themselves), so a link's path is
// requested in UTF-8 and its query in the page's encoding (URL Standard,
// query state), whether the link was written as raw octets or as a
// character reference: one URL, fetched once, as a reader's browser asks
// for it.
func TestLegacyCharsetLinks(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nDisallow:\n")
	h.serveTyped("/", "text/html; charset=utf-8", `<a href="/meta">m</a><a href="/ct">c</a><a href="/sjis">s</a><a href="/none">n</a>`)
	h.serveTyped("/meta", "text/html", `<html><head><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=iso-8859-1"></head><body>`+
		"<a href=\"/caf\xe9.html\">raw</a> <a href=\"/caf&eacute;.html\">entity</a> <a href=\"/caf&#233;.html\">numeric</a> "+
		"<a href=\"/s?q=caf\xe9\">query</a></body></html>")
	h.serveTyped("/ct", "text/html; charset=ISO-8859-1", "<a href=\"/ct/caf\xe9.html?q=\xe9\">raw</a> <a href=\"/ct/caf&eacute;.html?q=&eacute;\">entity</a>")
	h.serveTyped("/sjis", "text/html", `<meta charset="shift_jis">`+"<a href=\"/j/\x93\xfa\x96\x7b?q=\x93\xfa\x96\x7b\">nihon</a>")
	h.serveTyped("/none", "text/html", "<p>no declaration</p><a href=\"/g/caf\xe9?q=\xe9\">guess</a>")
	want := []string{"/caf%C3%A9.html", "/s?q=caf%E9", "/ct/caf%C3%A9.html?q=%E9",
		"/j/%E6%97%A5%E6%9C%AC?q=%93%FA%96{", "/g/caf%C3%A9?q=%E9"}
	for _, p := range want {
		h.html(p)
	}
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	got := h.paths()
	for _, p := range want {
		if n := countOf(got, p); n != 1 {
			t.Errorf("%s requested %d times, want once; requests: %s", p, n, strings.Join(got, " "))
		}
	}
	for _, p := range got {
		if strings.Contains(p, "%E9.html") || strings.HasPrefix(p, "/j/%93") {
			t.Errorf("requested %s: a path is UTF-8 to a browser, whatever the page's encoding", p)
		}
	}
}

func countOf(list []string, s string) int {
	n := 0
	for i := slices.Index(list, s); i >= 0; i = slices.Index(list, s) {
		n++
		list = list[i+1:]
	}
	return n
}
