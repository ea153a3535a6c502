package archive

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Each damaged tail a crash (or a short write) can leave, and the bytes
// Open must keep.
func TestResumeTruncatesTornTail(t *testing.T) {
	tails := []struct {
		name string
		tail func(member []byte) []byte
	}{
		{"half a member", func(m []byte) []byte { return m[:len(m)/2] }},
		{"member without trailer", func(m []byte) []byte { return m[:len(m)-8] }},
		{"gzip magic only", func(m []byte) []byte { return m[:2] }},
		{"garbage", func([]byte) []byte { return []byte("not gzip at all") }},
		{"bad crc", func(m []byte) []byte {
			c := append([]byte(nil), m...)
			c[len(c)-8] ^= 0xff
			return c
		}},
	}
	for _, tt := range tails {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := Open(Options{Dir: dir, Dedupe: true})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				if err := w.WriteExchange(page(fmt.Sprintf("http://example.com/%d", i), "/", fmt.Sprintf("body %d", i))); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			file := warcFiles(t, dir)[0]
			good, _ := os.ReadFile(file)
			os.Remove(dir + "/" + IndexName) // a crash writes no index
			// A member as the writer makes them, then damaged.
			var one []byte
			{
				d2 := t.TempDir()
				w2, _ := Open(Options{Dir: d2})
				w2.Close()
				one, _ = os.ReadFile(warcFiles(t, d2)[0])
			}
			if err := os.WriteFile(file, append(append([]byte(nil), good...), tt.tail(one)...), 0o644); err != nil {
				t.Fatal(err)
			}

			w, err = Open(Options{Dir: dir, Dedupe: true})
			if err != nil {
				t.Fatal(err)
			}
			after, _ := os.ReadFile(file)
			if string(after[:len(good)]) != string(good) || len(after) <= len(good) {
				t.Fatalf("resume changed the valid prefix or wrote nothing (%d -> %d bytes)", len(good), len(after))
			}
			if err := w.WriteExchange(page("http://example.com/new", "/", "body 1")); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			recs := readAll(t, warcFiles(t, dir)...)
			var types []string
			for _, r := range recs {
				types = append(types, r.Type())
			}
			want := "warcinfo request response request response request response warcinfo request revisit"
			if strings.Join(types, " ") != want {
				t.Errorf("records %v\nwant %s", types, want)
			}
			last := recs[len(recs)-1]
			if last.Get("WARC-Refers-To-Target-URI") != "http://example.com/1" {
				t.Errorf("revisit after resume refers to %q, want the earlier run's record", last.Get("WARC-Refers-To-Target-URI"))
			}
			if n := len(readIndex(t, dir)); n != 4 {
				t.Errorf("index has %d lines, want 4 (3 before the crash + 1 after)", n)
			}
		})
	}
}

func TestResumeRefusesDamageBeforeLastFile(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(Options{Dir: dir, MaxFileSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := w.WriteExchange(page(fmt.Sprintf("http://example.com/%d", i), "/", strings.Repeat("z", 600))); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	files := warcFiles(t, dir)
	data, _ := os.ReadFile(files[0])
	os.WriteFile(files[0], data[:len(data)-5], 0o644)
	if _, err := Open(Options{Dir: dir, MaxFileSize: 1024}); err == nil {
		t.Error("Open accepted a damaged file that is not the last one")
	}
}

func TestResumeRotatesWhenLastFileFull(t *testing.T) {
	dir := t.TempDir()
	w, _ := Open(Options{Dir: dir, MaxFileSize: 2048})
	rng := rand.New(rand.NewPCG(5, 6))
	body := make([]byte, 3000)
	for i := range body {
		body[i] = byte(rng.IntN(256))
	}
	w.WriteExchange(page("http://example.com/a", "/", string(body)))
	w.Close()
	w, err := Open(Options{Dir: dir, MaxFileSize: 2048})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	files := warcFiles(t, dir)
	if len(files) != 2 || !strings.HasSuffix(files[1], "-00002.warc.gz") {
		t.Errorf("files %v: a full last file must not be appended to", files)
	}
}

// The helper process for TestKill9: writes exchanges until killed.
func TestKill9Helper(t *testing.T) {
	dir := os.Getenv("ARCHIVE_KILL9_DIR")
	if dir == "" {
		t.Skip("helper process for TestKill9")
	}
	w, err := Open(Options{Dir: dir, MaxFileSize: 256 << 10})
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("<p>kill me</p>", 3000)
	for i := 0; ; i++ {
		if err := w.WriteExchange(page(fmt.Sprintf("http://example.com/%d", i), "/", body)); err != nil {
			t.Fatal(err)
		}
		if i == 20 {
			os.WriteFile(dir+"/ready", nil, 0o644)
		}
	}
}

func TestKill9LeavesAResumableArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKill9Helper$")
	cmd.Env = append(os.Environ(), "ARCHIVE_KILL9_DIR="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(dir + "/ready"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("helper never got ready")
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var exitErr *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &exitErr) {
		t.Fatalf("helper ended with %v, want killed", err)
	}
	w, err := Open(Options{Dir: dir, MaxFileSize: 256 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteExchange(page("http://example.com/after", "/", "resumed")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readAll(t, warcFiles(t, dir)...) // fails on any damaged record
	responses := 0
	for _, r := range recs {
		if err := r.VerifyBlockDigest(); err != nil {
			t.Error(err)
		}
		if r.Type() == "response" {
			responses++
		}
	}
	if responses < 22 || recs[len(recs)-1].Get("WARC-Target-URI") != "http://example.com/after" {
		t.Errorf("%d responses, last %q", responses, recs[len(recs)-1].Get("WARC-Target-URI"))
	}
	if n := len(readIndex(t, dir)); n != responses {
		t.Errorf("index has %d lines for %d responses", n, responses)
	}
}

func TestSecondWriterOnADirectoryIsRefused(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if w2, err := Open(Options{Dir: dir}); err == nil {
		w2.Close()
		t.Fatal("a second Writer opened a directory in use")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w, err = Open(Options{Dir: dir})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	w.Close()
}

func TestResumeAppendsToLastFileThenRotates(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(9, 9))
	body := func() string {
		b := make([]byte, 1500)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return string(b)
	}
	w, _ := Open(Options{Dir: dir})
	w.WriteExchange(page("http://example.com/1", "/", body()))
	w.Close()
	st, err := os.Stat(warcFiles(t, dir)[0])
	if err != nil {
		t.Fatal(err)
	}
	// Room for the resumed run's warcinfo record (a few hundred bytes),
	// not for a 1500-byte random body: append, then rotate.
	limit := st.Size() + 1000
	w, _ = Open(Options{Dir: dir, MaxFileSize: limit})
	w.WriteExchange(page("http://example.com/2", "/", body()))
	w.Close()
	files := warcFiles(t, dir)
	if len(files) != 2 {
		t.Fatalf("files %v, want the second exchange rotated into a new file", files)
	}
	recs := readAll(t, files[0])
	if len(recs) != 4 || recs[3].Type() != "warcinfo" {
		t.Errorf("first file: %d records; want warcinfo, request, response, then the resumed run's warcinfo", len(recs))
	}
}
