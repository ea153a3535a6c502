package config

// The keys of Config: their dotted names (politeness.default_delay), read
// from the mapstructure tags, and their Go types.

import (
	"reflect"
	"strings"
	"time"
)

// configKeys lists every leaf key of Config in struct order.
func configKeys() []string {
	var keys []string
	walkKeys(reflect.TypeOf(Config{}), "", func(k string, _ reflect.Type) { keys = append(keys, k) })
	return keys
}

// keyTypes maps every leaf key of Config to its field's type.
func keyTypes() map[string]reflect.Type {
	m := map[string]reflect.Type{}
	walkKeys(reflect.TypeOf(Config{}), "", func(k string, t reflect.Type) { m[k] = t })
	return m
}

// walkKeys calls fn with every leaf key under t, prefixed with prefix, and
// its field's type.
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

// sections returns the keys that hold other keys (politeness), the
// dotted prefixes of keys.
func sections(keys []string) map[string]bool {
	m := map[string]bool{}
	for _, k := range keys {
		for i := range len(k) {
			if k[i] == '.' {
				m[k[:i]] = true
			}
		}
	}
	return m
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
// durations written as Go durations ("10s"), for --print-config; the
// password of frontier.url is replaced by "xxxxx" (RedactURL).
func Map(cfg Config) (map[string]any, error) {
	cfg.Frontier.URL = RedactURL(cfg.Frontier.URL)
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
