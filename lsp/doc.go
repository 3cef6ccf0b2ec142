// Package lsp is `hashalloc lsp`: a language server that editors run next to
// gopls, which cannot load third-party analyzers, to get hashalloc's findings
// as diagnostics and its suggested fixes as code actions.
//
// On open and save of a Go file it analyzes the file's package, with the
// unsaved buffers of the editor as overlays, using the same analyzer and
// options as the command line, and publishes a diagnostic per finding with
// the check's category as its code and a link to the check's documentation,
// those of the file opened or saved before those of the package's other
// files.
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
// Proving the fixes type-checks the package once more, with the fixes: on a
// save, the findings of the file saved are published as soon as the
// analysis knows them, before the proof, when one of them has a fix (its
// message says that the fix is being checked: the proof may withdraw it),
// and again with the fixes proved. A code action asked for in between waits
// for the proof (at most two seconds).
//
// Analyses are incremental. Per module (or go.work workspace) the server
// keeps every package it loaded, type-checked, with the analyzer's facts and
// findings (view.go); a save re-parses the files that changed (a package
// edited keeps the syntax of its other files), re-checks their packages
// against the packages kept, re-runs the analyzer on them with the facts of
// what they import (internal/passes, as the x/tools checker runs passes),
// then does the same for the packages that import them, whose diagnostics it
// publishes again. Within a package nothing is kept from one save to the
// next: the analyzer's findings in one function depend on the others (how
// often its callers call it, what its callees allocate), so the package
// edited is type-checked and analyzed whole. A change that only the go command can interpret (imports,
// build constraints, package clauses, the Go files of a directory, go.mod,
// go.work, cgo) loads everything anew, as the first analysis did.
//
// The protocol types and the JSON-RPC connection are go.lsp.dev/protocol and
// go.lsp.dev/jsonrpc2.
package lsp
