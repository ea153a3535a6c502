package archive

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"hash"
	"strconv"
	"strings"
	"time"
)

// Field is one named value: a WARC header field, a warcinfo entry or a
// metadata line. Order is significant wherever a []Field is used.
type Field struct {
	Name, Value string
}

// warcVersion is the version line every record starts with (WARC 1.1 section 4).
const warcVersion = "WARC/1.1"

// dateLayout is the W3C-ISO8601 form of WARC-Date (WARC 1.1 section 5.4), in
// whole seconds for compatibility with WARC 1.0 readers.
const dateLayout = "2006-01-02T15:04:05Z"

// Digest algorithm names accepted in Options.Digest.
const (
	DigestSHA1   = "sha1"
	DigestSHA256 = "sha256"
)

// Content types of the blocks we write (WARC 1.1 sections 5.6, 6.3).
const (
	typeHTTPRequest  = "application/http;msgtype=request"
	typeHTTPResponse = "application/http;msgtype=response"
	typeWARCFields   = "application/warc-fields"
)

// RevisitProfile is the WARC-Profile of revisit records we write
// (WARC 1.1 section 6.7.2, identical payload digest).
const RevisitProfile = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"

// formatDate renders t as a WARC-Date value in UTC.
func formatDate(t time.Time) string {
	return t.UTC().Format(dateLayout)
}

// newRecordID returns a fresh "<urn:uuid:...>" (RFC 9562 version 4).
func newRecordID() (string, error) {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		return "", fmt.Errorf("archive: record id: %w", err)
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return "<urn:uuid:" + string(b[:]) + ">", nil
}

// newHash returns the hash for a digest algorithm name.
func newHash(algo string) (hash.Hash, error) {
	switch algo {
	case DigestSHA1:
		return sha1.New(), nil
	case DigestSHA256:
		return sha256.New(), nil
	}
	return nil, fmt.Errorf("archive: unknown digest algorithm %q", algo)
}

// Digest returns the labelled digest "algo:BASE32" of the concatenated parts,
// as written in WARC-Block-Digest and WARC-Payload-Digest (WARC 1.1
// sections 5.8 and 5.9): RFC 4648 base32 with its standard alphabet and padding.
func Digest(algo string, parts ...[]byte) (string, error) {
	d, err := newDigester(algo)
	if err != nil {
		return "", err
	}
	return d.digest(parts...), nil
}

// digester computes labelled digests (see Digest) with one hash, reset
// for each: one allocation per digest, the string. It is not safe for
// concurrent use; Writer pools them.
type digester struct {
	algo string
	h    hash.Hash
	sum  [sha256.Size]byte
	buf  [len(DigestSHA256) + 1 + 56]byte // base32 of 32 bytes: 56 chars
}

func newDigester(algo string) (*digester, error) {
	h, err := newHash(algo)
	if err != nil {
		return nil, err
	}
	return &digester{algo: algo, h: h}, nil
}

// digest returns the labelled digest of the concatenated parts.
func (d *digester) digest(parts ...[]byte) string {
	d.h.Reset()
	for _, p := range parts {
		d.h.Write(p)
	}
	sum := d.h.Sum(d.sum[:0])
	b := append(d.buf[:0], d.algo...)
	b = append(b, ':')
	b = base32.StdEncoding.AppendEncode(b, sum)
	return string(b)
}

// cleanValue makes a header value safe for one WARC header line: CR, LF and
// other control characters become spaces (WARC 1.1 section 4 forbids CTLs).
func cleanValue(v string) string {
	if strings.IndexFunc(v, isCTL) < 0 {
		return v
	}
	return strings.Map(func(r rune) rune {
		if isCTL(r) {
			return ' '
		}
		return r
	}, v)
}

// cleanName makes a field name a WARC token: separators and CTLs become '-'.
func cleanName(n string) string {
	if n == "" {
		return "-"
	}
	return strings.Map(func(r rune) rune {
		if isCTL(r) || r > 126 || strings.ContainsRune("()<>@,;:\\\"/[]?={} ", r) {
			return '-'
		}
		return r
	}, n)
}

// isCTL reports whether r is an ASCII control character other than tab.
func isCTL(r rune) bool {
	return (r < 32 && r != '\t') || r == 127
}

// appendHeader serialises the record header: version line, fields in order,
// Content-Length last, and the empty line ending the header (WARC 1.1
// section 4). Names and values are expected to be clean already.
func appendHeader(dst []byte, fields []Field, blockLen int) []byte {
	dst = append(dst, warcVersion...)
	dst = append(dst, '\r', '\n')
	for _, f := range fields {
		dst = append(dst, f.Name...)
		dst = append(dst, ':', ' ')
		dst = append(dst, f.Value...)
		dst = append(dst, '\r', '\n')
	}
	dst = append(dst, "Content-Length: "...)
	dst = strconv.AppendInt(dst, int64(blockLen), 10)
	dst = append(dst, "\r\n\r\n"...)
	return dst
}

// recordTrailer ends every record: two CRLFs after the block.
const recordTrailer = "\r\n\r\n"

// fieldsBlock renders fields as an application/warc-fields block
// ("Name: Value" CRLF per field).
func fieldsBlock(fields []Field) []byte {
	var b bytes.Buffer
	for _, f := range fields {
		b.WriteString(cleanName(f.Name))
		b.WriteString(": ")
		b.WriteString(cleanValue(f.Value))
		b.WriteString("\r\n")
	}
	return b.Bytes()
}
