package crawllog

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadJSONLSkipsBlankTornAndOverlongLines(t *testing.T) {
	long := `{"url":"` + strings.Repeat("a", MaxLine+10) + `"}`
	in := `{"url":"http://h/1"}` + "\n\n  \n" + long + "\n" + `{"url":"http://h/2"}` + "\r\n" + `{"url":"http://h/3"`
	var got []string
	bad, first, err := ReadJSONL(strings.NewReader(in), func(e SkipEntry) { got = append(got, e.URL) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"http://h/1", "http://h/2"}; !slices.Equal(got, want) {
		t.Errorf("decoded %q, want %q", got, want)
	}
	if bad != 2 || first != 4 {
		t.Errorf("bad %d (first on line %d), want 2 (first on line 4)", bad, first)
	}
}

func TestReadJSONLLastLineWithoutNewline(t *testing.T) {
	var got []string
	bad, _, err := ReadJSONL(strings.NewReader(`{"url":"http://h/1"}`), func(e SkipEntry) { got = append(got, e.URL) })
	if err != nil || bad != 0 || !slices.Equal(got, []string{"http://h/1"}) {
		t.Errorf("got %q, bad %d, err %v", got, bad, err)
	}
}

func TestReadJSONLReturnsReadError(t *testing.T) {
	boom := errors.New("boom")
	_, _, err := ReadJSONL(iotest.ErrReader(boom), func(SkipEntry) {})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want %v", err, boom)
	}
}
