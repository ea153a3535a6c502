package wire

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// repairHead gives net/http a head it reads, changing only what RFC 9112
// and RFC 9110 let a recipient change (or what browsers do with a line the
// grammar does not allow), each change with a note.
func TestRepairHead(t *testing.T) {
	tests := []struct {
		name, in, want string
		notes          []string // a word or two each note must hold, in order
		header         http.Header
	}{
		{name: "RFC9112 5 a line without a colon is no field line: dropped",
			in:     "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nWarning - could not open counter.dat\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\n",
			notes:  []string{`line 3 dropped, not a field line (no colon): "Warning - could not open counter.dat"`},
			header: http.Header{"Content-Type": {"text/html"}, "Content-Length": {"5"}}},
		{name: "RFC9110 5.1 a field name that is no token: dropped",
			in:     "HTTP/1.1 200 OK\r\nX(Powered)By: PHP/4.0\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
			notes:  []string{`line 2 dropped, its field name is not a token: "X(Powered)By: PHP/4.0"`},
			header: http.Header{"Content-Length": {"5"}}},
		{name: "RFC9110 5.1 an empty field name: dropped",
			in:     "HTTP/1.1 200 OK\r\n: orphan\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
			notes:  []string{"line 2 dropped, its field name is not a token"},
			header: http.Header{"Content-Length": {"5"}}},
		{name: "RFC9110 5.1 a space inside a field name: dropped",
			in:     "HTTP/1.1 200 OK\r\nError on line 5: x\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
			notes:  []string{"not a token"},
			header: http.Header{"Content-Length": {"5"}}},
		{name: "RFC9112 5.1 whitespace before the colon: removed",
			in:     "HTTP/1.1 200 OK\r\nContent-Type : text/html\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\n",
			notes:  []string{`whitespace between the field name "Content-Type" and the colon removed`},
			header: http.Header{"Content-Type": {"text/html"}, "Content-Length": {"5"}}},
		{name: "RFC9110 5.5 NUL in a field value: replaced with SP",
			in:     "HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nX-A: a b\r\nContent-Length: 5\r\n\r\n",
			notes:  []string{`line 2, field "X-A": 1 control octet(s)`},
			header: http.Header{"X-A": {"a b"}, "Content-Length": {"5"}}},
		{name: "RFC9112 2.2 a bare CR and other controls in a value: replaced with SP",
			in:     "HTTP/1.1 200 OK\r\nX-A: a\rb\x01c\x7fd\tok\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nX-A: a b c d\tok\r\nContent-Length: 5\r\n\r\n",
			notes:  []string{"3 control octet(s)"},
			header: http.Header{"X-A": {"a b c d\tok"}, "Content-Length": {"5"}}},
		{name: "RFC9112 2.3 HTTP-name in lower case: written HTTP",
			in:     "http/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
			notes:  []string{`status line "http/1.1 200 OK\r\n": "http/" written "HTTP/"`},
			header: http.Header{"Content-Length": {"5"}}},
		{name: "RFC9112 2.2 empty lines before the status line: dropped",
			in:     "\r\n\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
			notes:  []string{"2 empty line(s) before the status line dropped"},
			header: http.Header{"Content-Length": {"5"}}},
		{name: "RFC9112 2.2 whitespace-preceded line after the status line: dropped",
			in:     "HTTP/1.1 200 OK\r\n  junk\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
			notes:  []string{`line 2 dropped, a continuation line with no kept field line before it: "  junk"`},
			header: http.Header{"Content-Length": {"5"}}},
		{name: "RFC9112 5.2 continuation of a dropped line: dropped with it; of a kept one: kept",
			in:     "HTTP/1.1 200 OK\r\nX(Y): a\r\n b\r\nX-Fold: c\r\n\td\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nX-Fold: c\r\n\td\r\nContent-Length: 5\r\n\r\n",
			notes:  []string{"line 2 dropped", "line 3 dropped, a continuation line"},
			header: http.Header{"X-Fold": {"c d"}, "Content-Length": {"5"}}},
		{name: "RFC9112 2.2 bare LF line endings kept as they are",
			in:     "HTTP/1.1 200 OK\nbroken line\nContent-Length: 5\n\n",
			want:   "HTTP/1.1 200 OK\nContent-Length: 5\n\n",
			notes:  []string{"no colon"},
			header: http.Header{"Content-Length": {"5"}}},
		{name: "RFC9110 5.5 obs-text in a value is no control: kept",
			in:     "HTTP/1.1 200 OK\r\nContent-Disposition: inline; filename=caf\xe9.html\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.1 200 OK\r\nContent-Disposition: inline; filename=caf\xe9.html\r\nContent-Length: 5\r\n\r\n",
			header: http.Header{"Content-Disposition": {"inline; filename=caf\xe9.html"}, "Content-Length": {"5"}}},
		{name: "RFC9112 4 a sound head is not touched",
			in:     "HTTP/1.0 404 Not Found\r\nlower-case: x\r\nX-Empty:\r\nContent-Length: 5\r\n\r\n",
			want:   "HTTP/1.0 404 Not Found\r\nlower-case: x\r\nX-Empty:\r\nContent-Length: 5\r\n\r\n",
			header: http.Header{"Lower-Case": {"x"}, "X-Empty": {""}, "Content-Length": {"5"}}},
		{name: "RFC9112 4 no status line: left as it is",
			in:   "<html>\r\nnot: a head\r\n\r\n",
			want: "<html>\r\nnot: a head\r\n\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, notes := repairHead([]byte(tt.in))
			if string(got) != tt.want {
				t.Errorf("repaired\n%q\nwant\n%q", got, tt.want)
			}
			if len(notes) != len(tt.notes) {
				t.Fatalf("notes %q, want %d like %q", notes, len(tt.notes), tt.notes)
			}
			for i, n := range notes {
				if !strings.Contains(n, tt.notes[i]) {
					t.Errorf("note %d %q does not say %q", i, n, tt.notes[i])
				}
			}
			if tt.header == nil {
				return
			}
			// net/http reads the repaired head, with the fields wanted.
			resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(got)+"hello")), nil)
			if err != nil {
				t.Fatalf("net/http refuses the repaired head: %v", err)
			}
			defer resp.Body.Close()
			for k, v := range tt.header {
				if g := resp.Header[k]; strings.Join(g, "|") != strings.Join(v, "|") {
					t.Errorf("header %s %q, want %q", k, g, v)
				}
			}
			if len(resp.Header) != len(tt.header) {
				t.Errorf("header %v, want %v", resp.Header, tt.header)
			}
			if body, _ := io.ReadAll(resp.Body); string(body) != "hello" {
				t.Errorf("body %q", body)
			}
		})
	}
}

// A head of thousands of junk lines gets a bounded list of notes.
func TestRepairHeadBoundsItsNotes(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\n" + strings.Repeat("junk line\r\n", 1000) + "\r\n"
	got, notes := repairHead([]byte(head))
	if string(got) != "HTTP/1.1 200 OK\r\n\r\n" {
		t.Errorf("repaired %q", got)
	}
	if len(notes) != maxRepairNotes+1 || !strings.Contains(notes[maxRepairNotes], "984 more") {
		t.Errorf("%d notes, last %q: want %d and a count of the rest", len(notes), notes[len(notes)-1], maxRepairNotes+1)
	}
}

// A repaired head is never longer than the head, needs no second repair,
// and is changed only with a note saying how.
func FuzzRepairHead(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nA: b\r\n\r\n",
		"http/1.0 200 OK\nno colon\n x\n\n",
		"\r\nHTTP/1.1 200 OK\r\nX(Y): z\x00\r\n\r\n",
		"HTTP/1.1 200 OK\r\nA : b\r\n c\rd\r\n\r\n",
		"garbage",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		fixed, notes := repairHead(head)
		if len(fixed) > len(head) {
			t.Fatalf("repaired %q is longer than %q", fixed, head)
		}
		if (len(notes) == 0) != bytes.Equal(fixed, head) {
			t.Fatalf("repaired %q from %q with notes %q", fixed, head, notes)
		}
		if again, more := repairHead(fixed); len(more) > 0 || !bytes.Equal(again, fixed) {
			t.Fatalf("second repair of %q: %q, %q", fixed, again, more)
		}
		// Whatever net/http still refuses of a repaired head with a
		// status line is its status line or its framing, never a field
		// line.
		if !hasStatusName(bytes.TrimLeft(head, "\r\n")) {
			return
		}
		_, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(fixed)), nil)
		if err != nil && strings.Contains(err.Error(), "MIME") {
			t.Fatalf("net/http refuses the repaired %q (from %q): %v", fixed, head, err)
		}
	})
}
