package config

// The checks Load runs on each config value before decoding: every value
// is converted to its field's exact type here, so nothing that passes can
// fail in viper's decoder with a message that names no source.

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"
)

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
		return nil, fmt.Errorf("config: no check for a key of type %s", t)
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
		return quoteValue(s)
	}
	s := fmt.Sprint(val)
	if len(s) > maxEcho || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return quoteValue(s)
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
		return "", fmt.Errorf("%s is not text; quote it (%s) to use it as text", describe(val), quoteValue(fmt.Sprint(x)))
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
			return 0, fmt.Errorf("%s is a bare number; write it with a unit, e.g. %s for seconds (units: ms, s, m, h)", quoteValue(x), quoteValue(s+"s"))
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("%s is not a duration (e.g. 500ms, 10s, 1h)", quoteValue(x))
		}
		return d, nil
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return 0, fmt.Errorf("%s is a bare number; write it with a unit, e.g. %s for seconds (units: ms, s, m, h)", describe(x), quoteValue(fmt.Sprint(x)+"s"))
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
