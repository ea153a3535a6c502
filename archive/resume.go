package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// warcFile is one existing WARC file of this writer's prefix.
type warcFile struct {
	path   string
	serial int
}

// listFiles returns the dir's files named Prefix-<14 digits>-<serial>.warc.gz,
// ordered by serial.
func (w *Writer) listFiles() ([]warcFile, error) {
	entries, err := os.ReadDir(w.opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("archive: list %s: %w", w.opts.Dir, err)
	}
	var files []warcFile
	for _, e := range entries {
		if serial, ok := parseFileName(e.Name(), w.opts.Prefix); ok && e.Type().IsRegular() {
			files = append(files, warcFile{filepath.Join(w.opts.Dir, e.Name()), serial})
		}
	}
	slices.SortFunc(files, func(a, b warcFile) int { return a.serial - b.serial })
	return files, nil
}

// parseFileName extracts the serial of "prefix-YYYYMMDDhhmmss-NNNNN.warc.gz".
func parseFileName(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix+"-")
	if !ok {
		return 0, false
	}
	rest, ok = strings.CutSuffix(rest, ".warc.gz")
	if !ok {
		return 0, false
	}
	ts, serial, ok := strings.Cut(rest, "-")
	if !ok || len(ts) != 14 || strings.Trim(ts, "0123456789") != "" || len(serial) < 5 {
		return 0, false
	}
	n, err := strconv.Atoi(serial)
	if err != nil || n < 0 || strings.Trim(serial, "0123456789") != "" {
		return 0, false
	}
	return n, true
}

// resume scans the existing WARC files: every file must be valid except
// that the last may end in a torn record, which is truncated away. It fills
// the index entries and the revisit table and returns the last file's path
// ("" when the directory has none).
func (w *Writer) resume() (string, error) {
	files, err := w.listFiles()
	if err != nil || len(files) == 0 {
		return "", err
	}
	for i, wf := range files {
		isLast := i == len(files)-1
		if err := w.scanExisting(wf.path, isLast); err != nil {
			return "", err
		}
		w.serial = wf.serial
	}
	return files[len(files)-1].path, nil
}

// scanExisting indexes one existing file; torn tails are truncated only in
// the last file, anywhere else they are an error.
func (w *Writer) scanExisting(path string, isLast bool) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("archive: resume: %w", err)
	}
	defer f.Close()
	base := filepath.Base(path)
	validEnd, bad, _ := scanMembers(f, func(off, length int64, rec *Record) error {
		w.remember(rec, base, off, length)
		return nil
	})
	if bad == nil {
		return nil
	}
	if !isLast {
		return fmt.Errorf("archive: resume: %s is damaged before its end: %w", base, bad)
	}
	if err := f.Truncate(validEnd); err != nil {
		return fmt.Errorf("archive: resume: truncate torn tail of %s: %w", base, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("archive: resume: truncate torn tail of %s: %w", base, err)
	}
	return nil
}

// remember records an existing record's index entry and, for a response
// whose payload may be deduplicated later, its revisit reference.
func (w *Writer) remember(rec *Record, filename string, off, length int64) {
	e, ok := cdxFor(rec, filename, off, length)
	if !ok {
		return
	}
	w.cdx = append(w.cdx, e.line())
	if w.mirror != nil && rec.Type() == "response" && isDedupable(e.Status) && rec.Get("WARC-Truncated") == "" {
		h := parseHTTPHead(rec.Block)
		w.mirror.recall(e.URL, h.get("Content-Type"))
	}
	if rec.Type() != "response" || !w.opts.Dedupe || rec.Get("WARC-Truncated") != "" {
		return
	}
	d := rec.Get("WARC-Payload-Digest")
	if p, ok := rec.Payload(); !ok || len(p) == 0 {
		return
	}
	if _, seen := w.dedupe[d]; !seen && d != "" && len(w.dedupe) < maxDedupeEntries &&
		strings.HasPrefix(d, w.opts.Digest+":") && isDedupable(e.Status) {
		w.dedupe[d] = revisitRef{uri: rec.Get("WARC-Target-URI"), date: rec.Get("WARC-Date"), id: rec.Get("WARC-Record-ID")}
	}
}

// isDedupable reports whether a status code (as text) may become a revisit.
func isDedupable(status string) bool {
	return len(status) == 3 && status[0] == '2'
}
