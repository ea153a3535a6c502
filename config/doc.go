// Package config holds a crawl's configuration: the Config struct, whose
// mapstructure tags are the keys of config.yaml, its built-in values
// (Default) and their checks (Validate), and Loader, which reads the
// effective Config for one run. The checked-in config.yaml documents every
// key with its default; a test asserts that it equals Default.
//
// # Loading
//
// Each Load uses a viper of its own (viper.New, never the global one), so
// two loads never share state. Every key gets its default with SetDefault;
// then the sources are read in rising precedence, a later one overriding
// an earlier one:
//
//	default < config file < CRAWL_* environment variable < command-line flag
//
// The sources:
//
//   - Environment variables carry the prefix EnvPrefix (CRAWL): a key's
//     variable is the prefix, "_", and the key in upper case with its dots
//     as underscores (politeness.default_delay is
//     CRAWL_POLITENESS_DEFAULT_DELAY). A CRAWL_* variable that names no key
//     is an error suggesting the nearest key's variable, except those
//     NonConfigEnv lists, which the tests and CI read.
//   - The config file (Loader.File, --config) is YAML whatever its name.
//     A key that names none is an error that lists it, suggesting the key
//     it is a small typo of (as for a variable); two keys of one mapping
//     that differ only in case are an error naming both with their lines
//     (viper reads keys case-insensitively, and would keep one of them); a
//     section whose keys are all commented out sets nothing, and a section
//     given a value is an error.
//   - Flags are bound by name to keys (Loader.FlagKeys); only a flag given
//     on the command line sets its key.
//
// Every value is then checked and converted to its field's exact type, and
// the result decoded with UnmarshalExact, so a key the struct lacks is an
// error rather than ignored, and validated. Every error is an *Error on one
// line naming the key and where its value came from: the file's path,
// "environment CRAWL_...", "flag --name" or "default". A clash between two
// keys (politeness.min_delay above politeness.max_wait) is blamed on the
// one that was set.
//
// # Specifications followed
//
//   - RFC 9309 section 2.2.1: agent.token is a whole product token,
//     letters, '_' and '-' only.
//   - RFC 9309 section 2.4: robots.cache_ttl is at most 24 hours.
//   - RFC 9309 section 2.5: robots.max_bytes is at least 500 KiB.
//   - RFC 9110 section 5.5: agent.user_agent is sent as a field value and
//     may hold no control character (a tab neither, see below).
//
// # Deviations and decisions
//
//   - Durations need a unit ("10s", "500ms"): a bare number is an error
//     wherever it comes from, never read as nanoseconds.
//   - Whole numbers are strict: a YAML float (1.5, 1e3, 2.0) or bool is
//     refused, never truncated or converted; floats are finite.
//   - A list in an environment variable is a JSON array of strings or one
//     item per line, never split at commas, which regular expressions such
//     as {1,4} contain. A list key written in the file as one string is a
//     list of that one string.
//   - agent.user_agent refuses a tab too, which RFC 9110 allows inside a
//     field value: servers' access logs quote the User-Agent, and a site
//     owner should read it as it was sent.
//   - Errors begin "config: " and name the source and the key; what they
//     quote of a value, a key or a YAML parser's message is at most 64
//     bytes (256 for a parser's or a regular expression's message), cut at
//     a character and followed by the value's length, with control
//     characters and invalid UTF-8 escaped or dropped, so a binary file or
//     a number of thousands of digits is not echoed whole.
package config
