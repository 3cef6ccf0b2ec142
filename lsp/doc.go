// Package lsp is `hashalloc lsp`: a language server that editors run next to
// gopls, which cannot load third-party analyzers, to get hashalloc's findings
// as diagnostics and its suggested fixes as code actions.
//
// On open and save of a Go file it analyzes the file's package, with the
// unsaved buffers of the editor as overlays, using the same analyzer and
// options as the command line, and publishes a diagnostic per finding with
// the check's category as its code and a link to the check's documentation.
// textDocument/codeAction offers, for a finding under the cursor, a
// quickfix that applies its fix and one that adds a
// //hashalloc:ignore CATEGORY directive above it; source.fixAll.hashalloc
// applies every fix of the file.
//
// The last result of each package is kept until the next save; an edit
// cancels an analysis in progress, and code actions are offered only while
// the document is the one analyzed. Handlers answer at once: analyses run in
// the background, one at a time.
//
// The protocol types and the JSON-RPC connection are go.lsp.dev/protocol and
// go.lsp.dev/jsonrpc2.
package lsp
