package archive

// Mirror keeps a copy of archived responses outside the WARC files, such
// as the browsable copy of package mirror. A Writer calls it only after
// the records concerned are written and indexed, and never for robots.txt
// exchanges (Exchange.IsRobots) or responses whose header block did not
// end. Its methods must be safe for concurrent use.
type Mirror interface {
	// Store is given each complete 2xx response of a fetch that did not
	// fail (Exchange.Failed). An error from it reaches the caller of
	// WriteExchange wrapped in ErrMirror.
	Store(resp MirrorResponse) error
	// Redirect is given each 3xx response with a Location (as recorded,
	// unresolved), written now or, when Open resumes, by an earlier run.
	Redirect(url, location string)
	// Recall is given, when Open resumes, each 2xx response of an earlier
	// run with its Content-Type.
	Recall(url, contentType string)
	// Close is called by Writer.Close after the index is written; its
	// error is returned wrapped in ErrMirror.
	Close() error
}

// MirrorResponse is a complete 2xx response as a Writer hands it to its
// Mirror. Its byte slices belong to the caller of WriteExchange: a Mirror
// must not keep them after Store returns.
type MirrorResponse struct {
	// URL is the Exchange's TargetURI.
	URL string
	// ContentType, TransferEncoding and ContentEncoding are the response's
	// header values of those names ("" where absent).
	ContentType, TransferEncoding, ContentEncoding string
	// Payload is the message body as received: transfer and content
	// codings left in place.
	Payload []byte
	// Truncated reports a body cut short (WARC-Truncated).
	Truncated bool
}

// mirrorError is a Mirror's failure as WriteExchange and Close return it:
// it matches ErrMirror and the cause with errors.Is, and reads as the
// cause with the package's prefix.
type mirrorError struct{ cause error }

func (e mirrorError) Error() string   { return "archive: " + e.cause.Error() }
func (e mirrorError) Unwrap() []error { return []error{ErrMirror, e.cause} }

// wrapMirror returns err as a mirrorError, nil if err is nil.
func wrapMirror(err error) error {
	if err == nil {
		return nil
	}
	return mirrorError{err}
}
