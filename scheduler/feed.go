package scheduler

import "sync"

// Feed tells the scheduler that URLs are still to come from outside the
// crawl, such as a seed list read as the crawl runs: until the returned
// done is called, the frontier is not drained (Next does not end with
// ErrDrained) even when nothing is queued or in flight. done may be
// called more than once; only the first call counts.
func (s *Scheduler) Feed() (done func()) {
	s.mu.Lock()
	s.feeds++
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.feeds--
			s.notify()
			s.mu.Unlock()
		})
	}
}
