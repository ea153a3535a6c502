package archive

import (
	"bytes"
	"fmt"
	"sync"

	// klauspost/compress's gzip is a drop-in replacement for the standard
	// library's that compresses several times faster at the same default
	// level; its output is plain RFC 1952 gzip, which every reader (ours,
	// compress/gzip, warcio.js, zcat) reads.
	"github.com/klauspost/compress/gzip"
)

// memberPool recycles gzip writers and buffers across records; the zero
// value is ready to use (default gzip level) and safe for concurrent use.
type memberPool struct {
	level int // gzip level; 0 means gzip.DefaultCompression

	gz  sync.Pool // *gzip.Writer
	hdr sync.Pool // *[]byte
	out sync.Pool // *bytes.Buffer holding an exchange's members
}

// buffer returns an empty output buffer; give it back with release.
func (p *memberPool) buffer() *bytes.Buffer {
	if b, _ := p.out.Get().(*bytes.Buffer); b != nil {
		return b
	}
	return new(bytes.Buffer)
}

// release recycles an output buffer unless it grew unusually large.
func (p *memberPool) release(b *bytes.Buffer) {
	if b.Cap() > 4<<20 {
		return
	}
	b.Reset()
	p.out.Put(b)
}

// writer returns a gzip writer at the pool's level writing to dst; give
// it back with putWriter.
func (p *memberPool) writer(dst *bytes.Buffer) (*gzip.Writer, error) {
	if zw, _ := p.gz.Get().(*gzip.Writer); zw != nil {
		zw.Reset(dst)
		return zw, nil
	}
	level := p.level
	if level == 0 {
		level = gzip.DefaultCompression
	}
	return gzip.NewWriterLevel(dst, level)
}

// compress appends one complete gzip member holding one WARC record to
// dst: the header fields (Content-Length is appended), the block parts and
// the trailing CRLF CRLF (WARC 1.1 Annex D: one record per gzip member).
func (p *memberPool) compress(dst *bytes.Buffer, fields []Field, block ...[]byte) error {
	n := 0
	for _, b := range block {
		n += len(b)
	}
	hp, _ := p.hdr.Get().(*[]byte)
	if hp == nil {
		hp = new([]byte)
	}
	hdr := appendHeader((*hp)[:0], fields, n)
	zw, err := p.writer(dst)
	if err != nil {
		return fmt.Errorf("archive: compress record: %w", err)
	}
	_, err = zw.Write(hdr)
	for _, b := range block {
		if err == nil {
			_, err = zw.Write(b)
		}
	}
	if err == nil {
		// The trailer goes after the header in the pooled buffer: a
		// []byte(recordTrailer) conversion would allocate each time.
		trailer := append(hdr[len(hdr):], recordTrailer...)
		_, err = zw.Write(trailer)
	}
	if err == nil {
		err = zw.Close()
	}
	*hp = hdr
	p.hdr.Put(hp)
	zw.Reset(nil)
	p.gz.Put(zw)
	if err != nil {
		return fmt.Errorf("archive: compress record: %w", err)
	}
	return nil
}
