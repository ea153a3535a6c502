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

// durationKeys lists every config key of type time.Duration.
func durationKeys(t *testing.T) []string {
	t.Helper()
	var keys []string
	for _, k := range configKeys() {
		if keyTypes()[k] == reflect.TypeOf(time.Duration(0)) {
			keys = append(keys, k)
		}
	}
	if len(keys) < 10 {
		t.Fatalf("found only %d duration keys: %v", len(keys), keys)
	}
	return keys
}

// yamlFor writes key: value as nested YAML.
func yamlFor(key, value string) string {
	parts := strings.Split(key, ".")
	var b strings.Builder
	for i, p := range parts {
		b.WriteString(strings.Repeat("  ", i) + p + ":")
		if i == len(parts)-1 {
			b.WriteString(" " + value)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// wantKeyError asserts that err holds a *Error for key whose message
// mentions every string in want.
func wantKeyError(t *testing.T, err error, key string, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: want an error", key)
	}
	found := false
	for _, e := range unwrapAll(err) {
		var ce *Error
		if errors.As(e, &ce) && ce.Key == key {
			found = true
			for _, w := range want {
				if !strings.Contains(ce.Error(), w) {
					t.Errorf("%s: error %q does not mention %q", key, ce, w)
				}
			}
		}
	}
	if !found {
		t.Errorf("want a *Error for %s, got %v", key, err)
	}
}

func TestLoadDurationRejectsBareNumber(t *testing.T) {
	dir := t.TempDir()
	for _, key := range durationKeys(t) {
		for _, val := range []string{"10", "2.5", "0", "-3", `"10"`, "1e3"} {
			t.Run(key+"/file "+val, func(t *testing.T) {
				file := filepath.Join(dir, "c.yaml")
				if err := os.WriteFile(file, []byte(yamlFor(key, val)), 0o644); err != nil {
					t.Fatal(err)
				}
				_, err := Loader{File: file, Environ: []string{}}.Load()
				wantKeyError(t, err, key, file, "bare number", "s\" for seconds")
			})
		}
		for _, val := range []string{"10", " 10 ", "0.5", "+7"} {
			t.Run(key+"/env "+val, func(t *testing.T) {
				_, err := Loader{Environ: []string{envName(key) + "=" + val}}.Load()
				wantKeyError(t, err, key, envName(key), "bare number")
			})
		}
	}
}

func TestLoadDurationWithUnitAccepted(t *testing.T) {
	dir := t.TempDir()
	for _, key := range durationKeys(t) {
		t.Run(key, func(t *testing.T) {
			file := filepath.Join(dir, "c.yaml")
			text := yamlFor(key, "10s")
			if key == "politeness.max_wait" {
				// max_wait must stay above default_delay 10s + margin.
				text += "  default_delay: 5s\n"
			}
			if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := Loader{File: file, Environ: []string{}}.Load()
			if err != nil {
				t.Fatal(err)
			}
			if got := flatten(cfg)[key]; got != 10*time.Second {
				t.Errorf("%s = %v, want 10s", key, got)
			}
			cfg, err = Loader{Environ: []string{envName(key) + "=1m30s"}}.Load()
			if err != nil {
				t.Fatal(err)
			}
			if got := flatten(cfg)[key]; got != 90*time.Second {
				t.Errorf("%s from env = %v, want 1m30s", key, got)
			}
		})
	}
}

func TestLoadEnvListNeverSplitAtCommas(t *testing.T) {
	cases := []struct {
		name, val string
		want      []string
	}{
		{"regex with a comma", `/cal/[0-9]{1,4}$`, []string{`/cal/[0-9]{1,4}$`}},
		{"regex with commas and spaces", `/a b/(x|y){2,3}, then /c d`, []string{`/a b/(x|y){2,3}, then /c d`}},
		{"one per line", "/cal/[0-9]{1,4}$\n\n  /tag/a, b  \r\n", []string{`/cal/[0-9]{1,4}$`, `/tag/a, b`}},
		{"JSON array", `["/cal/[0-9]{1,4}$", " lead space", "x,y"]`, []string{`/cal/[0-9]{1,4}$`, " lead space", "x,y"}},
		{"empty JSON array", `[]`, []string{}},
		{"empty", ``, []string{}},
	}
	for _, key := range []string{"scope.include", "scope.exclude"} {
		for _, tc := range cases {
			t.Run(key+"/"+tc.name, func(t *testing.T) {
				cfg, err := Loader{Environ: []string{envName(key) + "=" + tc.val}}.Load()
				if err != nil {
					t.Fatal(err)
				}
				if got := flatten(cfg)[key]; !reflect.DeepEqual(got, tc.want) {
					t.Errorf("%s = %q, want %q", key, got, tc.want)
				}
			})
		}
	}
}

func TestLoadEnvListBadJSON(t *testing.T) {
	for _, val := range []string{`["/a"`, `[1, 2]`, `["a"] trailing`} {
		_, err := Loader{Environ: []string{"CRAWL_SCOPE_EXCLUDE=" + val}}.Load()
		wantKeyError(t, err, "scope.exclude", "CRAWL_SCOPE_EXCLUDE", "JSON array")
	}
}

func TestLoadFileListScalarIsOneItem(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(file, []byte("scope:\n  exclude: '/cal/[0-9]{1,4}$'\n  include:\n    - 'a{1,2}'\n    - b\n"), 0o644)
	cfg, err := Loader{File: file, Environ: []string{}}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{`/cal/[0-9]{1,4}$`}; !reflect.DeepEqual(cfg.Scope.Exclude, want) {
		t.Errorf("exclude = %q, want %q", cfg.Scope.Exclude, want)
	}
	if want := []string{"a{1,2}", "b"}; !reflect.DeepEqual(cfg.Scope.Include, want) {
		t.Errorf("include = %q, want %q", cfg.Scope.Include, want)
	}
}

// TestLoadRejectsWhatTheSchedulerRefuses: every value the scheduler would
// refuse at start (scheduler.Config.Validate) or silently replace, and
// every value crawler.Run refuses, is a config error naming the key and the
// file, before any crawl starts.
func TestLoadRejectsWhatTheSchedulerRefuses(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, yaml, key, want string
	}{
		{"max_wait zero", "politeness:\n  max_wait: 0s\n", "politeness.max_wait", "positive"},
		{"max_wait negative", "politeness:\n  max_wait: -1s\n", "politeness.max_wait", "negative"},
		// A floor above max_wait defers every host after its first request.
		{"min_delay above max_wait", "politeness:\n  min_delay: 2h\n", "politeness.min_delay", "above politeness.max_wait"},
		{"max_wait below default_delay", "politeness:\n  max_wait: 3s\n", "politeness.default_delay", "above politeness.max_wait 3s"},
		{"backoff_max below base", "politeness:\n  backoff_base: 1m\n  backoff_max: 10s\n", "politeness.backoff_max", "below politeness.backoff_base"},
		{"backoff_max below default base", "politeness:\n  backoff_max: 1s\n", "politeness.backoff_max", "below"},
		{"negative default_delay", "politeness:\n  default_delay: -1s\n", "politeness.default_delay", "negative"},
		{"negative min_delay", "politeness:\n  min_delay: -1s\n", "politeness.min_delay", "negative"},
		{"negative margin", "politeness:\n  margin: -1ms\n", "politeness.margin", "negative"},
		{"negative max_crawl_delay", "politeness:\n  max_crawl_delay: -1s\n", "politeness.max_crawl_delay", "negative"},
		{"negative backoff_base", "politeness:\n  backoff_base: -1s\n", "politeness.backoff_base", "negative"},
		{"negative retry_after_max", "politeness:\n  retry_after_max: -1s\n", "politeness.retry_after_max", "negative"},
		{"negative fetch_time_factor", "politeness:\n  fetch_time_factor: -1\n", "politeness.fetch_time_factor", "negative"},
		{"per_host zero", "politeness:\n  per_host: 0\n", "politeness.per_host", "at least 1"},
		{"max_failures zero", "politeness:\n  max_failures: 0\n", "politeness.max_failures", "at least 1"},
		{"workers zero", "fetch:\n  workers: 0\n", "fetch.workers", "at least 1"},
		{"bad policy", "politeness:\n  crawl_delay_policy: never\n", "politeness.crawl_delay_policy", "never"},
		{"negative max_depth", "scope:\n  max_depth: -1\n", "scope.max_depth", "negative"},
		{"negative max_pages", "scope:\n  max_pages: -1\n", "scope.max_pages", "negative"},
		{"negative max_pages_per_host", "scope:\n  max_pages_per_host: -1\n", "scope.max_pages_per_host", "negative"},
		{"bad include pattern", "scope:\n  include: ['a(']\n", "scope.include[0]", "missing"},
		{"bad exclude pattern", "scope:\n  exclude: [ok, 'b[']\n", "scope.exclude[1]", "missing"},
		{"frontier url not redis", "frontier:\n  url: http://127.0.0.1:6379/0\n", "frontier.url", "not redis or rediss"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, "c.yaml")
			os.WriteFile(file, []byte(tc.yaml), 0o644)
			_, err := Loader{File: file, Environ: []string{}}.Load()
			wantKeyError(t, err, tc.key, file, tc.want)
		})
	}
}

// TestLoadSectionWithNothingSet: config.yaml says it "changes nothing until
// you edit it"; commenting out every key of a section (seeds: and
// frontier: have one each) leaves those keys at their defaults instead of
// making the section an "unknown key". A section given a value instead of
// keys is an error saying so.
func TestLoadSectionWithNothingSet(t *testing.T) {
	repo, err := os.ReadFile(filepath.Join("..", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(string(repo), "\n  sitemaps: false", "\n  # sitemaps: false", 1)
	body = strings.Replace(body, "\n  url: \"\"", "\n  # url: \"\"", 1)
	if body == string(repo) {
		t.Fatal("config.yaml no longer has the seeds.sitemaps and frontier.url lines this test comments out")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	for _, text := range []string{body, "scope:\nfetch:\n"} {
		os.WriteFile(file, []byte(text), 0o644)
		cfg, err := Loader{File: file, Environ: []string{}}.Load()
		if err != nil {
			t.Fatalf("sections left empty: %v", err)
		}
		if !reflect.DeepEqual(cfg, Default()) {
			t.Errorf("config differs from the defaults:\n%+v", cfg)
		}
	}
	os.WriteFile(file, []byte("scope: 5\n"), 0o644)
	_, err = Loader{File: file, Environ: []string{}}.Load()
	if err == nil || !strings.Contains(err.Error(), "scope: is a section") {
		t.Errorf("scope: 5 gave %v, want an error saying scope is a section", err)
	}
}
