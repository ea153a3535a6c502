package archive

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ErrClosed is returned by WriteExchange after Close.
var ErrClosed = errors.New("archive: writer closed")

// ErrMirror is wrapped by WriteExchange and Close errors that concern only
// the Mirror: the exchange's WARC records were written and indexed.
var ErrMirror = errors.New("archive: mirror")

// DefaultMaxFileSize is the rotation size used when Options.MaxFileSize is 0.
const DefaultMaxFileSize int64 = 1 << 30

// Options configures a Writer. The zero value of every field except Dir
// selects the documented default.
type Options struct {
	// Dir is the output directory (created if missing). Required.
	Dir string
	// Prefix starts every WARC file name: Prefix-YYYYMMDDhhmmss-NNNNN.warc.gz.
	// Default "crawl". It must not contain path separators.
	Prefix string
	// Process, if set, names the writing process in the files it
	// creates, Prefix-Process-YYYYMMDDhhmmss-NNNNN.warc.gz, so that the
	// files of the processes of one crawl never share a name. Open
	// resumes the files of every process (and those named without one)
	// and appends only to a last file of its own Process. It must not
	// contain path separators.
	Process string
	// MaxFileSize rotates to a new WARC file before a write would make the
	// current one larger (a single exchange larger than it still fits in a
	// file of its own). Default DefaultMaxFileSize (1 GiB).
	MaxFileSize int64
	// Digest is DigestSHA1 (default) or DigestSHA256, used for every block
	// and payload digest.
	Digest string
	// NewMirror, if set, makes the Mirror that keeps a copy of the
	// responses under root, Dir/mirror (package mirror's New makes the
	// browsable one). Open calls it once, holding the directory lock,
	// before it reads back what earlier runs archived.
	NewMirror func(root string) Mirror
	// Dedupe writes a revisit record (identical-payload-digest profile)
	// instead of a response when a 2xx payload was archived before.
	Dedupe bool
	// GzipLevel is the level of klauspost/compress's gzip for every
	// record, 1 (fastest) to 9 (smallest); 0 selects its
	// gzip.DefaultCompression, level 5.
	GzipLevel int
	// Software names the crawler and its version in the warcinfo record.
	Software string
	// Info are further warcinfo fields, in order (configuration, operator).
	Info []Field
	// Now is the clock for warcinfo dates, file names and exchanges without
	// a Date. Default time.Now.
	Now func() time.Time

	// newID makes WARC-Record-IDs; tests set it for reproducible bytes.
	newID func() (string, error)
	// writeFile appends p to a WARC file: (*os.File).Write, or a test's
	// disk that fills up part way through.
	writeFile func(f *os.File, p []byte) (int, error)
}

// Writer appends exchanges to rotating WARC files and keeps the CDXJ index.
// It is safe for concurrent use; records are compressed and digested
// outside its lock. The zero value is not usable: call Open.
type Writer struct {
	opts   Options
	pool   memberPool
	mirror Mirror   // nil unless Options.NewMirror
	lock   *os.File // holds the directory lock until Close
	// digesters holds *digester of Options.Digest, for WriteExchange.
	digesters sync.Pool

	mu      sync.Mutex
	f       *os.File
	name    string // base name of the current file
	size    int64  // bytes in the current file
	used    bool   // the current file holds more than its warcinfo record
	serial  int
	journal *journalWriter // JournalName, appended after each exchange: the entries of index.cdxj
	// journalKept: Open appends to the journal as it found it (resume),
	// not to a new one begun by beginJournal and renamed at the end.
	journalKept bool
	dedupe      revisitTable
	closed      bool
	// err is the first failed write (of a WARC file or the journal):
	// WriteExchange returns it from then on and appends nothing, so no
	// record ever follows a hole, and Close reports it.
	err error
}

// Open prepares opts.Dir for writing. If the directory already holds WARC
// files with this prefix, it validates the last one, truncates a torn record
// left by a crash, rewrites the journal of the index entries of all of
// them (and reloads the revisit table), and appends to the last file (or a new one when it is full). Every
// Open writes a warcinfo record first.
func Open(opts Options) (*Writer, error) {
	if opts.Dir == "" {
		return nil, errors.New("archive: options: Dir is required")
	}
	if opts.Prefix == "" {
		opts.Prefix = "crawl"
	}
	if strings.ContainsAny(opts.Prefix, `/\`) || opts.Prefix == "." || opts.Prefix == ".." {
		return nil, fmt.Errorf("archive: options: bad Prefix %q", opts.Prefix)
	}
	if strings.ContainsAny(opts.Process, `/\`) {
		return nil, fmt.Errorf("archive: options: bad Process %q", opts.Process)
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.Digest == "" {
		opts.Digest = DigestSHA1
	}
	if _, err := newHash(opts.Digest); err != nil {
		return nil, err
	}
	if opts.GzipLevel < 0 || opts.GzipLevel > 9 {
		return nil, fmt.Errorf("archive: options: GzipLevel %d not in 0..9", opts.GzipLevel)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.newID == nil {
		opts.newID = newRecordID
	}
	if opts.writeFile == nil {
		opts.writeFile = (*os.File).Write
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("archive: open: %w", err)
	}
	lock, err := lockDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	if err := removeTempFiles(opts.Dir); err != nil {
		lock.Close()
		return nil, err
	}
	w := &Writer{opts: opts, lock: lock, dedupe: newRevisitTable(maxDedupeEntries)}
	w.pool.level = opts.GzipLevel
	if opts.NewMirror != nil {
		w.mirror = opts.NewMirror(filepath.Join(opts.Dir, "mirror"))
	}
	if err := w.start(); err != nil {
		if w.journal != nil {
			w.journal.close()
			removeTempFiles(opts.Dir)
		}
		lock.Close()
		return nil, err
	}
	return w, nil
}

// start resumes the directory, its journal kept or rewritten, and opens
// the current file.
func (w *Writer) start() error {
	last, err := w.resume()
	if err != nil {
		return err
	}
	if !w.journalKept {
		if err := w.commitJournal(); err != nil {
			return err
		}
	}
	return w.startFile(last)
}

// digester returns a digester of Options.Digest; give it back to
// w.digesters.
func (w *Writer) digester() *digester {
	if d, _ := w.digesters.Get().(*digester); d != nil {
		return d
	}
	d, _ := newDigester(w.opts.Digest) // Open checked the name
	return d
}

// Dir returns the output directory.
func (w *Writer) Dir() string { return w.opts.Dir }

// startFile opens (appending) or creates the current WARC file and writes
// a warcinfo record. last is the newest existing file, "" if none; it is
// appended to only if it was named for this writer's Process and its warcinfo
// record still fits under MaxFileSize.
func (w *Writer) startFile(last string) error {
	if last != "" && w.ownFile(last) {
		if st, err := os.Stat(last); err == nil && st.Size() < w.opts.MaxFileSize {
			info, err := w.nameFile(last)
			if err != nil {
				return err
			}
			if st.Size()+int64(len(info)) <= w.opts.MaxFileSize {
				return w.openFile(last, info)
			}
		}
	}
	w.serial++
	name := w.opts.Prefix
	if w.opts.Process != "" {
		name += "-" + w.opts.Process
	}
	path := filepath.Join(w.opts.Dir, fmt.Sprintf("%s-%s-%05d.warc.gz",
		name, w.opts.Now().UTC().Format("20060102150405"), w.serial))
	info, err := w.nameFile(path)
	if err != nil {
		return err
	}
	return w.openFile(path, info)
}

// ownFile reports whether the WARC file at path was named for this
// writer's Process: only such a file is appended to.
func (w *Writer) ownFile(path string) bool {
	_, process, ok := parseFileName(filepath.Base(path), w.opts.Prefix)
	return ok && process == w.opts.Process
}

// nameFile makes path's base name the current file name and renders the
// warcinfo record naming it.
func (w *Writer) nameFile(path string) ([]byte, error) {
	w.name = filepath.Base(path)
	var buf bytes.Buffer
	if err := w.warcinfo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// openFile makes path, named by nameFile, the current file, positioned at
// its end, and appends info (its warcinfo record) to it.
func (w *Writer) openFile(path string, info []byte) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("archive: open warc file: %w", err)
	}
	size, err := f.Seek(0, 2)
	if err != nil {
		f.Close()
		return fmt.Errorf("archive: open warc file: %w", err)
	}
	w.f, w.size, w.used = f, size, size > 0
	return w.append(info)
}

// warcinfo renders the warcinfo record of the current file (WARC 1.1
// section 6.2).
func (w *Writer) warcinfo(buf *bytes.Buffer) error {
	fields := []Field{
		{"software", w.opts.Software},
		{"format", "WARC File Format 1.1"},
		{"conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"},
	}
	block := fieldsBlock(append(fields, w.opts.Info...))
	id, err := w.opts.newID()
	if err != nil {
		return err
	}
	digest, _ := Digest(w.opts.Digest, block)
	return w.pool.compress(buf, []Field{
		{"WARC-Type", "warcinfo"},
		{"WARC-Record-ID", id},
		{"WARC-Date", formatDate(w.opts.Now())},
		{"WARC-Filename", w.name},
		{"WARC-Block-Digest", digest},
		{"Content-Type", typeWARCFields},
	}, block)
}

// append writes data with one write call; on failure (a full disk) it
// truncates the file back to where data began, so no part of it stays
// behind, and returns an error naming the file (errors.Is finds the
// cause, syscall.ENOSPC say). Callers hold w.mu (or own w).
func (w *Writer) append(data []byte) error {
	if _, err := w.opts.writeFile(w.f, data); err != nil {
		if terr := w.f.Truncate(w.size); terr == nil {
			w.f.Seek(w.size, 0)
		}
		return writeFailed(w.f.Name(), err)
	}
	w.size += int64(len(data))
	return nil
}

// writeFailed is the error of a failed write to the file at path: the
// path named once, the cause wrapped.
func writeFailed(path string, err error) error {
	var pe *os.PathError
	if !errors.As(err, &pe) {
		pe = &os.PathError{Op: "write", Path: path, Err: err}
	}
	return fmt.Errorf("archive: %w", pe)
}

// rotate closes the current file and starts the next one. Callers hold w.mu.
func (w *Writer) rotate() error {
	if err := w.closeFile(); err != nil {
		return err
	}
	return w.startFile("")
}

// closeFile syncs and closes the current file, then flushes the journal
// (so the journal on disk covers every file but the current one). There
// is no current file until the next startFile.
func (w *Writer) closeFile() error {
	f := w.f
	w.f = nil
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("archive: close %s: %w", w.name, err)
	}
	return w.journal.flush()
}

// Close syncs and closes the current WARC file, writes the sorted
// index.cdxj and then closes the Mirror, if any (package mirror's rewrites
// the links of its HTML files). After a failed write it still does all
// that for the records written, and returns that write's error.
// Call it after every WriteExchange has returned; WriteExchange calls after
// Close return ErrClosed. Calling Close again returns nil.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	err := w.err
	if w.f != nil {
		if ferr := w.closeFile(); err == nil {
			err = ferr
		}
	}
	if jerr := w.journal.close(); err == nil {
		err = jerr
	}
	if ierr := w.writeIndex(w.journal.err == nil); err == nil {
		err = ierr
	}
	if w.mirror != nil {
		if merr := wrapMirror(w.mirror.Close()); err == nil {
			err = merr
		}
	}
	w.lock.Close() // releases the flock
	return err
}
