package demo

import (
	"errors"
	"strings"
	"testing"
)

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

func TestNarrateListsEveryLesson(t *testing.T) {
	w := start(t, testTimes[0])
	var b strings.Builder
	if err := Narrate(&b, w.Sites()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for i, s := range w.Sites() {
		for _, want := range []string{s.Name, s.Seed, s.Lesson} {
			if !strings.Contains(out, want) {
				t.Errorf("site %d: narration lacks %q", i+1, want)
			}
		}
	}
	if !strings.HasPrefix(out, "The demo serves 11 small sites") {
		t.Errorf("narration starts %q", out[:40])
	}
	if err := Narrate(failWriter{}, w.Sites()); err == nil || !strings.HasPrefix(err.Error(), "demo: ") {
		t.Errorf("write error = %v", err)
	}
}
