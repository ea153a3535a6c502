package robots

import (
	"os"
	"path/filepath"
	"testing"
)

// verdictCase is one "agent asks for URL" row of a spec table.
type verdictCase struct {
	name    string
	agent   string
	url     string
	allowed bool
	line    int // deciding line; -1 means "don't care"
}

func runVerdicts(t *testing.T, r *Robots, cases []verdictCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := r.Group(c.agent).Allowed(c.url)
			if v.Allowed != c.allowed {
				t.Errorf("%s %s: allowed = %v, want %v (%v)", c.agent, c.url, v.Allowed, c.allowed, v)
			}
			if c.line >= 0 && v.Line != c.line {
				t.Errorf("%s %s: decided by line %d, want %d (%v)", c.agent, c.url, v.Line, c.line, v)
			}
		})
	}
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "robots", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func allowedFor(body, agent, url string) bool {
	return Parse([]byte(body)).Group(agent).Allowed(url).Allowed
}
