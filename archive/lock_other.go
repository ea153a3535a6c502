//go:build !unix

package archive

import (
	"fmt"
	"os"
	"path/filepath"
)

// LockName is the lock file that keeps a second Writer out of a directory.
const LockName = ".lock"

// lockDir opens dir/LockName without locking it: this platform has no
// flock, so two writers on one directory are not prevented (see doc.go).
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("archive: lock %s: %w", dir, err)
	}
	return f, nil
}
