package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// fixtureDir is where the report fixtures live, relative to this package.
const fixtureDir = "../testdata/report"

// screenshotDir holds a real demo crawl's output, trimmed to a few sites,
// that docs/report.png is rendered from.
const screenshotDir = "testdata/screenshot"

// copyFixture copies testdata/report/name into a fresh temporary directory
// and returns it.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	return copyDir(t, filepath.Join(fixtureDir, name))
}

// copyDir copies the files of src (not its subdirectories or HTML pages)
// into a fresh temporary directory and returns it.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".html") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// writeAndParse runs Write on a copy of the fixture and returns the raw page
// and its parsed document.
func writeAndParse(t *testing.T, fixture string) (string, *html.Node) {
	t.Helper()
	dir := copyFixture(t, fixture)
	if err := Write(dir); err != nil {
		t.Fatalf("Write: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b), doc
}

// attr returns n's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// hasClass reports whether n's class list contains c.
func hasClass(n *html.Node, c string) bool {
	for _, f := range strings.Fields(attr(n, "class")) {
		if f == c {
			return true
		}
	}
	return false
}

// findAll returns the element nodes under n (n included) for which match holds.
func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

// byID returns the element with id, or nil.
func byID(doc *html.Node, id string) *html.Node {
	all := findAll(doc, func(n *html.Node) bool { return attr(n, "id") == id })
	if len(all) == 0 {
		return nil
	}
	return all[0]
}

// text returns the text content of n.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// hostSections maps data-host to the host's section element.
func hostSections(doc *html.Node) map[string]*html.Node {
	out := make(map[string]*html.Node)
	for _, s := range findAll(doc, func(n *html.Node) bool { return n.Data == "section" && hasClass(n, "host") }) {
		out[attr(s, "data-host")] = s
	}
	return out
}

// isMark matches the timeline's request marks.
func isMark(n *html.Node) bool { return hasClass(n, "req") }
