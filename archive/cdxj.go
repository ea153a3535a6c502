package archive

import (
	"bytes"
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

// writeIndex writes the sorted lines to dir/index.cdxj atomically (a
// temporary file renamed over the old index).
func writeIndex(dir string, lines []string) error {
	slices.Sort(lines)
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if err := replaceFile(filepath.Join(dir, IndexName), b.Bytes()); err != nil {
		return fmt.Errorf("archive: write index: %w", err)
	}
	return nil
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
	var lines []string
	for _, name := range files {
		err := indexFile(name, func(e cdxEntry) { lines = append(lines, e.line()) })
		if err != nil {
			return err
		}
	}
	if err := os.Remove(filepath.Join(dir, JournalName)); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("archive: rebuild index: %w", err)
	}
	return writeIndex(dir, lines)
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
