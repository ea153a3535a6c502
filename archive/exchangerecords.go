package archive

import (
	"bytes"
	"strconv"
	"strings"
)

// member locates one gzip member inside an exchange's buffer.
type member struct {
	off, length int
	cdx         *cdxEntry // index entry of a response or revisit
}

// exchangeRecords renders the records of one exchange into a pooled
// buffer, one gzip member each, before the Writer's lock is taken. It is
// used by one WriteExchange call; release gives back what it borrowed.
type exchangeRecords struct {
	w *Writer
	e Exchange
	d *digester

	head          httpHead // of e.Response
	contentType   string   // of e.Response
	payload       []byte   // e.Response after the header block
	payloadDigest string
	// dedupable: a complete, untruncated, non-empty 2xx payload, which a
	// later response may be a revisit of (or this one of an earlier).
	dedupable bool

	date                  string // WARC-Date
	timestamp             string // the CDXJ timestamp of the same instant
	reqID, respID, metaID string

	buf *bytes.Buffer
	// members are the records' members in buf, the first n of them used.
	members [3]member
	n       int
	entry   *cdxEntry // index entry of the response or revisit record
	// fieldBuf holds each record's header fields in turn: compress is done
	// with them before the next record starts.
	fieldBuf [16]Field
}

// start parses e's response, digests its payload and draws the three
// record ids. Once it returned nil, call release.
func (x *exchangeRecords) start(w *Writer, e Exchange) error {
	x.w, x.e = w, e
	date := e.Date
	if date.IsZero() {
		date = w.opts.Now()
	}
	x.date, x.timestamp = formatDate(date), date.UTC().Format("20060102150405")
	x.head = parseHTTPHead(e.Response)
	x.payload = e.Response[x.head.bodyOffset:]
	x.contentType = x.head.get("Content-Type")
	x.dedupable = e.Truncated == "" && x.head.complete && len(x.payload) > 0 &&
		x.head.status >= 200 && x.head.status < 300
	ids := [3]string{}
	for i := range ids {
		id, err := w.opts.newID()
		if err != nil {
			return err
		}
		ids[i] = id
	}
	x.reqID, x.respID, x.metaID = ids[0], ids[1], ids[2]
	x.d = w.digester()
	x.payloadDigest = x.d.digest(x.payload)
	x.buf = w.pool.buffer()
	return nil
}

// release gives the digester and the buffer back to the Writer's pools.
func (x *exchangeRecords) release() {
	x.w.digesters.Put(x.d)
	x.w.pool.release(x.buf)
}

// writeRecords renders the request record, the response record or (when
// revisit) a revisit record referring to ref, and the metadata record.
func (x *exchangeRecords) writeRecords(ref revisitRef, revisit bool) error {
	if err := x.addRequest(); err != nil {
		return err
	}
	x.entry = x.cdxEntry()
	var err error
	if revisit {
		err = x.addRevisit(ref)
	} else {
		err = x.addResponse()
	}
	if err != nil {
		return err
	}
	x.members[1].cdx = x.entry
	return x.addMetadata()
}

// add compresses one record into the buffer and notes its member.
func (x *exchangeRecords) add(fields []Field, block ...[]byte) error {
	start := x.buf.Len()
	if err := x.w.pool.compress(x.buf, fields, block...); err != nil {
		return err
	}
	x.members[x.n] = member{off: start, length: x.buf.Len() - start}
	x.n++
	return nil
}

// common starts the header fields of a record of type typ: type, id,
// date, target URI and, if known, IP address.
func (x *exchangeRecords) common(typ, id string) []Field {
	f := append(x.fieldBuf[:0], Field{"WARC-Type", typ}, Field{"WARC-Record-ID", id}, Field{"WARC-Date", x.date},
		Field{"WARC-Target-URI", x.e.TargetURI})
	if x.e.IP != "" {
		f = append(f, Field{"WARC-IP-Address", x.e.IP})
	}
	return f
}

// addRequest renders the request record (WARC 1.1 section 6.5).
func (x *exchangeRecords) addRequest() error {
	reqHead := parseHTTPHead(x.e.Request)
	f := append(x.common("request", x.reqID),
		Field{"WARC-Concurrent-To", x.respID},
		Field{"WARC-Block-Digest", x.d.digest(x.e.Request)})
	if reqHead.complete {
		f = append(f, Field{"WARC-Payload-Digest", x.d.digest(x.e.Request[reqHead.bodyOffset:])})
	}
	f = append(f, Field{"Content-Type", typeHTTPRequest})
	return x.add(f, x.e.Request)
}

// cdxEntry starts the index entry of the response or revisit record;
// commit fills in where it was written.
func (x *exchangeRecords) cdxEntry() *cdxEntry {
	entry := &cdxEntry{key: SURT(x.e.TargetURI), timestamp: x.timestamp, URL: x.e.TargetURI,
		Digest: strings.TrimPrefix(x.payloadDigest, DigestSHA1+":")}
	if x.head.status != 0 {
		entry.Status = strconv.Itoa(x.head.status)
	}
	return entry
}

// addRevisit renders a revisit record (WARC 1.1 section 6.7.2) referring
// to ref: its block is the HTTP header only.
func (x *exchangeRecords) addRevisit(ref revisitRef) error {
	block := x.e.Response[:x.head.bodyOffset]
	f := append(x.common("revisit", x.respID),
		Field{"WARC-Concurrent-To", x.reqID},
		Field{"WARC-Profile", RevisitProfile})
	if ref.id != "" {
		f = append(f, Field{"WARC-Refers-To", ref.id})
	}
	f = append(f,
		Field{"WARC-Refers-To-Target-URI", ref.uri},
		Field{"WARC-Refers-To-Date", ref.date},
		Field{"WARC-Block-Digest", x.d.digest(block)},
		Field{"WARC-Payload-Digest", x.payloadDigest},
		Field{"Content-Type", typeHTTPResponse})
	x.entry.Mime = "warc/revisit"
	return x.add(f, block)
}

// addResponse renders the response record (WARC 1.1 section 6.3).
func (x *exchangeRecords) addResponse() error {
	f := append(x.common("response", x.respID),
		Field{"WARC-Concurrent-To", x.reqID},
		Field{"WARC-Block-Digest", x.d.digest(x.e.Response)})
	if x.head.complete {
		f = append(f, Field{"WARC-Payload-Digest", x.payloadDigest})
	} else {
		x.entry.Digest = ""
	}
	if x.e.Truncated != "" {
		f = append(f, Field{"WARC-Truncated", x.e.Truncated})
	}
	f = append(f, Field{"Content-Type", typeHTTPResponse})
	if x.contentType != "" {
		mt, _, _ := strings.Cut(x.contentType, ";")
		x.entry.Mime = strings.TrimSpace(mt)
	}
	return x.add(f, x.e.Response)
}

// addMetadata renders the metadata record (WARC 1.1 section 6.6), if the
// exchange has metadata.
func (x *exchangeRecords) addMetadata() error {
	if len(x.e.Metadata) == 0 {
		return nil
	}
	block := fieldsBlock(x.e.Metadata)
	f := append(x.fieldBuf[:0], Field{"WARC-Type", "metadata"}, Field{"WARC-Record-ID", x.metaID}, Field{"WARC-Date", x.date},
		Field{"WARC-Target-URI", x.e.TargetURI}, Field{"WARC-Concurrent-To", x.respID},
		Field{"WARC-Block-Digest", x.d.digest(block)}, Field{"Content-Type", typeWARCFields})
	return x.add(f, block)
}

// indexEntry is the journal's entry of the response or revisit record
// (commit adds where it lies); revisitable marks a response later ones may
// be revisits of.
func (x *exchangeRecords) indexEntry(revisitable bool) indexEntry {
	ie := indexEntry{URL: x.e.TargetURI, Status: x.entry.Status, ContentType: indexed(x.contentType)}
	if isRedirect(ie.Status) {
		ie.Location = indexed(x.head.get("Location"))
	}
	if revisitable {
		ie.Digest, ie.Date, ie.ID = x.payloadDigest, x.date, x.respID
	}
	return ie
}
