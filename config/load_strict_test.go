package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// loadFile writes body to a file named name in a temporary directory and
// loads it with an empty environment.
func loadFile(t *testing.T, name, body string) (Config, string, error) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Loader{File: file, Environ: []string{}}.Load()
	return cfg, file, err
}

// wantOneLine asserts that err is one line, every error joined in it is a
// *Error, and one of them is for key from source.
func wantOneLine(t *testing.T, err error, key, source string, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s from %s: want an error", key, source)
	}
	wantKeyError(t, err, key, append([]string{source}, want...)...)
	for _, e := range unwrapAll(err) {
		var ce *Error
		if !errors.As(e, &ce) {
			t.Errorf("%s from %s: %q is not a *Error", key, source, e)
		}
		if strings.ContainsAny(e.Error(), "\r\n") {
			t.Errorf("%s from %s: error is not one line: %q", key, source, e)
		}
	}
}

func TestLoadFloatKeysRefuseNonFinite(t *testing.T) {
	key := "politeness.fetch_time_factor"
	for _, val := range []string{".nan", ".inf", "-.inf", ".NaN", "+.Inf"} {
		t.Run("file "+val, func(t *testing.T) {
			_, file, err := loadFile(t, "c.yaml", yamlFor(key, val))
			wantOneLine(t, err, key, file, "finite")
		})
	}
	for _, val := range []string{"NaN", "Inf", "-Inf", "+inf", "infinity", " nan "} {
		t.Run("env "+val, func(t *testing.T) {
			_, err := Loader{Environ: []string{envName(key) + "=" + val}}.Load()
			wantOneLine(t, err, key, envName(key), "finite")
		})
	}
	c := Default()
	for _, f := range []float64{nan(), inf(1), inf(-1)} {
		c.Politeness.FetchTimeFactor = f
		if err := c.Validate(); err == nil {
			t.Errorf("Validate accepted fetch_time_factor %v", f)
		}
	}
}

func nan() float64 { z := 0.0; return z / z }

func inf(sign float64) float64 { z := 0.0; return sign / z }

func TestLoadFloatKeysAcceptNumbers(t *testing.T) {
	key := "politeness.fetch_time_factor"
	for val, want := range map[string]float64{"3": 3, "0.5": 0.5, "1e1": 10, "0": 0} {
		cfg, _, err := loadFile(t, "c.yaml", yamlFor(key, val))
		if err != nil {
			t.Fatalf("file %s: %v", val, err)
		}
		if cfg.Politeness.FetchTimeFactor != want {
			t.Errorf("file %s: got %v, want %v", val, cfg.Politeness.FetchTimeFactor, want)
		}
		cfg, err = Loader{Environ: []string{envName(key) + "= " + val + " "}}.Load()
		if err != nil {
			t.Fatalf("env %s: %v", val, err)
		}
		if cfg.Politeness.FetchTimeFactor != want {
			t.Errorf("env %s: got %v, want %v", val, cfg.Politeness.FetchTimeFactor, want)
		}
	}
	_, file, err := loadFile(t, "c.yaml", yamlFor(key, "true"))
	wantOneLine(t, err, key, file, "true")
}

func TestLoadIntegerKeysAreStrict(t *testing.T) {
	cases := []struct{ key, val, want string }{
		{"fetch.workers", "1.5", "whole number"},
		{"politeness.per_host", "2.7", "whole number"},
		{"fetch.workers", "true", "whole number"},
		{"fetch.workers", "1e3", "whole number"},
		{"fetch.workers", "2.0", "whole number"},
		{"fetch.workers", "99999999999999999999", "out of range"},
		{"fetch.max_body", "99999999999999999999", "out of range"},
		{"fetch.max_body", "18446744073709551615", "out of range"},
		{"fetch.workers", "[1]", "whole number"},
		{"scope.max_pages", ".inf", "whole number"},
	}
	for _, tc := range cases {
		t.Run("file "+tc.key+" "+tc.val, func(t *testing.T) {
			_, file, err := loadFile(t, "c.yaml", yamlFor(tc.key, tc.val))
			wantOneLine(t, err, tc.key, file, tc.want)
		})
	}
	envCases := []struct{ key, val, want string }{
		{"politeness.per_host", "1.5", "whole number"},
		{"fetch.workers", "1e3", "whole number"},
		{"fetch.workers", "true", "whole number"},
		{"fetch.workers", "0x10", "whole number"},
		{"fetch.workers", "", "whole number"},
		{"fetch.workers", "99999999999999999999", "out of range"},
		{"fetch.max_body", "-99999999999999999999", "out of range"},
	}
	for _, tc := range envCases {
		t.Run("env "+tc.key+" "+tc.val, func(t *testing.T) {
			_, err := Loader{Environ: []string{envName(tc.key) + "=" + tc.val}}.Load()
			wantOneLine(t, err, tc.key, envName(tc.key), tc.want)
		})
	}
	cfg, err := Loader{Environ: []string{"CRAWL_FETCH_WORKERS= 7 ", "CRAWL_POLITENESS_PER_HOST=+2", "CRAWL_FETCH_MAX_BODY=9223372036854775807"}}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Fetch.Workers != 7 || cfg.Politeness.PerHost != 2 || cfg.Fetch.MaxBody != 1<<63-1 {
		t.Errorf("workers %d per_host %d max_body %d", cfg.Fetch.Workers, cfg.Politeness.PerHost, cfg.Fetch.MaxBody)
	}
	cfg, _, err = loadFile(t, "c.yaml", "fetch:\n  workers: 3\n  max_body: 0x100000\n")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Fetch.Workers != 3 || cfg.Fetch.MaxBody != 1<<20 {
		t.Errorf("workers %d max_body %d", cfg.Fetch.Workers, cfg.Fetch.MaxBody)
	}
	// A quoted whole number is read as the environment's is; a key with
	// nothing after it keeps its default.
	cfg, _, err = loadFile(t, "c.yaml", "fetch:\n  workers: \" 5\"\n  max_body:\n")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Fetch.Workers != 5 || cfg.Fetch.MaxBody != Default().Fetch.MaxBody {
		t.Errorf("workers %d max_body %d", cfg.Fetch.Workers, cfg.Fetch.MaxBody)
	}
}

func TestLoadBoolKeysAreStrict(t *testing.T) {
	key := "archive.dedupe"
	for _, val := range []string{"1", "0.5", `"maybe"`, "[true]"} {
		_, file, err := loadFile(t, "c.yaml", yamlFor(key, val))
		wantOneLine(t, err, key, file, "true or false")
	}
	_, err := Loader{Environ: []string{envName(key) + "=yes please"}}.Load()
	wantOneLine(t, err, key, envName(key), "true or false")
	cfg, err := Loader{Environ: []string{envName(key) + "= false "}}.Load()
	if err != nil || cfg.Archive.Dedupe {
		t.Errorf("dedupe %v, err %v", cfg.Archive.Dedupe, err)
	}
}

// TestLoadDurationSurroundingSpacesTrimmed: white space around a duration
// is trimmed wherever it comes from, as checkDuration trims it, so a value
// it accepts is the value the crawl uses.
func TestLoadDurationSurroundingSpacesTrimmed(t *testing.T) {
	key := "politeness.default_delay"
	cfg, err := Loader{Environ: []string{envName(key) + "= 200ms\t"}}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Politeness.DefaultDelay != 200*time.Millisecond {
		t.Errorf("env: %v", cfg.Politeness.DefaultDelay)
	}
	cfg, _, err = loadFile(t, "c.yaml", yamlFor(key, `" 2s "`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Politeness.DefaultDelay != 2*time.Second {
		t.Errorf("file: %v", cfg.Politeness.DefaultDelay)
	}
}

// TestLoadEveryKeyOddValues walks every key with odd values of each kind,
// from a file and from the environment: a value is either used or refused
// with one line per error, each a *Error, one naming the key and where
// the value came from. Nothing reaches the decoder that it could refuse.
func TestLoadEveryKeyOddValues(t *testing.T) {
	t.Parallel()
	fileVals := []string{"1.5", "true", "1e3", "99999999999999999999", ".nan", ".inf", `" 2s"`, `""`, `"x"`,
		"-1", "0", "[a, b]", "{}", "[]", "", "'\\r'", "\"a\\r\\nb\"", "2h", `"7"`, "0x10"}
	envVals := []string{"1.5", "true", "1e3", "99999999999999999999", "NaN", "Inf", " 2s", "", "x", "-1", "0",
		"[a]", `["a"`, "a\r\nb", "2h", " 7 ", "0x10", "{}"}
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	for _, key := range configKeys() {
		for _, val := range fileVals {
			if err := os.WriteFile(file, []byte(yamlFor(key, val)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Loader{File: file, Environ: []string{}}.Load()
			checkOddValueError(t, err, key, file, "file "+val)
		}
		for _, val := range envVals {
			_, err := Loader{Environ: []string{envName(key) + "=" + val}}.Load()
			checkOddValueError(t, err, key, "environment "+envName(key), "env "+val)
		}
	}
}

// checkOddValueError asserts err, if any, is one line per error, each a
// *Error, one of which names key and source (or, for a check across
// two keys, names key in its reason).
func checkOddValueError(t *testing.T, err error, key, source, what string) {
	t.Helper()
	if err == nil {
		return
	}
	named := false
	for _, e := range unwrapAll(err) {
		var ce *Error
		if !errors.As(e, &ce) {
			t.Errorf("%s %s: %q is not a *Error", key, what, e)
			continue
		}
		if strings.ContainsAny(e.Error(), "\r\n") {
			t.Errorf("%s %s: error is not one line: %q", key, what, e)
		}
		base, _, _ := strings.Cut(ce.Key, "[")
		if base == key && ce.Source == source || strings.Contains(ce.Reason, key) {
			named = true
		}
	}
	if !named {
		t.Errorf("%s %s: no error names the key and %s: %v", key, what, source, err)
	}
}

// TestLoadFileIsYAMLWhateverItsName: --config is read as YAML whatever the
// file is called; JSON, being YAML, is read too.
func TestLoadFileIsYAMLWhateverItsName(t *testing.T) {
	for _, name := range []string{"my.conf", "my.cfg", "my.properties", "my.toml", "my.yml", "noext"} {
		cfg, _, err := loadFile(t, name, "fetch:\n  workers: 3\n")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cfg.Fetch.Workers != 3 {
			t.Errorf("%s: workers %d", name, cfg.Fetch.Workers)
		}
	}
	cfg, _, err := loadFile(t, "my.json", `{"fetch": {"workers": 4}, "politeness": {"default_delay": "2s"}}`)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Fetch.Workers != 4 || cfg.Politeness.DefaultDelay != 2*time.Second {
		t.Errorf("json: workers %d delay %v", cfg.Fetch.Workers, cfg.Politeness.DefaultDelay)
	}
	_, file, err := loadFile(t, "my.toml", "[fetch]\nworkers = 3\n")
	if err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("TOML is not YAML: want an error naming %s, got %v", file, err)
	}
}

func TestLoadUserAgentRefusesControlBytes(t *testing.T) {
	key := "agent.user_agent"
	for _, ua := range []string{"crawl/1 (+http://x)\r\nX-Evil: 1", "crawl/1 (+http://x)\n", "crawl/1\t(+http://x)", "crawl/1 (+http://x)\x00", "crawl/1 (+http://x)\x7f", "crawl/1 (+http://x)\x1b[31m"} {
		t.Run(ua, func(t *testing.T) {
			_, err := Loader{Environ: []string{envName(key) + "=" + ua}}.Load()
			wantOneLine(t, err, key, envName(key), "control")
			c := Default()
			c.Agent.UserAgent = ua
			if err := c.Validate(); err == nil {
				t.Error("Validate accepted it")
			}
		})
	}
	_, file, err := loadFile(t, "c.yaml", "agent:\n  user_agent: \"crawl/1 (+http://x)\\r\\nX-Evil: 1\"\n")
	wantOneLine(t, err, key, file, "control")
	cfg, err := Loader{Environ: []string{envName(key) + "=crawl/1 (+mailto:ops@example.org; bücher)"}}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cfg.UserAgentHeader(), "bücher") {
		t.Errorf("UA %q", cfg.UserAgentHeader())
	}
}

func TestLoadUnknownEnvironmentVariable(t *testing.T) {
	cases := []struct{ name, suggest string }{
		{"CRAWL_POLITENESS_DEFAULT_DELAYS", "CRAWL_POLITENESS_DEFAULT_DELAY"},
		{"CRAWL_SCOPE_EXCLUDES", "CRAWL_SCOPE_EXCLUDE"},
		{"CRAWL_FETCH_WORKER", "CRAWL_FETCH_WORKERS"},
		{"CRAWL_POLITENESS", ""},
		{"CRAWL_", ""},
		{"CRAWL_ZZZZZZZZZZZZZZZZZZ", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Loader{Environ: []string{tc.name + "=1s"}}.Load()
			wantOneLine(t, err, tc.name, "environment", "no such key")
			if tc.suggest != "" && !strings.Contains(err.Error(), tc.suggest) {
				t.Errorf("%v does not suggest %s", err, tc.suggest)
			}
			if tc.suggest == "" && strings.Contains(err.Error(), "did you mean") {
				t.Errorf("%v suggests a key far from %s", err, tc.name)
			}
		})
	}
	// Variables the tests and CI read, and ones without the CRAWL_ prefix,
	// are not config keys and are not refused.
	env := append(NonConfigEnv(), "CRAWLER_X=1", "crawl_fetch_workers=x", "HOME=/root")
	for i, name := range env {
		if !strings.Contains(name, "=") {
			env[i] = name + "=1"
		}
	}
	if _, err := (Loader{Environ: env}).Load(); err != nil {
		t.Errorf("Load(%q): %v", env, err)
	}
	for _, name := range []string{"CRAWL_REQUIRE_INTEROP", "CRAWL_REQUIRE_BROWSER", "CRAWL_CHROMIUM", "CRAWL_REQUIRE_REDIS", "CRAWL_TEST_REDIS", "CRAWL_TEST_REDIS_CLUSTER", "CRAWL_TEST_REDIS_SERVER"} {
		found := false
		for _, n := range NonConfigEnv() {
			found = found || n == name
		}
		if !found {
			t.Errorf("NonConfigEnv lacks %s, which the tests read", name)
		}
	}
}

func TestLoadFileParseErrorIsOneLine(t *testing.T) {
	_, file, err := loadFile(t, "dup.yaml", "fetch:\n  workers: 1\n  workers: 2\n")
	if err == nil || !strings.Contains(err.Error(), file) || strings.ContainsAny(err.Error(), "\r\n") {
		t.Errorf("want one line naming %s, got %q", file, err)
	}
	if err != nil && !strings.Contains(err.Error(), `errors: line 3: mapping key "workers" already defined`) {
		t.Errorf("lines not joined: %q", err)
	}
}
