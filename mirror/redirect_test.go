package mirror

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/archive"
)

// redirectExchange is a 301 from url to location, as received.
func redirectExchange(url, path, location string) archive.Exchange {
	e := page(url, path, "")
	e.Response = []byte("HTTP/1.1 301 Moved Permanently\r\nLocation: " + location + "\r\nContent-Length: 0\r\n\r\n")
	return e
}

// A link to a URL that redirected leads to the mirror file of its target,
// as wget -k does, whether the redirect was archived in this run or in an
// earlier one (its Location is kept in the journal and read back from the
// WARC file).
func TestMirrorLinksFollowArchivedRedirects(t *testing.T) {
	for _, resumed := range []bool{false, true} {
		name := "same run"
		if resumed {
			name = "earlier run"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := archive.Open(options(dir))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteExchange(redirectExchange("http://example.com/old", "/old", "/new/place")); err != nil {
				t.Fatal(err)
			}
			if resumed {
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				if w, err = archive.Open(options(dir)); err != nil {
					t.Fatal(err)
				}
			}
			for _, e := range []archive.Exchange{
				page("http://example.com/new/place", "/new/place", "the target"),
				page("http://example.com/links", "/links", `<a href="/old">o</a> <a href="old#f">f</a>`),
			} {
				if err := w.WriteExchange(e); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			root := filepath.Join(dir, "mirror", "example.com")
			if _, err := os.Stat(filepath.Join(root, "old")); !os.IsNotExist(err) {
				t.Errorf("a redirect has no mirror file of its own: %v", err)
			}
			got, err := os.ReadFile(filepath.Join(root, "links"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`href="new/place"`, `href="new/place#f"`} {
				if !strings.Contains(string(got), want) {
					t.Errorf("links = %s, want %s", got, want)
				}
			}
		})
	}
}
