package config

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// EnvPrefix is the prefix of environment variables that set config keys:
// politeness.default_delay is CRAWL_POLITENESS_DEFAULT_DELAY. Load refuses
// a variable with this prefix that names no key, except those NonConfigEnv
// lists.
const EnvPrefix = "CRAWL"

// An Error is a config key that could not be used, with where its value
// came from (a file path, an environment variable or a flag).
type Error struct {
	Key    string
	Source string
	Reason string
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("crawler: config %s: %s: %s", e.Source, e.Key, e.Reason)
	if strings.IndexFunc(msg, unicode.IsControl) < 0 {
		return msg
	}
	// A value quoted raw in a reason (a regular expression's error) may hold
	// a line break: the message stays one line.
	q := strconv.Quote(msg)
	return q[1 : len(q)-1]
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
	errs := unknownEnv(envMap, keys)
	badList := map[string]bool{} // keys whose environment list did not parse (reported once)
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
				errs = append(errs, &Error{Key: k, Source: "environment " + envName(k), Reason: err.Error()})
				badList[k] = true
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
		// The config file is YAML whatever its name (my.conf, c.json):
		// viper would otherwise pick a parser by the extension.
		fv.SetConfigType("yaml")
		if err := fv.ReadInConfig(); err != nil {
			return Config{}, fmt.Errorf("crawler: config %s: %s", l.File, oneLine(err.Error()))
		}
		known, sections := map[string]bool{}, map[string]bool{}
		for _, k := range keys {
			known[k] = true
			for i := range len(k) {
				if k[i] == '.' {
					sections[k[:i]] = true
				}
			}
		}
		var unknown []string
		for _, k := range fv.AllKeys() {
			switch {
			case known[k]:
				fileKeys[k] = true
			case sections[k] && fv.Get(k) == nil:
				// A section whose keys are all commented out (or absent)
				// sets nothing: its keys keep their defaults.
			case sections[k]:
				return Config{}, &Error{Key: k, Source: l.File, Reason: "is a section: write its keys under it, one per line (see config.yaml)"}
			default:
				unknown = append(unknown, k)
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			return Config{}, &Error{Key: strings.Join(unknown, ", "), Source: l.File, Reason: "unknown key (see config.yaml for every key)"}
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
		if badList[k] {
			continue // already reported: the environment list did not parse
		}
		val, err := checkValue(types[k], v.Get(k))
		if err != nil {
			errs = append(errs, &Error{Key: k, Source: source(k), Reason: err.Error()})
			continue
		}
		v.Set(k, val) // typed: the decoder below has nothing left to refuse
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
				src := source(base)
				for _, k := range fe.Related {
					// A clash of two keys is blamed on the one that was set.
					if src == "default" {
						src = source(k)
					}
				}
				fes = append(fes, &Error{Key: fe.Key, Source: src, Reason: fe.Reason})
				continue
			}
			fes = append(fes, e)
		}
		return Config{}, errors.Join(fes...)
	}
	return cfg, nil
}

// oneLine joins the lines of a multi-line message (a YAML parser's list of
// errors) with "; ", or a space after a colon, so that every config error
// is one line.
func oneLine(msg string) string {
	var b strings.Builder
	for line := range strings.Lines(msg) {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if s := b.String(); s != "" && !strings.HasSuffix(s, ":") {
			b.WriteString(";")
		}
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString(line)
	}
	return b.String()
}

func unwrapAll(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
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

// Map returns cfg as nested maps keyed like config.yaml, with
// durations written as Go durations ("10s"), for --print-config.
func Map(cfg Config) (map[string]any, error) {
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
