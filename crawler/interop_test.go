package crawler

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/crawllog"
)

// TestArchiveReadByWarcio crawls local hosts and reads the crawler's own WARC
// output with webrecorder's warcio.js (archive/interop/verify.mjs): every
// record parses, every digest verifies, and the response target URIs are
// exactly the URLs the crawl log says were fetched. CI installs warcio
// (npm ci --prefix archive/interop) and sets CRAWL_REQUIRE_INTEROP=1; on a
// machine without node or warcio the test skips and says why.
func TestArchiveReadByWarcio(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("..", "archive", "interop", "verify.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "warcio", "package.json"))
	}
	if err != nil {
		msg := fmt.Sprintf("warcio.js unavailable (%v): run npm ci --prefix archive/interop", err)
		if os.Getenv("CRAWL_REQUIRE_INTEROP") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	a := newTestHost(t)
	a.robotsText("User-agent: *\nDisallow: /no\n")
	a.html("/", "/same1", "/same2", "/moved", "/missing", "/no")
	same := func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "identical payload, archived once and then as a revisit")
	}
	a.pages["/same1"], a.pages["/same2"] = same, same
	a.pages["/moved"] = func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/", http.StatusMovedPermanently) }
	cfg := testConfig(t)
	crawlFor(t, cfg, a.URL("/"))

	files, _ := filepath.Glob(filepath.Join(cfg.Out, "archive", "*.warc.gz"))
	if len(files) == 0 {
		t.Fatal("no WARC file written")
	}
	out, err := exec.Command(node, append([]string{script}, files...)...).Output()
	var res struct {
		Records []struct{ Type, URI string }
		Errors  []string
	}
	if jerr := json.Unmarshal(out, &res); jerr != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("verify.mjs: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("verify.mjs output: %v\n%s", jerr, out)
	}
	for _, e := range res.Errors {
		t.Errorf("warcio.js: %s", e)
	}
	var archived []string
	types := map[string]int{}
	for _, r := range res.Records {
		types[r.Type]++
		if r.Type == "response" || r.Type == "revisit" {
			archived = append(archived, r.URI)
		}
	}
	var fetched []string
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.Error == "" {
			fetched = append(fetched, e.URL)
		}
	}
	sort.Strings(archived)
	sort.Strings(fetched)
	if strings.Join(archived, "\n") != strings.Join(fetched, "\n") {
		t.Errorf("archived URIs\n%s\nwant the fetched URLs\n%s", strings.Join(archived, "\n"), strings.Join(fetched, "\n"))
	}
	if types["warcinfo"] < 1 || types["revisit"] != 1 || types["request"] != len(fetched) || types["metadata"] < 1 {
		t.Errorf("record types %v for %d fetches", types, len(fetched))
	}
	if _, err := os.Stat(filepath.Join(cfg.Out, "archive", "index.cdxj")); err != nil {
		t.Errorf("no CDXJ index: %v", err)
	}
}
