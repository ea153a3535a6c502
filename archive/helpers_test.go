package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// fixedClock is a clock for tests: always the same instant.
func fixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

// seqIDs returns a deterministic record-id generator: <urn:uuid:...0001>, ...
func seqIDs() func() (string, error) {
	n := 0
	return func() (string, error) {
		n++
		return fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", n), nil
	}
}

// warcFiles returns the WARC files of dir in name order.
func warcFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

// gzipMembers splits a file into its decompressed gzip members using only
// compress/gzip (independent of the package's scanner).
func gzipMembers(t *testing.T, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(bytes.NewReader(data))
	var out [][]byte
	for {
		if _, err := br.Peek(1); err == io.EOF {
			return out
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			t.Fatalf("member %d: %v", len(out), err)
		}
		zr.Multistream(false)
		m, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("member %d: %v", len(out), err)
		}
		out = append(out, m)
	}
}

// readAll reads every record of the WARC files with the package's Reader.
func readAll(t *testing.T, files ...string) []*Record {
	t.Helper()
	var recs []*Record
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader(f)
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				t.Fatalf("%s record %d: %v", name, len(recs), err)
			}
			recs = append(recs, rec)
		}
		f.Close()
	}
	return recs
}

// page builds a simple exchange for url with the given body.
func page(url, path, body string) Exchange {
	return Exchange{
		TargetURI: url,
		Date:      time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC),
		IP:        "127.0.0.1",
		Request:   []byte("GET " + path + " HTTP/1.1\r\nHost: example.com\r\n\r\n"),
		Response: []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s",
			len(body), body)),
	}
}

// randomBytes returns n pseudo-random bytes, the same for each seed.
func randomBytes(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// loadJournal reads the journal's entries grouped by file, in order, as
// Open reads them (scanJournal).
func loadJournal(dir string) map[string][]indexEntry {
	byFile := map[string][]indexEntry{}
	scanJournal(dir, func(e indexEntry) error {
		byFile[e.File] = append(byFile[e.File], e)
		return nil
	})
	return byFile
}
