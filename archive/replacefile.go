package archive

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// tempPrefix starts the names of the temporary files the index and the
// journal are written to before they are renamed into place. Their
// extension is not ".cdxj", so a replay tool that loads every index in
// the directory never reads a half-written one.
const tempPrefix = ".tmp-"

// replaceFile writes data to path through a synced temporary file in the
// same directory, a rename and a sync of the directory, so path holds
// either its old or its new contents after a crash or a power loss. The
// file is readable by all (0644), as the WARC files are, for a web server
// or replay tool running as another user.
func replaceFile(path string, data []byte) error {
	return replaceFileWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// replaceFileWith is replaceFile of the contents write writes.
func replaceFileWith(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), tempPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := renameTemp(tmp, write, path); err != nil {
		return err
	}
	// The rename is durable once the directory is synced.
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	err = dir.Sync()
	if cerr := dir.Close(); err == nil {
		err = cerr
	}
	return err
}

// renameTemp writes the contents write writes to the new temporary file
// tmp, syncs and closes it and renames it to path; on failure it removes
// tmp.
func renameTemp(tmp *os.File, write func(io.Writer) error, path string) error {
	err := write(tmp)
	if err == nil {
		err = tmp.Sync()
	}
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

// removeTempFiles deletes temporary files a crash left in dir before
// their rename. Open calls it once it holds the directory lock, so no
// other writer can be using them.
func removeTempFiles(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("archive: open: %w", err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasPrefix(e.Name(), tempPrefix) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("archive: open: %w", err)
			}
		}
	}
	return nil
}
