package mirror

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/crawlproject/crawl/archive"
)

// TestMirrorFileModes: mirror files, the link-rewritten ones included, are
// created 0644 and directories 0755 (less the umask), as the WARC files
// are, so a web server or another user can read the mirror.
func TestMirrorFileModes(t *testing.T) {
	dir := t.TempDir()
	w, err := archive.Open(options(dir))
	if err != nil {
		t.Fatal(err)
	}
	w.WriteExchange(page("http://example.com/", "/", `<a href="/d/e">e</a>`))
	w.WriteExchange(page("http://example.com/d/e", "/d/e", "e"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ref := t.TempDir()
	f, err := os.OpenFile(filepath.Join(ref, "f"), os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Mkdir(filepath.Join(ref, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	fileMode, dirMode := statMode(t, filepath.Join(ref, "f")), statMode(t, filepath.Join(ref, "d"))
	if warc := statMode(t, warcFiles(t, dir)[0]); warc != fileMode {
		t.Fatalf("WARC file mode %v, want %v", warc, fileMode)
	}
	if fileMode != 0o644 {
		t.Logf("umask leaves files %v", fileMode)
	}
	n := 0
	filepath.WalkDir(filepath.Join(dir, "mirror"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		want := fileMode
		if d.IsDir() {
			want = dirMode
		} else {
			n++
		}
		if got := statMode(t, p); got != want {
			t.Errorf("%s: mode %v, want %v", p, got, want)
		}
		return nil
	})
	if n != 2 {
		t.Errorf("%d mirror files, want 2", n)
	}
	if got, _ := linkValues(t, filepath.Join(dir, "mirror", "example.com", "index.html")); len(got) != 1 || got[0] != "d/e" {
		t.Errorf("index.html links %q: the rewritten file is not the one checked", got)
	}
}

// statMode is the permission bits of p.
func statMode(t *testing.T, p string) fs.FileMode {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

// TestMirrorTempFilesOfACrashAreRemoved: a crash between writing a
// temporary file and renaming it leaves it in mirror/@tmp, a name no host
// directory has; the next Open removes them and Close removes the
// directory, so the mirror holds only pages.
func TestMirrorTempFilesOfACrashAreRemoved(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, "mirror", tmpDirName)
	if err := os.MkdirAll(filepath.Join(tmp, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"1", "2", "sub/3"} {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte("half-written"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := archive.Open(options(dir))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "1")); !os.IsNotExist(err) {
		t.Errorf("a leftover temporary file survived Open: %v", err)
	}
	for _, u := range []string{"http://example.com/", "http://example.com/1", "http://example.com/2"} {
		if err := w.WriteExchange(page(u, "/", `<a href="/1">1</a>`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("%s is left after Close: %v", tmp, err)
	}
	filepath.WalkDir(filepath.Join(dir, "mirror"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p, "@tmp") {
			t.Errorf("temporary file left in the mirror: %s", p)
		}
		if data, _ := os.ReadFile(p); !d.IsDir() && string(data) == "half-written" {
			t.Errorf("%s holds a temporary file's contents", p)
		}
		return nil
	})
}

// TestMirrorTempNameTaken: a temporary file that could not be removed does
// not stop writing and never becomes a page.
func TestMirrorTempNameTaken(t *testing.T) {
	dir := t.TempDir()
	w, err := archive.Open(options(dir))
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "mirror", tmpDirName)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "1"), []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteExchange(page("http://example.com/p", "/p", "fresh")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "mirror", "example.com", "p")); string(got) != "fresh" {
		t.Errorf("p = %q, want fresh", got)
	}
	if got, _ := os.ReadFile(filepath.Join(tmp, "1")); string(got) != "stale" {
		t.Errorf("the stale temporary file was used: %q", got)
	}
}

// TestMirrorConcurrentWriters: pages written from several goroutines each
// get their own file, whole.
func TestMirrorConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	w, err := archive.Open(options(dir))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 25 {
				u := fmt.Sprintf("http://example.com/g%d/%d", g, i)
				if err := w.WriteExchange(page(u, "/", fmt.Sprintf("body %d %d", g, i))); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for g := range 8 {
		for i := range 25 {
			p := filepath.Join(dir, "mirror", "example.com", fmt.Sprintf("g%d", g), fmt.Sprint(i))
			if got, err := os.ReadFile(p); err != nil || string(got) != fmt.Sprintf("body %d %d", g, i) {
				t.Errorf("%s = %q, %v", p, got, err)
			}
		}
	}
}

// TestMirrorNoHiddenOrOptionNames: a site's "/.htaccess", "/.git/config"
// and "/-rf" are mirrored under names that start with neither '.' nor '-'
// (so a web server serving the mirror finds no live .htaccess and a shell
// no option), and the links of the mirrored pages lead to those files.
func TestMirrorNoHiddenOrOptionNames(t *testing.T) {
	dir, w, must := openMirrorWriter(t)
	targets := []string{"/.htaccess", "/.git/config", "/-rf", "/.well-known/-x.txt"}
	must(page("http://example.com/", "/", anchors(targets...)))
	for _, p := range targets {
		must(page("http://example.com"+p, p, "body of "+p))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "mirror")
	files := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if n := d.Name(); strings.HasPrefix(n, ".") || strings.HasPrefix(n, "-") {
			t.Errorf("mirror holds %q", p)
		}
		if !d.IsDir() {
			files++
		}
		return nil
	})
	if files != len(targets)+1 {
		t.Errorf("%d mirror files, want %d", files, len(targets)+1)
	}
	home := filepath.Join(root, "example.com", "index.html")
	got, _ := linkValues(t, home)
	want := []string{"%252Ehtaccess", "%252Egit/config", "%252Drf", "%252Ewell-known/%252Dx.txt"}
	if !slices.Equal(got, want) {
		t.Fatalf("links %q, want %q", got, want)
	}
	for i, v := range got {
		u, err := url.Parse(v)
		if err != nil {
			t.Fatal(err)
		}
		body, err := os.ReadFile(filepath.Join(filepath.Dir(home), filepath.FromSlash(u.Path)))
		if err != nil || string(body) != "body of "+targets[i] {
			t.Errorf("link %q leads to %q, %v", v, body, err)
		}
	}
}
