package crawler

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cast"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// EnvPrefix is the prefix of environment variables that set config keys:
// politeness.default_delay is CRAWL_POLITENESS_DEFAULT_DELAY.
const EnvPrefix = "CRAWL"

// A ConfigError is a config key that could not be used, with where its value
// came from (a file path, an environment variable or a flag).
type ConfigError struct {
	Key    string
	Source string
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("crawler: config %s: %s: %s", e.Source, e.Key, e.Reason)
}

// Loader reads the effective Config with the precedence flag > CRAWL_*
// environment > config file > default. The zero Loader reads defaults and
// the environment only; a Loader is used once, by one goroutine.
type Loader struct {
	// File is the config file to read; "" reads none.
	File string
	// Flags are command-line flags bound to keys: flag name -> key.
	Flags *pflag.FlagSet
	// FlagKeys maps a flag name to the config key it sets.
	FlagKeys map[string]string
	// Environ is the environment as "K=V" strings; nil means os.Environ().
	Environ []string
}

// Load returns the effective, validated Config.
func (l Loader) Load() (Config, error) {
	env := l.Environ
	if env == nil {
		env = os.Environ()
	}
	envMap := map[string]string{}
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, EnvPrefix+"_") {
			envMap[k] = val
		}
	}
	keys := configKeys()
	types := keyTypes()
	var errs []error
	v := viper.New()
	def := flatten(Default())
	for _, k := range keys {
		v.SetDefault(k, def[k])
	}
	v.SetEnvPrefix(EnvPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	for _, k := range keys {
		val, ok := envMap[envName(k)]
		if !ok {
			continue
		}
		if types[k].Kind() == reflect.Slice {
			list, err := envList(val)
			if err != nil {
				errs = append(errs, &ConfigError{Key: k, Source: "environment " + envName(k), Reason: err.Error()})
				continue
			}
			v.Set(k, list)
			continue
		}
		v.Set(k, val)
	}
	fileKeys := map[string]bool{}
	if l.File != "" {
		fv := viper.New()
		fv.SetConfigFile(l.File)
		if ext := strings.ToLower(strings.TrimPrefix(fileExt(l.File), ".")); ext == "" {
			fv.SetConfigType("yaml")
		}
		if err := fv.ReadInConfig(); err != nil {
			return Config{}, fmt.Errorf("crawler: config %s: %w", l.File, err)
		}
		known := map[string]bool{}
		for _, k := range keys {
			known[k] = true
		}
		var unknown []string
		for _, k := range fv.AllKeys() {
			if !known[k] {
				unknown = append(unknown, k)
				continue
			}
			fileKeys[k] = true
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			return Config{}, &ConfigError{Key: strings.Join(unknown, ", "), Source: l.File, Reason: "unknown key (see config.yaml for every key)"}
		}
		for k := range fileKeys {
			if _, fromEnv := envMap[envName(k)]; fromEnv {
				continue
			}
			val := fv.Get(k)
			if s, ok := val.(string); ok && types[k].Kind() == reflect.Slice {
				// One pattern written without brackets is a list of one,
				// never split at its commas.
				val = []string{s}
			}
			v.Set(k, val)
		}
	}
	flagKeys := map[string]string{}
	if l.Flags != nil {
		for name, key := range l.FlagKeys {
			f := l.Flags.Lookup(name)
			if f != nil && f.Changed {
				v.Set(key, f.Value.String())
				flagKeys[key] = "--" + name
			}
		}
	}
	source := func(k string) string {
		if f, ok := flagKeys[k]; ok {
			return "flag " + f
		}
		if _, ok := envMap[envName(k)]; ok {
			return "environment " + envName(k)
		}
		if fileKeys[k] {
			return l.File
		}
		return "default"
	}
	for _, k := range keys {
		if hasKeyError(errs, k) {
			continue // already reported: the environment list did not parse
		}
		if err := checkValue(types[k], v.Get(k)); err != nil {
			errs = append(errs, &ConfigError{Key: k, Source: source(k), Reason: err.Error()})
		}
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	var cfg Config
	if err := v.UnmarshalExact(&cfg); err != nil {
		return Config{}, fmt.Errorf("crawler: config: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		var fes []error
		for _, e := range unwrapAll(err) {
			var fe *FieldError
			if errors.As(e, &fe) {
				base, _, _ := strings.Cut(fe.Key, "[")
				fes = append(fes, &ConfigError{Key: fe.Key, Source: source(base), Reason: fe.Reason})
				continue
			}
			fes = append(fes, e)
		}
		return Config{}, errors.Join(fes...)
	}
	return cfg, nil
}

func fileExt(p string) string {
	i := strings.LastIndexByte(p, '.')
	if i < 0 || strings.ContainsRune(p[i:], os.PathSeparator) {
		return ""
	}
	return p[i:]
}

func unwrapAll(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func envName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// envList reads a list-valued environment variable: a JSON array of
// strings (["a","b"]), or else one item per line. It never splits at commas,
// which regular expressions such as {1,4} contain. Lines are trimmed of
// surrounding white space and blank lines are dropped; an item that needs
// surrounding spaces is written as a JSON array.
func envList(val string) ([]string, error) {
	if strings.HasPrefix(strings.TrimSpace(val), "[") {
		var list []string
		if err := json.Unmarshal([]byte(val), &list); err != nil {
			return nil, fmt.Errorf("%q starts with '[' but is not a JSON array of strings (%v); write [\"a\",\"b\"] or one item per line", val, err)
		}
		return list, nil
	}
	list := []string{}
	for line := range strings.Lines(val) {
		if line = strings.TrimSpace(line); line != "" {
			list = append(list, line)
		}
	}
	return list, nil
}

func hasKeyError(errs []error, key string) bool {
	for _, e := range errs {
		var ce *ConfigError
		if errors.As(e, &ce) && ce.Key == key {
			return true
		}
	}
	return false
}

func checkValue(t reflect.Type, val any) error {
	var err error
	switch {
	case t == reflect.TypeOf(time.Duration(0)):
		return checkDuration(val)
	case t.Kind() == reflect.Int || t.Kind() == reflect.Int64:
		_, err = cast.ToInt64E(val)
	case t.Kind() == reflect.Float64:
		_, err = cast.ToFloat64E(val)
	case t.Kind() == reflect.Bool:
		_, err = cast.ToBoolE(val)
	case t.Kind() == reflect.String:
		_, err = cast.ToStringE(val)
	case t.Kind() == reflect.Slice:
		_, err = cast.ToStringSliceE(val)
	}
	if err != nil {
		return fmt.Errorf("%v is not a valid %s", val, t)
	}
	return nil
}

// checkDuration accepts a duration written with its unit ("10s", "500ms",
// "1h"). A bare number is refused whatever its type (YAML int or float, or a
// numeric string): read as nanoseconds it would make a 10 meant as seconds a
// 10 ns pace, so the unit is never guessed.
func checkDuration(val any) error {
	switch x := val.(type) {
	case time.Duration:
		return nil // a built-in default
	case string:
		s := strings.TrimSpace(x)
		if bareNumber(s) {
			return fmt.Errorf("%q is a bare number; write it with a unit, e.g. \"%ss\" for seconds (units: ms, s, m, h)", x, s)
		}
		if _, err := time.ParseDuration(s); err != nil {
			return fmt.Errorf("%q is not a duration (e.g. 500ms, 10s, 1h)", x)
		}
		return nil
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return fmt.Errorf("%v is a bare number; write it with a unit, e.g. \"%vs\" for seconds (units: ms, s, m, h)", x, x)
	default:
		return fmt.Errorf("%v is not a duration (e.g. 500ms, 10s, 1h)", val)
	}
}

// bareNumber reports whether s is a number without a unit ("10", "1.5",
// "-3", "1e3"); words ParseFloat also takes, such as "inf", are not.
func bareNumber(s string) bool {
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return false
	}
	t := strings.TrimLeft(s, "+-")
	return t != "" && (t[0] == '.' || t[0] >= '0' && t[0] <= '9')
}

// configKeys lists every leaf key of Config in struct order.
func configKeys() []string {
	var keys []string
	walkKeys(reflect.TypeOf(Config{}), "", func(k string, _ reflect.Type) { keys = append(keys, k) })
	return keys
}

func keyTypes() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	walkKeys(reflect.TypeOf(Config{}), "", func(k string, t reflect.Type) { m[k] = t })
	return m
}

func walkKeys(t reflect.Type, prefix string, fn func(string, reflect.Type)) {
	for i := range t.NumField() {
		f := t.Field(i)
		k := prefix + f.Tag.Get("mapstructure")
		if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeOf(time.Duration(0)) {
			walkKeys(f.Type, k+".", fn)
			continue
		}
		fn(k, f.Type)
	}
}

// flatten maps every leaf key of c to its value.
func flatten(c Config) map[string]any {
	m := map[string]any{}
	var walk func(v reflect.Value, prefix string)
	walk = func(v reflect.Value, prefix string) {
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			k := prefix + f.Tag.Get("mapstructure")
			if f.Type.Kind() == reflect.Struct {
				walk(v.Field(i), k+".")
				continue
			}
			m[k] = v.Field(i).Interface()
		}
	}
	walk(reflect.ValueOf(c), "")
	return m
}

// ConfigMap returns cfg as nested maps keyed like config.yaml, with
// durations written as Go durations ("10s"), for --print-config.
func ConfigMap(cfg Config) (map[string]any, error) {
	out := map[string]any{}
	for k, v := range flatten(cfg) {
		if d, ok := v.(time.Duration); ok {
			v = d.String()
		}
		parts := strings.Split(k, ".")
		m := out
		for _, p := range parts[:len(parts)-1] {
			sub, ok := m[p].(map[string]any)
			if !ok {
				sub = map[string]any{}
				m[p] = sub
			}
			m = sub
		}
		m[parts[len(parts)-1]] = v
	}
	return out, nil
}
