package report

import "container/heap"

// reorderWindow is how many requests a timeOrder holds back to hand them
// on oldest first: crawl.jsonl is written as requests end, so a request
// is logged after those that started later and ended sooner, some
// workers' worth of lines at most. A request logged more than this many
// lines late is handed on late (hostCount counts it as such).
const reorderWindow = 1 << 16

// timeOrder takes requests in log order and hands them to emit in time
// order (log order at equal times), holding at most reorderWindow of them.
type timeOrder struct {
	pending orderHeap
	seq     int
	emit    func(request)
}

// push takes the next request of the log.
func (o *timeOrder) push(r request) {
	heap.Push(&o.pending, ordered{r: r, seq: o.seq})
	o.seq++
	if o.pending.Len() > reorderWindow {
		o.emit(heap.Pop(&o.pending).(ordered).r)
	}
}

// flush hands on every request held.
func (o *timeOrder) flush() {
	for o.pending.Len() > 0 {
		o.emit(heap.Pop(&o.pending).(ordered).r)
	}
}

// ordered is a request and its place in the log.
type ordered struct {
	r   request
	seq int
}

// orderHeap orders requests by time, then by their place in the log.
type orderHeap []ordered

func (h orderHeap) Len() int { return len(h) }
func (h orderHeap) Less(i, j int) bool {
	if c := h[i].r.Time.Compare(h[j].r.Time); c != 0 {
		return c < 0
	}
	return h[i].seq < h[j].seq
}
func (h orderHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *orderHeap) Push(x any)   { *h = append(*h, x.(ordered)) }
func (h *orderHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = ordered{}
	*h = old[:len(old)-1]
	return x
}
