package wacz

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/nlnwa/gowarc/v3"

	"github.com/crawlproject/crawl/archive"
)

// warcioVerify is the warcio.js checker of the archive package's interop
// test, with its node modules beside it.
const warcioVerify = "../archive/interop/verify.mjs"

// gowarcRecord is what gowarc read of one record.
type gowarcRecord struct {
	file, typ, uri, id string
	offset, size       int64
}

// readWithGowarc reads every record of the WARC file at path with
// nlnwa/gowarc, strict validation on (syntax, the WARC 1.1 rules for each
// record type, Content-Length, block and payload digests): any finding
// fails the test.
func readWithGowarc(t *testing.T, path string) []gowarcRecord {
	t.Helper()
	r, err := gowarc.NewWarcFileReader(path, 0, gowarc.WithStrictValidation())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []gowarcRecord
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		where := fmt.Sprintf("%s at %d", filepath.Base(path), rec.Offset)
		if err != nil {
			t.Fatalf("gowarc: %s: %v", where, err)
		}
		for _, v := range rec.Validation {
			t.Errorf("gowarc: %s: %v", where, v)
		}
		wr := rec.WarcRecord
		if v, err := wr.ValidateDigest(); err != nil || len(v) > 0 {
			t.Errorf("gowarc: %s: digests: %v %v", where, v, err)
		}
		h := wr.WarcHeader()
		out = append(out, gowarcRecord{file: filepath.Base(path), typ: wr.Type().String(), uri: h.Get(gowarc.WarcTargetURI),
			id: wr.RecordId(), offset: rec.Offset, size: rec.Size})
		rec.Close()
	}
}

// TestGowarcAndWarcioJSReadTheCrawl reads every record of the crawler's
// WARC files (the test site's crawl: pages, a stylesheet and an image,
// gzip, deflate and chunked bodies, redirects, a 404, a revisit,
// robots.txt) with two readers independent of the archive package:
// nlnwa/gowarc with strict validation, and webrecorder's warcio.js, which
// recomputes every block and payload digest. Both must accept every
// record and agree on the records, their types, target URIs and ids; and
// every index line must sit where gowarc found that response or revisit.
func TestGowarcAndWarcioJSReadTheCrawl(t *testing.T) {
	dir, _ := crawledSite(t)
	warcs, _ := filepath.Glob(filepath.Join(dir, archiveDir, "*.warc.gz"))
	if len(warcs) == 0 {
		t.Fatal("the crawl wrote no WARC file")
	}
	var ours []gowarcRecord
	for _, f := range warcs {
		ours = append(ours, readWithGowarc(t, f)...)
	}
	checkIndexAgainst(t, dir, ours)
	theirs := readWithWarcioJS(t, warcs)
	if len(theirs) != len(ours) {
		t.Fatalf("gowarc read %d records, warcio.js %d", len(ours), len(theirs))
	}
	types := map[string]int{}
	for i, g := range ours {
		w := theirs[i]
		// gowarc gives the id without the angle brackets WARC 1.1 section
		// 5.2 writes around it.
		if w.File != g.file || w.Type != g.typ || w.URI != g.uri || w.ID != "<"+g.id+">" {
			t.Errorf("record %d: gowarc %+v, warcio.js %+v", i, g, w)
		}
		types[g.typ]++
	}
	for _, typ := range []string{"warcinfo", "request", "response", "revisit", "metadata"} {
		if types[typ] == 0 {
			t.Errorf("no %s record among %v", typ, types)
		}
	}
}

// checkIndexAgainst checks that each line of dir's index names a response
// or revisit that gowarc found at that offset, of that length and URL.
func checkIndexAgainst(t *testing.T, dir string, records []gowarcRecord) {
	t.Helper()
	type key struct {
		file   string
		offset int64
	}
	at := map[key]gowarcRecord{}
	for _, r := range records {
		at[key{r.file, r.offset}] = r
	}
	b, err := os.ReadFile(filepath.Join(dir, archiveDir, archive.IndexName))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range splitLines(string(b)) {
		c, err := parseCDXLine(line)
		if err != nil {
			t.Fatal(err)
		}
		off, _ := strconv.ParseInt(c.str("offset"), 10, 64)
		length, _ := strconv.ParseInt(c.str("length"), 10, 64)
		r, ok := at[key{c.str("filename"), off}]
		if !ok || r.size != length || r.uri != c.str("url") || (r.typ != "response" && r.typ != "revisit") {
			t.Errorf("index line %q; gowarc found there %+v (found: %v)", line, r, ok)
		}
	}
}

// warcioRecord is one record as verify.mjs reports it.
type warcioRecord struct {
	File, Type, URI, ID string
}

// readWithWarcioJS runs the archive package's warcio.js checker on files.
func readWithWarcioJS(t *testing.T, files []string) []warcioRecord {
	t.Helper()
	node := requireNode(t, "run `npm ci --prefix archive/interop`",
		filepath.Join(filepath.Dir(warcioVerify), "node_modules/warcio/package.json"))
	var res struct {
		Records []warcioRecord
		Errors  []string
	}
	runNodeJSON(t, exec.Command(node, append([]string{warcioVerify}, files...)...), &res)
	for _, e := range res.Errors {
		t.Errorf("warcio.js: %s", e)
	}
	return res.Records
}
