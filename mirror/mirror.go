package mirror

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/crawlproject/crawl/archive"
)

// maxMirrorRedirects bounds the redirects the mirror remembers for link
// rewriting; later ones are not followed by links.
const maxMirrorRedirects = 1 << 20

// Mirror writes the browsable copy of an archive's 2xx responses under its
// root and rewrites their links at Close. It implements archive.Mirror: a
// Writer calls it after the records concerned are written. It is safe for
// concurrent use. The zero value is not usable: call New.
type Mirror struct {
	root string

	mu        sync.Mutex
	files     map[string]*mirrorFile // by mirrorKey
	byPath    map[string]string      // file path -> mirrorKey
	norm      map[string]string      // normKey -> the least mirrorKey with it
	redirects map[string]*url.URL    // normKey of a redirecting URL -> its target
	// movedFrom maps a path a file was moved away from in this run to the
	// mirrorKey of that file: what the links of earlier runs to the path
	// meant (see movedTo).
	movedFrom map[string]string
	tmpSeq    uint64 // names the temporary files
	tmpMade   bool   // root/@tmp was created by writeFile
}

// mirrorFile is one stored URL.
type mirrorFile struct {
	url  string // as fetched, without fragment: the base of its links
	path string
	html bool
	css  bool // a style sheet (isStyleSheet), whose references are rewritten too
	// dirPage marks the page of a directory URL ("/d/"), which yields its
	// name to "/d/index.html" (see Mirror.place).
	dirPage bool
	// contentType is the response's Content-Type, which names the charset
	// the page's links are read in (with its <meta>; pageenc.Of).
	contentType string
	// recalled marks a file of an earlier run: its links may have been
	// rewritten already.
	recalled bool
}

// New returns the mirror under root. It removes the temporary files a
// crash may have left in root/@tmp, so the caller must hold the output
// directory's lock (archive.Open calls Options.NewMirror holding it): no
// other writer is then using them. Should removing them fail, the
// leftovers stay in root/@tmp, where they cannot be mistaken for pages,
// and new temporary files take other names.
func New(root string) *Mirror {
	os.RemoveAll(filepath.Join(root, tmpDirName))
	return &Mirror{root: root, files: make(map[string]*mirrorFile), byPath: make(map[string]string),
		norm: make(map[string]string), redirects: make(map[string]*url.URL), movedFrom: make(map[string]string)}
}

// isHTML reports whether a media type is an HTML document.
func isHTML(mt string) bool {
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// mediaType returns the lower-cased type/subtype of a Content-Type value.
func mediaType(contentType string) string {
	t, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

// Recall registers a URL mirrored by an earlier run, if its file exists,
// so that links lead to it and Close rewrites its links again. The file is
// looked for where Store may have put it: at Path or at its variant (see
// Mirror.place), the variant first for a directory URL, whose Path may
// hold the page of the URL that names it.
func (m *Mirror) Recall(rawURL, contentType string) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return
	}
	p, err := Path(m.root, u)
	if err != nil {
		return
	}
	dirPage := isDirPage(u)
	cands := []string{p, variant(p, false)}
	if dirPage {
		cands = []string{variant(p, true), p}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	key := mirrorKey(u)
	for _, cand := range cands {
		if other, ok := m.byPath[cand]; ok && other != key {
			continue
		}
		if st, err := os.Stat(cand); err == nil && st.Mode().IsRegular() {
			mt := mediaType(contentType)
			m.register(u, key, &mirrorFile{path: cand, html: isHTML(mt), css: isStyleSheet(mt, u), dirPage: dirPage,
				contentType: contentType, recalled: true})
			return
		}
	}
}

// register records f as the file of u, whose mirrorKey is key. Callers
// hold m.mu.
func (m *Mirror) register(u *url.URL, key string, f *mirrorFile) {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	f.url = c.String()
	m.files[key] = f
	m.byPath[f.path] = key
	nk := normKey(u)
	if cur, ok := m.norm[nk]; !ok || key < cur {
		m.norm[nk] = key
	}
}

// Store writes the decoded payload of a 2xx response to its mirror file:
// at its Path, unless another URL needs that name, in which case one of
// the two takes a variant, the same whatever order they come in ("/a"
// beside "/a/b" is "a@f", "/d/" beside "/d/index.html" is
// "d/index@d.html"). Bodies with a coding it cannot undo (zstd, ...) are
// left out. The payload of a truncated response is decoded as far as it
// goes. A refetch of a URL replaces its own file.
func (m *Mirror) Store(resp archive.MirrorResponse) error {
	u, err := url.Parse(resp.URL)
	if err != nil {
		return fmt.Errorf("mirror: %s: %w", resp.URL, err)
	}
	body, err := decodeBody(resp)
	if resp.Truncated && err != nil && !errors.Is(err, errUnsupportedCoding) && len(body) > 0 {
		err = nil // its end is missing, as the record says
	}
	if errors.Is(err, errUnsupportedCoding) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("mirror: %s: %w", resp.URL, err)
	}
	p, err := Path(m.root, u)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	key := mirrorKey(u)
	if old, ok := m.files[key]; ok {
		p = old.path // a refetch replaces its own file only
	} else if p, err = m.place(p, isDirPage(u)); err != nil {
		return err
	}
	if err := m.writeFile(p, body); err != nil {
		return fmt.Errorf("mirror: %s: %w", resp.URL, err)
	}
	mt := mediaType(resp.ContentType)
	m.register(u, key, &mirrorFile{path: p, html: isHTML(mt), css: isStyleSheet(mt, u), dirPage: isDirPage(u),
		contentType: resp.ContentType})
	return nil
}

// Redirect records that fromURL answered with a redirect to location
// (resolved against fromURL), so that links to fromURL lead to the file of
// the URL it redirects to, if that was mirrored. A Writer calls it for
// each complete 3xx response with a Location, and Open for each such
// response of an earlier run.
func (m *Mirror) Redirect(fromURL, location string) {
	from, err := url.Parse(fromURL)
	if err != nil || strings.TrimSpace(location) == "" {
		return
	}
	ref, err := parseLink(location)
	if err != nil {
		return
	}
	to := from.ResolveReference(ref)
	m.mu.Lock()
	defer m.mu.Unlock()
	nk := normKey(from)
	if _, ok := m.redirects[nk]; ok || len(m.redirects) < maxMirrorRedirects {
		m.redirects[nk] = to
	}
}

// Close rewrites the links of every mirrored HTML file (see rewriteLinks)
// and removes root/@tmp. Call it after the last Store.
func (m *Mirror) Close() error { return m.rewriteLinks() }
