package wacz

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/demo"
)

// replayShot, when set, is where TestReplayWebPage saves its screenshot of
// a replayed demo page (the README's docs/replay.png):
//
//	go test ./wacz -run ReplayWebPage -replay-shot ../docs/replay.png
var replayShot = flag.String("replay-shot", "", "save the screenshot of the replayed demo page here")

// replayDir holds replay.mjs, its node modules, and ReplayWeb.page's ui.js
// and sw.js (installed by .ci/run; see replay/package.json).
const replayDir = "replay"

// requireReplay returns node and Chromium, with puppeteer-core and
// ReplayWeb.page installed in replayDir. Without node or the packages the
// test skips, unless CRAWL_REQUIRE_INTEROP=1 (CI) makes it fail; without
// Chromium likewise with CRAWL_REQUIRE_BROWSER=1.
func requireReplay(t *testing.T) (node, chromium string) {
	t.Helper()
	node = requireNode(t, "run `npm ci` and `npm run fetch-replay` in wacz/replay",
		filepath.Join(replayDir, "node_modules/puppeteer-core/package.json"), filepath.Join(replayDir, "ui.js"), filepath.Join(replayDir, "sw.js"))
	name := os.Getenv("CRAWL_CHROMIUM")
	if name == "" {
		name = "chromium"
	}
	chromium, err := exec.LookPath(name)
	if err != nil {
		msg := fmt.Sprintf("no %s for the ReplayWeb.page check: install Debian's chromium or set CRAWL_CHROMIUM", name)
		if os.Getenv("CRAWL_REQUIRE_BROWSER") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node, chromium
}

// replayServer serves ReplayWeb.page and the given WACZ files on 127.0.0.1:
// /NAME.wacz (with range requests, as the WACZ specification's "Partial
// Requests" asks), and /view/NAME?url=U (a page embedding <replay-web-page>
// for the archived URL U, in the given embed mode).
func replayServer(t *testing.T, waczs map[string]string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	for _, f := range []string{"ui.js", "sw.js"} {
		mux.HandleFunc("/"+f, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			http.ServeFile(w, r, filepath.Join(replayDir, f))
		})
	}
	for name, path := range waczs {
		mux.HandleFunc("/"+name+".wacz", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/wacz")
			http.ServeFile(w, r, path)
		})
	}
	mux.HandleFunc("/view/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/view/")
		embed := r.URL.Query().Get("embed")
		if embed == "" {
			embed = "replayonly"
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><meta charset="utf-8"><script src="/ui.js"></script></head>
<body style="margin:0"><replay-web-page style="display:block;width:100vw;height:100vh" source="/%s.wacz" url="%s" embed="%s" replayBase="/"></replay-web-page></body></html>`,
			html.EscapeString(name), html.EscapeString(r.URL.Query().Get("url")), html.EscapeString(embed))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// replayed is what replay.mjs read from one replayed page.
type replayed struct {
	Archived, FrameURL, Text, HTML, Title, Background string
	Images                                            []struct {
		Src   string
		Width int
	}
	Styles []readStyle
}

// readStyle is one computed style replay.mjs read: its value and, for a
// url("...") value, the natural width of that image (0 when it failed to
// load).
type readStyle struct {
	Selector, Property, Value string
	ImageWidth                int
}

// styleProbe names a computed style for replay.mjs to read: the property
// of the first element the selector matches.
type styleProbe struct {
	Selector string `json:"selector"`
	Property string `json:"property"`
}

// replayItem is one page for replay.mjs to replay: Page embeds the replay
// of Archived, or with Live is the original page, read directly.
type replayItem struct {
	Page       string       `json:"page"`
	Archived   string       `json:"archived"`
	Screenshot string       `json:"screenshot,omitempty"`
	Live       bool         `json:"live,omitempty"`
	Styles     []styleProbe `json:"styles,omitempty"`
}

// runReplay replays items with replay.mjs and returns what each showed.
func runReplay(t *testing.T, node, chromium string, items []replayItem) []replayed {
	t.Helper()
	spec := filepath.Join(t.TempDir(), "spec.json")
	b, _ := json.Marshal(map[string]any{"pages": items})
	if err := os.WriteFile(spec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var res struct {
		Results []replayed
		Errors  []string
	}
	runNodeJSON(t, exec.CommandContext(ctx, node, filepath.Join(replayDir, "replay.mjs"), chromium, spec), &res)
	for _, e := range res.Errors {
		t.Errorf("replay: %s", e)
	}
	if len(res.Results) != len(items) {
		t.FailNow()
	}
	return res.Results
}

// TestReplayWebPage opens WACZ files this package wrote in ReplayWeb.page
// (webrecorder's replay tool, as published on npm) in headless Chromium,
// served from 127.0.0.1 with nothing else reachable: a crawled page
// replays with its text, its stylesheet applied and its image loaded,
// none of it from the live site; the page robots.txt disallowed is not in
// the archive, and a replayed demo page is saved as a screenshot.
func TestReplayWebPage(t *testing.T) {
	node, chromium := requireReplay(t)
	dir, site := crawledSite(t)
	res, err := Write(dir, Options{Name: "replay"})
	if err != nil {
		t.Fatal(err)
	}
	demoWACZ := demoCrawlWACZ(t)
	srv := replayServer(t, map[string]string{"site": res.Path, "demo": demoWACZ.path})
	view := func(name, u, embed string) string {
		return srv.URL + "/view/" + name + "?" + url.Values{"url": {u}, "embed": {embed}}.Encode()
	}
	shot := *replayShot
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "replay.png")
	}
	hitsBefore := siteHits.Load()
	got := runReplay(t, node, chromium, []replayItem{
		{Page: view("site", site+"/", "replayonly"), Archived: site + "/"},
		{Page: view("site", site+"/private/secret", "replayonly"), Archived: site + "/private/secret"},
		{Page: view("demo", demoWACZ.page, "default"), Archived: demoWACZ.page, Screenshot: shot},
	})
	home, secret, demoPage := got[0], got[1], got[2]
	if !strings.Contains(home.Text, homeText) || !strings.Contains(home.HTML, `id="logo"`) {
		t.Errorf("replayed home page lacks %q or its image; its DOM:\n%s", homeText, home.HTML)
	}
	if !strings.Contains(home.FrameURL, "mp_/") {
		t.Errorf("frame %s is not a replay frame", home.FrameURL)
	}
	if home.Background != "rgb(250, 240, 200)" {
		t.Errorf("replayed page background %q: the archived stylesheet was not applied", home.Background)
	}
	if len(home.Images) != 1 || home.Images[0].Width != 40 {
		t.Errorf("replayed images %+v, want the 40 px wide logo from the archive", home.Images)
	}
	if strings.Contains(secret.Text, secretText) || !strings.Contains(strings.ToLower(secret.Text), "not found") {
		t.Errorf("the page robots.txt disallowed replays as:\n%s", secret.Text)
	}
	if !strings.Contains(demoPage.Text, demoWACZ.text) {
		t.Errorf("replayed demo page lacks %q; it shows:\n%s", demoWACZ.text, demoPage.Text)
	}
	if n := siteHits.Load() - hitsBefore; n != 0 {
		t.Errorf("the live site got %d requests during the replay", n)
	}
	if st, err := os.Stat(shot); err != nil || st.Size() == 0 {
		t.Errorf("no screenshot: %v", err)
	}
}

// demoWACZ is the WACZ of a crawl of one demo site.
type demoWACZ struct {
	path, page, text string
}

// demoCrawlWACZ crawls the demo's "wildcards" site (a shop whose robots.txt
// keeps the crawler out of most URLs with a query) and writes its WACZ;
// page is the shop's archived page and text a phrase on it.
func demoCrawlWACZ(t *testing.T) demoWACZ {
	t.Helper()
	web, err := demo.Start(t.Context(), time.Now(), "crawl")
	if err != nil {
		t.Fatal(err)
	}
	defer web.Close()
	var seed string
	for _, s := range web.Sites() {
		if s.Name == "wildcards" {
			seed = s.Seed
		}
	}
	out := filepath.Join(t.TempDir(), "demo-out")
	if err := runCrawl(out, seed); err != nil {
		t.Fatal(err)
	}
	res, err := Write(out, Options{Title: "crawl demo: wildcards"})
	if err != nil {
		t.Fatal(err)
	}
	_, files := openWACZ(t, res.Path)
	index := string(readEntry(t, files[IndexPath]))
	if strings.Contains(index, "page=2") || !strings.Contains(index, "page=1") {
		t.Errorf("the demo's index should hold shoes?page=1 (allowed) and not page=2 (disallowed):\n%s", index)
	}
	return demoWACZ{path: res.Path, page: seed + "shop/", text: "Shoes, sorted and paged."}
}
