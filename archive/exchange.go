package archive

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Truncation reasons accepted in Exchange.Truncated (WARC 1.1 section 5.15).
const (
	TruncatedLength      = "length"
	TruncatedTime        = "time"
	TruncatedDisconnect  = "disconnect"
	TruncatedUnspecified = "unspecified"
)

// Exchange is one HTTP fetch as it went over the wire.
type Exchange struct {
	// TargetURI is the URL fetched (WARC-Target-URI). Required.
	TargetURI string
	// Date is when the request started (WARC-Date); zero means Options.Now().
	Date time.Time
	// IP is the server address connected to (WARC-IP-Address), if known.
	IP string
	// Request is the request line, headers and body exactly as sent.
	Request []byte
	// Response is the status line, headers and body exactly as received:
	// transfer and content codings left in place. If the caller decoded the
	// body, it must also remove the headers that described the coding.
	Response []byte
	// Truncated is "" for a complete response, else the WARC-Truncated
	// reason: TruncatedLength (body cut at a size cap), TruncatedTime,
	// TruncatedDisconnect or TruncatedUnspecified.
	Truncated string
	// Failed marks a fetch that failed after its head arrived (a reset or
	// timeout mid-body): its records are written, but the mirror does not
	// take what arrived as the page.
	Failed bool
	// Metadata are the crawl decisions for this fetch (pace in force and its
	// source, one "outlink" field per link, ...), written in order as an
	// application/warc-fields metadata record. None: no metadata record.
	Metadata []Field
	// IsRobots marks a robots.txt fetch: archived and indexed like any other
	// response, but never mirrored.
	IsRobots bool
}

// WriteExchange archives one fetch: a request record, a response record (or
// a revisit record when Dedupe is on and the payload was stored before) and,
// if e.Metadata is not empty, a metadata record, linked by
// WARC-Concurrent-To. The records are compressed before the file lock is
// taken and written with a single write, so a crash leaves at most a torn
// tail that Open truncates. A write that fails (a full disk) leaves none
// of the exchange's records in the file: WriteExchange returns an error
// naming the file, and every later call returns it too, writing nothing.
// It then updates the index and hands the response to the Mirror, if any;
// an error wrapping ErrMirror means only the mirror copy failed.
func (w *Writer) WriteExchange(e Exchange) error {
	if err := validateExchange(e); err != nil {
		return err
	}
	var x exchangeRecords
	if err := x.start(w, e); err != nil {
		return err
	}
	defer x.release()
	ref, revisit := w.revisitOf(&x)
	if err := x.writeRecords(ref, revisit); err != nil {
		return err
	}
	ie := x.indexEntry(w.opts.Dedupe && x.dedupable && !revisit)
	if err := w.commit(x.buf.Bytes(), x.members[:x.n], ie); err != nil {
		return err
	}
	return w.mirrorExchange(&x, ie.Location)
}

// revisitOf returns the response a revisit record for x would refer to,
// and whether there is one: only with Options.Dedupe, for a payload x may
// be deduplicated by that was archived before.
func (w *Writer) revisitOf(x *exchangeRecords) (revisitRef, bool) {
	if !w.opts.Dedupe || !x.dedupable {
		return revisitRef{}, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dedupe.lookup(x.payloadDigest)
}

// mirrorExchange hands the exchange of x, whose records are written, to
// the Mirror: a redirect (location, as indexed) to Redirect, a 2xx
// response of a fetch that did not fail to Store. Robots.txt exchanges and
// responses whose header block did not end are not handed over.
func (w *Writer) mirrorExchange(x *exchangeRecords, location string) error {
	e, head := &x.e, &x.head
	if w.mirror == nil || e.IsRobots || !head.complete {
		return nil
	}
	switch {
	case location != "":
		// Links to this URL then lead to the file of its target.
		w.mirror.Redirect(e.TargetURI, location)
	case !e.Failed && head.status >= 200 && head.status < 300:
		// A body cut short is mirrored as far as it came, as a browser
		// shows it; a later whole fetch of the URL replaces the file.
		return wrapMirror(w.mirror.Store(MirrorResponse{URL: e.TargetURI, ContentType: x.contentType,
			TransferEncoding: head.get("Transfer-Encoding"), ContentEncoding: head.get("Content-Encoding"),
			Payload: x.payload, Truncated: e.Truncated != ""}))
	}
	return nil
}

// commit appends an exchange's members to the current file under the lock,
// rotating first if needed, then records the index entry of the member that
// has one (ie supplies the fields the CDXJ line does not hold) and appends
// it to the journal. The first failed write is kept in w.err and refused
// from then on.
func (w *Writer) commit(data []byte, members []member, ie indexEntry) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	if w.err != nil {
		return w.err
	}
	base, err := w.place(data)
	if err != nil {
		w.err = err
		return err
	}
	for _, m := range members {
		if m.cdx == nil {
			continue
		}
		m.cdx.Offset = strconv.FormatInt(base+int64(m.off), 10)
		m.cdx.Length = strconv.Itoa(m.length)
		m.cdx.Filename = w.name
		ie.CDXJ, ie.File, ie.End = m.cdx.line(), w.name, base+int64(m.off+m.length)
		w.addEntry(ie, false)
		// The WARC holds the records and the index the entry: the
		// exchange is archived. Only the journal, which Open rebuilds
		// from the files, lacks the line; the next exchange is refused.
		if err := w.journal.add(&ie); err != nil {
			w.err = err
		}
	}
	return nil
}

// place appends data to the current file, rotating first if it would
// grow past MaxFileSize, and returns the offset data starts at. Callers
// hold w.mu.
func (w *Writer) place(data []byte) (int64, error) {
	if w.used && w.size+int64(len(data)) > w.opts.MaxFileSize {
		if err := w.rotate(); err != nil {
			return 0, err
		}
	}
	base := w.size
	if err := w.append(data); err != nil {
		return 0, err
	}
	w.used = true
	return base, nil
}

// validateExchange rejects exchanges that cannot become valid records.
func validateExchange(e Exchange) error {
	if e.TargetURI == "" || strings.ContainsFunc(e.TargetURI, func(r rune) bool { return r <= ' ' || r == 127 }) {
		return fmt.Errorf("archive: exchange: bad target uri %q", e.TargetURI)
	}
	if strings.ContainsFunc(e.IP, func(r rune) bool { return r <= ' ' || r == 127 }) {
		return fmt.Errorf("archive: exchange: bad ip address %q", e.IP)
	}
	if len(e.Request) == 0 || len(e.Response) == 0 {
		return fmt.Errorf("archive: exchange %s: request and response bytes are required", e.TargetURI)
	}
	switch e.Truncated {
	case "", TruncatedLength, TruncatedTime, TruncatedDisconnect, TruncatedUnspecified:
	default:
		return fmt.Errorf("archive: exchange %s: unknown truncation reason %q", e.TargetURI, e.Truncated)
	}
	return nil
}
