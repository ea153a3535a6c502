package cssref

import (
	"bytes"
	"mime"

	"golang.org/x/net/html/charset"

	"github.com/crawlproject/crawl/pageenc"
)

// Encoding returns the encoding a browser reads the style sheet body in
// (CSS Syntax Level 3 section 3.2, with the Encoding Standard's decode):
// the one its byte order mark names; else the charset of its Content-Type
// header value contentType; else the one an @charset rule at its very
// start names (UTF-8 where that names UTF-16, as the rule could not have
// been read so); else env, the encoding of the document or sheet that
// refers to it; else UTF-8, which env's zero value is. Labels are the
// WHATWG Encoding Standard's.
func Encoding(body []byte, contentType string, env pageenc.Encoding) pageenc.Encoding {
	if e, ok := bomEncoding(body); ok {
		return e
	}
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		if e, ok := lookup(params["charset"]); ok {
			return e
		}
	}
	if label, ok := charsetRule(body); ok {
		if e, ok := lookup(label); ok {
			if n := e.Name(); n == "utf-16be" || n == "utf-16le" {
				return pageenc.Encoding{}
			}
			return e
		}
	}
	return env
}

// bomEncoding returns the encoding a byte order mark at the start of body
// names (Encoding Standard, BOM sniff).
func bomEncoding(body []byte) (pageenc.Encoding, bool) {
	switch {
	case bytes.HasPrefix(body, []byte{0xEF, 0xBB, 0xBF}):
		return pageenc.Encoding{}, true
	case bytes.HasPrefix(body, []byte{0xFE, 0xFF}):
		return lookup("utf-16be")
	case bytes.HasPrefix(body, []byte{0xFF, 0xFE}):
		return lookup("utf-16le")
	}
	return pageenc.Encoding{}, false
}

// charsetRule returns the label of an @charset rule that starts body
// exactly as section 3.2 asks: `@charset "`, the label, `";`, all within
// the first 1024 octets.
func charsetRule(body []byte) (string, bool) {
	const head = `@charset "`
	b := body[:min(len(body), 1024)]
	if !bytes.HasPrefix(b, []byte(head)) {
		return "", false
	}
	rest := b[len(head):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || end+1 >= len(rest) || rest[end+1] != ';' {
		return "", false
	}
	// The label's octets read as windows-1252: a label is ASCII, so
	// one with other octets names no encoding.
	return string(rest[:end]), true
}

// lookup returns the encoding a WHATWG label names.
func lookup(label string) (pageenc.Encoding, bool) {
	if label == "" {
		return pageenc.Encoding{}, false
	}
	enc, name := charset.Lookup(label)
	if enc == nil {
		return pageenc.Encoding{}, false
	}
	return pageenc.Named(name, enc), true
}
