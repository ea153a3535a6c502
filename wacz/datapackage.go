package wacz

import (
	"encoding/json"
	"fmt"
	"time"
)

// The manifest files at the root of a WACZ (WACZ 1.1.1, "datapackage.json"
// and "datapackage-digest.json").
const (
	DataPackagePath       = "datapackage.json"
	DataPackageDigestPath = "datapackage-digest.json"
)

// Version is the WACZ version written (WACZ 1.1.1).
const Version = "1.1.1"

// DataPackage is the JSON of datapackage.json as Write writes it.
type DataPackage struct {
	Profile      string     `json:"profile"`
	WACZVersion  string     `json:"wacz_version"`
	Title        string     `json:"title"`
	Description  string     `json:"description,omitempty"`
	Created      string     `json:"created"`
	Software     string     `json:"software"`
	MainPageURL  string     `json:"mainPageUrl,omitempty"`
	MainPageDate string     `json:"mainPageDate,omitempty"`
	Resources    []Resource `json:"resources"`
}

// DataPackageDigest is the JSON of datapackage-digest.json.
type DataPackageDigest struct {
	Path string `json:"path"`
	Hash string `json:"hash"`
}

// writeDataPackage writes the two manifest files from the resources listed
// so far and the pages written.
func (p *packer) writeDataPackage(opts Options, pages pageList) error {
	dp := DataPackage{
		Profile:     "data-package",
		WACZVersion: Version,
		Title:       opts.Title,
		Description: describe(pages),
		Created:     opts.Created.Format(time.RFC3339),
		Software:    opts.Software,
		Resources:   p.resources,
	}
	if pages.main != nil {
		dp.MainPageURL, dp.MainPageDate = pages.main.URL, pages.main.TS
	}
	e, err := p.writeJSON(DataPackagePath, dp)
	if err != nil {
		return err
	}
	_, err = p.writeJSON(DataPackageDigestPath, DataPackageDigest{Path: DataPackagePath, Hash: e.hash()})
	return err
}

// describe is the datapackage's description: what the crawl fetched.
func describe(pages pageList) string {
	if pages.pages == 0 {
		return "A crawl with no HTML page."
	}
	return fmt.Sprintf("A crawl of %d HTML pages (%d seeds), fetched from %s to %s.", pages.pages, pages.seeds, pages.first, pages.last)
}

// writeJSON writes v, indented, as the entry name (not listed as a resource).
func (p *packer) writeJSON(name string, v any) (*entry, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("wacz: %s: %w", name, err)
	}
	e, err := p.create(name, false)
	if err != nil {
		return nil, err
	}
	if _, err := e.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("wacz: %s: %w", name, err)
	}
	return e, nil
}
