package robots

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// footprintFile is a robots.txt, the agents whose groups a crawler checks
// and the paths it checks.
type footprintFile struct {
	name   string
	body   []byte
	agents []string
	paths  []string
}

// fill returns the lines line(0), line(1), ... after head, up to just
// under MaxSize octets: a hostile file that Parse reads whole.
func fill(head string, line func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; ; i++ {
		l := line(i)
		if b.Len()+len(l) > MaxSize-64 {
			return []byte(b.String())
		}
		b.WriteString(l)
	}
}

// hostileFiles are files of about 500 KB built to cost memory: prefix
// rules, wildcard rules, many groups, merged groups, long pacing lists and
// lines that give warnings.
func hostileFiles() []footprintFile {
	comment := strings.Repeat("c", 250) // longer than maxQuote: quoted lines are copies
	return []footprintFile{
		{"prefix-rules", fill("User-agent: *\n", func(i int) string {
			return fmt.Sprintf("Disallow: /%x/%x\n", i, i*7919)
		}), []string{"ExampleBot"}, []string{"/1f/d6f9", "/zzz", "/a/b/c"}},
		// The literals differ, so that the rules spread over the tree's
		// nodes: 20,000 wildcard rules of one node take placeWild time
		// quadratic in them (it keeps a node's rules sorted by insertion).
		{"wildcard-rules", fill("User-agent: *\n", func(i int) string {
			return fmt.Sprintf("Disallow: /%x*%x*q=%x$\n", i, i*7, i*31)
		}), []string{"ExampleBot"}, []string{"/1f*d9?q=3c1", "/plain", "/a?q=0"}},
		{"many-groups", fill("", func(i int) string {
			return fmt.Sprintf("User-agent: %s\nDisallow: /private-%d/\nAllow: /private-%d/open\nCrawl-delay: %d\n\n", letterName(i), i, i, i%7)
		}), []string{letterName(4321) + "/1.0"}, []string{"/private-4321/x", "/private-4321/open/y", "/public"}},
		// Every group is a part of the merged "*" group and of one of 64
		// merged groups, and has a token of its own: group 7 is checked
		// in all three.
		{"merged-groups", fill("", func(i int) string {
			return fmt.Sprintf("User-agent: %s\nUser-agent: %s\nUser-agent: *\nDisallow: /p-%d/\nAllow: /p-%d/q*r$\n\n",
				letterName(i%64), letterName(1000+i), i, i)
		}), []string{letterName(7), letterName(1007), "OtherBot"}, []string{"/p-7/x", "/p-71/qzr", "/other"}},
		{"pacing-lists", fill("User-agent: *\nDisallow: /private\n", func(i int) string {
			switch i % 4 {
			case 0:
				return fmt.Sprintf("Visit-time: %02d00-%02d59\n", i%24, i%24)
			case 1:
				// Every other one is longer than maxQuote: its text is
				// quoted from a copy.
				return fmt.Sprintf("Request-rate: %d/%dm %02d00-%02d59%s\n", 1+i%9, 1+i%50, i%24, (i+1)%24, comment[:i/4%2*210])
			case 2:
				return fmt.Sprintf("Comment: note %d %s\n", i, comment[:i%300%251])
			}
			return fmt.Sprintf("Crawl-delay: %d\n", i%30)
		}), []string{"ExampleBot"}, []string{"/private/x", "/public"}},
		{"warnings", fill("User-agent: *\n", func(i int) string {
			switch i % 4 {
			case 0:
				return fmt.Sprintf("Unknown-%d: value\n", i)
			case 1:
				return fmt.Sprintf("Disallow /missing-colon-%d\n", i)
			case 2:
				return fmt.Sprintf("Disallow: relative-%d\n", i)
			}
			return fmt.Sprintf("Disallow: /ok-%d\n", i)
		}), []string{"ExampleBot"}, []string{"/ok-3", "/missing-colon-1", "/x"}},
	}
}

// measuredFootprint parses copies of f's body, each into a buffer of its
// own, and checks f's paths twice with each of f's agents on each, so
// that their groups' hot matchers exist. It returns the growth of the live heap per
// copy and the mean Footprint.
func measuredFootprint(f footprintFile, copies int) (measured, footprint int) {
	rs := make([]*Robots, copies)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range rs {
		r := Parse(bytes.Clone(f.body))
		for _, a := range f.agents {
			for range 2 {
				for _, p := range f.paths {
					r.Allowed(a, p)
				}
			}
		}
		rs[i] = r
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	sum := 0
	for _, r := range rs {
		sum += r.Footprint()
	}
	runtime.KeepAlive(rs)
	return int(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / copies, sum / copies
}

func TestFootprintAccuracy(t *testing.T) {
	fromTestdata := func(name, agent string, paths ...string) footprintFile {
		return footprintFile{name, readTestdata(t, name), []string{agent}, paths}
	}
	files := []footprintFile{
		fromTestdata("wiki-like.txt", "ExampleBot", "/wiki/Main_Page", "/w/index.php?title=Foo&action=edit", "/wiki/Special:Random"),
		fromTestdata("shop-like.txt", "ExampleBot", "/products/shoe-123", "/c/shoes?sort=price", "/cart/"),
		fromTestdata("extended-1996.txt", "alfred", "/index.html", "/blackhole/info99.html", "/order.cgi"),
		fromTestdata("koster-1996.txt", "ExampleBot", "/cyberworld/map/index.html", "/tmp/x"),
		fromTestdata("standard-1994-c.txt", "ExampleBot", "/x"),
		{"tiny", []byte("User-agent: *\nDisallow: /private\n"), []string{"ExampleBot"}, []string{"/private/x", "/public"}},
		{"tiny-wildcard", []byte("User-agent: *\nDisallow: /*.pdf$\nAllow: /public/\n"), []string{"ExampleBot"}, []string{"/a.pdf", "/public/b"}},
	}
	files = append(files, hostileFiles()...)
	for _, f := range files {
		// Tiny files are measured over many copies: a copy costs a
		// few KB, in which a stray runtime allocation would show.
		copies := 8
		if len(f.body) < 16<<10 {
			copies = 400
		}
		measured, fp := measuredFootprint(f, copies)
		t.Logf("%-20s body %7d B: measured %9d B/copy, Footprint %9d B (%+.1f%%)",
			f.name, len(f.body), measured, fp, 100*float64(fp-measured)/float64(measured))
		// Footprint counts each object at its size; the allocator rounds
		// each up to its size class (a 120-octet Group takes 128, a
		// 36-octet body 48), which over a file's few dozen objects is up
		// to a tenth of a tiny file's memory and nothing of a large
		// file's. So tiny files get 512 B of slack besides the 25%.
		tol := measured / 4
		if len(f.body) < 16<<10 {
			tol += 512
		}
		if d := fp - measured; d > tol || -d > tol {
			t.Errorf("%s: Footprint %d B, measured %d B per copy: off by more than %d B", f.name, fp, measured, tol)
		}
	}
}

func TestFootprintGrows(t *testing.T) {
	for _, f := range hostileFiles()[:4] {
		t.Run(f.name, func(t *testing.T) {
			r := Parse(bytes.Clone(f.body))
			parsed := r.Footprint()
			if parsed <= len(f.body) {
				t.Fatalf("after Parse: Footprint %d B, not more than the %d B body", parsed, len(f.body))
			}
			g := r.Group(f.agents[0])
			made := r.Footprint()
			g.Allowed(f.paths[0])
			first := r.Footprint()
			g.Allowed(f.paths[0])
			second := r.Footprint()
			g.Allowed(f.paths[1])
			third := r.Footprint()
			t.Logf("parsed %d, group made %d, first check %d, second %d, third %d", parsed, made, first, second, third)
			if made < parsed || first <= made || second <= first {
				t.Errorf("Footprint after Parse %d, group made %d, first check %d, second check %d: want it to grow",
					parsed, made, first, second)
			}
			if third != second {
				t.Errorf("Footprint after the third check %d, after the second %d: the hot matcher is made once", third, second)
			}
			other := r.Group("OtherBot")
			other.Allowed("/a")
			other.Allowed("/b")
			if got := r.Footprint(); other != g && got <= third {
				t.Errorf("Footprint after checking another group twice %d, before %d: want it to grow", got, third)
			}
		})
	}
}

func TestFootprintPolicies(t *testing.T) {
	var nilRobots *Robots
	if got := nilRobots.Footprint(); got != 0 {
		t.Errorf("nil *Robots: Footprint %d, want 0", got)
	}
	for name, r := range map[string]*Robots{"AllowAll": AllowAll(), "DisallowAll": DisallowAll(), "Parse(nil)": Parse(nil)} {
		before := r.Footprint()
		// A Robots struct and its group: positive, and far from the
		// kilobytes of a file's parts.
		if before < sizeOf[Robots]() || before > 2*sizeOf[Robots]() {
			t.Errorf("%s: Footprint %d B, want between %d and %d", name, before, sizeOf[Robots](), 2*sizeOf[Robots]())
		}
		r.Allowed("ExampleBot", "/a")
		r.Allowed("ExampleBot", "/a")
		if after := r.Footprint(); after <= before || after > before+1024 {
			t.Errorf("%s: Footprint %d B after checks, %d before: want its empty matcher's few hundred bytes more", name, after, before)
		}
	}
}

func TestFootprintDoesNotAllocate(t *testing.T) {
	for _, f := range hostileFiles() {
		r := Parse(f.body)
		r.Allowed(f.agents[0], f.paths[0])
		r.Allowed(f.agents[0], f.paths[0])
		if n := testing.AllocsPerRun(10, func() { r.Footprint() }); n != 0 {
			t.Errorf("%s: Footprint allocates %v times", f.name, n)
		}
	}
}

func TestFootprintSharesNothing(t *testing.T) {
	// Two files parsed from copies of one body are equal, and checking
	// one does not change the other's Footprint.
	body := hostileFiles()[0].body
	a, b := Parse(bytes.Clone(body)), Parse(bytes.Clone(body))
	fa, fb := a.Footprint(), b.Footprint()
	if fa != fb {
		t.Errorf("Footprint of two parses of one body: %d and %d, want them equal", fa, fb)
	}
	a.Allowed("ExampleBot", "/x")
	a.Allowed("ExampleBot", "/x")
	if got := b.Footprint(); got != fb {
		t.Errorf("Footprint of b changed from %d to %d when a was checked", fb, got)
	}
	if got := a.Footprint(); got <= fa {
		t.Errorf("Footprint of a checked %d, before %d: want it larger", got, fa)
	}
}

// TestFootprintConcurrent calls Footprint while other goroutines make and
// check groups (run it with -race). Without merged groups every reading
// is at least the one before; with them, a part's rules may be missed by
// a reading that races with the part's own first check, so readings lie
// between the one after Parse and the one after all checks.
func TestFootprintConcurrent(t *testing.T) {
	for _, f := range hostileFiles()[2:4] {
		t.Run(f.name, func(t *testing.T) {
			r := Parse(f.body)
			parsed := r.Footprint()
			monotone := len(r.index.merged) == 0 && (r.star == nil || r.star.parts == nil)
			var agents []string // every group's token, and one of none
			for i := range 64 {
				agents = append(agents, letterName(i*37), letterName(1000+i*37))
			}
			agents = append(agents, "OtherBot")
			started, done := make(chan struct{}), make(chan struct{})
			var readings []int
			var wg, readers sync.WaitGroup
			readers.Go(func() {
				readings = append(readings, r.Footprint())
				close(started)
				for {
					select {
					case <-done:
						return
					default:
						readings = append(readings, r.Footprint())
					}
				}
			})
			<-started
			for k := range 4 {
				wg.Go(func() {
					// Each checker asks for every group, from a
					// different start, twice over.
					for j := range 2 * len(agents) {
						a := agents[(j+k*len(agents)/4)%len(agents)]
						for _, p := range f.paths {
							r.Allowed(a, p)
						}
					}
				})
			}
			wg.Wait()
			close(done)
			readers.Wait()
			final := r.Footprint()
			t.Logf("%d readings from %d to %d", len(readings), parsed, final)
			if final <= parsed {
				t.Fatalf("Footprint after checks %d, after Parse %d: want it larger", final, parsed)
			}
			for i, v := range readings {
				if v < parsed || v > final {
					t.Fatalf("reading %d: Footprint %d, want between %d and %d", i, v, parsed, final)
				}
				if monotone && i > 0 && v < readings[i-1] {
					t.Fatalf("reading %d: Footprint %d, less than the reading before, %d", i, v, readings[i-1])
				}
			}
		})
	}
}

// BenchmarkFootprint measures Footprint of hostile files whose crawler's
// group was checked twice.
func BenchmarkFootprint(b *testing.B) {
	for _, f := range hostileFiles() {
		r := Parse(f.body)
		r.Allowed(f.agents[0], f.paths[0])
		r.Allowed(f.agents[0], f.paths[0])
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.Footprint()
			}
		})
	}
}
