package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestRepoConfigYAMLEqualsDefaults(t *testing.T) {
	cfg, err := Loader{File: filepath.Join("..", "config.yaml"), Environ: []string{}}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg, Default()) {
		t.Errorf("config.yaml differs from Default():\n got %+v\nwant %+v", cfg, Default())
	}
	// Every key must be documented in config.yaml.
	body, err := os.ReadFile(filepath.Join("..", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range configKeys() {
		leaf := k[strings.LastIndexByte(k, '.')+1:]
		if !strings.Contains(string(body), leaf+":") {
			t.Errorf("config.yaml does not document %s", k)
		}
	}
}

func TestLoadPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	os.WriteFile(file, []byte("politeness:\n  default_delay: 3s\n  min_delay: 1s\nfetch:\n  workers: 4\n"), 0o644)
	cfg, err := Loader{File: file, Environ: []string{"CRAWL_POLITENESS_DEFAULT_DELAY=200ms", "CRAWL_FETCH_TIMEOUT=5s"}}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Politeness.DefaultDelay != 200*time.Millisecond {
		t.Errorf("env must beat file: default_delay = %v", cfg.Politeness.DefaultDelay)
	}
	if cfg.Politeness.MinDelay != time.Second || cfg.Fetch.Workers != 4 {
		t.Errorf("file must beat default: %+v", cfg.Politeness)
	}
	if cfg.Fetch.Timeout != 5*time.Second {
		t.Errorf("env must beat default: timeout = %v", cfg.Fetch.Timeout)
	}
}

func TestLoadErrorsNameKeyAndSource(t *testing.T) {
	dir := t.TempDir()
	typo := filepath.Join(dir, "typo.yaml")
	os.WriteFile(typo, []byte("politeness:\n  defualt_delay: 3s\n"), 0o644)
	badval := filepath.Join(dir, "bad.yaml")
	os.WriteFile(badval, []byte("politeness:\n  default_delay: soon\n"), 0o644)
	badpolicy := filepath.Join(dir, "policy.yaml")
	os.WriteFile(badpolicy, []byte("politeness:\n  crawl_delay_policy: ignore\n"), 0o644)
	cases := []struct {
		name    string
		l       Loader
		want    []string
		wantKey string
	}{
		{"unknown key", Loader{File: typo, Environ: []string{}}, []string{"typo.yaml", "politeness.defualt_delay", "unknown key"}, "politeness.defualt_delay"},
		{"bad duration in file", Loader{File: badval, Environ: []string{}}, []string{"bad.yaml", "politeness.default_delay", "soon"}, "politeness.default_delay"},
		{"bad duration in env", Loader{Environ: []string{"CRAWL_POLITENESS_MAX_WAIT=forever"}}, []string{"CRAWL_POLITENESS_MAX_WAIT", "politeness.max_wait"}, "politeness.max_wait"},
		{"bad enum", Loader{File: badpolicy, Environ: []string{}}, []string{"policy.yaml", "politeness.crawl_delay_policy", "ignore"}, "politeness.crawl_delay_policy"},
		{"bad int", Loader{Environ: []string{"CRAWL_FETCH_WORKERS=many"}}, []string{"CRAWL_FETCH_WORKERS", "fetch.workers"}, "fetch.workers"},
		{"robots cache under 1 MiB", Loader{Environ: []string{"CRAWL_ROBOTS_CACHE_BYTES=65536"}}, []string{"CRAWL_ROBOTS_CACHE_BYTES", "robots.cache_bytes", "at least 1048576"}, "robots.cache_bytes"},
		{"negative path repeats", Loader{Environ: []string{"CRAWL_SCOPE_MAX_PATH_REPEATS=-1"}}, []string{"CRAWL_SCOPE_MAX_PATH_REPEATS", "scope.max_path_repeats", "must not be negative"}, "scope.max_path_repeats"},
		{"missing file", Loader{File: filepath.Join(dir, "nope.yaml"), Environ: []string{}}, []string{"nope.yaml"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.l.Load()
			if err == nil {
				t.Fatal("want error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if tc.wantKey != "" {
				var ce *Error
				if !errors.As(err, &ce) || ce.Key != tc.wantKey {
					t.Errorf("want *Error for %s, got %v", tc.wantKey, err)
				}
			}
		})
	}
}

func TestUserAgentMustCarryTokenAndContact(t *testing.T) {
	c := Default()
	if ua := c.UserAgentHeader(); !strings.Contains(ua, "crawl/") || !strings.Contains(ua, "https://") {
		t.Errorf("derived UA %q lacks token or contact", ua)
	}
	c.Agent.UserAgent = "Mozilla/5.0"
	if err := c.Validate(); err == nil {
		t.Error("a User-Agent without the token and a contact URL must be rejected")
	}
	c.Agent.UserAgent = "crawl/1 (+mailto:ops@example.org)"
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
}
