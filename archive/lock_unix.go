//go:build unix

package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// LockName is the lock file that keeps a second Writer out of a directory.
const LockName = ".lock"

// lockDir takes an exclusive advisory lock on dir/LockName; the kernel
// releases it when the process dies, so a crash never leaves it stale.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("archive: lock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("archive: %s is in use by another writer: %w", dir, err)
	}
	return f, nil
}
