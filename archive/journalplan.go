package archive

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// journalPlan is what a first, light reading of the journal tells resume:
// how far it covers each WARC file, and whether it can be appended to as
// it is.
type journalPlan struct {
	// covered is, for each WARC file the journal has entries for, the
	// end of its last journalled record; a file the journal claims more
	// of than it holds is left out (trust the file).
	covered map[string]int64
	// keep: every line is a whole entry of a listed file left in covered
	// (a torn last line aside, cut at end), so the journal is appended
	// to as it is rather than rewritten.
	keep  bool
	end   int64 // the length of the journal's whole lines
	lines int   // its whole lines
}

// planJournal reads the journal in dir line by line, taking each entry's
// file and end from its line without decoding it (journalPlace), and
// checks them against files.
func planJournal(dir string, files []warcFile) (journalPlan, error) {
	p := journalPlan{covered: map[string]int64{}, keep: true}
	f, err := os.Open(filepath.Join(dir, JournalName))
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return p, fmt.Errorf("archive: journal: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 256<<10)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			p.keep = false // an entry longer than any this package writes
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			continue
		}
		if errors.Is(err, io.EOF) {
			break // a torn last line, if any, is cut
		}
		if err != nil {
			return p, fmt.Errorf("archive: journal: %w", err)
		}
		p.end += int64(len(line))
		p.lines++
		file, end, ok := journalPlace(line)
		if !ok {
			p.keep = false
			e, ok := decodeEntry(line)
			if !ok {
				continue
			}
			file, end = e.File, e.End
		}
		p.covered[file] = max(p.covered[file], end)
	}
	return p, p.check(files)
}

// check leaves out of covered the files the journal claims more of than
// they hold and the files that are not there; either makes the journal
// one to rewrite.
func (p *journalPlan) check(files []warcFile) error {
	listed := make(map[string]bool, len(files))
	for _, wf := range files {
		base := filepath.Base(wf.path)
		listed[base] = true
		st, err := os.Stat(wf.path)
		if err != nil {
			return fmt.Errorf("archive: resume: %w", err)
		}
		if c, ok := p.covered[base]; ok && c > st.Size() {
			delete(p.covered, base)
			p.keep = false
		}
	}
	for f := range p.covered {
		if !listed[f] {
			delete(p.covered, f)
			p.keep = false
		}
	}
	return nil
}

// journalPlace reads the file and end of the journal line an entry makes
// as journalWriter writes it, {"cdxj":"...","file":"NAME","end":N,...},
// without decoding it; ok is false for any other line. Inside the cdxj
// string every quote is escaped, so the first `","file":"` is the field.
func journalPlace(line []byte) (file string, end int64, ok bool) {
	line = bytes.TrimSuffix(line, []byte{'\n'})
	if !bytes.HasPrefix(line, []byte(`{"cdxj":"`)) || !bytes.HasSuffix(line, []byte{'}'}) {
		return "", 0, false
	}
	_, rest, found := bytes.Cut(line, []byte(`","file":"`))
	if !found {
		return "", 0, false
	}
	name, rest, found := bytes.Cut(rest, []byte{'"'})
	if !found || len(name) == 0 || bytes.IndexByte(name, '\\') >= 0 {
		return "", 0, false
	}
	rest, found = bytes.CutPrefix(rest, []byte(`,"end":`))
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if !found || n == 0 || n == len(rest) || rest[n] != ',' && rest[n] != '}' {
		return "", 0, false
	}
	end, err := strconv.ParseInt(string(rest[:n]), 10, 64)
	return string(name), end, err == nil
}

// appendJournal opens the journal in dir, kept as it is, to append to it:
// cut to end, the length of its whole lines (a torn last line goes), or
// created empty.
func (w *Writer) appendJournal(end int64) error {
	f, err := os.OpenFile(filepath.Join(w.opts.Dir, JournalName), os.O_RDWR|os.O_CREATE, 0o644)
	if err == nil {
		err = f.Truncate(end)
		if err == nil {
			_, err = f.Seek(end, io.SeekStart)
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		return fmt.Errorf("archive: journal: %w", err)
	}
	w.journal = newJournalWriter(f)
	w.journalKept = true
	return nil
}

// scanJournalCDXJ calls fn with the CDXJ line of each entry of the journal
// in dir, in order, decoding only that string of each line where it can
// (journalCDXJ): a million entries are read in seconds.
func scanJournalCDXJ(dir string, fn func(string) error) error {
	return eachJournalLine(dir, func(line []byte) error {
		cdxj, ok := journalCDXJ(line)
		if !ok {
			e, ok := decodeEntry(line)
			if !ok {
				return nil
			}
			cdxj = e.CDXJ
		}
		return fn(cdxj)
	})
}

// journalCDXJ decodes the cdxj string a journal line starts with, as
// journalWriter writes it ({"cdxj":"...",...}, followed by its file);
// ok is false for any other line.
func journalCDXJ(line []byte) (string, bool) {
	const head = `{"cdxj":`
	if !bytes.HasPrefix(line, []byte(head)) || len(line) <= len(head) || line[len(head)] != '"' {
		return "", false
	}
	i := len(head) + 1
	for i < len(line) && line[i] != '"' {
		if line[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(line) || !bytes.HasPrefix(line[i:], []byte(`","file":"`)) {
		return "", false
	}
	var s string
	if json.Unmarshal(line[len(head):i+1], &s) != nil || s == "" {
		return "", false
	}
	return s, true
}
