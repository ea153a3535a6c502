package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/archive"
)

// hostileURLs differ from each other as URLs (also after the normalisation
// of RFC 3986 section 6.2.2) and try every way out of the mirror directory
// or onto another URL's file.
func hostileURLs() []string {
	long := strings.Repeat("x", 8192)
	deep := strings.Repeat("d/", 4096)
	return []string{
		"http://example.com/../../etc/passwd",
		"http://example.com/%2e%2e/%2e%2e/etc/shadow",
		"http://example.com/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
		"http://example.com/a%2f..%2f..%2fb",
		"http://example.com/..",
		"http://example.com/.",
		"http://example.com/...",
		"http://example.com//etc/passwd",
		"http://example.com/%2Fetc%2Fpasswd",
		"http://example.com/C:%5Cwindows%5Cwin.ini",
		"http://example.com/" + long,
		"http://example.com/" + long + "y",
		"http://example.com/" + deep + "leaf",
		"http://example.com/" + deep + "leaf2",
		"http://example.com/page?q=" + long,
		"http://example.com/Page",
		"http://example.com/page",
		"http://example.com/PAGE",
		"http://example.com/page?x=1",
		"http://example.com/page?x=2",
		"http://example.com/page?X=1",
		"http://example.com/nul%00byte",
		"http://example.com/ctl%01%0a%0d%7f",
		"http://example.com/sp%20ace",
		"http://example.com/index@l.html",
		"http://example.com/x%40c123",
		"http://example.com/pct%25",
		"http://example.com/dir/",
		"http://example.com/dir/index.html",
		"http://example.com/dir",
		"http://example.com/a",
		"http://example.com/a/b",
		"http://example.com/c/d",
		"http://example.com/c",
		"http://example.com/v1.2",
		"http://example.com/v1.2/intro.html",
		"http://example.com/",
		"http://example.com:8080/page",
		"http://example.com/CON",
		"http://example.com/caf%C3%A9",
		"http://example.com/%ff%fe",
		// RFC 3986 section 2.2: a reserved character and its
		// percent-encoding are different URLs.
		"http://example.com/a+b",
		"http://example.com/a%2Bb",
		"http://example.com/a%2B%2Bb",
		"http://example.com/a+%2Bb",
		"http://example.com/a%2B+b",
		"http://example.com/s;p",
		"http://example.com/s%3Bp",
		"http://example.com/e=1",
		"http://example.com/e%3D1",
		"http://example.com/Talk:Main",
		"http://example.com/Talk%3AMain",
		"http://example.com/p(1)",
		"http://example.com/p%281%29",
		"http://example.com/at@x",
		"http://example.com/at%40x",
		"http://example.com/a%2Fb",
		"http://example.com/pct%252Fb",
		"http://example.com/pct%25%2Fb",
		"http://example.com/pct%25%2Bb",
		"http://example.com/pct%252Bb",
		// the scheme, the port, user information and an empty query
		"https://example.com/page",
		"https://example.com/",
		"https://example.com:8080/page",
		"http://example.com:80/page",
		"https://example.com:443/page",
		"http://user@example.com/page",
		"http://example.com/page?",
		"http://example.com.https/page",
		"http://example.com_https/page",
		// a leading '.' or '-' is escaped, apart from the escapes a URL
		// can spell
		"http://example.com/.htaccess",
		"http://example.com/%252Ehtaccess",
		"http://example.com/.git/config",
		"http://example.com/-rf",
		"http://example.com/%252Drf",
		"http://example.com/a.-b",
		// names that look like the mirror's marks, and the marks' places
		"http://example.com/a@f",
		"http://example.com/a%40f",
		"http://example.com/index@d.html",
		"http://example.com/index%40d.html",
		"http://example.com/@e/x",
		"http://example.com/@long",
		"http://example.com/logo@2x.png",
		"http://example.com/dir/?q=1",
		"http://example.com/dir/index.html?q=1",
		// a query after '?' with the extension repeated, in its own
		// spelling; a '?' of the path
		"http://example.com/x.css?v=1",
		"http://example.com/x.css?v=1.css",
		"http://example.com/x.css?v=1@f",
		"http://example.com/x.css?v=1%40f",
		"http://example.com/q?a/b",
		"http://example.com/q?a%2Fb",
		"http://example.com/q?a%2fb",
		"http://example.com/q?a%%2Fb",
		"http://example.com/q?a%",
		"http://example.com/q?a%25",
		"http://example.com/a%3Fb",
		"http://example.com/a?b",
		// characters that hide or reorder a name, bytes that are not UTF-8
		"http://example.com/%E2%80%AEgnp.exe",
		"http://example.com/%C2%85",
		"http://example.com/%C3",
		"http://example.com/%C3%A9",
	}
}

func TestMirrorPathStaysInsideAndIsOneToOne(t *testing.T) {
	root := filepath.Join(t.TempDir(), "mirror")
	seen := map[string]string{}
	keys := map[string]string{}
	for _, raw := range hostileURLs() {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		if other, dup := keys[mirrorKey(u)]; dup {
			t.Errorf("%.60q and %.60q share the mirror key %.80q", raw, other, mirrorKey(u))
		}
		keys[mirrorKey(u)] = raw
		p, err := Path(root, u)
		if err != nil {
			t.Errorf("Path(%.60q): %v", raw, err)
			continue
		}
		if !strings.HasPrefix(p, root+string(filepath.Separator)) || filepath.Clean(p) != p {
			t.Errorf("Path(%.60q) = %q escapes %q", raw, p, root)
		}
		rel := strings.TrimPrefix(p, root+string(filepath.Separator))
		if len(rel) > 2100 {
			t.Errorf("Path(%.60q) is %d bytes long", raw, len(rel))
		}
		for _, c := range strings.Split(rel, string(filepath.Separator)) {
			if len(c) > 255 || strings.HasPrefix(c, ".") || strings.HasPrefix(c, "-") || c == "" || strings.ContainsFunc(c, func(r rune) bool { return r < 32 || r == 127 || r == '\\' || r == ':' }) {
				t.Errorf("Path(%.60q): bad component %.80q", raw, c)
			}
		}
		// Distinct byte for byte (the mirror is made for case-sensitive
		// file systems), but for a directory URL and its index.html, which
		// Mirror tells apart (TestMirrorWritesOneFilePerURLInsideDir).
		if other, dup := seen[p]; dup && !dirAndIndex(raw, other) {
			t.Errorf("%.60q and %.60q share %q", raw, other, p)
		}
		seen[p] = raw
	}
}

func TestMirrorPathNames(t *testing.T) {
	root := "/out/mirror"
	tests := []struct{ in, want string }{
		{"http://example.com/", "/out/mirror/example.com/index.html"},
		{"http://example.com", "/out/mirror/example.com/index.html"},
		{"http://example.com/docs/guide.html", "/out/mirror/example.com/docs/guide.html"},
		{"http://example.com:8080/a/", "/out/mirror/example.com_8080/a/index.html"},
		{"http://example.com/%2e%2e/x", "/out/mirror/example.com/%2E%2E/x"},
		{"http://example.com/a%2Fb", "/out/mirror/example.com/a%2Fb"},
		{"http://[::1]:8080/x", "/out/mirror/%3A%3A1_8080/x"},
		{"https://example.com/", "/out/mirror/example.com@https/index.html"},
		{"HTTPS://Example.COM:8443/a", "/out/mirror/example.com_8443@https/a"},
		{"http://example.com/a+b", "/out/mirror/example.com/a+b"},
		{"http://example.com/a%2Bb", "/out/mirror/example.com/a%%2Bb"},
		{"http://example.com/a%2bb", "/out/mirror/example.com/a%%2Bb"},
		{"http://example.com/s;p", "/out/mirror/example.com/s;p"},
		{"http://example.com/s%3Bp", "/out/mirror/example.com/s%%3Bp"},
		{"http://example.com/e%3D1", "/out/mirror/example.com/e%%3D1"},
		{"http://example.com/%7euser/caf%c3%a9", "/out/mirror/example.com/~user/café"},
		{"http://example.com/sp%20ace", "/out/mirror/example.com/sp ace"},
		// no hidden, live server or option names: a leading '.' or '-'
		// is written %2E or %2D, inner ones stay
		{"http://example.com/.htaccess", "/out/mirror/example.com/%2Ehtaccess"},
		{"http://example.com/%2Ehtaccess", "/out/mirror/example.com/%2Ehtaccess"},
		{"http://example.com/.git/config", "/out/mirror/example.com/%2Egit/config"},
		{"http://example.com/.well-known/a.b", "/out/mirror/example.com/%2Ewell-known/a.b"},
		{"http://example.com/-rf", "/out/mirror/example.com/%2Drf"},
		{"http://example.com/%2drf/-", "/out/mirror/example.com/%2Drf/%2D"},
		{"http://example.com/a.-b", "/out/mirror/example.com/a.-b"},
		{"http://example.com/%252ehtaccess", "/out/mirror/example.com/%252ehtaccess"},
		{"http://-x.example/a", "/out/mirror/%2Dx.example/a"},
		{"http://example.com/page.php?id=7", "/out/mirror/example.com/page.php?id=7.php"},
	}
	for _, tt := range tests {
		u, _ := url.Parse(tt.in)
		if got, err := Path(root, u); err != nil || got != tt.want {
			t.Errorf("Path(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, u := range []*url.URL{{Path: "/x"}, {Host: "example.com", Path: "/x"}, {Scheme: "mailto", Opaque: "a@example.com"}} {
		if p, err := Path(root, u); err == nil {
			t.Errorf("Path(%v) = %q, want an error (not absolute with a host)", u, p)
		}
	}
}

// TestMirrorPathRFC3986Normalisation: URLs that RFC 3986 section 6.2.2.1
// (case) and 6.2.2.2 (encoded unreserved characters) make equal share a
// file; they are one URL.
func TestMirrorPathRFC3986Normalisation(t *testing.T) {
	root := "/out/mirror"
	for _, pair := range [][2]string{
		{"http://example.com/a%2fb", "http://example.com/a%2Fb"},
		{"http://example.com/%7Euser", "http://example.com/~user"},
		{"http://example.com/%41%2D%5f", "http://example.com/A-_"},
		{"HTTP://EXAMPLE.COM/x", "http://example.com/x"},
		{"http://example.com/%2e%2e", "http://example.com/.."},
		{"http://example.com/s%3bp", "http://example.com/s%3Bp"},
	} {
		a, _ := url.Parse(pair[0])
		b, _ := url.Parse(pair[1])
		pa, erra := Path(root, a)
		pb, errb := Path(root, b)
		if erra != nil || errb != nil || pa != pb {
			t.Errorf("Path(%q) = %q, %v; Path(%q) = %q, %v; want one file", pair[0], pa, erra, pair[1], pb, errb)
		}
		if mirrorKey(a) != mirrorKey(b) {
			t.Errorf("mirrorKey(%q) = %q, mirrorKey(%q) = %q; want one key", pair[0], mirrorKey(a), pair[1], mirrorKey(b))
		}
	}
}

func TestMirrorWritesOneFilePerURLInsideDir(t *testing.T) {
	dir := t.TempDir()
	w, err := archive.Open(options(dir))
	if err != nil {
		t.Fatal(err)
	}
	urls := hostileURLs()
	bodies := map[string]string{}
	for i, raw := range urls {
		body := fmt.Sprintf("body #%d", i)
		bodies[body] = raw
		if err := w.WriteExchange(page(raw, "/", body)); err != nil {
			t.Fatalf("%.60q: %v", raw, err)
		}
	}
	robots := page("http://example.com/robots.txt", "/robots.txt", "User-agent: *")
	robots.IsRobots = true
	notFound := page("http://example.com/gone", "/gone", "gone")
	notFound.Response = []byte("HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\ngone")
	for _, e := range []archive.Exchange{robots, notFound} {
		if err := w.WriteExchange(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if filepath.Dir(p) == dir {
			if !strings.HasSuffix(p, ".warc.gz") && filepath.Base(p) != archive.IndexName && filepath.Base(p) != archive.JournalName && filepath.Base(p) != archive.LockName {
				t.Errorf("unexpected file %s", p)
			}
			return nil
		}
		if !strings.HasPrefix(p, filepath.Join(dir, "mirror")+"/") {
			t.Errorf("file outside the mirror: %s", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if prev, dup := found[string(data)]; dup {
			t.Errorf("%s and %s hold the same body", p, prev)
		}
		found[string(data)] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for body, raw := range bodies {
		if _, ok := found[body]; !ok {
			t.Errorf("no mirror file for %.60q (overwritten?)", raw)
		}
	}
	if len(found) != len(bodies) {
		t.Errorf("%d mirror files for %d URLs (robots.txt and 404 must not be mirrored)", len(found), len(bodies))
	}
	if _, err := os.Stat(filepath.Join(dir, "..", "etc")); err == nil {
		t.Error("something was written next to the output directory")
	}
}

func TestMirrorDecodesAndRewritesLinks(t *testing.T) {
	dir := t.TempDir()
	w, err := archive.Open(options(dir))
	if err != nil {
		t.Fatal(err)
	}
	home := `<html><body><a href="/a">a</a> <a href="b?x=1#top">b</a> <img src="http://example.com/img/logo.png">` +
		`<a href="/not-fetched">n</a> <a href="https://other.example/">o</a><a href="/sub/">s</a></body></html>`
	zhome := gzipBytes(home)
	e := page("http://example.com/", "/", "")
	e.Response = []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n", len(zhome), zhome))
	must := func(e archive.Exchange) {
		if err := w.WriteExchange(e); err != nil {
			t.Fatal(err)
		}
	}
	must(e)
	must(page("http://example.com/a", "/a", `<a href="/">home</a><a href="a/deeper">d</a>`))
	must(page("http://example.com/a/deeper", "/a/deeper", `<a href="../b?x=1">b</a>`))
	must(page("http://example.com/b?x=1", "/b", "bee"))
	must(page("http://example.com/img/logo.png", "/img/logo.png", "PNG"))
	must(page("http://example.com/sub/", "/sub/", `<a href="..">up</a><a href="HTTP://EXAMPLE.COM#x">home</a>`))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "mirror", "example.com")
	got, err := os.ReadFile(filepath.Join(root, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	bq, _ := Path(filepath.Join(dir, "mirror"), &url.URL{Scheme: "http", Host: "example.com", Path: "/b", RawQuery: "x=1"})
	bName := relLink(filepath.Base(bq))
	for _, want := range []string{`href="a@f"`, `href="` + bName + `#top"`, `src="img/logo.png"`,
		`href="http://example.com/not-fetched"`, `href="https://other.example/"`, `href="sub/index.html"`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("home page lacks %s:\n%s", want, got)
		}
	}
	// /a became a directory prefix when /a/deeper arrived: the file moved to
	// a@f and links to it follow.
	deeper, _ := os.ReadFile(filepath.Join(root, "a", "deeper"))
	if want := `href="../` + bName + `"`; !strings.Contains(string(deeper), want) {
		t.Errorf("a/deeper = %s, want %s", deeper, want)
	}
	a, _ := os.ReadFile(filepath.Join(root, "a@f"))
	if !strings.Contains(string(a), `href="index.html"`) || !strings.Contains(string(a), `href="a/deeper"`) {
		t.Errorf("a@f = %s", a)
	}
	sub, _ := os.ReadFile(filepath.Join(root, "sub", "index.html"))
	if !strings.Contains(string(sub), `href="../index.html"`) || !strings.Contains(string(sub), `href="../index.html#x"`) {
		t.Errorf("sub/index.html = %s", sub)
	}
}

func TestMirrorResumeKeepsEarlierFiles(t *testing.T) {
	dir := t.TempDir()
	w, _ := archive.Open(options(dir))
	w.WriteExchange(page("http://example.com/old", "/old", "old page"))
	w.Close()
	w, err := archive.Open(options(dir))
	if err != nil {
		t.Fatal(err)
	}
	w.WriteExchange(page("http://example.com/new", "/new", `<a href="old">old</a>`))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "mirror", "example.com", "new"))
	if string(got) != `<a href="old">old</a>` {
		t.Errorf("new = %s", got)
	}
	// The link target was mirrored by the first run: rewriting keeps it
	// relative rather than pointing at the web.
	w, _ = archive.Open(options(dir))
	w.WriteExchange(page("http://example.com/x/y", "/x/y", `<a href="/old">old</a>`))
	w.Close()
	got, _ = os.ReadFile(filepath.Join(dir, "mirror", "example.com", "x", "y"))
	if string(got) != `<a href="../old">old</a>` {
		t.Errorf("x/y = %s", got)
	}
}

func FuzzMirrorPath(f *testing.F) {
	for _, u := range hostileURLs() {
		f.Add(u)
	}
	root := "/srv/out/mirror"
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		p, err := Path(root, u)
		if err != nil {
			return
		}
		if !strings.HasPrefix(p, root+"/") || filepath.Clean(p) != p {
			t.Fatalf("Path(%q) = %q", raw, p)
		}
		for i, c := range strings.Split(strings.TrimPrefix(p, root+"/"), "/") {
			if len(c) > 255 || c == "." || c == ".." || strings.ContainsRune(c, 0) || i == 0 && strings.HasPrefix(c, "@") {
				t.Fatalf("Path(%q) component %q", raw, c)
			}
		}
	})
}

func TestMirrorErrorsWrapErrMirror(t *testing.T) {
	dir := t.TempDir()
	w, err := archive.Open(options(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	bad := page("http://example.com/z", "/z", "")
	bad.Response = []byte("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\nnot gzip")
	err = w.WriteExchange(bad)
	if !errors.Is(err, archive.ErrMirror) {
		t.Fatalf("err = %v, want archive.ErrMirror", err)
	}
	w.Close()
	if n := indexLines(t, dir); n != 1 {
		t.Errorf("the WARC records must be kept when only the mirror fails: %d index lines", n)
	}
}

// FuzzMirrorPathOneToOne: two URLs get one name only if they share a
// mirror key, that is only if RFC 3986 section 6.2.2.1 and 6.2.2.2 make
// them equal, or if one is a directory URL and the other names its
// index.html (Mirror.Store tells those apart). Names are compared byte for
// byte: URLs that differ in case only have names that do too.
func FuzzMirrorPathOneToOne(f *testing.F) {
	for _, pair := range [][2]string{
		{"http://h.example/a+b", "http://h.example/a%2Bb"},
		{"http://h.example/x", "https://h.example/x"},
		{"http://h.example/s;p", "http://h.example/s%3bp"},
		{"http://h.example/%7e", "http://h.example/~"},
		{"http://h.example/pct%25%2Bb", "http://h.example/pct%252Bb"},
		{"http://h.example/x?", "http://h.example/x"},
		{"http://h.example/A", "http://h.example/a"},
		{"http://h.example/d/", "http://h.example/d/index.html"},
		{"http://h.example/a@f", "http://h.example/a%40f"},
		{"http://h.example/x.css?v=1", "http://h.example/x.css?v=1.css"},
		{"A://0", "A://0:#000"},
	} {
		f.Add(pair[0], pair[1])
	}
	root := "/srv/out/mirror"
	f.Fuzz(func(t *testing.T, a, b string) {
		ua, err := url.Parse(a)
		if err != nil {
			return
		}
		ub, err := url.Parse(b)
		if err != nil {
			return
		}
		pa, erra := Path(root, ua)
		pb, errb := Path(root, ub)
		if erra != nil || errb != nil {
			return
		}
		if (pa == pb) != (mirrorKey(ua) == mirrorKey(ub)) && !dirAndIndex(a, b) {
			t.Fatalf("%q -> %q (key %q), %q -> %q (key %q)", a, pa, mirrorKey(ua), b, pb, mirrorKey(ub))
		}
	})
}
