package cssref

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/pageenc"
)

// fuzzURL is the new URL FuzzRewrite gives reference i: it mixes plain
// URLs with ones holding what each context must escape.
func fuzzURL(i int) string {
	return "u" + strconv.Itoa(i) + [...]string{" a", "\x00", `"q'`, "(p)", `\b`, "é", "\n", ""}[i%8]
}

// readBack is what a sheet with fuzzURL(i) written in it reads as: a NUL
// reads as U+FFFD (CSS Syntax Level 3 section 3.3).
func readBack(i int) string { return strings.ReplaceAll(fuzzURL(i), "\x00", "\uFFFD") }

// fuzzEncodings are the encodings FuzzRewrite reads its input in: UTF-8,
// a single-octet one, one whose second octets include "\", and UTF-16.
var fuzzEncodings = []string{"utf-8", "windows-1252", "shift_jis", "utf-16le"}

// FuzzRewrite: for any sheet in any of fuzzEncodings, the references'
// spans lie inside the text in order, the rewritten sheet differs from
// the input only inside the edits, and it scans as the same references
// with the new URLs. No input panics.
func FuzzRewrite(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c.css), byte(0))
	}
	f.Add([]byte("a{content:\"\x95\x5C\"} b{c:url(\x95\x5C.png)}"), byte(2))
	f.Add([]byte("\xFF\xFEa\x00{\x00b\x00:\x00u\x00r\x00l\x00(\x00x\x00)\x00}\x00"), byte(3))
	f.Add([]byte("a{b:url(\x81\xe9)}"), byte(1))
	f.Add([]byte(strings.Repeat(`a{b:url(x) c:url("y")}`, 9)), byte(0))
	f.Fuzz(func(t *testing.T, src []byte, which byte) {
		enc := pageenc.Encoding{}
		if label := fuzzEncodings[int(which)%len(fuzzEncodings)]; label != "utf-8" {
			enc = named(t, label)
		}
		e, _ := codec(enc) // each of fuzzEncodings is known (named)
		orig := bytes.Clone(src)
		text, _ := decodeMapped(src, e)
		before := Scan(text)
		last := 0
		for _, r := range before {
			if r.Start < last || r.End < r.Start || r.End > len(text) {
				t.Fatalf("ref %+v out of order or outside %d octets", r, len(text))
			}
			last = r.End
		}
		i := 0
		out, edits := Rewrite(src, enc, func(Ref) (string, bool) { i++; return fuzzURL(i), true })
		if !bytes.Equal(src, orig) {
			t.Fatalf("the input was modified")
		}
		checkEdits(t, src, out, edits)
		if out == nil {
			out = src
		}
		outText, _ := decodeMapped(out, e)
		after := Scan(outText)
		if len(after) != len(before) {
			t.Fatalf("%d refs became %d:\n%q\n%q", len(before), len(after), text, outText)
		}
		for k, r := range after {
			if want := readBack(k + 1); r.URL != want || r.Import != before[k].Import {
				t.Fatalf("ref %d reads %q (import %v), want %q (import %v), in\n%q", k, r.URL, r.Import, want, before[k].Import, outText)
			}
		}
	})
}
