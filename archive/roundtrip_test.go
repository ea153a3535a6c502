package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// cdxLine is one parsed index.cdxj line.
type cdxLine struct {
	key, ts string
	fields  map[string]string
}

func readIndex(t *testing.T, dir string) []cdxLine {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	var out []cdxLine
	prev := ""
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if l == "" {
			continue
		}
		if l < prev {
			t.Errorf("index not sorted: %q after %q", l, prev)
		}
		prev = l
		parts := strings.SplitN(l, " ", 3)
		if len(parts) != 3 {
			t.Fatalf("bad cdxj line %q", l)
		}
		c := cdxLine{key: parts[0], ts: parts[1]}
		if err := json.Unmarshal([]byte(parts[2]), &c.fields); err != nil {
			t.Fatalf("cdxj json %q: %v", parts[2], err)
		}
		out = append(out, c)
	}
	return out
}

// recordAt reads the single record in the gzip member at offset/length.
func recordAt(t *testing.T, dir string, c cdxLine) *Record {
	t.Helper()
	off, _ := strconv.ParseInt(c.fields["offset"], 10, 64)
	n, _ := strconv.ParseInt(c.fields["length"], 10, 64)
	f, err := os.Open(filepath.Join(dir, c.fields["filename"]))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(io.NewSectionReader(f, off, n))
	if err != nil {
		t.Fatalf("member at %d: %v", off, err)
	}
	zr.Multistream(false)
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("member at %d: %v", off, err)
	}
	rec, err := readRecord(bufio.NewReader(bytes.NewReader(data)))
	if err != nil {
		t.Fatalf("record at %d: %v", off, err)
	}
	return rec
}

func TestRoundTripThroughReader(t *testing.T) {
	for _, algo := range []string{DigestSHA1, DigestSHA256} {
		t.Run(algo, func(t *testing.T) {
			dir := t.TempDir()
			w, err := Open(Options{Dir: dir, Digest: algo, Dedupe: true, Software: "crawl/test"})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			bodies := map[string]string{}
			for i := range 50 {
				body := make([]byte, rng.IntN(5000))
				for j := range body {
					body[j] = byte(rng.IntN(256))
				}
				if i%10 == 9 {
					body = []byte("same payload") // becomes a revisit after the first
				}
				u := fmt.Sprintf("http://example.com/p%d?x=%d", i, i)
				bodies[u] = string(body)
				e := page(u, "/p", string(body))
				e.Metadata = []Field{{"outlink", "http://example.com/"}}
				if err := w.WriteExchange(e); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			recs := readAll(t, warcFiles(t, dir)...)
			byID := map[string]*Record{}
			counts := map[string]int{}
			for _, r := range recs {
				byID[r.Get("WARC-Record-ID")] = r
				counts[r.Type()]++
				if err := r.VerifyBlockDigest(); err != nil {
					t.Errorf("%s %s: %v", r.Type(), r.Get("WARC-Target-URI"), err)
				}
				if err := r.VerifyPayloadDigest(); err != nil {
					t.Errorf("%s %s: %v", r.Type(), r.Get("WARC-Target-URI"), err)
				}
				if d := r.Get("WARC-Block-Digest"); !strings.HasPrefix(d, algo+":") {
					t.Errorf("block digest %q not %s", d, algo)
				}
			}
			want := map[string]int{"warcinfo": 1, "request": 50, "response": 46, "revisit": 4, "metadata": 50}
			for k, v := range want {
				if counts[k] != v {
					t.Errorf("%d %s records, want %d", counts[k], k, v)
				}
			}
			for _, r := range recs {
				switch r.Type() {
				case "response":
					p, _ := r.Payload()
					if string(p) != bodies[r.Get("WARC-Target-URI")] {
						t.Errorf("payload of %s differs", r.Get("WARC-Target-URI"))
					}
					fallthrough
				case "request", "revisit", "metadata":
					peer := byID[r.Get("WARC-Concurrent-To")]
					if peer == nil || peer.Get("WARC-Target-URI") != r.Get("WARC-Target-URI") {
						t.Errorf("%s %s: WARC-Concurrent-To does not name a record of the same URI", r.Type(), r.Get("WARC-Target-URI"))
					}
				}
				if r.Type() == "revisit" {
					orig := byID[r.Get("WARC-Refers-To")]
					if orig == nil || orig.Type() != "response" ||
						orig.Get("WARC-Target-URI") != r.Get("WARC-Refers-To-Target-URI") ||
						orig.Get("WARC-Date") != r.Get("WARC-Refers-To-Date") ||
						orig.Get("WARC-Payload-Digest") != r.Get("WARC-Payload-Digest") {
						t.Errorf("revisit %s does not refer to its original", r.Get("WARC-Target-URI"))
					}
				}
			}
			idx := readIndex(t, dir)
			if len(idx) != 50 {
				t.Fatalf("%d index lines, want 50", len(idx))
			}
			for _, c := range idx {
				rec := recordAt(t, dir, c)
				if rec.Get("WARC-Target-URI") != c.fields["url"] || c.key != SURT(c.fields["url"]) || c.ts != "20260304050607" {
					t.Errorf("index line %v points at %s %s", c, rec.Type(), rec.Get("WARC-Target-URI"))
				}
				if want := strings.TrimPrefix(rec.Get("WARC-Payload-Digest"), "sha1:"); c.fields["digest"] != want {
					t.Errorf("index digest %q, want %q", c.fields["digest"], want)
				}
				if (rec.Type() == "revisit") != (c.fields["mime"] == "warc/revisit") || c.fields["status"] != "200" {
					t.Errorf("index line %v for a %s record", c.fields, rec.Type())
				}
			}
		})
	}
}

func TestIndexRebuildEqualsWritten(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(Options{Dir: dir, MaxFileSize: 4096, Dedupe: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		if err := w.WriteExchange(page(fmt.Sprintf("http://www.Example.com/%d", i%20), "/", strings.Repeat("x", i*100))); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(warcFiles(t, dir)); n < 3 {
		t.Fatalf("%d files; MaxFileSize 4096 should rotate", n)
	}
	written, _ := os.ReadFile(filepath.Join(dir, IndexName))
	os.Remove(filepath.Join(dir, IndexName))
	if err := RebuildIndex(dir); err != nil {
		t.Fatal(err)
	}
	rebuilt, _ := os.ReadFile(filepath.Join(dir, IndexName))
	if string(written) != string(rebuilt) || len(written) == 0 {
		t.Errorf("rebuilt index differs:\n%s\nvs\n%s", rebuilt, written)
	}
}

func TestRotationKeepsFilesUnderMaxSize(t *testing.T) {
	dir := t.TempDir()
	const max = 8 << 10
	w, err := Open(Options{Dir: dir, MaxFileSize: max})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 40 {
		body := make([]byte, 1500)
		for j := range body {
			body[j] = byte(rng.IntN(256))
		}
		if err := w.WriteExchange(page(fmt.Sprintf("http://example.com/%d", i), "/", string(body))); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := warcFiles(t, dir)
	total := 0
	for i, f := range files {
		st, _ := os.Stat(f)
		if st.Size() > max {
			t.Errorf("%s is %d bytes > %d", f, st.Size(), max)
		}
		recs := readAll(t, f)
		if recs[0].Type() != "warcinfo" || recs[0].Get("WARC-Filename") != filepath.Base(f) {
			t.Errorf("%s does not start with its warcinfo", f)
		}
		if !strings.HasSuffix(f, fmt.Sprintf("-%05d.warc.gz", i+1)) {
			t.Errorf("file %d named %s", i, f)
		}
		total += len(recs) - 1
	}
	if total != 80 || len(files) < 5 {
		t.Errorf("%d exchange records in %d files, want 80 in several", total, len(files))
	}
}

// storeCounter is a Mirror that counts the responses given to Store.
type storeCounter struct {
	mu     sync.Mutex
	stored map[string]int
}

func (c *storeCounter) Store(resp MirrorResponse) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stored[resp.URL]++
	return nil
}
func (c *storeCounter) Redirect(url, location string)  {}
func (c *storeCounter) Recall(url, contentType string) {}
func (c *storeCounter) Close() error                   { return nil }

// TestConcurrentWriters: exchanges written from several goroutines, with
// rotation, dedupe and a mirror on, each become one response record and
// one index line, and reach the mirror once.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	mirror := &storeCounter{stored: map[string]int{}}
	w, err := Open(Options{Dir: dir, MaxFileSize: 64 << 10, Dedupe: true,
		NewMirror: func(string) Mirror { return mirror }})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 25 {
				u := fmt.Sprintf("http://example.com/g%d/%d", g, i)
				if err := w.WriteExchange(page(u, "/", fmt.Sprintf("body %d %d %s", g, i, strings.Repeat("y", 1000)))); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteExchange(page("http://example.com/late", "/", "x")); err != ErrClosed {
		t.Errorf("write after Close: %v, want ErrClosed", err)
	}
	recs := readAll(t, warcFiles(t, dir)...)
	n := 0
	for _, r := range recs {
		if r.Type() == "response" {
			n++
		}
	}
	if n != 200 || len(readIndex(t, dir)) != 200 {
		t.Errorf("%d responses, want 200", n)
	}
	for u, n := range mirror.stored {
		if n != 1 {
			t.Errorf("%s given to the mirror %d times", u, n)
		}
	}
	if len(mirror.stored) != 200 {
		t.Errorf("%d responses given to the mirror, want 200", len(mirror.stored))
	}
}

func TestOpenOptions(t *testing.T) {
	if _, err := Open(Options{}); err == nil {
		t.Error("Open without Dir succeeded")
	}
	if _, err := Open(Options{Dir: t.TempDir(), Digest: "md5"}); err == nil {
		t.Error("Open with md5 succeeded")
	}
	if _, err := Open(Options{Dir: t.TempDir(), GzipLevel: 10}); err == nil {
		t.Error("Open with GzipLevel 10 succeeded")
	}
	if _, err := Open(Options{Dir: t.TempDir(), Prefix: "../x"}); err == nil {
		t.Error("Open with a path in Prefix succeeded")
	}
	w, err := Open(Options{Dir: t.TempDir(), Now: fixedClock(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if !strings.HasSuffix(w.name, "crawl-20300101000000-00001.warc.gz") {
		t.Errorf("default file name %s", w.name)
	}
}

func TestGzipLevelIsUsed(t *testing.T) {
	sizes := map[int]int64{}
	body := strings.Repeat("<p>archive me, compress me</p>\n", 2000) + fmt.Sprint(rand.Int())
	for _, level := range []int{1, 9} {
		dir := t.TempDir()
		w, err := Open(Options{Dir: dir, GzipLevel: level, Now: fixedClock(time.Unix(0, 0)), newID: seqIDs()})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteExchange(page("http://example.com/", "/", body)); err != nil {
			t.Fatal(err)
		}
		w.Close()
		f := warcFiles(t, dir)[0]
		if recs := readAll(t, f); len(recs) != 3 {
			t.Fatalf("level %d: %d records", level, len(recs))
		}
		st, _ := os.Stat(f)
		sizes[level] = st.Size()
	}
	if sizes[9] >= sizes[1] {
		t.Errorf("level 9 file %d bytes, level 1 %d: the level is not applied", sizes[9], sizes[1])
	}
}
