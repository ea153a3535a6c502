package wacz

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/internal/themedsite"
)

// themedStyles are the computed styles of testdata/themedsite's home page
// that its theme gives it: the body's colour and the banner's image from
// basic.css (which theme.css @imports), the side bar's from layout.css
// (@imported too), a note's from the page's <style>, a box's from its
// style attribute, and an image from extra.css, a windows-1252 sheet the
// <style> @imports and the site sends in gzip.
var themedStyles = []styleProbe{
	{"body", "backgroundColor"},
	{"#banner", "backgroundImage"},
	{"#sidebar", "backgroundImage"},
	{"#note", "backgroundImage"},
	{"#boxed", "backgroundImage"},
	{"#caf", "backgroundImage"},
}

// TestReplayThemedSite crawls testdata/themedsite with page requisites,
// writes its WACZ and opens the home page in ReplayWeb.page in headless
// Chromium, and the original page in the same browser: every style the
// theme gives the page (themedStyles) is the same in the replay, each
// image the CSS names loads there from the archive at the original's
// size, and the live site gets no request during the replay.
func TestReplayThemedSite(t *testing.T) {
	node, chromium := requireReplay(t)
	site := themedsite.Start(t)
	out := filepath.Join(t.TempDir(), "themed-out")
	if err := runCrawl(out, site.URL+"/"); err != nil {
		t.Fatal(err)
	}
	res, err := Write(out, Options{Name: "themed"})
	if err != nil {
		t.Fatal(err)
	}
	home := site.URL + "/"
	orig := runReplay(t, node, chromium, []replayItem{{Page: home, Archived: home, Live: true, Styles: themedStyles}})[0]
	srv := replayServer(t, map[string]string{"themed": res.Path})
	before := len(site.Requests())
	view := srv.URL + "/view/themed?" + url.Values{"url": {home}}.Encode()
	rep := runReplay(t, node, chromium, []replayItem{{Page: view, Archived: home, Styles: themedStyles}})[0]
	if n := len(site.Requests()) - before; n != 0 {
		t.Errorf("the live site got %d requests during the replay", n)
	}
	if len(orig.Styles) != len(themedStyles) || len(rep.Styles) != len(themedStyles) {
		t.Fatalf("styles read: original %+v, replay %+v", orig.Styles, rep.Styles)
	}
	for i, o := range orig.Styles {
		r := rep.Styles[i]
		img, isURL := strings.CutPrefix(o.Value, `url("`)
		switch {
		case !isURL && r.Value != o.Value:
			t.Errorf("%s %s replays as %q, the original is %q", o.Selector, o.Property, r.Value, o.Value)
		case !isURL:
		case o.ImageWidth == 0:
			t.Errorf("%s %s: the original's image %s did not load", o.Selector, o.Property, o.Value)
		case !strings.Contains(r.Value, strings.TrimSuffix(img, `")`)) || r.ImageWidth != o.ImageWidth:
			t.Errorf("%s %s replays as %q (an image %d px wide), the original is %q (%d px)",
				o.Selector, o.Property, r.Value, r.ImageWidth, o.Value, o.ImageWidth)
		}
	}
	for i, o := range orig.Styles {
		t.Logf("%s %s: original %s (%d px), replay %s (%d px)", o.Selector, o.Property, o.Value, o.ImageWidth, rep.Styles[i].Value, rep.Styles[i].ImageWidth)
	}
	if orig.Styles[0].Value != "rgb(240, 236, 220)" {
		t.Errorf("the original page's body is %q: the theme did not apply", orig.Styles[0].Value)
	}
}
