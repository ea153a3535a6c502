package demo

import (
	"html/template"
	"net/http"
	"strings"
)

// A page is one small HTML document of a demo site.
type page struct {
	title string
	text  string   // one paragraph
	links []string // hrefs, relative to the site or absolute to another demo site
	// robotsMeta is the content of a <meta name="robots"> element and
	// xRobotsTag the value of an X-Robots-Tag header; "" for none.
	robotsMeta, xRobotsTag string
	// nofollowLinks are more hrefs, each marked rel="nofollow".
	nofollowLinks []string
}

// pageTemplate renders every demo page. It is parsed once per Start.
const pageTemplate = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>{{if .RobotsMeta}}
<meta name="robots" content="{{.RobotsMeta}}">{{end}}</head>
<body><h1>{{.Title}}</h1>
<p>{{.Text}}</p>
<ul>{{range .Links}}<li><a href="{{.}}">{{.}}</a></li>{{end}}{{range .NofollowLinks}}<li><a rel="nofollow" href="{{.}}">{{.}}</a></li>{{end}}</ul>
</body></html>
`

// renderer writes pages with a parsed template.
type renderer struct{ t *template.Template }

func newRenderer() renderer {
	return renderer{t: template.Must(template.New("page").Parse(pageTemplate))}
}

func (r renderer) write(w http.ResponseWriter, status int, p page) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if p.xRobotsTag != "" {
		w.Header().Set("X-Robots-Tag", p.xRobotsTag)
	}
	w.WriteHeader(status)
	_ = r.t.Execute(w, struct {
		Title, Text, RobotsMeta string
		Links, NofollowLinks    []string
	}{p.title, p.text, p.robotsMeta, p.links, p.nofollowLinks})
}

// writeRobots answers a robots.txt request with body as plain text.
func writeRobots(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte(body))
}

// staticSite is a site whose pages are a fixed map from path (with query) to
// page, plus a robots.txt body.
type staticSite struct {
	robots string
	pages  map[string]page
	r      renderer
}

func (s staticSite) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path == "/robots.txt" {
		writeRobots(w, s.robots)
		return
	}
	s.servePage(w, req)
}

// servePage answers with the page at req's path and query, or a 404 page.
func (s staticSite) servePage(w http.ResponseWriter, req *http.Request) {
	p, ok := s.pages[req.URL.RequestURI()]
	if !ok {
		s.r.write(w, http.StatusNotFound, page{title: "Not found", text: "There is no page at " + req.URL.Path + "."})
		return
	}
	if strings.HasSuffix(req.URL.Path, ".pdf") {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write([]byte("%PDF-1.4\n% demo file\n"))
		return
	}
	s.r.write(w, http.StatusOK, p)
}
