package wacz

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Extension is the file name extension of a WACZ (WACZ 1.1.1, "Zip
// Format File Extension").
const Extension = ".wacz"

// ErrNoArchive is wrapped by Write's error when the directory holds no WARC
// file or no index of them: a crawl run with archive.warc off, or not a
// crawl's output directory.
var ErrNoArchive = errors.New("wacz: no web archive")

// Options say how Write names and describes the WACZ. The zero Options are
// valid.
type Options struct {
	// Name is the file name without Extension; "" takes the base name of
	// the directory ("crawl-out" writes crawl-out/crawl-out.wacz). It may
	// not hold a path separator.
	Name string
	// Title is the collection's title in datapackage.json; "" takes Name.
	Title string
	// Software is what wrote the archive, e.g. "crawl/0.1.0"; "" is "crawl".
	Software string
	// Created is the datapackage's created time and every ZIP entry's
	// modification time; zero is the time Write runs.
	Created time.Time
}

// Result is what Write wrote.
type Result struct {
	Path      string // the WACZ file
	Bytes     int64  // its size
	WARCFiles int    // WARC files stored in archive/
	WARCBytes int64  // their total size
	Indexed   int    // lines of indexes/index.cdx
	Pages     int    // lines of pages/pages.jsonl after the header
	Seeds     int    // of those, seed pages
	// BadLogLines counts crawl.jsonl lines that were not JSON (a line torn
	// by a crash): they are left out.
	BadLogLines int
}

// Write packages the crawl output directory dir as dir/NAME.wacz (see
// Options.Name) and returns what it wrote. The file is written to a
// temporary name in dir, synced and renamed over any earlier WACZ of that
// name, so a crash never leaves a partial WACZ under the final name; on an
// error nothing is left behind. Write only reads the crawl's own files: run
// it once the crawl that writes them has ended.
func Write(dir string, opts Options) (Result, error) {
	opts, err := opts.withDefaults(dir)
	if err != nil {
		return Result{}, err
	}
	src, err := openSource(dir)
	if err != nil {
		return Result{}, err
	}
	final := filepath.Join(dir, opts.Name+Extension)
	tmp, err := os.CreateTemp(dir, "."+opts.Name+Extension+".tmp-*")
	if err != nil {
		return Result{}, fmt.Errorf("wacz: %w", err)
	}
	res, err := pack(tmp, src, opts)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644) // as readable as the WARC files
	}
	if err == nil {
		err = os.Rename(tmp.Name(), final)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return Result{}, fmt.Errorf("wacz: write %s: %w", final, err)
	}
	syncDir(dir)
	res.Path = final
	return res, nil
}

// withDefaults fills the empty fields of o for the directory dir.
func (o Options) withDefaults(dir string) (Options, error) {
	if o.Name == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return o, fmt.Errorf("wacz: %w", err)
		}
		o.Name = filepath.Base(abs)
	}
	if strings.ContainsAny(o.Name, `/\`) || o.Name == "." || o.Name == ".." {
		return o, fmt.Errorf("wacz: name %q is not a file name", o.Name)
	}
	if o.Title == "" {
		o.Title = o.Name
	}
	if o.Software == "" {
		o.Software = "crawl"
	}
	if o.Created.IsZero() {
		o.Created = time.Now()
	}
	o.Created = o.Created.UTC().Truncate(time.Second)
	return o, nil
}

// pack writes the WACZ of src to w.
func pack(w io.Writer, src *source, opts Options) (Result, error) {
	p := newPacker(w, opts.Created)
	var res Result
	for _, f := range src.warcs {
		n, err := p.copyFile("archive/"+filepath.Base(f), f, src.openWARC)
		if err != nil {
			return res, err
		}
		res.WARCFiles++
		res.WARCBytes += n
	}
	idx, err := p.writeIndex(src)
	if err != nil {
		return res, err
	}
	res.Indexed = idx.lines
	pl, err := p.writePages(src, idx)
	if err != nil {
		return res, err
	}
	res.Pages, res.Seeds, res.BadLogLines = pl.pages, pl.seeds, pl.badLines
	if err := p.writeDataPackage(opts, pl); err != nil {
		return res, err
	}
	if err := p.close(); err != nil {
		return res, err
	}
	res.Bytes = p.size()
	return res, nil
}

// syncDir makes a rename in dir durable where the platform allows it; a
// failure only weakens durability, so it is not reported.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
