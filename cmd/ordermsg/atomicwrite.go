package main

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
)

// writeFileAtomic writes data to path the way a shell redirect would, but
// never leaves a regular file half-written: a regular file (or a new one)
// is replaced by a complete temporary file renamed over it; a symlink is
// followed and its target replaced; a FIFO or device is written through. A
// new file follows the umask; a replaced one keeps its mode.
func writeFileAtomic(path string, data []byte) error {
	fi, err := os.Stat(path)
	if err == nil && !fi.Mode().IsRegular() {
		return writeThrough(path, data)
	}
	mode := os.FileMode(0o666) // less the umask, by the kernel
	if err == nil {
		mode = fi.Mode().Perm()
		if path, err = filepath.EvalSymlinks(path); err != nil {
			return err
		}
	}
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.partial-%s", filepath.Base(path), rand.Text()[:10]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // fails harmlessly once renamed
	if fi != nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func writeThrough(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
