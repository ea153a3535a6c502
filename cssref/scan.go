package cssref

// Ref is one reference of a style sheet to another resource: a url(), the
// string of an @import, or a string URL of an image-set().
type Ref struct {
	// URL is the reference as written, its escapes resolved; it is not
	// resolved against the sheet's base URL.
	URL string
	// Start and End are where the URL's text lies in the scanned sheet:
	// between the quotes of a string, or an unquoted url()'s text without
	// the whitespace around it.
	Start, End int
	// Quote is the quote around the text (a double quote or an
	// apostrophe), 0 for the text of an unquoted url().
	Quote byte
	// Import marks the style sheet an @import rule loads.
	Import bool
}

// open is a block or function the scan is inside of.
type open struct {
	closer tokenKind // the token that closes it
	name   string    // a function's name, ASCII lower-cased
	args   int       // the tokens other than whitespace read inside it
	dead   bool      // a url() whose string is no reference (@namespace, a late @import)
	// importURL marks the url() that is an @import's URL.
	importURL bool
}

// scanner is the state of one Scan: the blocks it is inside of and the
// rule it reads at the top level.
type scanner struct {
	stack []open
	// prelude is the ASCII lower-cased name of the at-rule whose prelude
	// is being read at the top level, "{" for a qualified rule's, and ""
	// between rules.
	prelude string
	// importsOpen: no rule has come yet that an @import must precede
	// (CSS Cascading and Inheritance Level 4 section 2.1).
	importsOpen bool
	// importArg: the next token other than whitespace is an @import's
	// URL.
	importArg bool
	refs      []Ref
}

// Scan returns the references of a style sheet in UTF-8 (one in another
// encoding is decoded first: Encoding says which), in order: every url() (a url token, CSS
// Syntax Level 3 section 4.3.6, or the url function with a string, CSS
// Values and Units Level 4 section 4.5), the sheet of each @import that
// precedes every other rule but @charset and @layer (CSS Cascading and
// Inheritance Level 4 section 2.1), and the string URLs of image-set()
// and -webkit-image-set() (CSS Images Level 4 section 2.4). Nothing in a
// comment or inside a string is a reference, nor the URL of a @namespace
// rule (a name, not a resource), nor an empty url(), which CSS Values and
// Units Level 4 section 4.5.1 makes an invalid resource. The declarations
// of a style attribute are scanned alike (CSS Style Attributes section 2);
// no @import is valid there, so a caller keeps only the refs InStyleAttr
// reports.
func Scan(css []byte) []Ref {
	z := tokenizer{src: css}
	if len(css) >= 3 && css[0] == 0xEF && css[1] == 0xBB && css[2] == 0xBF {
		z.pos = 3 // a byte order mark is no part of the first token
	}
	s := scanner{importsOpen: true}
	for {
		t := z.next()
		if t.kind == tokEOF {
			return s.refs
		}
		s.take(t)
	}
}

// take reads one token.
func (s *scanner) take(t token) {
	if t.kind == tokWhitespace {
		return
	}
	if len(s.stack) == 0 && s.prelude == "" && s.startRule(t) {
		return
	}
	importArg := s.importArg
	s.importArg = false
	var in *open
	if n := len(s.stack); n > 0 {
		in = &s.stack[n-1]
		in.args++
	}
	switch t.kind {
	case tokURL:
		if !s.dead(in) && t.value != "" {
			s.refs = append(s.refs, Ref{URL: t.value, Start: t.valStart, End: t.valEnd, Import: importArg})
		}
	case tokString:
		s.str(t, in, importArg)
	case tokFunction:
		name := asciiLower(t.value)
		s.stack = append(s.stack, open{closer: tokCloseParen, name: name, dead: s.dead(in), importURL: name == "url" && importArg})
	case tokOpenParen:
		s.stack = append(s.stack, open{closer: tokCloseParen})
	case tokOpenSquare:
		s.stack = append(s.stack, open{closer: tokCloseSquare})
	case tokOpenCurly:
		if len(s.stack) == 0 {
			s.prelude = "" // the rule's block: no prelude once it closes
		}
		s.stack = append(s.stack, open{closer: tokCloseCurly})
	case tokCloseParen, tokCloseSquare, tokCloseCurly:
		// Only its own closer ends a block (CSS Syntax Level 3 section
		// 5.4.8); any other is a value inside it.
		if in != nil && in.closer == t.kind {
			s.stack = s.stack[:len(s.stack)-1]
		}
	case tokSemicolon:
		if len(s.stack) == 0 {
			s.prelude = ""
		}
	}
}

// startRule reads a token met between rules at the top level: an at-rule
// or the first token of a qualified rule. It reports whether the token is
// used up (whitespace, CDO and CDC, and stray semicolons are nothing
// between rules).
func (s *scanner) startRule(t token) bool {
	switch t.kind {
	case tokCDO, tokCDC, tokSemicolon:
		return true
	case tokAtKeyword:
		s.prelude = asciiLower(t.value)
		switch s.prelude {
		case "import":
			s.importArg = s.importsOpen
		case "charset", "layer":
		default:
			s.importsOpen = false
		}
		return true
	}
	s.prelude = "{"
	s.importsOpen = false
	return false
}

// dead reports whether a reference read now is none: inside a
// @namespace rule's prelude, an @import that comes too late, or a url()
// made dead by either.
func (s *scanner) dead(in *open) bool {
	if in != nil && in.dead {
		return true
	}
	return s.prelude == "namespace" || s.prelude == "import" && !s.importsOpen
}

// str reads a string token: a reference as an @import's URL, as the first
// argument of url(), or as an argument of image-set().
func (s *scanner) str(t token, in *open, importArg bool) {
	ref := importArg
	if !ref && in != nil && !in.dead {
		switch in.name {
		case "url":
			ref, importArg = in.args == 1, in.importURL
		case "image-set", "-webkit-image-set":
			ref = true
		}
	}
	if ref && t.value != "" {
		s.refs = append(s.refs, Ref{URL: t.value, Start: t.valStart, End: t.valEnd, Quote: t.quote, Import: importArg})
	}
}

// asciiLower lower-cases the ASCII letters of s (CSS Syntax Level 3
// compares names ASCII case-insensitively).
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
