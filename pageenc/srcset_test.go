package pageenc

import (
	"slices"
	"testing"
)

// TestSrcsetURLs: the candidate URLs of srcset values, as the HTML
// Standard's "parse a srcset attribute" splits them.
func TestSrcsetURLs(t *testing.T) {
	cases := []struct {
		name, srcset string
		want         []string
	}{
		{"one URL without descriptors", "a.png", []string{"a.png"}},
		{"density descriptors", "a.png 1x, b.png 2x", []string{"a.png", "b.png"}},
		{"width descriptors and odd spacing", "\n  a.png   300w ,\tb.png 600w,c.png", []string{"a.png", "b.png", "c.png"}},
		{"a trailing comma ends the URL and its candidate", "a.png,, b.png 2x", []string{"a.png", "b.png"}},
		{"a comma inside a URL without whitespace is part of it", "a.png,b.png", []string{"a.png,b.png"}},
		{"a comma inside parentheses does not end the descriptors", "a.png 1x (x, y), b.png", []string{"a.png", "b.png"}},
		{"leading commas and whitespace are skipped", " ,, a.png", []string{"a.png"}},
		{"a candidate with invalid descriptors is kept", "a.png 1x 2x, b.png", []string{"a.png", "b.png"}},
		{"a data URL with commas", "data:image/gif;base64,R0lG 1x, b.png 2x", []string{"data:image/gif;base64,R0lG", "b.png"}},
		{"empty", "  ", nil},
	}
	for _, c := range cases {
		if got := SrcsetURLs(c.srcset); !slices.Equal(got, c.want) {
			t.Errorf("%s: SrcsetURLs(%q) = %q, want %q", c.name, c.srcset, got, c.want)
		}
	}
}

// FuzzSrcsetSpans: the spans of any value lie inside it, in order, and
// hold no whitespace and no trailing comma.
func FuzzSrcsetSpans(f *testing.F) {
	f.Add("a.png 1x, b.png (x, y) 2x,, c.png,")
	f.Fuzz(func(t *testing.T, s string) {
		last := 0
		for _, sp := range SrcsetSpans(s) {
			if sp[0] < last || sp[1] <= sp[0] || sp[1] > len(s) {
				t.Fatalf("span %v out of order or empty in %q", sp, s)
			}
			for i := sp[0]; i < sp[1]; i++ {
				if isHTMLSpace(s[i]) {
					t.Fatalf("span %v of %q holds whitespace", sp, s)
				}
			}
			if s[sp[1]-1] == ',' {
				t.Fatalf("span %v of %q ends with a comma", sp, s)
			}
			last = sp[1]
		}
	})
}
