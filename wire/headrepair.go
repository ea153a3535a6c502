package wire

import (
	"bytes"
	"fmt"
)

// maxRepairNotes bounds the notes repairHead makes of one head: a head of
// a megabyte of junk lines is described by its first changes and a count.
const maxRepairNotes = 16

// repairHead returns a response head (status line through the empty line
// that ends it, as received) in the form net/http's strict parser accepts,
// and a short note for each change, or head itself and no notes when
// nothing needs changing. Browsers read such heads; net/http refused the
// whole response for one bad line, and the page was lost. The changes,
// each what RFC 9112 and RFC 9110 tell a recipient it may do, or what
// browsers do with a line the grammar does not allow:
//
//   - empty lines before the status line are dropped (RFC 9112 2.2 asks a
//     server to ignore them before a request line; the same robustness);
//   - an HTTP-name in the wrong case ("http/1.1") is written "HTTP"
//     (RFC 9112 2.3: HTTP-name is "HTTP", case-sensitive);
//   - a line with no colon, such as a CGI script's stray
//     "Warning - could not open counter.dat", is not a field line (RFC
//     9112 5) and is dropped, as are its continuation lines;
//   - a field name that is not a token (RFC 9110 5.1: "X(Powered)By",
//     an empty name, a space inside) is dropped with its line, as Firefox
//     ignores it; whitespace between the name and the colon is removed
//     (RFC 9112 5.1: a proxy must remove it from a response);
//   - a continuation line (obs-fold) with no field line before it is
//     dropped (RFC 9112 2.2: consumed without further processing);
//   - NUL, a bare CR and the other control octets in a field value are
//     replaced with SP (RFC 9110 5.5, RFC 9112 2.2).
//
// Line endings (CRLF or a bare LF) are kept as they were, and so are any
// bytes after the empty line. The result is
// never longer than head. A head whose first line (after empty ones) does
// not start "HTTP/" in any case has no status line to read it by: it is
// returned unchanged, and net/http refuses it as before. Pure; safe for
// concurrent use.
func repairHead(head []byte) (fixed []byte, notes []string) {
	rest := head
	blanks := 0
	for len(rest) > 0 && isBlankLine(lineOf(rest)) {
		rest = rest[len(lineOf(rest)):]
		blanks++
	}
	status := lineOf(rest)
	if !hasStatusName(status) {
		return head, nil
	}
	var n repairNotes
	if blanks > 0 {
		n.add(fmt.Sprintf("%d empty line(s) before the status line dropped (RFC 9112 2.2)", blanks))
	}
	out := make([]byte, 0, len(head))
	if !bytes.HasPrefix(status, []byte("HTTP/")) {
		n.add(fmt.Sprintf("status line %s: %q written \"HTTP/\" (RFC 9112 2.3: HTTP-name is case-sensitive)", quoteCut(status), status[:5]))
		out = append(append(out, "HTTP/"...), status[5:]...)
	} else {
		out = append(out, status...)
	}
	rest = rest[len(status):]
	keep := false // whether the last field line was kept, for its continuation lines
	for no := 2 + blanks; len(rest) > 0; no++ {
		line := lineOf(rest)
		rest = rest[len(line):]
		if isBlankLine(line) {
			out = append(append(out, line...), rest...) // the end of the head, and any bytes after it
			break
		}
		text, eol := splitEOL(line)
		if text[0] == ' ' || text[0] == '\t' {
			// obs-fold: part of the field line before it.
			if !keep {
				n.add(fmt.Sprintf("line %d dropped, a continuation line with no kept field line before it: %s (RFC 9112 5.2)", no, quoteCut(text)))
				continue
			}
			out = appendCleaned(out, text, no, "continuation line", &n)
			out = append(out, eol...)
			continue
		}
		name, value, ok := bytes.Cut(text, []byte{':'})
		trimmed := bytes.TrimRight(name, " \t")
		switch {
		case !ok:
			n.add(fmt.Sprintf("line %d dropped, not a field line (no colon): %s (RFC 9112 5)", no, quoteCut(text)))
			keep = false
			continue
		case !isToken(trimmed):
			n.add(fmt.Sprintf("line %d dropped, its field name is not a token: %s (RFC 9110 5.1)", no, quoteCut(text)))
			keep = false
			continue
		case len(trimmed) < len(name):
			n.add(fmt.Sprintf("line %d: whitespace between the field name %q and the colon removed (RFC 9112 5.1)", no, trimmed))
		}
		keep = true
		out = append(append(out, trimmed...), ':')
		out = appendCleaned(out, value, no, fmt.Sprintf("field %q", trimmed), &n)
		out = append(out, eol...)
	}
	if n.count == 0 {
		return head, nil
	}
	return out, n.list()
}

// repairNotes collects notes up to maxRepairNotes and counts the rest.
type repairNotes struct {
	notes []string
	count int
}

func (n *repairNotes) add(s string) {
	n.count++
	if len(n.notes) < maxRepairNotes {
		n.notes = append(n.notes, s)
	}
}

func (n *repairNotes) list() []string {
	if more := n.count - len(n.notes); more > 0 {
		return append(n.notes, fmt.Sprintf("and %d more change(s) like these", more))
	}
	return n.notes
}

// appendCleaned appends value with each control octet (NUL, a bare CR,
// DEL, any other CTL but HTAB) replaced with SP: RFC 9110 5.5 lets a
// recipient replace CR, LF and NUL with SP, and net/http refuses a value
// holding any of them. One note says how many were replaced in what.
func appendCleaned(out, value []byte, no int, what string, n *repairNotes) []byte {
	replaced := 0
	for _, c := range value {
		if c < 0x20 && c != '\t' || c == 0x7f {
			c = ' '
			replaced++
		}
		out = append(out, c)
	}
	if replaced > 0 {
		n.add(fmt.Sprintf("line %d, %s: %d control octet(s) (NUL, CR, ...) replaced with SP (RFC 9110 5.5)", no, what, replaced))
	}
	return out
}

// lineOf returns b's first line with its LF, or all of b if it has none.
func lineOf(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i+1]
	}
	return b
}

// splitEOL splits a line into its text and its ending (CRLF, LF or none).
func splitEOL(line []byte) (text, eol []byte) {
	switch {
	case bytes.HasSuffix(line, []byte("\r\n")):
		return line[:len(line)-2], line[len(line)-2:]
	case bytes.HasSuffix(line, []byte("\n")):
		return line[:len(line)-1], line[len(line)-1:]
	}
	return line, nil
}

// isBlankLine reports whether line is an empty line: CRLF or a bare LF.
func isBlankLine(line []byte) bool {
	return len(line) == 1 && line[0] == '\n' || len(line) == 2 && line[0] == '\r' && line[1] == '\n'
}

// hasStatusName reports whether line starts as a status line does, with
// "HTTP/" in any case.
func hasStatusName(line []byte) bool {
	return len(line) >= 5 && bytes.EqualFold(line[:5], []byte("HTTP/"))
}

// isToken reports whether b is a token (RFC 9110 5.6.2): one or more
// tchar.
func isToken(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !isTchar(c) {
			return false
		}
	}
	return true
}

// isTchar reports whether c is a tchar (RFC 9110 5.6.2).
func isTchar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return bytes.IndexByte([]byte("!#$%&'*+-.^_`|~"), c) >= 0
}

// quoteCut quotes a line for a note, cut to its first 60 octets.
func quoteCut(b []byte) string {
	const most = 60
	if len(b) > most {
		return fmt.Sprintf("%q...", b[:most])
	}
	return fmt.Sprintf("%q", b)
}
