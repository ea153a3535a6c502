package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrFormat is wrapped by every error about bytes that are not a valid
// WARC record.
var ErrFormat = errors.New("archive: invalid warc record")

// ErrDigestMismatch is wrapped by digest verification failures.
var ErrDigestMismatch = errors.New("archive: digest mismatch")

// maxHeaderBytes caps one record header so a corrupt file cannot make the
// reader buffer without bound.
const maxHeaderBytes = 1 << 20

// Record is one parsed WARC record: the version line, the header fields in
// the order they were written (Content-Length included) and the block.
type Record struct {
	Version string
	Header  []Field
	Block   []byte
}

// Get returns the value of the first header field named name, compared
// case-insensitively as WARC 1.1 section 4 requires, or "".
func (r *Record) Get(name string) string {
	for _, f := range r.Header {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Type returns the WARC-Type field.
func (r *Record) Type() string { return r.Get("WARC-Type") }

// Payload returns the HTTP payload of an application/http block (the bytes
// after the HTTP header block, transfer and content codings left as
// recorded) and whether the block is an HTTP message with a complete header.
func (r *Record) Payload() ([]byte, bool) {
	if !strings.HasPrefix(mediaType(r.Get("Content-Type")), "application/http") {
		return nil, false
	}
	h := parseHTTPHead(r.Block)
	if !h.complete {
		return nil, false
	}
	return r.Block[h.bodyOffset:], true
}

// VerifyBlockDigest recomputes WARC-Block-Digest over the block. It returns
// nil when they match, an error wrapping ErrDigestMismatch when they differ,
// and an error wrapping ErrFormat when the field is missing or unusable.
func (r *Record) VerifyBlockDigest() error {
	return verifyDigest("WARC-Block-Digest", r.Get("WARC-Block-Digest"), r.Block)
}

// VerifyPayloadDigest recomputes WARC-Payload-Digest over Payload() for
// request and response records. Revisit records carry the digest of a
// payload stored elsewhere; for them (and records without the field) it
// returns nil without checking.
func (r *Record) VerifyPayloadDigest() error {
	want := r.Get("WARC-Payload-Digest")
	if want == "" || r.Type() == "revisit" {
		return nil
	}
	p, ok := r.Payload()
	if !ok {
		return fmt.Errorf("%w: payload digest on a block without an http payload", ErrFormat)
	}
	return verifyDigest("WARC-Payload-Digest", want, p)
}

// verifyDigest compares a labelled digest with one computed over data. The
// declared value may be base32 (as this package writes), hex (warcio.js
// writes sha256 that way) or base64.
func verifyDigest(field, want string, data []byte) error {
	algo, value, ok := strings.Cut(want, ":")
	if !ok {
		return fmt.Errorf("%w: %s %q has no algorithm label", ErrFormat, field, want)
	}
	h, err := newHash(strings.ToLower(algo))
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrFormat, field, err)
	}
	h.Write(data)
	sum := h.Sum(nil)
	declared, ok := decodeDigest(value, len(sum))
	if !ok {
		return fmt.Errorf("%w: %s %q is not base32, hex or base64 of a %s digest", ErrFormat, field, want, algo)
	}
	if !bytes.Equal(declared, sum) {
		got, _ := Digest(strings.ToLower(algo), data)
		return fmt.Errorf("%w: %s is %s, data gives %s", ErrDigestMismatch, field, want, got)
	}
	return nil
}

// decodeDigest decodes a digest value of size bytes in any common encoding.
func decodeDigest(v string, size int) ([]byte, bool) {
	if len(v) == 2*size {
		if b, err := hex.DecodeString(v); err == nil {
			return b, true
		}
	}
	b32 := strings.ToUpper(strings.TrimRight(v, "="))
	if b, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(b32); err == nil && len(b) == size {
		return b, true
	}
	if b, err := base64.StdEncoding.DecodeString(v); err == nil && len(b) == size {
		return b, true
	}
	return nil, false
}

// Reader reads WARC records from a stream, gzip-compressed (any number of
// members) or not; it detects which from the first bytes. A Reader is not
// safe for concurrent use.
type Reader struct {
	src  io.Reader
	br   *bufio.Reader
	init bool
}

// NewReader returns a Reader of the WARC stream r.
func NewReader(r io.Reader) *Reader {
	return &Reader{src: r}
}

// Next returns the next record, or io.EOF after the last one. Truncated or
// malformed input gives an error wrapping ErrFormat (or the gzip error).
func (r *Reader) Next() (*Record, error) {
	if !r.init {
		r.init = true
		br := bufio.NewReaderSize(r.src, 64<<10)
		magic, _ := br.Peek(2)
		if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
			zr, err := gzip.NewReader(br)
			if err != nil {
				return nil, fmt.Errorf("archive: gzip: %w", err)
			}
			br = bufio.NewReaderSize(zr, 64<<10)
		}
		r.br = br
	}
	return readRecord(r.br)
}

// readRecord parses one record (WARC 1.1 section 4): version line, fields
// (with continuation lines), empty line, Content-Length octets of block,
// CRLF CRLF. It returns io.EOF if the stream ends cleanly before a record.
func readRecord(br *bufio.Reader) (*Record, error) {
	var version string
	for {
		line, err := readLine(br)
		if err == io.EOF && line == "" {
			return nil, io.EOF
		}
		if err != nil {
			return nil, fmt.Errorf("%w: version line: %w", ErrFormat, unexpected(err))
		}
		if line == "" {
			continue // tolerate stray blank lines between records
		}
		if !strings.HasPrefix(line, "WARC/") {
			return nil, fmt.Errorf("%w: version line %q", ErrFormat, truncate(line))
		}
		version = line
		break
	}
	rec := &Record{Version: version}
	size := 0
	for {
		line, err := readLine(br)
		if err != nil {
			return nil, fmt.Errorf("%w: header: %w", ErrFormat, unexpected(err))
		}
		size += len(line)
		if size > maxHeaderBytes {
			return nil, fmt.Errorf("%w: header longer than %d bytes", ErrFormat, maxHeaderBytes)
		}
		if line == "" {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			if n := len(rec.Header); n > 0 {
				rec.Header[n-1].Value += " " + strings.TrimSpace(line)
				continue
			}
			return nil, fmt.Errorf("%w: continuation line before any field", ErrFormat)
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%w: header line %q has no colon", ErrFormat, truncate(line))
		}
		rec.Header = append(rec.Header, Field{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	}
	n, err := strconv.ParseInt(rec.Get("Content-Length"), 10, 64)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("%w: Content-Length %q", ErrFormat, rec.Get("Content-Length"))
	}
	// Grow with the data actually present: a corrupt Content-Length must
	// not allocate what the stream does not hold.
	block := bytes.NewBuffer(make([]byte, 0, min(n, 4<<20)))
	if _, err := block.ReadFrom(io.LimitReader(br, n)); err != nil {
		return nil, fmt.Errorf("%w: block: %w", ErrFormat, err)
	}
	if int64(block.Len()) != n {
		return nil, fmt.Errorf("%w: block: %w", ErrFormat, io.ErrUnexpectedEOF)
	}
	rec.Block = block.Bytes()
	var tail [4]byte
	if _, err := io.ReadFull(br, tail[:]); err != nil {
		return nil, fmt.Errorf("%w: record end: %w", ErrFormat, unexpected(err))
	}
	if string(tail[:]) != recordTrailer {
		return nil, fmt.Errorf("%w: record not followed by CRLF CRLF", ErrFormat)
	}
	return rec, nil
}

// readLine reads one line without its CRLF (or LF).
func readLine(br *bufio.Reader) (string, error) {
	b, err := br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		var buf bytes.Buffer
		buf.Write(b)
		for err == bufio.ErrBufferFull && buf.Len() <= maxHeaderBytes {
			b, err = br.ReadSlice('\n')
			buf.Write(b)
		}
		b = buf.Bytes()
	}
	if err != nil {
		if err == io.EOF && len(b) > 0 {
			return string(b), io.ErrUnexpectedEOF
		}
		return string(b), err
	}
	b = bytes.TrimSuffix(b[:len(b)-1], []byte{'\r'})
	return string(b), nil
}

// unexpected turns io.EOF in the middle of a record into io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// truncate shortens s for error messages.
func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
