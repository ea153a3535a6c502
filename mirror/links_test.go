package mirror

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/crawlproject/crawl/archive"
)

// linkValues returns the href and src values of the HTML file at p, in
// order, and whether it holds a <base> with an href.
func linkValues(t *testing.T, p string) (vals []string, baseHref bool) {
	t.Helper()
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	z := html.NewTokenizer(bytes.NewReader(src))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return vals, baseHref
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			for _, a := range tok.Attr {
				switch {
				case tok.Data == "base" && a.Key == "href":
					baseHref = true
				case a.Key == "href" || a.Key == "src":
					vals = append(vals, a.Val)
				}
			}
		}
	}
}

// anchors is an HTML page with one <a> per href.
func anchors(hrefs ...string) string {
	var b strings.Builder
	for _, h := range hrefs {
		b.WriteString(`<a href="` + html.EscapeString(h) + `">x</a>`)
	}
	return b.String()
}

// TestMirrorLinksLikeWgetK: links to mirrored URLs become relative paths to
// their files, also when they differ from the fetched URL only by RFC 3986
// section 6.2.2 normalisation or reach it through redirects; relative
// links to what was not mirrored become absolute URLs (wget -k), so that
// opened from disk they do not resolve to file:///...; other links stay.
func TestMirrorLinksLikeWgetK(t *testing.T) {
	dir := t.TempDir()
	var m *Mirror
	w, err := archive.Open(archive.Options{Dir: dir, NewMirror: func(root string) archive.Mirror { m = New(root); return m }})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ href, want string }{
		{"/not-fetched", "http://example.com/not-fetched"},
		{"nf2?q=1#f", "http://example.com/dir/nf2?q=1#f"},
		{"//cdn.example/x.js", "http://cdn.example/x.js"},
		{"https://other.example/", "https://other.example/"},
		{"mailto:a@example.com", "mailto:a@example.com"},
		{"javascript:void(0)", "javascript:void(0)"},
		{"#top", "#top"},
		{"", ""},
		{"home#top", "home#top"},
		// RFC 3986 6.2.2.1, 6.2.2.2, 6.2.2.3 and 6.2.3
		{"/a%2fb", "../a%252Fb"},
		{"/a%2Fb#x", "../a%252Fb#x"},
		{"/x/../y", "../y"},
		{"/x/%2e%2e/y", "../y"},
		{"http://example.com/x/./../y", "../y"},
		{"HTTP://EXAMPLE.COM:80/y", "../y"},
		{"/%79", "../y"},
		// section 2.2: an encoded reserved character is another URL
		{"/a+b", "../a+b"},
		{"/a%2Bb", "../a%25%252Bb"},
		// the scheme is part of the URL
		{"https://example.com/y", "../../example.com@https/y"},
		{"http://example.com/sec", "http://example.com/sec"},
		// redirects, with RFC 9110 10.2.2 fragments
		{"/redir#frag", "../target#frag"},
		{"/redir-frag#mine", "../target#theirs"},
		{"/r2", "../../example.com@https/y"},
		{"/loop", "http://example.com/loop"},
		{"/redir-out", "http://example.com/redir-out"},
	}
	var hrefs []string
	for _, tt := range tests {
		hrefs = append(hrefs, tt.href)
	}
	must := func(e archive.Exchange) {
		t.Helper()
		if err := w.WriteExchange(e); err != nil {
			t.Fatal(err)
		}
	}
	must(page("http://example.com/dir/home", "/dir/home", anchors(hrefs...)))
	for _, u := range []string{"http://example.com/a%2Fb", "http://example.com/y", "http://example.com/target",
		"https://example.com/y", "http://example.com/a+b", "http://example.com/a%2Bb"} {
		must(page(u, "/", "body of "+u))
	}
	m.Redirect("http://example.com/redir", "/target")
	m.Redirect("http://example.com/redir-frag", "target#theirs")
	m.Redirect("http://example.com/r2", "https://example.com/r3")
	m.Redirect("https://example.com/r3", "/y")
	m.Redirect("http://example.com/loop", "/loop2")
	m.Redirect("http://example.com/loop2", "/loop")
	m.Redirect("http://example.com/redir-out", "https://elsewhere.example/")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := linkValues(t, filepath.Join(dir, "mirror", "example.com", "dir", "home"))
	if len(got) != len(tests) {
		t.Fatalf("%d links, want %d: %q", len(got), len(tests), got)
	}
	for i, tt := range tests {
		if got[i] != tt.want {
			t.Errorf("href %q became %q, want %q", tt.href, got[i], tt.want)
		}
	}
	// Every relative link names an existing file, from the page's directory.
	for _, v := range got {
		if v == "" || strings.Contains(v, ":") || strings.HasPrefix(v, "#") || strings.HasPrefix(v, "home") {
			continue
		}
		rel, _, _ := strings.Cut(v, "#")
		p := filepath.Join(dir, "mirror", "example.com", "dir", filepath.FromSlash(strings.ReplaceAll(rel, "%25", "%")))
		if _, err := os.Stat(p); err != nil {
			t.Errorf("link %q: %v", v, err)
		}
	}
}

// TestMirrorBaseHref: links resolve against <base href> (HTML "document
// base URL"), which is then removed, as the rewritten links are relative to
// the file.
func TestMirrorBaseHref(t *testing.T) {
	dir := t.TempDir()
	w, err := archive.Open(options(dir))
	if err != nil {
		t.Fatal(err)
	}
	w.WriteExchange(page("http://example.com/p", "/p",
		`<head><base href="/sub/" target="_top"></head><a href="x">x</a><a href="nf">nf</a><a href="#f">f</a>`))
	w.WriteExchange(page("http://example.com/sub/x", "/sub/x", "x"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, base := linkValues(t, filepath.Join(dir, "mirror", "example.com", "p"))
	if want := []string{"sub/x", "http://example.com/sub/nf", "http://example.com/sub/#f"}; !slices.Equal(got, want) || base {
		t.Errorf("links %q, base href kept: %v; want %q and no base href", got, base, want)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "mirror", "example.com", "p"))
	if !strings.Contains(string(src), `<base target="_top">`) {
		t.Errorf("the base element loses only its href: %s", src)
	}
}

// TestMirrorResumeRewritesEarlierPages: a page of an earlier run follows
// its link targets that were mirrored or moved since, and keeps the links
// that run made relative.
func TestMirrorResumeRewritesEarlierPages(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "mirror", "example.com", "index.html")
	run := func(pages ...archive.Exchange) []string {
		t.Helper()
		w, err := archive.Open(options(dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range pages {
			if err := w.WriteExchange(e); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got, _ := linkValues(t, home)
		return got
	}
	got := run(page("http://example.com/", "/", anchors("/a", "/b?x=1", "/later", "/c%3Bd")),
		page("http://example.com/a", "/a", "a"), page("http://example.com/b?x=1", "/b?x=1", "b"),
		page("http://example.com/c%3Bd", "/c%3Bd", "c"))
	bq := relLink(filepath.Base(mustMirrorPath(t, filepath.Join(dir, "mirror"), "http://example.com/b?x=1")))
	first := []string{"a", bq, "http://example.com/later", "c%25%253Bd"}
	if !slices.Equal(got, first) {
		t.Fatalf("first run: %q, want %q", got, first)
	}
	got = run(page("http://example.com/later", "/later", "later"), page("http://example.com/a/b", "/a/b", "a/b"))
	second := []string{"a@f", bq, "later", "c%25%253Bd"}
	if !slices.Equal(got, second) {
		t.Errorf("second run: %q, want %q", got, second)
	}
	if got = run(); !slices.Equal(got, second) {
		t.Errorf("third run, nothing new: %q, want %q", got, second)
	}
}

// mustMirrorPath is Path of a URL string.
func mustMirrorPath(t *testing.T, root, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Path(root, u)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A link is looked up in one spelling whatever way it, or the stored URL,
// escapes it: the crawler stores "/p'a%20b", "/s?q=caf%C3%A9" and
// "/s?q=it%27s" (as colly sent it) where the page wrote "/p'a b"
// (parseLink keeps its apostrophe, which net/url would escape),
// "/s?q=café" and "/s?q=it's". An escaped reserved character in a path
// ('/', '+', '\”) or '?' or '&' in a query stays escaped: it makes
// another URL (RFC 3986 section 2.2).
func TestMirrorLooseKey(t *testing.T) {
	key := func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		return normKey(u)
	}
	link := func(raw string) string {
		u, err := parseLink(raw)
		if err != nil {
			t.Fatal(err)
		}
		return normKey(u)
	}
	if link("http://a.test/p'a b") != key("http://a.test/p'a%20b") {
		t.Errorf("the link /p'a b is looked up as %q, the crawler's /p'a%%20b as %q", link("http://a.test/p'a b"), key("http://a.test/p'a%20b"))
	}
	for _, same := range [][]string{
		{"http://a.test/s?q=café", "http://a.test/s?q=caf%C3%A9", "http://a.test/s?q=caf%c3%a9"},
		{"http://a.test/s?q=it's", "http://a.test/s?q=it%27s"},
		{"http://a.test/%7Euser", "http://a.test/~user"},
	} {
		for _, raw := range same[1:] {
			if key(raw) != key(same[0]) {
				t.Errorf("%s: key %q; %s: key %q; want one key", same[0], key(same[0]), raw, key(raw))
			}
		}
	}
	for _, apart := range [][2]string{
		{"http://a.test/a%2Fb", "http://a.test/a/b"},
		{"http://a.test/a%2Bb", "http://a.test/a+b"},
		{"http://a.test/p%27q", "http://a.test/p'q"},
		{"http://a.test/s?a=%26b", "http://a.test/s?a=&b"},
		{"http://a.test/s?a=%3Fb", "http://a.test/s?a=?b"},
	} {
		if key(apart[0]) == key(apart[1]) {
			t.Errorf("%s and %s share a key %q", apart[0], apart[1], key(apart[0]))
		}
	}
}
