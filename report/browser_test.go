package report

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// chromium finds a headless-capable Chromium. CRAWL_CHROMIUM names one
// explicitly. Without one the browser tests skip, unless
// CRAWL_REQUIRE_BROWSER=1 (as in CI), where they fail.
func chromium(t *testing.T) string {
	t.Helper()
	candidates := []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}
	if c := os.Getenv("CRAWL_CHROMIUM"); c != "" {
		candidates = []string{c}
	}
	for _, c := range candidates {
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	msg := "no chromium binary found (tried " + strings.Join(candidates, ", ") + "); install Debian's chromium or set CRAWL_CHROMIUM"
	if os.Getenv("CRAWL_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg + "; CRAWL_REQUIRE_BROWSER=1 makes this a failure")
	}
	t.Skip(msg)
	return ""
}

// headless runs chromium on page with extra flags and returns its stdout.
func headless(t *testing.T, bin, page string, flags ...string) []byte {
	t.Helper()
	profile, err := os.MkdirTemp("", "crawl-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(profile) })
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--user-data-dir=" + profile,
	}, flags...)
	args = append(args, "file://"+page)
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), "HOME="+profile)
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", bin, flags, err, stderr.String())
	}
	return stdout.Bytes()
}

// screenshot renders page at width x height and decodes the PNG.
func screenshot(t *testing.T, bin, page string, width, height int) (image.Image, []byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "shot.png")
	headless(t, bin, page, "--screenshot="+out, "--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height))
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	return img, b
}

// inkStats counts pixels that are not near-white and distinct colours.
func inkStats(img image.Image) (inkFraction float64, colours int) {
	b := img.Bounds()
	seen := make(map[uint32]bool)
	ink := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r8, g8, b8 := r>>8, g>>8, bl>>8
			seen[r8<<16|g8<<8|b8] = true
			if r8 < 240 || g8 < 240 || b8 < 240 {
				ink++
			}
		}
	}
	return float64(ink) / float64(b.Dx()*b.Dy()), len(seen)
}

// renderFixture writes the demo fixture's report and returns its path.
func renderFixture(t *testing.T) string {
	t.Helper()
	return renderDir(t, copyFixture(t, "demo"))
}

// renderDir writes the report of the crawl output in dir and returns its
// absolute path.
func renderDir(t *testing.T, dir string) string {
	t.Helper()
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func TestBrowserRendersEveryHost(t *testing.T) {
	bin := chromium(t)
	page := renderFixture(t)
	dom := headless(t, bin, page, "--dump-dom")
	doc, err := html.Parse(bytes.NewReader(dom))
	if err != nil {
		t.Fatal(err)
	}
	sections := hostSections(doc)
	for host, kinds := range fixtureRequests(t, "demo") {
		sec := sections[host]
		if sec == nil {
			t.Errorf("rendered DOM has no section for %s", host)
			continue
		}
		svgs := findAll(sec, func(n *html.Node) bool { return n.Data == "svg" && hasClass(n, "timeline") })
		if len(svgs) != 1 {
			t.Errorf("%s: %d timelines in the rendered DOM", host, len(svgs))
			continue
		}
		want := 0
		for _, n := range kinds {
			want += n
		}
		if got := len(findAll(svgs[0], isMark)); got != want || want == 0 {
			t.Errorf("%s: %d request marks rendered, want %d", host, got, want)
		}
	}
	if len(sections) != 11 {
		t.Errorf("%d host sections rendered, want 11", len(sections))
	}
}

func TestBrowserScreenshotNotBlank(t *testing.T) {
	bin := chromium(t)
	page := renderFixture(t)
	for _, size := range []struct{ w, h int }{{1280, 2000}, {390, 2000}} {
		img, _ := screenshot(t, bin, page, size.w, size.h)
		if img.Bounds().Dx() != size.w {
			t.Errorf("screenshot %d wide, want %d", img.Bounds().Dx(), size.w)
		}
		ink, colours := inkStats(img)
		if ink < 0.03 || colours < 50 {
			t.Errorf("%dx%d screenshot looks blank: %.1f%% ink, %d colours", size.w, size.h, ink*100, colours)
		}
	}
}

// TestDocsScreenshot rewrites docs/report.png, the README's picture of the
// report, from the output of a real `crawl demo` run trimmed to six of its
// sites (testdata/screenshot, see its README.md) when run with -update:
// go test ./report -run DocsScreenshot -update
func TestDocsScreenshot(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite docs/report.png")
	}
	bin := chromium(t)
	img, _ := screenshot(t, bin, renderDir(t, copyDir(t, screenshotDir)), 1280, 2400)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, paletted(img)); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if len(b) > 300<<10 {
		t.Fatalf("docs/report.png would be %d KB, over the README's 300 KB budget", len(b)>>10)
	}
	if err := os.MkdirAll(filepath.Join("..", "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "docs", "report.png"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// paletted reduces img to 256 colours for a small PNG: the 192 most
// frequent (page background, text, anti-aliasing), then greedily the colour
// farthest from those chosen, so a rare but meaningful colour (a red gap)
// keeps its hue.
func paletted(img image.Image) *image.Paletted {
	b := img.Bounds()
	counts := make(map[color.RGBA]int)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	all := make([]color.RGBA, 0, len(counts))
	for c := range counts {
		all = append(all, c)
	}
	sort.Slice(all, func(i, j int) bool {
		if counts[all[i]] != counts[all[j]] {
			return counts[all[i]] > counts[all[j]]
		}
		return rgbKey(all[i]) < rgbKey(all[j])
	})
	dist := func(a, b color.RGBA) int {
		dr, dg, db := int(a.R)-int(b.R), int(a.G)-int(b.G), int(a.B)-int(b.B)
		return dr*dr + dg*dg + db*db
	}
	pal := make(color.Palette, 0, 256)
	near := make([]int, len(all)) // distance of each colour to the palette
	for i := range near {
		near[i] = math.MaxInt
	}
	add := func(c color.RGBA) {
		pal = append(pal, c)
		for i, a := range all {
			near[i] = min(near[i], dist(a, c))
		}
	}
	for i := 0; i < len(all) && i < 192; i++ {
		add(all[i])
	}
	for len(pal) < 256 && len(pal) < len(all) {
		far := 0
		for i := range all {
			if near[i] > near[far] {
				far = i
			}
		}
		add(all[far])
	}
	p := image.NewPaletted(b, pal)
	draw.Draw(p, b, img, b.Min, draw.Src)
	return p
}

func rgbKey(c color.RGBA) uint32 { return uint32(c.R)<<16 | uint32(c.G)<<8 | uint32(c.B) }
