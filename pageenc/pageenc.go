package pageenc

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
)

// Encoding is the character encoding of a page, as Of determines it. The
// zero Encoding is UTF-8.
type Encoding struct {
	name string
	enc  encoding.Encoding // nil for UTF-8
}

// Of determines the encoding of an HTML page from its first octets (at
// least its first 1024, where a <meta> charset must be) and the value of
// its Content-Type header.
func Of(body []byte, contentType string) Encoding {
	enc, name, certain := charset.DetermineEncoding(body, contentType)
	if !certain && !declaresCharset(body) {
		// Nothing declared: DetermineEncoding guessed from the first 1024
		// bytes alone, which a long ASCII head of a UTF-8 page passes
		// for windows-1252 and a long ASCII head of a Latin-1 page for
		// UTF-8. The whole body decides.
		if utf8.Valid(body) {
			return Encoding{}
		}
		enc, _ = charset.Lookup("windows-1252")
		return Named("windows-1252", enc)
	}
	return Named(name, enc)
}

// declaresCharset reports whether the first 1024 bytes of body, where the
// HTML Standard's prescan looks for a <meta> charset (13.2.3.2), name one.
func declaresCharset(body []byte) bool {
	head := body[:min(len(body), 1024)]
	for i := 0; i+7 <= len(head); i++ {
		if c := head[i] | 0x20; c == 'c' && bytes.EqualFold(head[i:i+7], []byte("charset")) {
			return true
		}
	}
	return false
}

// Named is the Encoding of the WHATWG name and its encoding as
// x/net/html/charset gives them (charset.Lookup); UTF-8 when enc is nil.
func Named(name string, enc encoding.Encoding) Encoding {
	name = strings.ToLower(name)
	if enc == nil || name == "" || name == "utf-8" {
		return Encoding{}
	}
	return Encoding{name: name, enc: enc}
}

// Name is the encoding's WHATWG name ("utf-8", "windows-1252", ...).
func (e Encoding) Name() string {
	if e.name == "" {
		return "utf-8"
	}
	return e.name
}

// UTF8 reports whether the page is UTF-8, so that its octets need no
// decoding.
func (e Encoding) UTF8() bool { return e.enc == nil }

// queryUTF8 reports whether a link's query is written in UTF-8: on a
// UTF-8 or UTF-16 page.
func (e Encoding) queryUTF8() bool { return e.enc == nil || strings.HasPrefix(e.name, "utf-16") }

// Decode returns body in UTF-8; body itself for a UTF-8 page. Octets the
// encoding does not map become U+FFFD, as in a browser.
func (e Encoding) Decode(body []byte) []byte {
	if e.enc == nil {
		return body
	}
	out, err := e.enc.NewDecoder().Bytes(body)
	if err != nil {
		return body
	}
	return out
}

// DecodeString is Decode for a string.
func (e Encoding) DecodeString(s string) string {
	if e.enc == nil {
		return s
	}
	return string(e.Decode([]byte(s)))
}

// EncodeQuery returns ref, a reference read from the page decoded to
// UTF-8, with the non-ASCII characters of its query (after the first "?",
// before any "#") percent-encoded in the page's encoding, as a browser
// sends them; a character the encoding cannot hold becomes "%26%23" N
// "%3B". The rest of ref, and a query without such characters, is left
// as it is (the frontier's canonical form encodes it as UTF-8).
func (e Encoding) EncodeQuery(ref string) string {
	if e.queryUTF8() {
		return ref
	}
	q := strings.IndexByte(ref, '?')
	if q < 0 {
		return ref
	}
	end := len(ref)
	if f := strings.IndexByte(ref[q:], '#'); f >= 0 {
		end = q + f
	}
	query := ref[q+1 : end]
	i := 0
	for i < len(query) && query[i] < utf8.RuneSelf {
		i++
	}
	if i == len(query) {
		return ref
	}
	var b strings.Builder
	b.Grow(len(ref) + 16)
	b.WriteString(ref[:q+1])
	enc := e.enc.NewEncoder()
	for _, r := range query {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		octets, err := enc.String(string(r))
		if err != nil {
			b.WriteString("%26%23" + strconv.Itoa(int(r)) + "%3B")
			enc.Reset()
			continue
		}
		// The URL Standard's special-query percent-encode set, plus "&",
		// "%" and ";": the WHATWG encoders write a character they cannot
		// hold as "&#N;", which must come out as "%26%23N%3B", and no
		// octet of a character may read as a separator or an escape.
		for k := 0; k < len(octets); k++ {
			c := octets[k]
			if c < 0x21 || c > 0x7E || strings.IndexByte("\"#&'<>%;", c) >= 0 {
				const hex = "0123456789ABCDEF"
				b.WriteByte('%')
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteString(ref[end:])
	return b.String()
}
