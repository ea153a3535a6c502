package cssref

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"

	"github.com/crawlproject/crawl/pageenc"
)

// Edit is one change Rewrite made: the octets src[Start:End] of the sheet
// became Text.
type Edit struct {
	Start, End int
	Text       string
}

// Rewrite returns the style sheet src, in the encoding enc, with the URL
// text of each reference (see Scan) that newURL gives a new URL for
// replaced by that URL, and the edits made, in order. Every octet outside
// the edits is src's: quotes, escapes elsewhere, comments, and octets of
// the sheet's encoding stay as they were. The new text is ASCII, written
// in enc, with CSS escapes where the URL holds a character the context
// cannot take (a quote in a string; whitespace, a quote or a parenthesis
// in an unquoted url(); any non-ASCII character). It returns nil and no
// edits when nothing changes. src is not modified.
func Rewrite(src []byte, enc pageenc.Encoding, newURL func(Ref) (string, bool)) ([]byte, []Edit) {
	e, ok := codec(enc)
	if !ok {
		return nil, nil
	}
	text, offs := decodeMapped(src, e)
	var enco *encoding.Encoder
	if e != nil {
		enco = e.NewEncoder()
	}
	var edits []Edit
	for _, r := range Scan(text) {
		u, ok := newURL(r)
		if !ok {
			continue
		}
		repl := serialize(u, r.Quote)
		if enco != nil {
			b, err := enco.String(repl)
			if err != nil {
				continue
			}
			repl = b
		}
		e := Edit{Start: offs.at(r.Start), End: offs.at(r.End), Text: repl}
		if string(src[e.Start:e.End]) != repl {
			edits = append(edits, e)
		}
	}
	if len(edits) == 0 {
		return nil, nil
	}
	return apply(src, edits), edits
}

// apply returns src with the edits, which are in order and do not overlap,
// in a new array of exactly the result's length; src is not modified.
func apply(src []byte, edits []Edit) []byte {
	n := len(src)
	for _, e := range edits {
		n += len(e.Text) - (e.End - e.Start)
	}
	out := make([]byte, 0, n)
	last := 0
	for _, e := range edits {
		out = append(out, src[last:e.Start]...)
		out = append(out, e.Text...)
		last = e.End
	}
	return append(out, src[last:]...)
}

// codec returns the decoder and encoder of enc's charset, nil for UTF-8,
// and false when enc names an encoding charset does not know.
func codec(enc pageenc.Encoding) (encoding.Encoding, bool) {
	if enc.UTF8() {
		return nil, true
	}
	e, _ := charset.Lookup(enc.Name())
	return e, e != nil
}

// offsets maps an offset in a sheet's decoded text to the offset in its
// octets where the character there began; nil maps each offset to itself
// (a sheet in UTF-8).
type offsets []int

// at returns the octet offset of text offset i.
func (o offsets) at(i int) int {
	if o == nil {
		return i
	}
	return o[i]
}

// decodeMapped returns src decoded to UTF-8 from e, and where in src
// each octet of the text came from; src itself and nil offsets for a nil
// e (UTF-8). The decoder is given room for one character at a time, so
// each character is known by its octets, in any encoding (stateful ones,
// whose escape sequences count with the character after them, too).
func decodeMapped(src []byte, e encoding.Encoding) ([]byte, offsets) {
	if e == nil {
		return src, nil
	}
	dec := e.NewDecoder()
	text := make([]byte, 0, len(src))
	offs := make(offsets, 0, len(src)+1)
	var buf [utf8.UTFMax]byte
	for i := 0; i < len(src); {
		var nDst, nSrc int
		for n := 1; n <= len(buf); n++ {
			var err error
			nDst, nSrc, err = dec.Transform(buf[:n], src[i:], true)
			if nSrc > 0 || !errors.Is(err, transform.ErrShortDst) {
				break
			}
		}
		if nSrc == 0 {
			// A decoder that will not move: the rest is read as one
			// replacement character.
			nDst, nSrc = copy(buf[:], "\uFFFD"), len(src)-i
		}
		for range nDst {
			offs = append(offs, i)
		}
		text = append(text, buf[:nDst]...)
		i += nSrc
	}
	return text, append(offs, len(src))
}

// serialize writes u as the text of a URL in the context quote: in a
// string between quote, a double quote or an apostrophe (CSSOM "serialize
// a string"), or in an unquoted url() for 0 (CSS Syntax Level 3 section
// 4.3.6 lists what must be escaped there). It escapes "<" too, so that a
// sheet inside an HTML <style> element cannot come to hold "</style", and
// every non-ASCII character, so that the text is the same in any
// ASCII-compatible encoding.
func serialize(u string, quote byte) string {
	var b strings.Builder
	for _, r := range u {
		switch {
		case r == '\\' || quote != 0 && r == rune(quote) || quote == 0 && (r == '"' || r == '\'' || r == '(' || r == ')'):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == 0:
			// NUL reads as U+FFFD (section 3.3), as CSSOM writes it.
			b.WriteString(`\fffd `)
		case r < 0x20 || r == 0x7F || r >= utf8.RuneSelf || quote == 0 && r == ' ' || r == '<':
			// A code point escape; the space after it ends it and is
			// consumed with it (section 4.3.7).
			b.WriteByte('\\')
			b.WriteString(strconv.FormatInt(int64(r), 16))
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
