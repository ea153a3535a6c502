package mirror

import (
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/crawlproject/crawl/archive"
)

// TestMirrorNamesLikeWget: a file is named after its URL's own path, as
// wget --mirror names it on a POSIX system (wget 1.21, its default
// --restrict-file-names=unix), wherever that name is safe; where the
// mirror's name differs, the table says why.
func TestMirrorNamesLikeWget(t *testing.T) {
	tests := []struct {
		url  string
		want string // below root/example.com
		wget string // wget's name where it differs, and why
	}{
		// the kinds of names a real documentation site has
		{"/3/tutorial/index.html", "3/tutorial/index.html", ""},
		{"/3/genindex-A.html", "3/genindex-A.html", ""},
		{"/3/genindex-_.html", "3/genindex-_.html", ""},
		{"/3/library/os.path.html", "3/library/os.path.html", ""},
		{"/3/c-api/", "3/c-api/index.html", ""},
		{"/3/", "3/index.html", ""},
		{"/", "index.html", ""},
		{"/3/_images/logo@2x.png", "3/_images/logo@2x.png", ""},
		{"/3/img/caf%C3%A9%20noir.png", "3/img/café noir.png", ""},
		{"/~user/CV%20(2024).pdf", "~user/CV (2024).pdf", ""},
		{"/p(1);v=2,x+y", "p(1);v=2,x+y", ""},
		{"/a%2Fb", "a%2Fb", ""},
		{"/ctl%01%7F", "ctl%01%7F", ""},
		{"/search?q=x&p=2", "search?q=x&p=2", ""},
		{"/s?q=caf%C3%A9", "s?q=caf%C3%A9", ""},
		// a query: the path's extension again after it, as wget -E
		// writes pages and sheets, so that a static server types it
		{"/3/_static/pydoctheme.css?2022.1", "3/_static/pydoctheme.css?2022.1.css", "pydoctheme.css?2022.1, served untyped"},
		{"/3/_static/doctools.js?v=baaebd52", "3/_static/doctools.js?v=baaebd52.js", "doctools.js?v=baaebd52, served untyped"},
		{"/page.html?lang=en", "page.html?lang=en.html", "page.html?lang=en, served untyped"},
		{"/?lang=en", "index.html?lang=en.html", "index.html?lang=en, served untyped"},
		// names that are not safe as they are
		{"/.htaccess", "%2Ehtaccess", ".htaccess, a hidden and live server file"},
		{"/-rf", "%2Drf", "-rf, an option to a shell command"},
		{"/Talk:Main", "Talk%3AMain", "Talk:Main, an NTFS stream"},
		{"/100%25", "100%25", "100%, the escape character"},
		{"/a%3Fb", "a%3Fb", "a?b, the name of /a?b"},
		{"/%E2%80%AEgnp.exe", "%E2%80%AEgnp.exe", "a name shown as exe.png"},
		{"/%FF", "%FF", "a byte that is not UTF-8"},
		{"/q?u=http://x/y", "q?u=http%%3A%%2F%%2Fx%%2Fy", "a query with '/' makes directories"},
		// URLs that wget gives one name but RFC 3986 section 2.2 two
		{"/a%2Bb", "a%%2Bb", "a+b, the name of /a+b"},
		{"/x%40y", "x%%40y", "x@y, the name of /x@y"},
		// names that look like the mirror's own marks
		{"/a@f", "a%40f", "a@f, the name of /a moved aside for /a/"},
		{"/d/index@d.html", "d/index%40d.html", "index@d.html, the name of /d/ moved aside"},
		{"/@e/x", "%40e/x", "@e/x, the name of //x"},
		{"/p?x@f", "p?x%%40f", "p?x@f, the name of /p?x moved aside"},
	}
	root := "/out/mirror"
	for _, tt := range tests {
		u, err := url.Parse("http://example.com" + tt.url)
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(root, "example.com", filepath.FromSlash(tt.want))
		if got, err := Path(root, u); err != nil || got != want {
			t.Errorf("Path(%q) = %q, %v; want %q (wget: %s)", tt.url, got, err, want, orSame(tt.wget))
		}
	}
}

// dirAndIndex reports whether one of two URLs is a directory URL ("/d/",
// "/d/?q") and the other names its index.html ("/d/index.html",
// "/d/index.html?q"): the one pair of URLs Path gives one name, which
// Mirror.Store tells apart.
func dirAndIndex(a, b string) bool {
	ua, erra := url.Parse(a)
	ub, errb := url.Parse(b)
	if erra != nil || errb != nil || isDirPage(ua) == isDirPage(ub) {
		return false
	}
	if isDirPage(ub) {
		ua, ub = ub, ua
	}
	withIndex := *ua
	withIndex.Path += "index.html"
	if withIndex.RawPath != "" {
		withIndex.RawPath += "index.html"
	}
	return mirrorKey(&withIndex) == mirrorKey(ub)
}

// orSame is a table's wget column, "" read as the same name.
func orSame(s string) string {
	if s == "" {
		return "the same"
	}
	return s
}

// collisionURLs are URLs that need one name two or three at a time: a
// directory URL and the URL of its index.html; a file and a directory of
// its name; both at once.
var collisionURLs = []string{
	"http://example.com/d/",
	"http://example.com/d/index.html",
	"http://example.com/a",
	"http://example.com/a/b",
	"http://example.com/v/",
	"http://example.com/v/index.html",
	"http://example.com/v/index.html/x",
	"http://example.com/q/?s=1",
	"http://example.com/q/index.html?s=1",
}

// collisionNames is where collisionURLs are stored: the URL that names a
// file keeps it; a directory keeps its name beside a file; the other
// takes a variant.
var collisionNames = map[string]string{
	"d/index.html":            "http://example.com/d/index.html",
	"d/index@d.html":          "http://example.com/d/",
	"a@f":                     "http://example.com/a",
	"a/b":                     "http://example.com/a/b",
	"v/index@d.html":          "http://example.com/v/",
	"v/index@f.html":          "http://example.com/v/index.html",
	"v/index.html/x":          "http://example.com/v/index.html/x",
	"q/index.html?s=1.html":   "http://example.com/q/index.html?s=1",
	"q/index.html?s=1@d.html": "http://example.com/q/?s=1",
}

// TestMirrorCollisionsTakeASuffixInAnyOrder: only URLs that would share a
// name get a suffix, and which one does is the same whatever order the
// URLs come in, within a run or across resumed runs; the links of a page
// follow.
func TestMirrorCollisionsTakeASuffixInAnyOrder(t *testing.T) {
	n := len(collisionURLs)
	orders := [][]string{collisionURLs, reversed(collisionURLs)}
	for shift := 1; shift < n; shift += 2 {
		orders = append(orders, append(append([]string(nil), collisionURLs[shift:]...), collisionURLs[:shift]...))
	}
	for _, order := range orders {
		dir, w, must := openMirrorWriter(t)
		for _, u := range order {
			must(page(u, "/", "body of "+u+" "+anchors(collisionURLs...)))
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		checkCollisionNames(t, filepath.Join(dir, "mirror", "example.com"), order[0])
	}
}

// TestMirrorCollisionsOnResume: URLs stored one per run, each run
// resuming the last, end with the names of one run storing them all.
func TestMirrorCollisionsOnResume(t *testing.T) {
	for _, order := range [][]string{collisionURLs, reversed(collisionURLs)} {
		dir := t.TempDir()
		for _, u := range order {
			w, err := archive.Open(options(dir))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteExchange(page(u, "/", "body of "+u+" "+anchors(collisionURLs...))); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}
		checkCollisionNames(t, filepath.Join(dir, "mirror", "example.com"), order[0]+" one per run")
	}
}

// checkCollisionNames fails unless the host directory hdir holds exactly
// collisionNames, each with the body of its URL and with links that lead
// from it to each URL's file.
func checkCollisionNames(t *testing.T, hdir, order string) {
	t.Helper()
	files := filesUnder(t, hdir)
	for name, u := range collisionNames {
		if body, ok := files[name]; !ok || !strings.HasPrefix(body, "body of "+u+" ") {
			t.Errorf("from %s on: %s holds %.50q, want the body of %s", order, name, body, u)
		}
	}
	if len(files) != len(collisionNames) {
		t.Errorf("from %s on: files %q, want %d", order, keys(files), len(collisionNames))
	}
	byURL := map[string]string{}
	for name, u := range collisionNames {
		byURL[u] = name
	}
	for name := range collisionNames {
		links, _ := linkValues(t, filepath.Join(hdir, filepath.FromSlash(name)))
		for i, l := range links {
			target, err := url.PathUnescape(l)
			want := byURL[collisionURLs[i]]
			if got, _ := filepath.Rel(hdir, filepath.Join(hdir, filepath.Dir(name), target)); err != nil || filepath.ToSlash(got) != want {
				t.Errorf("from %s on: %s links %s as %q, not to %s", order, name, collisionURLs[i], l, want)
			}
		}
	}
}

// filesUnder maps the slash-separated path of each regular file under dir
// to its contents.
func filesUnder(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// keys returns a map's keys.
func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// reversed returns a reversed copy of s.
func reversed(s []string) []string {
	r := make([]string, len(s))
	for i, v := range s {
		r[len(s)-1-i] = v
	}
	return r
}

// TestMirrorLongNamesStayUTF8: a name cut to maxComponent bytes is cut
// between characters and between escapes, so it stays UTF-8 and every
// escape whole, and two long names that differ only at their ends stay
// apart.
func TestMirrorLongNamesStayUTF8(t *testing.T) {
	seen := map[string]string{}
	for _, seg := range []string{
		strings.Repeat("%C3%A9", 150),
		strings.Repeat("%C3%A9", 150) + "x",
		"a" + strings.Repeat("%E2%82%AC", 100) + ".html",
		"ab" + strings.Repeat("%E2%82%AC", 100) + ".html",
		strings.Repeat("%2B", 120),
		"x" + strings.Repeat("%2B", 120),
	} {
		u, _ := url.Parse("http://example.com/" + seg)
		p, err := Path("/out/mirror", u)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		if len(name) > maxComponent || !utf8.ValidString(name) || !hashMark.MatchString(strings.TrimSuffix(name, ".html")) {
			t.Errorf("%.30q...: name %q (%d bytes)", seg, name, len(name))
		}
		stem := name[:strings.Index(name, hashTag)]
		if i := strings.LastIndexByte(stem, '%'); i >= 0 && i > len(stem)-3 {
			t.Errorf("%.30q...: name %q cuts an escape", seg, name)
		}
		if other, dup := seen[name]; dup {
			t.Errorf("%.30q... and %.30q... share %q", seg, other, name)
		}
		seen[name] = seg
	}
}
