package lsp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"go.lsp.dev/jsonrpc2"
)

// Main runs `hashalloc lsp [flags]`, the language server on standard input
// and output, and returns the exit code: 0 after shutdown and exit, 1 when
// the client went away without them, 2 on a bad flag. Unless GOGC is set, it
// sets the garbage collector's target after each analysis from the heap the
// server keeps (see tuneGC).
func Main(args []string) int {
	fs := flag.NewFlagSet("hashalloc lsp", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: hashalloc lsp [flags]\n\n"+
			"A language server on stdin and stdout: hashalloc's diagnostics, a quick fix\n"+
			"per finding, an ignore action and source.fixAll.hashalloc, next to gopls.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var settings Settings
	settings.bindFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "hashalloc lsp: unexpected arguments %q\n", fs.Args())
		return 2
	}
	// Check the flags now, rather than at initialize.
	if _, err := settings.analyzer(); err != nil {
		fmt.Fprintf(os.Stderr, "hashalloc lsp: %v\n", err)
		return 2
	}
	if err := serve(context.Background(), jsonrpc2.NewHeaderStream(stdio{os.Stdin, os.Stdout}), settings, tuneGC); err != nil {
		fmt.Fprintf(os.Stderr, "hashalloc lsp: %v\n", err)
		return 1
	}
	return 0
}

// Serve runs the language server with settings on the LSP stream read from
// in and written to out, until the client sends exit or closes in.
func Serve(ctx context.Context, in io.Reader, out io.Writer, settings Settings) error {
	return serve(ctx, jsonrpc2.NewHeaderStream(stdio{in, out}), settings, nil)
}

// stdio joins a reader and a writer into the stream of a connection.
type stdio struct {
	io.Reader
	io.Writer
}

// Close closes the reader and the writer, when they can be closed.
func (s stdio) Close() error {
	var errs []error
	if c, ok := s.Reader.(io.Closer); ok {
		errs = append(errs, c.Close())
	}
	if c, ok := s.Writer.(io.Closer); ok {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}
