package wacz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// requireNode returns node once each of files exists. Without node or a
// file the test skips, its message saying (install) how to get them,
// unless CRAWL_REQUIRE_INTEROP=1 (as in CI) makes it fail.
func requireNode(t *testing.T, install string, files ...string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	for _, f := range files {
		if err == nil {
			_, err = os.Stat(f)
		}
	}
	if err != nil {
		msg := fmt.Sprintf("check unavailable (%v): install node >= 18 and %s", err, install)
		if os.Getenv("CRAWL_REQUIRE_INTEROP") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node
}

// runNodeJSON runs cmd, a node script that prints one JSON object (and
// exits 1 when that object lists errors), and decodes what it printed
// into v.
func runNodeJSON(t *testing.T, cmd *exec.Cmd, v any) {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if jerr := json.Unmarshal(out, v); jerr != nil {
		t.Fatalf("%s: %v (exit: %v)\n%s\n%s", filepath.Base(cmd.Args[1]), jerr, err, stderr.String(), out)
	}
}
