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

// smallRecordLimit is the record size (header, block and trailer) below
// which memberPool.compress uses smallEncoder at gzip levels up to
// smallMaxLevel. Measured on request, metadata, robots.txt and redirect
// records (BenchmarkSmallMember, instructions under callgrind): up to
// 2.5 KB smallEncoder's members are within 1% of klauspost's level 5 at
// 45-60% of its instructions, at 3-3.5 KB within 3.3% at 61-67%; at 6.5
// KB its greedy parse is 5% larger for 70%, no longer worth it.
const smallRecordLimit = 4 << 10

// smallMaxLevel is the highest Options.GzipLevel at which small records
// go through smallEncoder; levels above it ask for the smallest output,
// so every record goes through klauspost's compressor.
const smallMaxLevel = 6

// memberPool recycles gzip writers and buffers across records; the zero
// value is ready to use (default gzip level) and safe for concurrent use.
type memberPool struct {
	level int // gzip level; 0 means gzip.DefaultCompression

	gz    sync.Pool // *gzip.Writer
	small sync.Pool // *smallEncoder
	hdr   sync.Pool // *[]byte
	out   sync.Pool // *bytes.Buffer holding an exchange's members
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

// compress returns one complete gzip member holding one WARC record: the
// header fields (Content-Length is appended), the block parts and the
// trailing CRLF CRLF (WARC 1.1 Annex D: one record per gzip member).
// Records smaller than smallRecordLimit are compressed by smallEncoder
// unless the level asks for more than the default.
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
	if p.level <= smallMaxLevel && len(hdr)+n+len(recordTrailer) < smallRecordLimit {
		rec := hdr
		for _, b := range block {
			rec = append(rec, b...)
		}
		rec = append(rec, recordTrailer...)
		enc, _ := p.small.Get().(*smallEncoder)
		if enc == nil {
			enc = newSmallEncoder()
		}
		enc.writeMember(dst, rec)
		p.small.Put(enc)
		*hp = rec
		p.hdr.Put(hp)
		return nil
	}

	zw, _ := p.gz.Get().(*gzip.Writer)
	if zw == nil {
		level := p.level
		if level == 0 {
			level = gzip.DefaultCompression
		}
		var err error
		if zw, err = gzip.NewWriterLevel(dst, level); err != nil {
			return fmt.Errorf("archive: compress record: %w", err)
		}
	} else {
		zw.Reset(dst)
	}
	_, err := zw.Write(hdr)
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
