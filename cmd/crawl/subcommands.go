package main

import (
	"io"

	"github.com/spf13/cobra"
)

// subcommands lists the commands under crawl.
func subcommands(stdout, stderr io.Writer) []*cobra.Command {
	return []*cobra.Command{newDemoCommand(stdout, stderr), newReportCommand()}
}
