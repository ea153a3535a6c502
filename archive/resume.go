package archive

import (
	"fmt"
	"io"
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

// listFiles returns the dir's files named Prefix-<14 digits>-<serial>.warc.gz
// or Prefix-<process>-<14 digits>-<serial>.warc.gz, of every process,
// ordered by serial.
func (w *Writer) listFiles() ([]warcFile, error) {
	entries, err := os.ReadDir(w.opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("archive: list %s: %w", w.opts.Dir, err)
	}
	var files []warcFile
	for _, e := range entries {
		if serial, _, ok := parseFileName(e.Name(), w.opts.Prefix); ok && e.Type().IsRegular() {
			files = append(files, warcFile{filepath.Join(w.opts.Dir, e.Name()), serial})
		}
	}
	slices.SortFunc(files, func(a, b warcFile) int { return a.serial - b.serial })
	return files, nil
}

// parseFileName extracts the serial and the process of
// "prefix-YYYYMMDDhhmmss-NNNNN.warc.gz" (process "") or
// "prefix-process-YYYYMMDDhhmmss-NNNNN.warc.gz", read from the right: a
// process id may hold '-'.
func parseFileName(name, prefix string) (serial int, process string, ok bool) {
	rest, ok := strings.CutPrefix(name, prefix+"-")
	if !ok {
		return 0, "", false
	}
	rest, ok = strings.CutSuffix(rest, ".warc.gz")
	if !ok {
		return 0, "", false
	}
	i := strings.LastIndexByte(rest, '-')
	if i < 0 {
		return 0, "", false
	}
	rest, num := rest[:i], rest[i+1:]
	ts := rest
	if j := strings.LastIndexByte(rest, '-'); j >= 0 {
		process, ts = rest[:j], rest[j+1:]
		if process == "" {
			return 0, "", false
		}
	}
	if len(ts) != 14 || strings.Trim(ts, "0123456789") != "" || len(num) < 5 {
		return 0, "", false
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || strings.Trim(num, "0123456789") != "" {
		return 0, "", false
	}
	return n, process, true
}

// resume reloads the existing WARC files: the journal supplies the index
// entries of records it covers, and each file is scanned from the end of
// its last journalled record. Every file must be valid except that the last
// may end in a torn record, which is truncated away. A journal that holds
// only whole entries of these files is kept and appended to; another is
// rewritten, entry by entry, without the lines that do not fit. Nothing is
// held per record. It returns the last file's path ("" when the directory
// has none).
func (w *Writer) resume() (string, error) {
	files, err := w.listFiles()
	if err != nil {
		return "", err
	}
	plan, err := planJournal(w.opts.Dir, files)
	if err != nil {
		return "", err
	}
	if plan.keep {
		err = w.appendJournal(plan.end)
	} else {
		err = w.beginJournal()
	}
	if err == nil {
		err = w.replayJournal(plan)
	}
	if err != nil || len(files) == 0 {
		return "", err
	}
	for i, wf := range files {
		isLast := i == len(files)-1
		if err := w.resumeFile(wf.path, plan.covered[filepath.Base(wf.path)], isLast); err != nil {
			return "", err
		}
		w.serial = wf.serial
	}
	return files[len(files)-1].path, nil
}

// replayJournal hands the journalled entries of the files plan covers to
// addEntry (the revisit table, the Mirror). A journal rewritten
// (beginJournal) gets each of them again. A journal kept as it is needs
// them only for the revisit table and the Mirror: without a Mirror, only
// its last maxDedupeEntries lines are read, the most the table keeps.
func (w *Writer) replayJournal(plan journalPlan) error {
	from := 0
	if plan.keep {
		switch {
		case w.mirror != nil:
		case w.opts.Dedupe:
			from = max(plan.lines-maxDedupeEntries, 0)
		default:
			return nil
		}
	}
	return scanJournalFrom(w.opts.Dir, from, func(e indexEntry) error {
		if _, ok := plan.covered[e.File]; !ok {
			return nil
		}
		w.addEntry(e, true)
		if plan.keep {
			return nil
		}
		return w.journal.add(&e)
	})
}

// resumeFile scans a file from covered, the end of its journalled records;
// torn tails are truncated only in the last file, anywhere else they are an
// error.
func (w *Writer) resumeFile(path string, covered int64, isLast bool) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("archive: resume: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(covered, io.SeekStart); err != nil {
		return fmt.Errorf("archive: resume: %w", err)
	}
	base := filepath.Base(path)
	var jerr error
	validEnd, bad, _ := scanMembers(f, covered, func(off, length int64, rec *Record) error {
		if e, ok := entryFor(rec, base, off, length); ok {
			w.addEntry(e, true)
			if err := w.journal.add(&e); err != nil && jerr == nil {
				jerr = err
			}
		}
		return nil
	})
	if jerr != nil {
		return jerr
	}
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

// isDedupable reports whether a status code (as text) may become a revisit.
func isDedupable(status string) bool {
	return len(status) == 3 && status[0] == '2'
}

// isRedirect reports whether a status code (as text) is a 3xx redirect,
// whose Location the mirror follows.
func isRedirect(status string) bool {
	return len(status) == 3 && status[0] == '3'
}
