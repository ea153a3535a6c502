package crawler

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
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

// A ConfigError is a config key that could not be used, with where its value
// came from (a file path, an environment variable or a flag).
type ConfigError struct {
	Key    string
	Source string
	Reason string
}

func (e *ConfigError) Error() string {
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
		// The config file is YAML whatever its name (my.conf, c.json):
		// viper would otherwise pick a parser by the extension.
		fv.SetConfigType("yaml")
		if err := fv.ReadInConfig(); err != nil {
			return Config{}, fmt.Errorf("crawler: config %s: %s", l.File, oneLine(err.Error()))
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
		val, err := checkValue(types[k], v.Get(k))
		if err != nil {
			errs = append(errs, &ConfigError{Key: k, Source: source(k), Reason: err.Error()})
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
				fes = append(fes, &ConfigError{Key: fe.Key, Source: source(base), Reason: fe.Reason})
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

// NonConfigEnv returns the CRAWL_* environment variables that name no
// config key yet are not refused by Load, because the tests and CI read
// them: CRAWL_REQUIRE_INTEROP and CRAWL_REQUIRE_BROWSER (.ci/run sets them
// to make the interop and browser tests fail instead of skip) and
// CRAWL_CHROMIUM (the browser the report test runs). Any other CRAWL_*
// variable that names no key is an error.
func NonConfigEnv() []string {
	return []string{"CRAWL_REQUIRE_INTEROP", "CRAWL_REQUIRE_BROWSER", "CRAWL_CHROMIUM"}
}

// unknownEnv reports each CRAWL_* variable in envMap that names no key in
// keys and is not one of NonConfigEnv, suggesting the closest key's
// variable when one is a small typo away.
func unknownEnv(envMap map[string]string, keys []string) []error {
	known := map[string]bool{}
	for _, k := range keys {
		known[envName(k)] = true
	}
	for _, n := range NonConfigEnv() {
		known[n] = true
	}
	var names []string
	for n := range envMap {
		if !known[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var errs []error
	for _, n := range names {
		reason := "no such key"
		if k := closestKey(n, keys); k != "" {
			reason += fmt.Sprintf(" (did you mean %s, for %s?)", envName(k), k)
		}
		reason += "; config.yaml lists every key"
		errs = append(errs, &ConfigError{Key: n, Source: "environment", Reason: reason})
	}
	return errs
}

// closestKey returns the key whose variable is nearest to name by edit
// distance, if it is near enough to be a typo, else "".
func closestKey(name string, keys []string) string {
	suffix := strings.TrimPrefix(name, EnvPrefix+"_")
	best, bestD := "", -1
	for _, k := range keys {
		d := editDistance(suffix, strings.TrimPrefix(envName(k), EnvPrefix+"_"))
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	if bestD <= 2 && bestD < len(suffix)/2 || bestD == 3 && len(suffix) >= 12 {
		return best
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
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

// checkValue converts val, as viper holds it (a YAML scalar or list, or a
// string from the environment or a flag), to a value of type t, or says in
// one line why it cannot. It is strict, so that a value it returns is the
// value the crawl uses and the decoder after it has nothing left to refuse:
// integers are whole numbers in range (a YAML float such as 1.5 or 1e3, or
// a bool, is refused, never truncated or converted), floats are finite,
// bools are true or false, text is a string (a YAML number or bool is
// refused: quote it). White space around a number, bool or duration written
// as a string is trimmed.
func checkValue(t reflect.Type, val any) (any, error) {
	var out any
	var err error
	switch {
	case t == reflect.TypeOf(time.Duration(0)):
		out, err = checkDuration(val)
	case t.Kind() == reflect.Int || t.Kind() == reflect.Int64:
		out, err = checkInt(val, t.Bits())
	case t.Kind() == reflect.Float64:
		out, err = checkFloat(val)
	case t.Kind() == reflect.Bool:
		out, err = checkBool(val)
	case t.Kind() == reflect.String:
		out, err = checkString(val)
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		out, err = checkStrings(val)
	default:
		return nil, fmt.Errorf("crawler: config: no check for a key of type %s", t)
	}
	if err != nil {
		return nil, err
	}
	return reflect.ValueOf(out).Convert(t).Interface(), nil
}

// describe writes a value for an error message on one line: a string
// quoted, anything else as fmt prints it, quoted if that has control bytes.
func describe(val any) string {
	if s, ok := val.(string); ok {
		return strconv.Quote(s)
	}
	s := fmt.Sprint(val)
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

func checkInt(val any, bits int) (int64, error) {
	lo, hi := int64(-1)<<(bits-1), int64(1)<<(bits-1)-1
	outOfRange := func() (int64, error) {
		return 0, fmt.Errorf("%s is out of range (at most %d)", describe(val), hi)
	}
	rv := reflect.ValueOf(val)
	switch x := val.(type) {
	case nil:
		return 0, errors.New("has no value; give a whole number or leave the key out")
	case int, int8, int16, int32, int64:
		n := rv.Int()
		if n < lo || n > hi {
			return outOfRange()
		}
		return n, nil
	case uint, uint8, uint16, uint32, uint64:
		if rv.Uint() > uint64(hi) {
			return outOfRange()
		}
		return int64(rv.Uint()), nil
	case float32, float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
			return 0, fmt.Errorf("%s is not a whole number", describe(val))
		}
		if f < -math.Ldexp(1, bits-1) || f >= math.Ldexp(1, bits-1) {
			return outOfRange()
		}
		return 0, fmt.Errorf("%s is written as a floating-point number (with a fraction or an exponent); write it as a whole number: %d", describe(val), int64(f))
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, bits)
		if errors.Is(err, strconv.ErrRange) {
			return outOfRange()
		}
		if err != nil {
			return 0, fmt.Errorf("%s is not a whole number", describe(val))
		}
		return n, nil
	default:
		return 0, fmt.Errorf("%s is not a whole number", describe(val))
	}
}

func checkFloat(val any) (float64, error) {
	var f float64
	rv := reflect.ValueOf(val)
	switch x := val.(type) {
	case int, int8, int16, int32, int64:
		return float64(rv.Int()), nil
	case uint, uint8, uint16, uint32, uint64:
		return float64(rv.Uint()), nil
	case float32, float64:
		f = rv.Float()
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(x), 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s is not a number", describe(val))
		}
	default:
		return 0, fmt.Errorf("%s is not a number", describe(val))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s is not a finite number", describe(val))
	}
	return f, nil
}

func checkBool(val any) (bool, error) {
	switch x := val.(type) {
	case bool:
		return x, nil
	case string:
		if b, err := strconv.ParseBool(strings.TrimSpace(x)); err == nil {
			return b, nil
		}
	}
	return false, fmt.Errorf("%s is not true or false", describe(val))
}

func checkString(val any) (string, error) {
	switch x := val.(type) {
	case nil:
		return "", nil // "key:" with nothing after it in YAML
	case string:
		return x, nil
	case bool, int, int64, uint64, float64:
		return "", fmt.Errorf("%s is not text; quote it (\"%v\") to use it as text", describe(val), x)
	default:
		return "", fmt.Errorf("%s is not text", describe(val))
	}
}

func checkStrings(val any) ([]string, error) {
	switch x := val.(type) {
	case nil:
		return []string{}, nil
	case []string:
		return x, nil
	case []any:
		list := make([]string, 0, len(x))
		for i, item := range x {
			s, ok := item.(string)
			if !ok {
				return nil, fmt.Errorf("item %d: %s is not text; quote it", i, describe(item))
			}
			list = append(list, s)
		}
		return list, nil
	default:
		return nil, fmt.Errorf("%s is not a list of patterns", describe(val))
	}
}

// checkDuration accepts a duration written with its unit ("10s", "500ms",
// "1h"), trimmed of surrounding white space. A bare number is refused
// whatever its type (YAML int or float, or a numeric string): read as
// nanoseconds it would make a 10 meant as seconds a 10 ns pace, so the unit
// is never guessed.
func checkDuration(val any) (time.Duration, error) {
	switch x := val.(type) {
	case time.Duration:
		return x, nil // a built-in default
	case string:
		s := strings.TrimSpace(x)
		if bareNumber(s) {
			return 0, fmt.Errorf("%q is a bare number; write it with a unit, e.g. \"%ss\" for seconds (units: ms, s, m, h)", x, s)
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration (e.g. 500ms, 10s, 1h)", x)
		}
		return d, nil
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return 0, fmt.Errorf("%v is a bare number; write it with a unit, e.g. \"%vs\" for seconds (units: ms, s, m, h)", x, x)
	default:
		return 0, fmt.Errorf("%s is not a duration (e.g. 500ms, 10s, 1h)", describe(val))
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
