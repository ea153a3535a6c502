package mirror

import (
	"bytes"
	"slices"
	"strings"

	"github.com/crawlproject/crawl/cssref"
	"github.com/crawlproject/crawl/pageenc"
	"golang.org/x/net/html"
)

// The mirror edits a page the way wget -k does: only the URL text of the
// attributes it rewrites changes (and a <base>'s href goes); every other
// byte stays as received, whatever the page's encoding: the case of tags
// and names, quoting, whitespace, entities, and octets that are not UTF-8.
// x/net/html's Tokenizer finds the tags and decodes their attributes, but
// it lower-cases and unescapes its buffer in place and re-serialises a
// token as UTF-8 with its own quoting, so the edits are made on the page's
// own bytes instead: the offset of each token is the sum of the lengths of
// the raw tokens before it, and scanRawAttrs finds the attributes in a raw
// tag by the Tokenizer's own rules.

// rawAttr is where one attribute of a raw start tag lies, as offsets into
// the tag's bytes. The zero value is an attribute at offset 0.
type rawAttr struct {
	keyStart, keyEnd int  // the name
	valStart, valEnd int  // the value, without its quotes
	end              int  // the end of the attribute (after a closing quote)
	quote            byte // the quote around the value, or 0
	eq               bool // whether the name is followed by '='
}

// isTagSpace reports whether c is whitespace inside a tag, as the
// Tokenizer reads it.
func isTagSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f'
}

// tagScanner reads a raw tag as x/net/html's Tokenizer reads its buffer:
// readByte at the end reports false and does not advance.
type tagScanner struct {
	b []byte
	i int
}

// readByte returns the next byte, or false at the end.
func (s *tagScanner) readByte() (byte, bool) {
	if s.i >= len(s.b) {
		return 0, false
	}
	s.i++
	return s.b[s.i-1], true
}

// skipSpace moves past whitespace.
func (s *tagScanner) skipSpace() {
	for s.i < len(s.b) && isTagSpace(s.b[s.i]) {
		s.i++
	}
}

// scanRawAttrs appends to attrs the attributes with a non-empty name of
// the raw start tag tag ("<a href=x>"), in order and duplicates included,
// as the Tokenizer's readTag, readTagAttrKey and readTagAttrVal find them
// (WHATWG HTML 13.2.5.32 to 13.2.5.40, as x/net/html implements them): a
// value is "..." or '...' (newlines and '>' included), or unquoted up to
// whitespace or '>'; '=' may have whitespace around it; a name is read up
// to whitespace, '/', '>' or '=' (a leading '=' is part of it). The
// attributes are those of the Tokenizer's Token for the same tag, index
// for index.
func scanRawAttrs(tag []byte, attrs []rawAttr) []rawAttr {
	if len(tag) < 2 || tag[0] != '<' {
		return attrs
	}
	s := tagScanner{b: tag, i: 2} // '<' and the name's first letter
	for {                         // readTagName
		c, ok := s.readByte()
		if !ok || isTagSpace(c) {
			break
		}
		if c == '/' || c == '>' {
			s.i--
			break
		}
	}
	for s.skipSpace(); ; {
		c, ok := s.readByte()
		if !ok || c == '>' {
			return attrs
		}
		s.i--
		a := s.readAttr()
		if a.keyStart != a.keyEnd {
			attrs = append(attrs, a)
		}
		if s.skipSpace(); s.i >= len(s.b) {
			return attrs
		}
	}
}

// readAttr reads one attribute (readTagAttrKey, then readTagAttrVal).
func (s *tagScanner) readAttr() rawAttr {
	a := rawAttr{keyStart: s.i}
	for {
		c, ok := s.readByte()
		if c == '=' && a.keyStart+1 == s.i {
			continue // 13.2.5.32: '=' before a name begins is part of it
		}
		if ok && (c == '=' || c == '/' || c == '>' || isTagSpace(c)) {
			s.i--
		} else if ok {
			continue
		}
		a.keyEnd = s.i
		break
	}
	a.valStart, a.valEnd, a.end = a.keyEnd, a.keyEnd, a.keyEnd
	s.skipSpace()
	if c, ok := s.readByte(); !ok || c == '/' {
		return a // 13.2.5.34: '/' goes to the self-closing start tag state
	} else if c != '=' {
		s.i--
		return a
	}
	a.eq = true
	s.skipSpace()
	a.valStart, a.valEnd, a.end = s.i, s.i, s.i
	q, ok := s.readByte()
	switch {
	case !ok:
	case q == '>':
		s.i--
	case q == '"' || q == '\'':
		a.quote, a.valStart = q, s.i
		for {
			c, ok := s.readByte()
			if !ok {
				a.valEnd, a.end = s.i, s.i
				break
			}
			if c == q {
				a.valEnd, a.end = s.i-1, s.i
				break
			}
		}
	default:
		for {
			c, ok := s.readByte()
			if ok && (isTagSpace(c) || c == '>') {
				s.i--
			} else if ok {
				continue
			}
			a.valEnd, a.end = s.i, s.i
			break
		}
	}
	return a
}

// attrChange is what becomes of one attribute of a start tag: with drop it
// is removed, else its value becomes val (plain text, escaped when written).
type attrChange struct {
	attr int // index in the tag's Token().Attr
	val  string
	drop bool
}

// splice is one edit of a page: src[start:end] became repl.
type splice struct {
	start, end int
	repl       string
}

// rewriteStartTags returns src with the attribute changes that decide asks
// for in each start tag (decide is given the Tokenizer's Token, with
// lower-cased names and decoded values) and the edits that style, when not
// nil, makes in the text of each <style> element (given its start tag and
// its raw text, in the page's encoding), and the edits made, in order;
// every byte outside the edits is src's. It returns nil and no edits when
// nothing changes. src is not modified.
func rewriteStartTags(src []byte, enc pageenc.Encoding, decide func(tok html.Token) []attrChange,
	style func(tag html.Token, css []byte) []cssref.Edit) ([]byte, []splice) {
	var edits []splice
	var attrs []rawAttr
	var styleTag *html.Token // the <style> start tag whose text comes next
	z := html.NewTokenizer(bytes.NewReader(src))
	for off := 0; ; {
		tt := z.Next()
		n := len(z.Raw()) // the Tokenizer's copy; src holds the same bytes at off
		if tt == html.ErrorToken {
			break
		}
		if off+n > len(src) {
			return nil, nil // not src's tokens: leave the page as it is
		}
		if tt == html.TextToken && styleTag != nil {
			for _, e := range style(*styleTag, src[off:off+n]) {
				edits = append(edits, splice{start: off + e.Start, end: off + e.End, repl: e.Text})
			}
		}
		styleTag = nil
		if tt == html.StartTagToken || tt == html.SelfClosingTagToken {
			tok := z.Token()
			if tt == html.StartTagToken && tok.Data == "style" && style != nil {
				styleTag = &tok // a <style/> does not start raw text
			}
			tag := src[off : off+n]
			scanned := false
			if !enc.UTF8() && hasHighOctet(tag) {
				// The Tokenizer decodes character references to UTF-8 and
				// passes other octets through: a browser decodes the page
				// first, then the references.
				attrs, scanned = scanRawAttrs(tag, attrs[:0]), true
				if len(attrs) == len(tok.Attr) {
					for i, a := range attrs {
						tok.Attr[i].Val = html.UnescapeString(enc.DecodeString(string(tag[a.valStart:a.valEnd])))
					}
				}
			}
			if changes := decide(tok); len(changes) > 0 {
				if !scanned {
					attrs = scanRawAttrs(tag, attrs[:0])
				}
				if len(attrs) == len(tok.Attr) {
					edits = appendTagEdits(edits, off, tag, attrs, changes)
				}
			}
		}
		off += n
	}
	if len(edits) == 0 {
		return nil, nil
	}
	return applySplices(src, edits), edits
}

// appendTagEdits appends to edits the splices that make the changes to the
// raw tag at offset off of the page, whose attributes are attrs.
func appendTagEdits(edits []splice, off int, tag []byte, attrs []rawAttr, changes []attrChange) []splice {
	slices.SortFunc(changes, func(a, b attrChange) int { return a.attr - b.attr })
	for i, c := range changes {
		if c.attr < 0 || c.attr >= len(attrs) || i > 0 && changes[i-1].attr == c.attr {
			continue
		}
		a := attrs[c.attr]
		var sp splice
		switch {
		case c.drop:
			sp = dropSplice(tag, a)
		case !a.eq:
			sp = splice{start: a.keyEnd, end: a.keyEnd, repl: `="` + escapeAttrValue(c.val, '"') + `"`}
		case a.quote != 0:
			sp = splice{start: a.valStart, end: a.valEnd, repl: escapeAttrValue(c.val, a.quote)}
		case needsQuotes(c.val):
			sp = splice{start: a.valStart, end: a.valEnd, repl: `"` + escapeAttrValue(c.val, '"') + `"`}
		default:
			sp = splice{start: a.valStart, end: a.valEnd, repl: escapeAttrValue(c.val, 0)}
		}
		sp.start += off
		sp.end += off
		edits = append(edits, sp)
	}
	return edits
}

// dropSplice is the splice of the raw tag tag that removes the attribute
// a, with the whitespace before it unless what follows would then run into
// what comes before: an unquoted value and a name or "/", or a "/" and the
// closing '>' (which would make the tag self-closing).
func dropSplice(tag []byte, a rawAttr) splice {
	sp := splice{start: a.keyStart, end: a.end}
	ws := sp.start // tag[0] is '<'
	for isTagSpace(tag[ws-1]) {
		ws--
	}
	next := byte('>') // what follows a
	if a.end < len(tag) {
		next = tag[a.end]
	}
	switch {
	case next != '>' && !isTagSpace(next):
	case next == '>' && tag[ws-1] == '/':
		if ws == sp.start {
			sp.repl = " "
		}
	default:
		sp.start = ws
	}
	return sp
}

// needsQuotes reports whether v cannot be written as an unquoted attribute
// value (WHATWG HTML 13.1.2.3: no whitespace, quotes, '=', '<', '>' or
// '`', and not empty).
func needsQuotes(v string) bool {
	return v == "" || strings.ContainsAny(v, " \t\n\r\f\"'=<>`")
}

// escapeAttrValue writes v for an attribute value in quote (a double
// quote, an apostrophe, or 0 for unquoted): '&' as "&amp;" and the quote
// as a character reference.
func escapeAttrValue(v string, quote byte) string {
	if !strings.ContainsAny(v, `&"'`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '&':
			b.WriteString("&amp;")
		case c == '"' && quote == '"':
			b.WriteString("&quot;")
		case c == '\'' && quote == '\'':
			b.WriteString("&#39;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// applySplices returns src with the edits, which are in order and do not
// overlap.
func applySplices(src []byte, edits []splice) []byte {
	n := len(src)
	for _, e := range edits {
		n += len(e.repl) - (e.end - e.start)
	}
	out := make([]byte, 0, n)
	last := 0
	for _, e := range edits {
		out = append(out, src[last:e.start]...)
		out = append(out, e.repl...)
		last = e.end
	}
	return append(out, src[last:]...)
}

// hasHighOctet reports whether b holds an octet above 0x7F.
func hasHighOctet(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}
