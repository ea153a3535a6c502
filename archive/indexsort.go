package archive

import (
	"bufio"
	"container/heap"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// sortRunBytes is how many octets of index lines are sorted in memory at
// once; more lines are sorted in runs of this size written to temporary
// files and merged. A million responses make some 260 MB of lines.
const sortRunBytes = 16 << 20

// lineSorter sorts lines (without their newline) in bounded memory: up to
// sortRunBytes in memory, the rest in sorted runs in temporary files in
// dir (named with tempPrefix, so a crash leaves nothing Open does not
// remove), merged when written. The zero value is not usable; call
// newLineSorter, and close it when done.
type lineSorter struct {
	dir      string
	runBytes int // sortRunBytes; less in tests
	lines    []string
	size     int
	runs     []*os.File
}

func newLineSorter(dir string) *lineSorter { return &lineSorter{dir: dir, runBytes: sortRunBytes} }

// add takes one line.
func (s *lineSorter) add(line string) error {
	s.lines = append(s.lines, line)
	s.size += len(line) + 16
	if s.size >= s.runBytes {
		return s.spill()
	}
	return nil
}

// spill writes the lines in memory, sorted, to a new run file.
func (s *lineSorter) spill() error {
	slices.Sort(s.lines)
	f, err := os.CreateTemp(s.dir, tempPrefix+"index-run-*")
	if err != nil {
		return err
	}
	s.runs = append(s.runs, f)
	bw := bufio.NewWriterSize(f, 64<<10)
	for _, l := range s.lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	clear(s.lines)
	s.lines, s.size = s.lines[:0], 0
	_, err = f.Seek(0, io.SeekStart)
	return err
}

// writeTo writes every line added, sorted, each with a newline.
func (s *lineSorter) writeTo(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if len(s.runs) == 0 {
		slices.Sort(s.lines)
		for _, l := range s.lines {
			bw.WriteString(l)
			bw.WriteByte('\n')
		}
		return bw.Flush()
	}
	if len(s.lines) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	if err := mergeRuns(bw, s.runs); err != nil {
		return err
	}
	return bw.Flush()
}

// close removes the run files.
func (s *lineSorter) close() {
	for _, f := range s.runs {
		f.Close()
		os.Remove(f.Name())
	}
	s.runs, s.lines = nil, nil
}

// mergeRuns writes the lines of the sorted runs to w in order.
func mergeRuns(w *bufio.Writer, runs []*os.File) error {
	h := &runHeap{}
	for _, f := range runs {
		r := &runReader{br: bufio.NewReaderSize(f, 64<<10)}
		if ok, err := r.next(); err != nil {
			return err
		} else if ok {
			h.rs = append(h.rs, r)
		}
	}
	heap.Init(h)
	for len(h.rs) > 0 {
		r := h.rs[0]
		w.WriteString(r.line)
		w.WriteByte('\n')
		ok, err := r.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return nil
}

// runReader reads the lines of one sorted run.
type runReader struct {
	br   *bufio.Reader
	line string
}

// next reads the next line into r.line; ok is false at the end.
func (r *runReader) next() (ok bool, err error) {
	l, err := r.br.ReadString('\n')
	if err == io.EOF && l == "" {
		return false, nil
	}
	if err != nil && err != io.EOF {
		return false, fmt.Errorf("archive: read index run: %w", err)
	}
	r.line = strings.TrimSuffix(l, "\n")
	return true, nil
}

// runHeap orders run readers by their current line.
type runHeap struct{ rs []*runReader }

func (h *runHeap) Len() int           { return len(h.rs) }
func (h *runHeap) Less(i, j int) bool { return h.rs[i].line < h.rs[j].line }
func (h *runHeap) Swap(i, j int)      { h.rs[i], h.rs[j] = h.rs[j], h.rs[i] }
func (h *runHeap) Push(x any)         { h.rs = append(h.rs, x.(*runReader)) }
func (h *runHeap) Pop() any {
	r := h.rs[len(h.rs)-1]
	h.rs = h.rs[:len(h.rs)-1]
	return r
}
