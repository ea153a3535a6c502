package mirror

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// variant is the name the file p takes when it yields its name: with
// dirPageTag for the page of a directory URL, else with fileTag, inserted
// before its extension. No Path name carries either mark.
func variant(p string, dirPage bool) string {
	tag := fileTag
	if dirPage {
		tag = dirPageTag
	}
	return filepath.Join(filepath.Dir(p), withTags(filepath.Base(p), tag))
}

// tmpDirName is the directory below the mirror root that holds files being
// written, before they are renamed into place. No host directory can have
// this name ('@' never starts one), so a leftover is never taken for a
// page; New empties it and Close removes it.
const tmpDirName = "@tmp"

// place returns the file a URL that has none yet is stored in: its Path
// p, after making room for it. The names Path gives are one-to-one but
// for two collisions, resolved the same whatever order the URLs come in:
//   - A file and a directory of one name ("/a" and "/a/b"): the directory
//     keeps the name and the file moves to its variant ("a@f"), now or
//     when the directory is first needed (see makeRoom).
//   - A directory URL and the URL that names its index.html ("/d/" and
//     "/d/index.html"): the URL that names the file keeps it, and the
//     directory's page moves to its variant ("d/index@d.html").
//
// dirPage tells whether the URL is a directory URL (isDirPage). Callers
// hold m.mu.
func (m *Mirror) place(p string, dirPage bool) (string, error) {
	p, err := m.makeRoom(p, dirPage)
	if err != nil {
		return "", err
	}
	key, taken := m.byPath[p]
	switch {
	case !taken:
	case dirPage:
		p = variant(p, true)
	case m.files[key].dirPage:
		if err := m.move(p, variant(p, true)); err != nil {
			return "", err
		}
	}
	return p, nil
}

// makeRoom creates p's parent directories. A regular file standing where a
// directory is needed moves to its variant; if p itself is already a
// directory, the file is stored as variant(p, dirPage). Callers hold m.mu.
func (m *Mirror) makeRoom(p string, dirPage bool) (string, error) {
	rel, err := filepath.Rel(m.root, filepath.Dir(p))
	if err != nil {
		return "", fmt.Errorf("mirror: %w", err)
	}
	dir := m.root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		dir = filepath.Join(dir, part)
		st, err := os.Lstat(dir)
		if err == nil && !st.IsDir() {
			if err := m.move(dir, variant(dir, m.isDirPageFile(dir))); err != nil {
				return "", err
			}
		} else if err != nil && !os.IsNotExist(err) {
			return "", fmt.Errorf("mirror: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("mirror: %w", err)
	}
	if st, err := os.Lstat(p); err == nil && st.IsDir() {
		return variant(p, dirPage), nil
	}
	return p, nil
}

// isDirPageFile reports whether the file p holds a directory URL's page.
// Callers hold m.mu.
func (m *Mirror) isDirPageFile(p string) bool {
	key, ok := m.byPath[p]
	return ok && m.files[key].dirPage
}

// move renames a mirrored file and updates the maps, remembering whose
// file stood at from (see Mirror.movedTo). Callers hold m.mu.
func (m *Mirror) move(from, to string) error {
	if err := os.Rename(from, to); err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	if key, ok := m.byPath[from]; ok {
		delete(m.byPath, from)
		m.byPath[to] = key
		m.files[key].path = to
		if _, ok := m.movedFrom[from]; !ok {
			m.movedFrom[from] = key
		}
	}
	return nil
}

// writeFile writes data to a temporary file in root/@tmp and renames it to
// p, so p holds either its old or its new contents. Files are created
// 0644 and directories 0755 (less the umask), as the WARC files are, so a
// web server or another user can read the mirror. Callers hold m.mu.
func (m *Mirror) writeFile(p string, data []byte) error {
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
	return renameTemp(tmp, data, p)
}

// removeTmpDir removes root/@tmp if it is empty. Callers hold m.mu.
func (m *Mirror) removeTmpDir() {
	os.Remove(filepath.Join(m.root, tmpDirName))
	m.tmpMade = false
}

// renameTemp writes data to the new temporary file tmp, closes it and
// renames it to path; on failure it removes tmp. The file is not synced:
// one fsync per stored page would cost more than the page's WARC records,
// and the WARC holds what a power loss takes from the mirror.
func renameTemp(tmp *os.File, data []byte, path string) error {
	_, err := tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
