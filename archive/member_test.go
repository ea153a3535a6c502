package archive

import (
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"strings"
	"testing"

	kpgzip "github.com/klauspost/compress/gzip"
)

// TestMemberPoolUsesLevel checks that every record, small or large, is
// one member of klauspost's gzip at the pool's level, byte for byte, and
// that both gzip readers return the record from it.
func TestMemberPoolUsesLevel(t *testing.T) {
	fields := []Field{{"WARC-Type", "metadata"}, {"WARC-Record-ID", "<urn:uuid:00000000-0000-4000-8000-000000000001>"}}
	// record renders what compress compresses: a record of total bytes.
	record := func(total int) ([]byte, []byte) {
		hdr := appendHeader(nil, fields, 0)
		blockLen := total - len(hdr) - len(recordTrailer)
		for range 3 { // the Content-Length digits change the header length
			hdr = appendHeader(nil, fields, blockLen)
			blockLen = total - len(hdr) - len(recordTrailer)
		}
		block := []byte(strings.Repeat("outlink: http://example.com/x\r\n", total/31+1)[:blockLen])
		rec := append(append(hdr, block...), recordTrailer...)
		if len(rec) != total {
			t.Fatalf("record of %d bytes, want %d", len(rec), total)
		}
		return block, rec
	}
	for _, tc := range []struct{ level, size int }{
		{0, 600}, {0, 4095}, {0, 4096}, {0, 64 << 10}, {1, 600}, {6, 4095}, {7, 600}, {9, 600},
	} {
		block, rec := record(tc.size)
		p := memberPool{level: tc.level}
		var got bytes.Buffer
		// The block in two parts, as WriteExchange never does but may.
		if err := p.compress(&got, fields, block[:len(block)/2], block[len(block)/2:]); err != nil {
			t.Fatal(err)
		}
		level := tc.level
		if level == 0 {
			level = 5 // klauspost's DefaultCompression
		}
		if want := klauspostMember(t, rec, level); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("level %d, %d-byte record: member is not klauspost's at level %d", tc.level, tc.size, level)
		}
		if m := inflateBoth(t, got.Bytes()); !bytes.Equal(m, rec) {
			t.Errorf("level %d, %d-byte record: round trip differs", tc.level, tc.size)
		}
	}
}

// inflateBoth decompresses a gzip member with compress/gzip and with
// klauspost's gzip, which both check CRC-32 and ISIZE at the end, and
// requires the same bytes from both and nothing after the member.
func inflateBoth(t testing.TB, member []byte) []byte {
	t.Helper()
	var got [2][]byte
	for i, open := range []func(io.Reader) (io.ReadCloser, error){
		func(r io.Reader) (io.ReadCloser, error) { return stdgzip.NewReader(r) },
		func(r io.Reader) (io.ReadCloser, error) { return kpgzip.NewReader(r) },
	} {
		zr, err := open(bytes.NewReader(member))
		if err != nil {
			t.Fatalf("reader %d: header: %v", i, err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("reader %d: %v", i, err)
		}
		got[i] = b
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Fatalf("compress/gzip and klauspost read different bytes (%d, %d)", len(got[0]), len(got[1]))
	}
	return got[0]
}

// klauspostMember compresses src as one member with klauspost's gzip.
func klauspostMember(tb testing.TB, src []byte, level int) []byte {
	var buf bytes.Buffer
	zw, err := kpgzip.NewWriterLevel(&buf, level)
	if err != nil {
		tb.Fatal(err)
	}
	zw.Write(src)
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
