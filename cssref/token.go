package cssref

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// tokenKind is the kind of a CSS token (CSS Syntax Level 3 section 4).
type tokenKind uint8

// The token kinds of CSS Syntax Level 3 section 4, as far as Scan tells
// them apart: the ones a reference is made of, the ones that open and
// close blocks, and the rest as tokOther.
const (
	tokEOF tokenKind = iota
	tokWhitespace
	tokIdent
	tokFunction  // an identifier and "(": its value is the name
	tokAtKeyword // "@" and an identifier: its value is the name
	tokString
	tokBadString
	tokURL
	tokBadURL
	tokCDO // "<!--"
	tokCDC // "-->"
	tokSemicolon
	tokOpenParen
	tokCloseParen
	tokOpenSquare
	tokCloseSquare
	tokOpenCurly
	tokCloseCurly
	tokOther // a number, percentage, dimension, hash, delim, colon or comma
)

// token is one token of a style sheet: its kind, the octets it spans
// (start to end), and for an identifier, function, at-keyword, string or
// url its value with escapes resolved; for a string or url, valStart to
// valEnd is where the value's text lies: inside the quotes of a string,
// and for an unquoted url without the whitespace around it.
type token struct {
	kind             tokenKind
	start, end       int
	value            string
	valStart, valEnd int
	quote            byte // the quote of a string token
}

// tokenizer reads tokens from a style sheet in UTF-8 (CSS Syntax Level 3
// section 4.3), without a preprocessing pass (section 3.3): CR LF, CR and
// FF count as one newline where newlines matter, a NUL or an octet that is
// not UTF-8 is read as U+FFFD, and every token's offsets are the input's.
type tokenizer struct {
	src []byte
	pos int
}

// at returns the octet i places ahead, or -1 past the end.
func (z *tokenizer) at(i int) int {
	if p := z.pos + i; p >= 0 && p < len(z.src) {
		return int(z.src[p])
	}
	return -1
}

// newlineLen returns the length of the newline at p (CR LF is two
// octets), or 0 if there is none.
func newlineLen(src []byte, p int) int {
	if p >= len(src) {
		return 0
	}
	switch src[p] {
	case '\n', '\f':
		return 1
	case '\r':
		if p+1 < len(src) && src[p+1] == '\n' {
			return 2
		}
		return 1
	}
	return 0
}

// isNewline reports whether c is a newline before preprocessing.
func isNewline(c int) bool { return c == '\n' || c == '\r' || c == '\f' }

// isSpace reports whether c is whitespace (section 4.2).
func isSpace(c int) bool { return c == ' ' || c == '\t' || isNewline(c) }

// isDigit and isHex are section 4.2's digit and hex digit.
func isDigit(c int) bool { return c >= '0' && c <= '9' }

func isHex(c int) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// isIdentStart reports whether c starts an ident code point (section
// 4.2): a letter, "_", or a non-ASCII code point (NUL reads as U+FFFD).
func isIdentStart(c int) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80 || c == 0
}

// isName reports whether c starts an ident code point or is a digit or "-".
func isName(c int) bool { return isIdentStart(c) || isDigit(c) || c == '-' }

// isNonPrintable is section 4.2's non-printable code point.
func isNonPrintable(c int) bool {
	return c >= 0 && c <= 8 || c == 0x0B || c >= 0x0E && c <= 0x1F || c == 0x7F
}

// validEscape reports whether the two octets at i and i+1 ahead are a
// valid escape (section 4.3.8): a "\" not followed by a newline.
func (z *tokenizer) validEscape(i int) bool {
	return z.at(i) == '\\' && !isNewline(z.at(i+1))
}

// startsIdent reports whether the octets at i ahead would start an ident
// sequence (section 4.3.9).
func (z *tokenizer) startsIdent(i int) bool {
	switch c := z.at(i); {
	case c == '-':
		return isIdentStart(z.at(i+1)) || z.at(i+1) == '-' || z.validEscape(i+1)
	case isIdentStart(c):
		return true
	case c == '\\':
		return z.validEscape(i)
	}
	return false
}

// startsNumber reports whether the octets ahead would start a number
// (section 4.3.10).
func (z *tokenizer) startsNumber() bool {
	switch c := z.at(0); {
	case c == '+' || c == '-':
		return isDigit(z.at(1)) || z.at(1) == '.' && isDigit(z.at(2))
	case c == '.':
		return isDigit(z.at(1))
	}
	return isDigit(z.at(0))
}

// readRune reads the code point at the position: U+FFFD for NUL and for
// an octet that is not UTF-8.
func (z *tokenizer) readRune() rune {
	r, n := utf8.DecodeRune(z.src[z.pos:])
	z.pos += n
	if r == 0 {
		return utf8.RuneError
	}
	return r
}

// appendChar appends the code point at the position to b (see readRune)
// and moves past it.
func (z *tokenizer) appendChar(b *strings.Builder) {
	if c := z.src[z.pos]; c < utf8.RuneSelf && c != 0 {
		b.WriteByte(c)
		z.pos++
		return
	}
	b.WriteRune(z.readRune())
}

// escape consumes an escaped code point, the "\" already consumed
// (section 4.3.7): up to six hex digits and one whitespace after them,
// U+FFFD for zero, a surrogate, a value past U+10FFFF or the end of the
// input, else the code point after the "\".
func (z *tokenizer) escape() rune {
	if z.pos >= len(z.src) {
		return utf8.RuneError
	}
	if !isHex(z.at(0)) {
		return z.readRune()
	}
	v := 0
	for n := 0; n < 6 && isHex(z.at(0)); n++ {
		v = v<<4 | hexValue(z.src[z.pos])
		z.pos++
	}
	if isSpace(z.at(0)) {
		z.pos += max(1, newlineLen(z.src, z.pos))
	}
	if v == 0 || v >= 0xD800 && v <= 0xDFFF || v > utf8.MaxRune {
		return utf8.RuneError
	}
	return rune(v)
}

// hexValue is the value of the hex digit c.
func hexValue(c byte) int {
	switch {
	case c <= '9':
		return int(c - '0')
	case c >= 'a':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// identSequence consumes an ident sequence (section 4.3.11) and returns
// it with its escapes resolved.
func (z *tokenizer) identSequence() string {
	var b strings.Builder
	for {
		switch c := z.at(0); {
		case c < 0:
			return b.String()
		case isName(c):
			z.appendChar(&b)
		case z.validEscape(0):
			z.pos++
			b.WriteRune(z.escape())
		default:
			return b.String()
		}
	}
}

// skipComments consumes comments (section 4.3.2); an unclosed one runs
// to the end of the input.
func (z *tokenizer) skipComments() {
	for z.at(0) == '/' && z.at(1) == '*' {
		end := bytes.Index(z.src[z.pos+2:], []byte("*/"))
		if end < 0 {
			z.pos = len(z.src)
			return
		}
		z.pos += 2 + end + 2
	}
}

// next consumes a token (section 4.3.1), comments before it skipped.
func (z *tokenizer) next() token {
	z.skipComments()
	t := token{start: z.pos}
	t.kind = z.consume(&t)
	t.end = z.pos
	return t
}

// consume reads the token starting at the position into t and returns
// its kind.
func (z *tokenizer) consume(t *token) tokenKind {
	c := z.at(0)
	switch {
	case c < 0:
		return tokEOF
	case isSpace(c):
		for isSpace(z.at(0)) {
			z.pos++
		}
		return tokWhitespace
	case c == '"' || c == '\'':
		z.pos++
		return z.str(t, byte(c))
	case isDigit(c) || (c == '+' || c == '.') && z.startsNumber():
		z.number()
		return tokOther
	case c == '-':
		return z.minus(t)
	case c == '<' && z.at(1) == '!' && z.at(2) == '-' && z.at(3) == '-':
		z.pos += 4
		return tokCDO
	case c == '@' && z.startsIdent(1):
		z.pos++
		t.value = z.identSequence()
		return tokAtKeyword
	case isIdentStart(c) || c == '\\' && z.validEscape(0):
		return z.identLike(t)
	case c == '#' && (isName(z.at(1)) || z.validEscape(1)):
		z.pos++
		z.identSequence()
		return tokOther
	}
	z.pos++
	if k, ok := punctuation[byte(c)]; ok {
		return k
	}
	return tokOther
}

// punctuation are the one-octet tokens Scan tells apart.
var punctuation = map[byte]tokenKind{
	';': tokSemicolon, '(': tokOpenParen, ')': tokCloseParen, '[': tokOpenSquare,
	']': tokCloseSquare, '{': tokOpenCurly, '}': tokCloseCurly,
}

// minus reads a token that starts with "-" (section 4.3.1): a number, a
// CDC, an ident-like token or a delim.
func (z *tokenizer) minus(t *token) tokenKind {
	switch {
	case z.startsNumber():
		z.number()
		return tokOther
	case z.at(1) == '-' && z.at(2) == '>':
		z.pos += 3
		return tokCDC
	case z.startsIdent(0):
		return z.identLike(t)
	}
	z.pos++
	return tokOther
}

// number consumes a numeric token (sections 4.3.3 and 4.3.12): a number,
// then a unit (a dimension) or "%".
func (z *tokenizer) number() {
	if c := z.at(0); c == '+' || c == '-' {
		z.pos++
	}
	digits := func() {
		for isDigit(z.at(0)) {
			z.pos++
		}
	}
	digits()
	if z.at(0) == '.' && isDigit(z.at(1)) {
		z.pos++
		digits()
	}
	if c := z.at(0); c == 'e' || c == 'E' {
		if isDigit(z.at(1)) {
			z.pos++
			digits()
		} else if s := z.at(1); (s == '+' || s == '-') && isDigit(z.at(2)) {
			z.pos += 2
			digits()
		}
	}
	switch {
	case z.startsIdent(0):
		z.identSequence()
	case z.at(0) == '%':
		z.pos++
	}
}

// identLike consumes an ident-like token (section 4.3.4): an identifier,
// a function, or a url token for "url(" not followed by a quote.
func (z *tokenizer) identLike(t *token) tokenKind {
	t.value = z.identSequence()
	if z.at(0) != '(' {
		return tokIdent
	}
	z.pos++
	if asciiLower(t.value) != "url" {
		return tokFunction
	}
	// Whitespace before a quote belongs to the function's arguments;
	// before anything else it is part of the url token.
	ws := z.pos
	for isSpace(z.at(0)) && isSpace(z.at(1)) {
		z.pos++
	}
	if c := z.at(0); c == '"' || c == '\'' || isSpace(c) && (z.at(1) == '"' || z.at(1) == '\'') {
		return tokFunction
	}
	z.pos = ws
	return z.url(t)
}

// str consumes a string token ended by quote, the opening quote consumed
// (section 4.3.5). An unescaped newline ends it as a bad string (the
// newline is not consumed); a "\" before a newline continues the string.
func (z *tokenizer) str(t *token, quote byte) tokenKind {
	var b strings.Builder
	t.valStart, t.quote = z.pos, quote
	for {
		c := z.at(0)
		switch {
		case c < 0:
			t.valEnd, t.value = z.pos, b.String()
			return tokString
		case c == int(quote):
			t.valEnd, t.value = z.pos, b.String()
			z.pos++
			return tokString
		case isNewline(c):
			return tokBadString
		case c == '\\':
			z.pos++
			if n := newlineLen(z.src, z.pos); n > 0 {
				z.pos += n
			} else if z.pos < len(z.src) {
				b.WriteRune(z.escape())
			}
		default:
			z.appendChar(&b)
		}
	}
}

// url consumes a url token, "url(" consumed (section 4.3.6): whitespace,
// the URL up to whitespace or ")", whitespace and ")". A quote, "(", a
// non-printable code point, a "\" before a newline, or anything but ")"
// after the trailing whitespace makes it a bad url, consumed up to the
// next unescaped ")" (section 4.3.14).
func (z *tokenizer) url(t *token) tokenKind {
	var b strings.Builder
	for isSpace(z.at(0)) {
		z.pos++
	}
	t.valStart = z.pos
	for {
		c := z.at(0)
		switch {
		case c < 0 || c == ')':
			t.valEnd, t.value = z.pos, b.String()
			if c == ')' {
				z.pos++
			}
			return tokURL
		case isSpace(c):
			t.valEnd, t.value = z.pos, b.String()
			for isSpace(z.at(0)) {
				z.pos++
			}
			if c := z.at(0); c < 0 || c == ')' {
				z.pos = min(z.pos+1, len(z.src))
				return tokURL
			}
			return z.badURL()
		case c == '"' || c == '\'' || c == '(' || isNonPrintable(c) && c != 0:
			return z.badURL()
		case c == '\\':
			if !z.validEscape(0) {
				return z.badURL()
			}
			z.pos++
			b.WriteRune(z.escape())
		default:
			z.appendChar(&b)
		}
	}
}

// badURL consumes the remnants of a bad url (section 4.3.14): up to and
// including the next ")" that no escape hides, or the end of the input.
func (z *tokenizer) badURL() tokenKind {
	for {
		switch c := z.at(0); {
		case c < 0:
			return tokBadURL
		case c == ')':
			z.pos++
			return tokBadURL
		case z.validEscape(0):
			z.pos++
			z.escape()
		default:
			z.pos++
		}
	}
}
