// Command crawl is a polite web crawler: it honours robots.txt (RFC 9309) and
// the 1996 extensions Crawl-delay, Request-rate and Visit-time, and archives
// what it fetches as WARC 1.1 with a CDXJ index.
package main

import (
	"github.com/redis/go-redis/v9"

	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes, documented in --help and the README.
const (
	exitOK          = 0   // the crawl finished (deferred hosts are reported, not errors)
	exitFailure     = 1   // the crawl could not run or stopped on an error
	exitUsage       = 2   // bad flags, config, seed file or output dir
	exitGivenUp     = 3   // the crawl ended with hosts given up; their URLs are kept (crawler.ExitHostsGivenUp)
	exitInterrupted = 130 // stopped by Ctrl-C or SIGTERM; state saved, run again to continue
)

const exitCodesHelp = `Exit codes:
  0    the crawl finished (hosts deferred for later are reported, not errors)
  1    the crawl could not run or stopped on an error
  2    bad flags, config, seed file or output directory
  3    the crawl ended with hosts given up after connection failures; their URLs are
       kept: run the same command again to retry them
  130  interrupted (Ctrl-C / SIGTERM): state is saved; run the same command to continue`

// usageError marks errors that are the caller's to fix (exit 2).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return &usageError{fmt.Errorf(format, a...)} }

// givenUpError marks a crawl that ended with hosts given up (exit 3).
type givenUpError struct{ hosts int }

func (e *givenUpError) Error() string {
	return fmt.Sprintf("the crawl ended with %d host(s) given up; their URLs are kept; run the same command again to retry them", e.hosts)
}

// interruptedError marks a crawl stopped by a signal (exit 130).
type interruptedError struct{ msg string }

func (e *interruptedError) Error() string { return e.msg }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The Redis client would print each failed dial of its pool; the
	// frontier says once that the server is unreachable and once that it
	// is back.
	redis.SetLogger(quietRedis{})
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the command line and maps its error to an exit code: the one
// place where errors become exit codes.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRootCommand(stdout, stderr)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ie *interruptedError
	if errors.As(err, &ie) {
		fmt.Fprintln(stderr, ie.msg)
		return exitInterrupted
	}
	fmt.Fprintln(stderr, "crawl: "+err.Error())
	var ue *usageError
	var gu *givenUpError
	switch {
	case errors.As(err, &ue):
		return exitUsage
	case errors.As(err, &gu):
		return exitGivenUp
	}
	return exitFailure
}

// quietRedis discards the Redis client's own log lines.
type quietRedis struct{}

// Printf discards a log line.
func (quietRedis) Printf(context.Context, string, ...any) {}
