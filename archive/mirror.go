package archive

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
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

// mirror writes the browsable copy. It is safe for concurrent use.
type mirror struct {
	root string

	mu     sync.Mutex
	files  map[string]*mirrorFile // by URL without fragment
	byPath map[string]string      // file path -> URL
}

// mirrorFile is one stored URL.
type mirrorFile struct {
	path string
	html bool
}

func newMirror(root string) *mirror {
	return &mirror{root: root, files: make(map[string]*mirrorFile), byPath: make(map[string]string)}
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
			key := mirrorKey(u)
			m.files[key] = &mirrorFile{path: cand, html: isHTML(mediaType(contentType))}
			m.byPath[cand] = key
			return
		}
	}
}

// store writes the decoded payload of a 2xx response to its mirror file.
// Bodies with a coding it cannot undo (br, zstd, ...) are left out.
func (m *mirror) store(rawURL string, head *httpHead, payload []byte) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return fmt.Errorf("%w %s: %w", ErrMirror, rawURL, err)
	}
	body, err := decodeBody(head, payload)
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
	if err := writeFileAtomic(p, body); err != nil {
		return fmt.Errorf("%w %s: %w", ErrMirror, rawURL, err)
	}
	m.files[key] = &mirrorFile{path: p, html: isHTML(mediaType(head.get("Content-Type")))}
	m.byPath[p] = key
	return nil
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
		return nil, fmt.Errorf("decode body: %w", err)
	}
	if len(body) > maxMirrorBody {
		return nil, errUnsupportedCoding
	}
	return body, nil
}

// writeFileAtomic writes data to a temporary file beside p and renames it.
func writeFileAtomic(p string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(p), "@tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// mirrorKey names u in the mirror's table: no fragment, scheme and host in
// lower case, an empty path written "/", so that a link and a fetched URL
// that differ only in those ways meet.
func mirrorKey(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	c.Scheme, c.Host = strings.ToLower(c.Scheme), strings.ToLower(c.Host)
	if c.Path == "" && c.Opaque == "" {
		c.Path, c.RawPath = "/", ""
	}
	return c.String()
}
