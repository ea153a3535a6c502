package wacz

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"path"
	"time"
)

// copyBufferSize is the buffer a WARC file is copied into the ZIP with.
const copyBufferSize = 1 << 20

// Resource is one file of the WACZ as datapackage.json lists it: every
// file but the two manifests.
type Resource struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Hash  string `json:"hash"`
	Bytes int64  `json:"bytes"`
}

// packer writes the entries of a WACZ to a ZIP stream and keeps the
// resource list of the ones datapackage.json names.
type packer struct {
	out       *countingWriter
	zw        *zip.Writer
	modified  time.Time
	resources []Resource
	buf       []byte
}

func newPacker(w io.Writer, modified time.Time) *packer {
	out := &countingWriter{w: w}
	return &packer{out: out, zw: zip.NewWriter(out), modified: modified}
}

// entry is an open ZIP entry that hashes and counts what is written to it.
type entry struct {
	path string
	w    io.Writer
	h    hash.Hash
	n    int64
}

func (e *entry) Write(b []byte) (int, error) {
	n, err := e.w.Write(b)
	e.h.Write(b[:n])
	e.n += int64(n)
	return n, err
}

// create starts the entry at name, stored (WARC files, compressed already)
// or deflated.
func (p *packer) create(name string, stored bool) (*entry, error) {
	method := zip.Deflate
	if stored {
		method = zip.Store
	}
	w, err := p.zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: p.modified})
	if err != nil {
		return nil, fmt.Errorf("wacz: %s: %w", name, err)
	}
	return &entry{path: name, w: w, h: sha256.New()}, nil
}

// list records a finished entry as a resource of datapackage.json.
func (p *packer) list(e *entry) {
	p.resources = append(p.resources, Resource{Name: path.Base(e.path), Path: e.path, Hash: e.hash(), Bytes: e.n})
}

// hash is the entry's "sha256:HEX" digest (WACZ 1.1.1, datapackage.json).
func (e *entry) hash() string { return "sha256:" + hex.EncodeToString(e.h.Sum(nil)) }

// copyFile stores the file at src (opened with open) as the entry name,
// lists it and returns its size. The file is streamed, never read whole.
func (p *packer) copyFile(name, src string, open func(string) (io.ReadCloser, error)) (int64, error) {
	f, err := open(src)
	if err != nil {
		return 0, fmt.Errorf("wacz: %w", err)
	}
	defer f.Close()
	e, err := p.create(name, true)
	if err != nil {
		return 0, err
	}
	if p.buf == nil {
		p.buf = make([]byte, copyBufferSize)
	}
	// A plain Reader, so that io.CopyBuffer uses the buffer and not a
	// WriterTo of the file with its own small one.
	if _, err := io.CopyBuffer(e, struct{ io.Reader }{f}, p.buf); err != nil {
		return 0, fmt.Errorf("wacz: store %s: %w", src, err)
	}
	p.list(e)
	return e.n, nil
}

// close writes the ZIP's central directory.
func (p *packer) close() error {
	if err := p.zw.Close(); err != nil {
		return fmt.Errorf("wacz: %w", err)
	}
	return nil
}

// size is the number of bytes written so far.
func (p *packer) size() int64 { return p.out.n }

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}
