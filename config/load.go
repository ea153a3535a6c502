package config

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
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
	msg := fmt.Sprintf("config: %s: %s: %s", e.Source, e.Key, e.Reason)
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

// Load returns the effective, validated Config. Each source is read in
// turn into a fresh viper, every value is checked and converted to its
// field's type, and the result is decoded with UnmarshalExact and
// validated; every error names the key and where its value came from.
func (l Loader) Load() (Config, error) {
	s := newLoading(l)
	errs := s.readEnv()
	if err := s.readFile(); err != nil {
		return Config{}, err
	}
	s.readFlags()
	errs = append(errs, s.checkValues()...)
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return s.decode()
}

// loading is one Load in progress: a viper of its own holding each key's
// value from the highest source read so far, and which source set it.
type loading struct {
	Loader
	v     *viper.Viper
	keys  []string
	types map[string]reflect.Type
	// env holds the CRAWL_* variables of the environment: name -> value.
	env map[string]string
	// fromFile holds the keys the config file sets.
	fromFile map[string]bool
	// fromFlag maps each key a flag set to that flag, "--name".
	fromFlag map[string]string
	// badList holds the keys whose environment list did not parse: they
	// are reported once.
	badList map[string]bool
}

// newLoading starts a Load: a fresh viper with every key's default.
func newLoading(l Loader) *loading {
	environ := l.Environ
	if environ == nil {
		environ = os.Environ()
	}
	s := &loading{Loader: l, v: viper.New(), keys: configKeys(), types: keyTypes(),
		env: map[string]string{}, fromFile: map[string]bool{}, fromFlag: map[string]string{}, badList: map[string]bool{}}
	for _, kv := range environ {
		if k, val, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, EnvPrefix+"_") {
			s.env[k] = val
		}
	}
	def := flatten(Default())
	for _, k := range s.keys {
		s.v.SetDefault(k, def[k])
	}
	s.v.SetEnvPrefix(EnvPrefix)
	s.v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	return s
}

// readEnv sets each key its CRAWL_* variable names, a list-valued key's
// variable read by envList. It returns an error for each variable that
// names no key and each list that does not parse.
func (s *loading) readEnv() []error {
	errs := unknownEnv(s.env, s.keys)
	for _, k := range s.keys {
		val, ok := s.env[envName(k)]
		if !ok {
			continue
		}
		if s.types[k].Kind() == reflect.Slice {
			list, err := envList(val)
			if err != nil {
				errs = append(errs, &Error{Key: k, Source: "environment " + envName(k), Reason: err.Error()})
				s.badList[k] = true
				continue
			}
			s.v.Set(k, list)
			continue
		}
		s.v.Set(k, val)
	}
	return errs
}

// readFile sets each key the config file sets and no variable does. The
// file is YAML whatever its name; a file that does not parse, a key that
// names none, two keys that differ only in case and a section given a
// value are errors.
func (s *loading) readFile() error {
	if s.File == "" {
		return nil
	}
	if err := caseClash(s.File); err != nil {
		return err
	}
	fv := viper.New()
	fv.SetConfigFile(s.File)
	// The config file is YAML whatever its name (my.conf, c.json):
	// viper would otherwise pick a parser by the extension.
	fv.SetConfigType("yaml")
	if err := fv.ReadInConfig(); err != nil {
		// viper's "While parsing config: " says nothing the prefix does not.
		msg := strings.TrimPrefix(oneLine(err.Error()), "While parsing config: ")
		return fmt.Errorf("config: %s: %s", s.File, echoMessage(msg))
	}
	if err := s.noteFileKeys(fv); err != nil {
		return err
	}
	for k := range s.fromFile {
		if _, fromEnv := s.env[envName(k)]; fromEnv {
			continue
		}
		val := fv.Get(k)
		if str, ok := val.(string); ok && s.types[k].Kind() == reflect.Slice {
			// One pattern written without brackets is a list of one,
			// never split at its commas.
			val = []string{str}
		}
		s.v.Set(k, val)
	}
	return nil
}

// noteFileKeys records in fromFile each key the file fv sets. A section
// given a value instead of keys is an error, and so are the keys that
// name none, all in one error.
func (s *loading) noteFileKeys(fv *viper.Viper) error {
	known, isSection := map[string]bool{}, sections(s.keys)
	for _, k := range s.keys {
		known[k] = true
	}
	var unknown []string
	for _, k := range fv.AllKeys() {
		switch {
		case known[k]:
			s.fromFile[k] = true
		case isSection[k] && fv.Get(k) == nil:
			// A section whose keys are all commented out (or absent)
			// sets nothing: its keys keep their defaults.
		case isSection[k]:
			return &Error{Key: echoKey(k), Source: s.File, Reason: "is a section: write its keys under it, one per line (see config.yaml)"}
		default:
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return &Error{Key: echoKeys(unknown), Source: s.File, Reason: "unknown key" + s.suggestKeys(unknown) + " (see config.yaml for every key)"}
	}
	return nil
}

// suggestKeys says which key each of unknown may be a typo of, as the
// environment's unknown variables are told (closestKey): "; did you mean
// fetch.workers?", or for several "; did you mean fetch.workers for
// fetch.worker, ...?"; "" when none is near.
func (s *loading) suggestKeys(unknown []string) string {
	var hints []string
	for _, k := range unknown {
		if c := closestKey(envName(k), s.keys); c != "" {
			if len(unknown) == 1 {
				return "; did you mean " + c + "?"
			}
			hints = append(hints, c+" for "+k)
		}
	}
	if len(hints) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(hints, ", ") + "?"
}

// readFlags sets each key whose bound flag was given on the command line.
func (s *loading) readFlags() {
	if s.Flags == nil {
		return
	}
	for name, key := range s.FlagKeys {
		f := s.Flags.Lookup(name)
		if f != nil && f.Changed {
			s.v.Set(key, f.Value.String())
			s.fromFlag[key] = "--" + name
		}
	}
}

// source says where key's value came from, as an Error names it.
func (s *loading) source(key string) string {
	if f, ok := s.fromFlag[key]; ok {
		return "flag " + f
	}
	if _, ok := s.env[envName(key)]; ok {
		return "environment " + envName(key)
	}
	if s.fromFile[key] {
		return s.File
	}
	return "default"
}

// checkValues converts every key's value to its field's type, so that
// the decoder has nothing left to refuse, and returns an error for each
// value that cannot be.
func (s *loading) checkValues() []error {
	var errs []error
	for _, k := range s.keys {
		if s.badList[k] {
			continue // already reported: the environment list did not parse
		}
		val, err := checkValue(s.types[k], s.v.Get(k))
		if err != nil {
			errs = append(errs, &Error{Key: k, Source: s.source(k), Reason: err.Error()})
			continue
		}
		s.v.Set(k, val) // typed: the decoder below has nothing left to refuse
	}
	return errs
}

// decode unmarshals the checked values with UnmarshalExact and validates
// the result, each *FieldError becoming an Error that names its source.
func (s *loading) decode() (Config, error) {
	var cfg Config
	if err := s.v.UnmarshalExact(&cfg); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, s.withSources(err)
	}
	return cfg, nil
}

// withSources turns each *FieldError joined in err into an Error naming
// where the key's value came from; a clash between keys is blamed on the
// one that was set when the key itself has its default.
func (s *loading) withSources(err error) error {
	var errs []error
	for _, e := range unwrapAll(err) {
		var fe *FieldError
		if !errors.As(e, &fe) {
			errs = append(errs, e)
			continue
		}
		base, _, _ := strings.Cut(fe.Key, "[")
		src := s.source(base)
		for _, k := range fe.Related {
			if src == "default" {
				src = s.source(k)
			}
		}
		errs = append(errs, &Error{Key: fe.Key, Source: src, Reason: fe.Reason})
	}
	return errors.Join(errs...)
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

// unwrapAll returns the errors joined in err, or err alone.
func unwrapAll(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
