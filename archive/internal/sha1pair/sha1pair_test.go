package sha1pair

import (
	"crypto/sha1"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestSum_MatchesCryptoSHA1 checks every pairing of lengths around the
// block boundaries (FIPS 180-4 section 5.1.1 pads to 64 bytes with at least
// 9 more: 55, 56 and 64 are the edges) and the case Sum is built for: b a
// suffix of a, as a payload is of a response.
func TestSum_MatchesCryptoSHA1(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 4096)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	var lens []int
	for base := 0; base <= 640; base += 64 {
		for d := -9; d <= 9; d++ {
			if base+d >= 0 {
				lens = append(lens, base+d)
			}
		}
	}
	lens = append(lens, 1000, 2049, 4096)
	for _, la := range lens {
		for _, lb := range lens {
			a, b := buf[:la], buf[len(buf)-lb:]
			da, db := Sum(a, b)
			if da != sha1.Sum(a) || db != sha1.Sum(b) {
				t.Fatalf("len(a)=%d len(b)=%d: got %x %x, want %x %x", la, lb, da, db, sha1.Sum(a), sha1.Sum(b))
			}
		}
	}
	for head := 0; head < 300; head += 7 {
		a := buf[:3000]
		da, db := Sum(a, a[head:])
		if da != sha1.Sum(a) || db != sha1.Sum(a[head:]) {
			t.Fatalf("suffix at %d: wrong digest", head)
		}
	}
}

// TestSum_KnownAnswers are the FIPS 180-2 appendix A examples, "abc" and
// the 56-byte message, plus one million 'a' against the 448-bit one.
func TestSum_KnownAnswers(t *testing.T) {
	million := make([]byte, 1_000_000)
	for i := range million {
		million[i] = 'a'
	}
	two := []byte("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
	da, db := Sum(million, two)
	if got, want := hexOf(da), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"; got != want {
		t.Errorf("million a: %s, want %s", got, want)
	}
	if got, want := hexOf(db), "84983e441c3bd26ebaae4aa1f95129e5e54670f1"; got != want {
		t.Errorf("two-block message: %s, want %s", got, want)
	}
	da, _ = Sum([]byte("abc"), million)
	if got, want := hexOf(da), "a9993e364706816aba3e25717850c26c9cd0d89d"; got != want {
		t.Errorf("abc: %s, want %s", got, want)
	}
}

// TestHasSHA_MatchesCPUInfo checks the CPUID reading against the flags the
// Linux kernel reports, so that the tests above are known to have run the
// paired rounds where the CPU has them.
func TestHasSHA_MatchesCPUInfo(t *testing.T) {
	if runtime.GOARCH != "amd64" || runtime.GOOS != "linux" {
		t.Skip("needs /proc/cpuinfo of an amd64 CPU")
	}
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip(err)
	}
	flags := map[string]bool{}
	for line := range strings.Lines(string(info)) {
		if name, list, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			for _, f := range strings.Fields(list) {
				flags[f] = true
			}
			break
		}
	}
	if want := flags["sha_ni"] && flags["ssse3"]; havePairBlocks != want {
		t.Fatalf("havePairBlocks = %v, /proc/cpuinfo says sha_ni=%v ssse3=%v", havePairBlocks, flags["sha_ni"], flags["ssse3"])
	}
	t.Logf("paired rounds in use: %v", havePairBlocks)
}

func hexOf(d [Size]byte) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 0, 2*Size)
	for _, c := range d {
		b = append(b, digits[c>>4], digits[c&15])
	}
	return string(b)
}

func FuzzSum(f *testing.F) {
	f.Add([]byte("abc"), 0)
	f.Add(make([]byte, 1000), 100)
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		if cut < 0 || cut > len(data) {
			cut = len(data) / 3
		}
		da, db := Sum(data, data[cut:])
		if da != sha1.Sum(data) || db != sha1.Sum(data[cut:]) {
			t.Fatalf("len %d cut %d: wrong digest", len(data), cut)
		}
	})
}

func BenchmarkSum(b *testing.B) {
	buf := make([]byte, 20<<10)
	bytes := int64(2*len(buf) - 130)
	b.Run("pair", func(b *testing.B) {
		b.SetBytes(bytes)
		for b.Loop() {
			Sum(buf, buf[130:])
		}
	})
	b.Run("crypto-sha1-twice", func(b *testing.B) {
		b.SetBytes(bytes)
		for b.Loop() {
			sha1.Sum(buf)
			sha1.Sum(buf[130:])
		}
	})
}
