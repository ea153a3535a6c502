package crawllog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// MaxLine bounds one line ReadJSONL decodes; a longer line is consumed
// without being held and counted as malformed.
const MaxLine = 1 << 20

// ReadJSONL calls fn with each line of r that decodes as a T, in order.
// Blank lines are passed over; lines that do not decode (a torn last line,
// or one longer than MaxLine) are counted: bad of them, the first on line
// firstBad (1-based, 0 when bad is 0). err is a read error other than
// io.EOF, with the counts so far.
func ReadJSONL[T any](r io.Reader, fn func(T)) (bad, firstBad int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for lineNo := 1; ; lineNo++ {
		line, tooLong, err := readLine(br)
		if err == io.EOF && len(line) == 0 && !tooLong {
			return bad, firstBad, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return bad, firstBad, err
		}
		if line = bytes.TrimSpace(line); len(line) > 0 || tooLong {
			var v T
			if tooLong || json.Unmarshal(line, &v) != nil {
				bad++
				if firstBad == 0 {
					firstBad = lineNo
				}
			} else {
				fn(v)
			}
		}
		if err == io.EOF {
			return bad, firstBad, nil
		}
	}
}

// readLine returns the next line without its newline. A line longer than
// MaxLine is consumed and reported with tooLong and no content.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > MaxLine {
				tooLong, line = true, nil
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
	}
}
