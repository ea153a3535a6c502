package crawler

import (
	"sync"

	"github.com/crawlproject/crawl/pageenc"
)

// maxSheetEnvs bounds the style sheets sheetEnvs remembers a referrer's
// encoding for.
const maxSheetEnvs = 10000

// sheetEnvs remembers, for each style sheet that a page or sheet in an
// encoding other than UTF-8 referred to, that encoding: the environment
// encoding a sheet that declares none is read in (CSS Syntax Level 3
// section 3.2). It is kept in memory, for at most maxSheetEnvs sheets not
// fetched yet: a sheet fetched by a later run, or past the bound, is read
// as UTF-8 unless it declares an encoding. The zero value is empty and
// ready; it is safe for concurrent use.
type sheetEnvs struct {
	mu sync.Mutex
	m  map[string]pageenc.Encoding
}

// note remembers enc as the encoding of the referrer of the sheet at u,
// the URL as the frontier holds it.
func (s *sheetEnvs) note(u string, enc pageenc.Encoding) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]pageenc.Encoding{}
	}
	if _, ok := s.m[u]; ok || len(s.m) < maxSheetEnvs {
		s.m[u] = enc
	}
}

// take returns the encoding of the referrer of the sheet at u and forgets
// it; UTF-8 when none was noted.
func (s *sheetEnvs) take(u string) pageenc.Encoding {
	s.mu.Lock()
	defer s.mu.Unlock()
	enc := s.m[u]
	delete(s.m, u)
	return enc
}
