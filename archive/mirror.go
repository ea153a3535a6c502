package archive

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// maxMirrorBody caps a decoded mirror file, so a compression bomb cannot
// fill the disk; larger bodies stay in the WARC only.
const maxMirrorBody = 256 << 20

// fileTag marks a mirror file moved aside because a directory of its name
// is needed (or already exists): "a" becomes "a@f", "v1.2" "v1@f.2". No
// MirrorPath name carries it.
const fileTag = "@f"

// fileVariant is p with fileTag inserted before its extension.
func fileVariant(p string) string {
	return filepath.Join(filepath.Dir(p), withTags(filepath.Base(p), fileTag))
}

// tmpDirName is the directory below the mirror root that holds files being
// written, before they are renamed into place. No host directory can have
// this name ('@' never starts one), so a leftover is never taken for a
// page; newMirror empties it and Close removes it.
const tmpDirName = "@tmp"

// maxMirrorRedirects bounds the redirects the mirror remembers for link
// rewriting; later ones are not followed by links.
const maxMirrorRedirects = 1 << 20

// mirror writes the browsable copy. It is safe for concurrent use.
type mirror struct {
	root string

	mu        sync.Mutex
	files     map[string]*mirrorFile // by mirrorKey
	byPath    map[string]string      // file path -> mirrorKey
	norm      map[string]string      // normKey -> the least mirrorKey with it
	redirects map[string]*url.URL    // normKey of a redirecting URL -> its target
	tmpSeq    uint64                 // names the temporary files
	tmpMade   bool                   // root/@tmp was created by writeFile
}

// mirrorFile is one stored URL.
type mirrorFile struct {
	url  string // as fetched, without fragment: the base of its links
	path string
	html bool
	// contentType is the response's Content-Type, which names the charset
	// the page's links are read in (with its <meta>; pageenc.Of).
	contentType string
	// recalled marks a file of an earlier run: its links may have been
	// rewritten already.
	recalled bool
}

// newMirror returns the mirror under root. It removes the temporary files
// a crash may have left in root/@tmp; the caller holds the directory lock,
// so no other writer is using them. Should that fail, the leftovers stay
// in root/@tmp, where they cannot be mistaken for pages, and new temporary
// files take other names.
func newMirror(root string) *mirror {
	os.RemoveAll(filepath.Join(root, tmpDirName))
	return &mirror{root: root, files: make(map[string]*mirrorFile), byPath: make(map[string]string),
		norm: make(map[string]string), redirects: make(map[string]*url.URL)}
}

// isHTML reports whether a media type is an HTML document.
func isHTML(mt string) bool {
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// recall registers a URL mirrored by an earlier run, if its file exists.
func (m *mirror) recall(rawURL, contentType string) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return
	}
	p, err := MirrorPath(m.root, u)
	if err != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, cand := range []string{p, fileVariant(p)} {
		if st, err := os.Stat(cand); err == nil && st.Mode().IsRegular() {
			m.register(u, mirrorKey(u), &mirrorFile{path: cand, html: isHTML(mediaType(contentType)), contentType: contentType, recalled: true})
			return
		}
	}
}

// register records f as the file of u, whose mirrorKey is key. Callers
// hold m.mu.
func (m *mirror) register(u *url.URL, key string, f *mirrorFile) {
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

// store writes the decoded payload of a 2xx response to its mirror file.
// Bodies with a coding it cannot undo (br, zstd, ...) are left out. The
// payload of a truncated response is decoded as far as it goes.
func (m *mirror) store(rawURL string, head *httpHead, payload []byte, truncated bool) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return fmt.Errorf("%w %s: %w", ErrMirror, rawURL, err)
	}
	body, err := decodeBody(head, payload)
	if truncated && err != nil && !errors.Is(err, errUnsupportedCoding) && len(body) > 0 {
		err = nil // its end is missing, as the record says
	}
	if errors.Is(err, errUnsupportedCoding) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w %s: %w", ErrMirror, rawURL, err)
	}
	p, err := MirrorPath(m.root, u)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrMirror, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	key := mirrorKey(u)
	if old, ok := m.files[key]; ok {
		p = old.path // a refetch replaces its own file only
	} else if p, err = m.makeRoom(p); err != nil {
		return err
	}
	if err := m.writeFile(p, body); err != nil {
		return fmt.Errorf("%w %s: %w", ErrMirror, rawURL, err)
	}
	ct := head.get("Content-Type")
	m.register(u, key, &mirrorFile{path: p, html: isHTML(mediaType(ct)), contentType: ct})
	return nil
}

// redirect records that fromURL answered with a redirect to location
// (resolved against fromURL), so that links to fromURL lead to the file of
// the URL it redirects to, if that was mirrored. WriteExchange calls it for
// each complete 3xx response with a Location, and Open for each such
// response of an earlier run.
func (m *mirror) redirect(fromURL, location string) {
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

// makeRoom creates p's parent directories. A regular file standing where a
// directory is needed moves to its fileVariant; if p itself is already a
// directory, the file is stored as fileVariant(p). Callers hold m.mu.
func (m *mirror) makeRoom(p string) (string, error) {
	rel, err := filepath.Rel(m.root, filepath.Dir(p))
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrMirror, err)
	}
	dir := m.root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		dir = filepath.Join(dir, part)
		st, err := os.Lstat(dir)
		if err == nil && !st.IsDir() {
			if err := m.move(dir, fileVariant(dir)); err != nil {
				return "", err
			}
		} else if err != nil && !os.IsNotExist(err) {
			return "", fmt.Errorf("%w: %w", ErrMirror, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("%w: %w", ErrMirror, err)
	}
	if st, err := os.Lstat(p); err == nil && st.IsDir() {
		return fileVariant(p), nil
	}
	return p, nil
}

// move renames a mirrored file and updates the maps. Callers hold m.mu.
func (m *mirror) move(from, to string) error {
	if err := os.Rename(from, to); err != nil {
		return fmt.Errorf("%w: %w", ErrMirror, err)
	}
	if key, ok := m.byPath[from]; ok {
		delete(m.byPath, from)
		m.byPath[to] = key
		m.files[key].path = to
	}
	return nil
}

// errUnsupportedCoding marks a body the mirror cannot decode.
var errUnsupportedCoding = errors.New("archive: unsupported content coding")

// decodeBody undoes chunked transfer coding and gzip/deflate content coding.
func decodeBody(head *httpHead, payload []byte) ([]byte, error) {
	var r io.Reader = bytes.NewReader(payload)
	if strings.Contains(strings.ToLower(head.get("Transfer-Encoding")), "chunked") {
		r = httputil.NewChunkedReader(r)
	}
	switch strings.ToLower(strings.TrimSpace(head.get("Content-Encoding"))) {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("gzip body: %w", err)
		}
		r = zr
	case "deflate":
		data, err := io.ReadAll(io.LimitReader(r, maxMirrorBody+1))
		if err != nil {
			return nil, fmt.Errorf("deflate body: %w", err)
		}
		if zr, err := zlib.NewReader(bytes.NewReader(data)); err == nil {
			r = zr
		} else {
			r = flate.NewReader(bytes.NewReader(data))
		}
	default:
		return nil, errUnsupportedCoding
	}
	body, err := io.ReadAll(io.LimitReader(r, maxMirrorBody+1))
	if err != nil {
		return body, fmt.Errorf("decode body: %w", err) // what decoded, for a truncated body
	}
	if len(body) > maxMirrorBody {
		return nil, errUnsupportedCoding
	}
	return body, nil
}

// writeFile writes data to a temporary file in root/@tmp and renames it to
// p, so p holds either its old or its new contents. Files are created
// 0644 and directories 0755 (less the umask), as the WARC files are, so a
// web server or another user can read the mirror. Callers hold m.mu.
func (m *mirror) writeFile(p string, data []byte) error {
	dir := filepath.Join(m.root, tmpDirName)
	if !m.tmpMade {
		// Once, not per page: only removeTmpDir (at Close) removes it.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		m.tmpMade = true
	}
	var tmp *os.File
	for tries := 0; tmp == nil; tries++ {
		m.tmpSeq++
		f, err := os.OpenFile(filepath.Join(dir, strconv.FormatUint(m.tmpSeq, 10)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrNotExist) && tries < 100 {
			// @tmp was removed behind our back: make it again.
			if err = os.MkdirAll(dir, 0o755); err == nil {
				continue
			}
		}
		if err != nil && (!errors.Is(err, fs.ErrExist) || tries == 100) {
			return err
		}
		tmp = f
	}
	return renameTemp(tmp, data, p, false)
}

// removeTmpDir removes root/@tmp if it is empty. Callers hold m.mu.
func (m *mirror) removeTmpDir() {
	os.Remove(filepath.Join(m.root, tmpDirName))
	m.tmpMade = false
}

// mirrorKey names u in the mirror's table: one key per mirror file. It is
// u without fragment, scheme and host in lower case, the path in the form
// MirrorPath reads it (canonicalPath; empty written "/"), the query as is.
func mirrorKey(u *url.URL) string { return urlKey(u, false) }

// normKey is the key a link is looked up by when no file has its exact
// mirrorKey: mirrorKey after the rest of RFC 3986 section 6.2.2 and 6.2.3,
// that is dot segments removed (5.2.4), the default port (80 for http, 443
// for https) dropped, path and query in one spelling of their escapes
// (looseEscapes) and an empty query dropped.
func normKey(u *url.URL) string { return urlKey(u, true) }

// urlKey builds mirrorKey, or normKey when norm is set.
func urlKey(u *url.URL, norm bool) string {
	scheme := strings.ToLower(u.Scheme)
	if u.Opaque != "" {
		return scheme + ":" + u.Opaque
	}
	host := strings.TrimSuffix(strings.ToLower(u.Host), ":") // an empty port is none (6.2.3)
	p := canonicalPath(u.EscapedPath())
	if p == "" {
		p = "/"
	}
	query := rawQuery(u)
	if norm {
		if port := u.Port(); scheme == "http" && port == "80" || scheme == "https" && port == "443" {
			host = strings.TrimSuffix(host, ":"+port)
		}
		p = removeDotSegments(looseEscapes(p, "/", ""))
		query = ""
		if u.RawQuery != "" {
			query = "?" + looseEscapes(u.RawQuery, "/?", "'")
		}
	}
	var b strings.Builder
	b.WriteString(scheme + "://")
	if u.User != nil {
		b.WriteString(u.User.String() + "@")
	}
	b.WriteString(host)
	b.WriteString(p)
	b.WriteString(query)
	return b.String()
}

// removeDotSegments applies RFC 3986 section 5.2.4 to a canonical path
// (where "%2E" is already '.').
func removeDotSegments(p string) string {
	if !strings.HasPrefix(p, "/") || !strings.Contains(p, ".") {
		return p
	}
	in := strings.Split(p[1:], "/")
	out := make([]string, 0, len(in))
	for i, s := range in {
		last := i == len(in)-1
		switch s {
		case ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
			continue
		}
		if last {
			out = append(out, "")
		}
	}
	return "/" + strings.Join(out, "/")
}
