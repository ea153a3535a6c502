package archive

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Truncation reasons accepted in Exchange.Truncated (WARC 1.1 section 5.13).
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

// member locates one gzip member inside an exchange's buffer.
type member struct {
	off, length int
	cdx         *cdxEntry // index entry of a response or revisit
}

// WriteExchange archives one fetch: a request record, a response record (or
// a revisit record when Dedupe is on and the payload was stored before) and,
// if e.Metadata is not empty, a metadata record, linked by
// WARC-Concurrent-To. The records are compressed before the file lock is
// taken and written with a single write, so a crash leaves at most a torn
// tail that Open truncates. It then updates the index and the mirror; an
// error wrapping ErrMirror means only the mirror copy failed.
func (w *Writer) WriteExchange(e Exchange) error {
	if err := validateExchange(e); err != nil {
		return err
	}
	date := e.Date
	if date.IsZero() {
		date = w.opts.Now()
	}
	head := parseHTTPHead(e.Response)
	payload := e.Response[head.bodyOffset:]
	contentType := head.get("Content-Type")
	d := w.digester()
	defer w.digesters.Put(d)
	payloadDigest := d.digest(payload)

	var ref revisitRef
	revisit := false
	canDedupe := w.opts.Dedupe && e.Truncated == "" && head.complete && len(payload) > 0 &&
		head.status >= 200 && head.status < 300
	if canDedupe {
		w.mu.Lock()
		ref, revisit = w.dedupe[payloadDigest]
		w.mu.Unlock()
	}

	ids := [3]string{}
	for i := range ids {
		id, err := w.opts.newID()
		if err != nil {
			return err
		}
		ids[i] = id
	}
	reqID, respID, metaID := ids[0], ids[1], ids[2]
	wdate := formatDate(date)
	// Each record's header fields are built in fieldBuf, which compress is
	// done with before the next record starts.
	var fieldBuf [16]Field
	common := func(typ, id string) []Field {
		f := append(fieldBuf[:0], Field{"WARC-Type", typ}, Field{"WARC-Record-ID", id}, Field{"WARC-Date", wdate},
			Field{"WARC-Target-URI", e.TargetURI})
		if e.IP != "" {
			f = append(f, Field{"WARC-IP-Address", e.IP})
		}
		return f
	}

	buf := w.pool.buffer()
	defer w.pool.release(buf)
	var memberBuf [3]member
	members := memberBuf[:0]
	add := func(fields []Field, block ...[]byte) error {
		start := buf.Len()
		if err := w.pool.compress(buf, fields, block...); err != nil {
			return err
		}
		members = append(members, member{off: start, length: buf.Len() - start})
		return nil
	}

	// request (WARC 1.1 section 6.4)
	reqHead := parseHTTPHead(e.Request)
	reqBlockDigest := d.digest(e.Request)
	f := append(common("request", reqID),
		Field{"WARC-Concurrent-To", respID},
		Field{"WARC-Block-Digest", reqBlockDigest})
	if reqHead.complete {
		reqPayloadDigest := d.digest(e.Request[reqHead.bodyOffset:])
		f = append(f, Field{"WARC-Payload-Digest", reqPayloadDigest})
	}
	f = append(f, Field{"Content-Type", typeHTTPRequest})
	if err := add(f, e.Request); err != nil {
		return err
	}

	entry := &cdxEntry{key: SURT(e.TargetURI), timestamp: date.UTC().Format("20060102150405"), URL: e.TargetURI,
		Digest: strings.TrimPrefix(payloadDigest, DigestSHA1+":")}
	if head.status != 0 {
		entry.Status = strconv.Itoa(head.status)
	}
	if revisit {
		// revisit (WARC 1.1 section 6.7.2): the block is the HTTP header only.
		block := e.Response[:head.bodyOffset]
		blockDigest := d.digest(block)
		f = append(common("revisit", respID),
			Field{"WARC-Concurrent-To", reqID},
			Field{"WARC-Profile", RevisitProfile})
		if ref.id != "" {
			f = append(f, Field{"WARC-Refers-To", ref.id})
		}
		f = append(f,
			Field{"WARC-Refers-To-Target-URI", ref.uri},
			Field{"WARC-Refers-To-Date", ref.date},
			Field{"WARC-Block-Digest", blockDigest},
			Field{"WARC-Payload-Digest", payloadDigest},
			Field{"Content-Type", typeHTTPResponse})
		entry.Mime = "warc/revisit"
		if err := add(f, block); err != nil {
			return err
		}
	} else {
		// response (WARC 1.1 section 6.3)
		f = append(common("response", respID),
			Field{"WARC-Concurrent-To", reqID},
			Field{"WARC-Block-Digest", d.digest(e.Response)})
		if head.complete {
			f = append(f, Field{"WARC-Payload-Digest", payloadDigest})
		} else {
			entry.Digest = ""
		}
		if e.Truncated != "" {
			f = append(f, Field{"WARC-Truncated", e.Truncated})
		}
		f = append(f, Field{"Content-Type", typeHTTPResponse})
		if contentType != "" {
			mt, _, _ := strings.Cut(contentType, ";")
			entry.Mime = strings.TrimSpace(mt)
		}
		if err := add(f, e.Response); err != nil {
			return err
		}
	}
	members[1].cdx = entry

	if len(e.Metadata) > 0 {
		// metadata (WARC 1.1 section 6.6)
		block := fieldsBlock(e.Metadata)
		blockDigest := d.digest(block)
		f = []Field{{"WARC-Type", "metadata"}, {"WARC-Record-ID", metaID}, {"WARC-Date", wdate},
			{"WARC-Target-URI", e.TargetURI}, {"WARC-Concurrent-To", respID},
			{"WARC-Block-Digest", blockDigest}, {"Content-Type", typeWARCFields}}
		if err := add(f, block); err != nil {
			return err
		}
	}

	ie := indexEntry{URL: e.TargetURI, Status: entry.Status, ContentType: indexed(contentType)}
	if isRedirect(entry.Status) {
		ie.Location = indexed(head.get("Location"))
	}
	if canDedupe && !revisit {
		ie.Digest, ie.Date, ie.ID = payloadDigest, wdate, respID
	}
	if err := w.commit(buf.Bytes(), members, ie); err != nil {
		return err
	}
	if w.mirror == nil || e.IsRobots || !head.complete {
		return nil
	}
	switch {
	case ie.Location != "":
		// Links to this URL then lead to the file of its target.
		w.mirror.Redirect(e.TargetURI, ie.Location)
	case !e.Failed && head.status >= 200 && head.status < 300:
		// A body cut short is mirrored as far as it came, as a browser
		// shows it; a later whole fetch of the URL replaces the file.
		return wrapMirror(w.mirror.Store(MirrorResponse{URL: e.TargetURI, ContentType: contentType,
			TransferEncoding: head.get("Transfer-Encoding"), ContentEncoding: head.get("Content-Encoding"),
			Payload: payload, Truncated: e.Truncated != ""}))
	}
	return nil
}

// commit appends an exchange's members to the current file under the lock,
// rotating first if needed, then records the index entry of the member that
// has one (ie supplies the fields the CDXJ line does not hold) and appends
// it to the journal.
func (w *Writer) commit(data []byte, members []member, ie indexEntry) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	if w.used && w.size+int64(len(data)) > w.opts.MaxFileSize {
		if err := w.rotate(); err != nil {
			return err
		}
	}
	base := w.size
	if err := w.append(data); err != nil {
		return err
	}
	w.used = true
	for _, m := range members {
		if m.cdx == nil {
			continue
		}
		m.cdx.Offset = strconv.FormatInt(base+int64(m.off), 10)
		m.cdx.Length = strconv.Itoa(m.length)
		m.cdx.Filename = w.name
		ie.CDXJ, ie.File, ie.End = m.cdx.line(), w.name, base+int64(m.off+m.length)
		w.addEntry(ie, false)
		// The WARC holds the record; the next Open rescans what the
		// journal misses, so an error here is not fatal for the archive.
		if err := w.journal.add(&ie); err != nil {
			return err
		}
	}
	return nil
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
