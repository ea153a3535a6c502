package archive

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
)

// countingReader counts the bytes consumed through it. It implements
// io.ByteReader so compress/gzip reads from it directly, without its own
// read-ahead buffer, which makes the count exact at each member boundary.
type countingReader struct {
	br *bufio.Reader
	n  int64
}

// Read reads and counts.
func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.br.Read(p)
	c.n += int64(n)
	return n, err
}

// ReadByte reads and counts one byte.
func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.br.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// scanMembers reads a gzip-per-record WARC file member by member from r,
// whose first byte is at file offset base, calling fn with each record's
// member offset and compressed length. It stops at the
// first member that is not one whole, valid record (a torn tail after a
// crash) and returns the offset where the valid prefix ends together with
// the error describing the invalid member (nil if the file ended cleanly).
// An error returned by fn stops the scan and is returned as fnErr.
func scanMembers(r io.Reader, base int64, fn func(off, length int64, rec *Record) error) (validEnd int64, bad error, fnErr error) {
	cr := &countingReader{br: bufio.NewReaderSize(r, 256<<10), n: base}
	var zr *gzip.Reader
	for {
		start := cr.n
		if _, err := cr.br.Peek(1); err == io.EOF {
			return start, nil, nil
		}
		var err error
		if zr == nil {
			zr, err = gzip.NewReader(cr)
		} else {
			err = zr.Reset(cr)
		}
		if err != nil {
			return start, fmt.Errorf("archive: gzip member at %d: %w", start, err), nil
		}
		zr.Multistream(false)
		rec, err := readMember(zr)
		if err != nil {
			return start, fmt.Errorf("archive: record at %d: %w", start, err), nil
		}
		if err := fn(start, cr.n-start, rec); err != nil {
			return cr.n, nil, err
		}
	}
}

// readMember parses exactly one record from a gzip member and checks the
// member ends right after it (its CRC and length are verified at EOF).
func readMember(zr *gzip.Reader) (*Record, error) {
	br := bufio.NewReaderSize(zr, 64<<10)
	rec, err := readRecord(br)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: empty gzip member", ErrFormat)
		}
		return nil, err
	}
	var extra [1]byte
	n, err := io.ReadFull(br, extra[:])
	if n != 0 {
		return nil, fmt.Errorf("%w: gzip member holds more than one record", ErrFormat)
	}
	if err != io.EOF {
		return nil, fmt.Errorf("%w: gzip member end: %w", ErrFormat, err)
	}
	return rec, nil
}
