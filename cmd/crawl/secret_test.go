package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/internal/redistest"
)

// secretPassword is the password of the Redis user in the secrets test:
// it must appear in nothing crawl prints or writes.
const secretPassword = "s3cretpw"

// TestSecretFrontierPasswordNeverShown crawls a small local web with one
// process on a Redis server that requires a user and password given in
// --frontier, then runs --print-config, "crawl status" and "crawl report"
// on it: the crawl fetched every page (so the URL and its password were
// really used), and the password appears in none of their standard
// outputs and errors, nor in any file under --out (WARC files read
// decompressed, their warcinfo record included), where the URL shows
// redacted instead.
func TestSecretFrontierPasswordNeverShown(t *testing.T) {
	t.Parallel()
	srv, err := redistest.NewServer(redistest.ServerBin(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv.User, srv.Password = "crawl", secretPassword
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	frontier := srv.URL(0)
	bin := buildCrawl(t)
	web := newSecretWeb(t)
	dir := t.TempDir()
	out, seeds := filepath.Join(dir, "out"), filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seeds, []byte(web.URL+"/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	printed := map[string]string{}
	printed["crawl"] = runSecretCLI(t, bin, "--seed", seeds, "--out", out, "--frontier", frontier, "--progress", "never")
	printed["--print-config"] = runSecretCLI(t, bin, "--frontier", frontier, "--print-config")
	printed["status"] = runSecretCLI(t, bin, "status", "--frontier", frontier)
	printed["status --json"] = runSecretCLI(t, bin, "status", "--frontier", frontier, "--json")
	printed["report"] = runSecretCLI(t, bin, "report", out)
	if got, want := web.paths(), "/ /a /b /robots.txt"; got != want {
		t.Errorf("the crawl on the frontier fetched %q, want %q", got, want)
	}
	for what, text := range printed {
		if strings.Contains(text, secretPassword) {
			t.Errorf("%s printed the password:\n%s", what, text)
		}
	}
	if redacted := "crawl:xxxxx@" + srv.Addr(); !strings.Contains(printed["--print-config"], redacted) {
		t.Errorf("--print-config does not show the frontier as %s:\n%s", redacted, printed["--print-config"])
	}
	checkOutFiles(t, out, srv.Addr())
}

// runSecretCLI runs bin with args, the config the secrets test wants in
// its environment, and returns its standard output and error; it fails t
// unless bin exits 0.
func runSecretCLI(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "CRAWL_POLITENESS_DEFAULT_DELAY=50ms", "CRAWL_LOG_LEVEL=debug")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Errorf("crawl %s: %v; its output:\n%s%s", redactArgs(args), err, stdout.String(), stderr.String())
	}
	return stdout.String() + stderr.String()
}

// redactArgs is args joined by spaces, each URL's password redacted.
func redactArgs(args []string) string {
	r := make([]string, len(args))
	for i, a := range args {
		r[i] = config.RedactURL(a)
	}
	return strings.Join(r, " ")
}

// checkOutFiles checks that no file under out, read decompressed when
// gzipped, holds the password, and that the WARC files name the frontier
// at addr redacted (their warcinfo record).
func checkOutFiles(t *testing.T, out, addr string) {
	t.Helper()
	redacted, warcs := "crawl:xxxxx@"+addr, 0
	err := filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := readMaybeGzipped(path)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(secretPassword)) {
			t.Errorf("%s holds the password", path)
		}
		if strings.Contains(path, ".warc") {
			warcs++
			if !bytes.Contains(b, []byte("WARC-Type: warcinfo")) || !bytes.Contains(b, []byte(redacted)) {
				t.Errorf("%s: no warcinfo record naming the frontier as %s", path, redacted)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if warcs == 0 {
		t.Errorf("no WARC file under %s", out)
	}
}

// readMaybeGzipped is the content of path, decompressed (every member)
// when it is gzipped.
func readMaybeGzipped(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		return b, err
	}
	z, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.ReadAll(z)
}

// secretWeb is a site of three pages on 127.0.0.1 that records the paths
// it was asked for.
type secretWeb struct {
	*httptest.Server
	mu  sync.Mutex
	got []string
}

func newSecretWeb(t *testing.T) *secretWeb {
	w := &secretWeb{}
	w.Server = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.mu.Lock()
		w.got = append(w.got, r.URL.Path)
		w.mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(rw, "User-agent: *\nAllow: /\n")
		case "/", "/a", "/b":
			rw.Header().Set("Content-Type", "text/html")
			fmt.Fprint(rw, `<!doctype html><title>secret web</title><a href="/a">a</a> <a href="/b">b</a>`)
		default:
			http.NotFound(rw, r)
		}
	}))
	t.Cleanup(w.Close)
	return w
}

// paths is the paths the site was asked for, sorted, space-separated.
func (w *secretWeb) paths() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := append([]string(nil), w.got...)
	slices.Sort(p)
	return strings.Join(p, " ")
}
