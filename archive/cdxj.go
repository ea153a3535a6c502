package archive

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// IndexName is the file name of the CDXJ index in the output directory.
const IndexName = "index.cdxj"

// cdxEntry is one line of the CDXJ index.
type cdxEntry struct {
	key, timestamp string
	URL            string `json:"url"`
	Mime           string `json:"mime,omitempty"`
	Status         string `json:"status,omitempty"`
	Digest         string `json:"digest,omitempty"`
	Length         string `json:"length"`
	Offset         string `json:"offset"`
	Filename       string `json:"filename"`
}

// line renders the entry as "key timestamp {json}" (pywb CDXJ).
func (e *cdxEntry) line() string {
	var b strings.Builder
	b.WriteString(e.key + " " + e.timestamp + " ")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep '&' in query strings readable
	enc.Encode(e)            // only strings: cannot fail
	return strings.TrimSuffix(b.String(), "\n")
}

// cdxFor builds the index entry of a response or revisit record stored at
// offset/length in filename; ok is false for records that are not indexed.
func cdxFor(rec *Record, filename string, offset, length int64) (cdxEntry, bool) {
	typ := rec.Type()
	if typ != "response" && typ != "revisit" {
		return cdxEntry{}, false
	}
	target := rec.Get("WARC-Target-URI")
	date, err := time.Parse(time.RFC3339Nano, rec.Get("WARC-Date"))
	if target == "" || err != nil {
		return cdxEntry{}, false
	}
	e := cdxEntry{
		key:       SURT(target),
		timestamp: date.UTC().Format("20060102150405"),
		URL:       target,
		Length:    strconv.FormatInt(length, 10),
		Offset:    strconv.FormatInt(offset, 10),
		Filename:  filename,
		Digest:    strings.TrimPrefix(rec.Get("WARC-Payload-Digest"), DigestSHA1+":"),
	}
	h := parseHTTPHead(rec.Block)
	if h.status != 0 {
		e.Status = strconv.Itoa(h.status)
	}
	if typ == "revisit" {
		e.Mime = "warc/revisit"
	} else if ct := indexed(h.get("Content-Type")); ct != "" {
		mt, _, _ := strings.Cut(ct, ";")
		e.Mime = strings.TrimSpace(mt)
	}
	return e, true
}

// maxIndexedHeader is the longest Content-Type or Location value the index,
// the journal and the mirror take from a response: a server may send one of
// a megabyte, and the index line would be as long. The record keeps it.
const maxIndexedHeader = 4096

// indexed returns v, or "" if it is longer than maxIndexedHeader.
func indexed(v string) string {
	if len(v) > maxIndexedHeader {
		return ""
	}
	return v
}

// writeIndex writes dir/index.cdxj atomically (a temporary file renamed
// over the old index) from the lines fill adds, sorted in bounded memory
// (lineSorter).
func writeIndex(dir string, fill func(add func(line string) error) error) error {
	s := newLineSorter(dir)
	defer s.close()
	add := func(line string) error {
		if err := s.add(line); err != nil {
			return fmt.Errorf("archive: write index: %w", err)
		}
		return nil
	}
	if err := fill(add); err != nil {
		return err
	}
	if err := replaceFileWith(filepath.Join(dir, IndexName), s.writeTo); err != nil {
		return fmt.Errorf("archive: write index: %w", err)
	}
	return nil
}

// writeIndex writes index.cdxj at Close: from the journal, which holds the
// entry of every indexed record unless a write to it failed (complete is
// false), else from the WARC files, scanned whole.
func (w *Writer) writeIndex(complete bool) error {
	dir := w.opts.Dir
	if complete {
		return writeIndex(dir, func(add func(string) error) error { return scanJournalCDXJ(dir, add) })
	}
	files, err := w.listFiles()
	if err != nil {
		return err
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	return writeIndex(dir, func(add func(string) error) error { return indexFiles(paths, add) })
}

// RebuildIndex scans every *.warc.gz file in dir (gzip per record, as this
// package writes them) and rewrites dir/index.cdxj from their response and
// revisit records. A torn record at the end of a file ends that file's scan;
// RebuildIndex changes no WARC file (Open is what truncates torn tails). It
// removes the resume journal, so the next Open rescans the files in full.
// Do not call it on a directory a Writer has open.
func RebuildIndex(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if err != nil {
		return fmt.Errorf("archive: rebuild index: %w", err)
	}
	slices.Sort(files)
	return writeIndex(dir, func(add func(string) error) error {
		if err := indexFiles(files, add); err != nil {
			return err
		}
		if err := os.Remove(filepath.Join(dir, JournalName)); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("archive: rebuild index: %w", err)
		}
		return nil
	})
}

// indexFiles adds the index lines of the records of files, in order.
func indexFiles(files []string, add func(string) error) error {
	for _, name := range files {
		var addErr error
		err := indexFile(name, func(e cdxEntry) {
			if addErr == nil {
				addErr = add(e.line())
			}
		})
		if err != nil {
			return err
		}
		if addErr != nil {
			return addErr
		}
	}
	return nil
}

// indexFile scans one WARC file and reports its index entries.
func indexFile(name string, add func(cdxEntry)) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("archive: rebuild index: %w", err)
	}
	defer f.Close()
	base := filepath.Base(name)
	_, _, fnErr := scanMembers(f, 0, func(off, length int64, rec *Record) error {
		if e, ok := cdxFor(rec, base, off, length); ok {
			add(e)
		}
		return nil
	})
	return fnErr
}
