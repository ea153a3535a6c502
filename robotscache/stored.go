package robotscache

import (
	"bytes"
	"encoding/json"
	"errors"
)

// storedVersion starts the stored form of a Record (encodeRecord); JSON,
// which earlier versions stored, never starts with it.
const storedVersion = 1

// encodeRecord returns rec's stored form: storedVersion, rec's JSON
// without its body, a newline, then the body's octets as they are. JSON
// would write the body in base64, a third longer, for every host of the
// crawl in the frontier.
func encodeRecord(rec Record) ([]byte, error) {
	body := rec.Body
	rec.Body = nil
	j, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 2+len(j)+len(body))
	out = append(out, storedVersion)
	out = append(out, j...)
	out = append(out, '\n')
	return append(out, body...), nil
}

// decodeRecord reads a Record from its stored form, or from the JSON an
// earlier version stored. The body refers to data.
func decodeRecord(data []byte) (Record, error) {
	var rec Record
	if len(data) == 0 || data[0] != storedVersion {
		err := json.Unmarshal(data, &rec)
		return rec, err
	}
	j, body, ok := bytes.Cut(data[1:], []byte{'\n'}) // JSON holds no raw newline
	if !ok {
		return rec, errors.New("robotscache: stored record without its body")
	}
	if err := json.Unmarshal(j, &rec); err != nil {
		return rec, err
	}
	rec.Body = body
	return rec, nil
}
