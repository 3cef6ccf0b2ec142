package fixes

import (
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PackageNames hands out the names of the package-level declarations that
// fixes add (an inline pool, a variadic sum, a keyed HMAC pool type), so that
// the fixes of two files of one package never declare the same name — each
// fix must stand alone, so each file declares what it uses — and a
// declaration that already exists with the same meaning is reused.
type PackageNames struct {
	// Pkg is the package the fixes edit.
	Pkg *types.Package
	// FileScopes are the scopes of the package's files: an import's name
	// may not also be declared at package level.
	FileScopes []*types.Scope
	// Reserved are the names that the package's files left out of the
	// analysis (its tests, and the files of other platforms) declare at
	// package level or import: a fix may not declare them either.
	Reserved map[string]bool
	// given maps a wanted name to the name given to each file.
	given map[string]map[*token.File]string
}

// Declare returns the name under which file f declares (or finds declared) a
// package-level object that the fix wants to call want, and whether f must
// declare it. same reports whether an existing object is the one the fix
// would declare (then it is reused, wherever it is declared).
//
// The first file to declare it gets want; another file of the package,
// whose fix must stand alone too, declares its own copy under want followed
// by the file's name, as a person keeping one copy per file would name it.
//
// A declaration of several objects asks for want and gives the suffixes of the
// others' names (want+suffix): all of them must be free.
func (n *PackageNames) Declare(f *File, want string, same func(types.Object) bool, suffixes ...string) (string, bool) {
	tf := f.Fset.File(f.AST.FileStart)
	if n.given == nil {
		n.given = map[string]map[*token.File]string{}
	}
	byFile := n.given[want]
	if name, ok := byFile[tf]; ok {
		return name, true
	}
	taken := map[string]bool{}
	for _, name := range byFile {
		taken[name] = true
	}
	// The names to try: want, then the file's copy named after the file
	// (appendHMACSHA256Signer in signer.go), then numbered.
	names := []string{want}
	if own := want + fileWord(tf.Name()); own != want {
		names = append(names, own)
	}
	var name string
	for i := 0; ; i++ {
		name = names[min(i, len(names)-1)]
		if i >= len(names) {
			name += strconv.Itoa(i - len(names) + 2)
		}
		if obj := n.Pkg.Scope().Lookup(name); obj != nil {
			if same(obj) {
				return name, false
			}
		} else if !taken[name] && n.free(name, suffixes) {
			break
		}
	}
	if byFile == nil {
		byFile = map[*token.File]string{}
		n.given[want] = byFile
	}
	byFile[tf] = name
	return name, true
}

// fileWord spells a file's base name as a word to end an identifier with:
// "signer_v4.go" is SignerV4, "url.go" URL (the initialisms Go names spell
// in capitals), and empty when the name has no letter to start with.
func fileWord(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".go")
	var b strings.Builder
	for _, part := range strings.FieldsFunc(base, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if up := strings.ToUpper(part); initialisms[up] {
			b.WriteString(up)
			continue
		}
		r, size := utf8.DecodeRuneInString(part)
		b.WriteString(string(unicode.ToUpper(r)) + part[size:])
	}
	word := b.String()
	if r, _ := utf8.DecodeRuneInString(word); !unicode.IsUpper(r) {
		return ""
	}
	return word
}

// initialisms are the words that Go names spell in capitals (golint's list,
// and the hashes').
var initialisms = map[string]bool{
	"API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true, "EOF": true, "GUID": true,
	"HMAC": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true, "IP": true, "JSON": true,
	"JWT": true, "MD5": true, "RPC": true, "SHA1": true, "SHA256": true, "SHA512": true, "SQL": true,
	"SSH": true, "TCP": true, "TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true,
	"URI": true, "URL": true, "UUID": true, "XML": true,
}

// free reports whether name and name+suffix, for each suffix, are declared
// neither in the package nor as an import name of one of its files, and are
// not reserved.
func (n *PackageNames) free(name string, suffixes []string) bool {
	for _, sfx := range append([]string{""}, suffixes...) {
		if sfx != "" && n.Pkg.Scope().Lookup(name+sfx) != nil || n.Reserved[name+sfx] {
			return false
		}
		for _, scope := range n.FileScopes {
			if scope != nil && scope.Lookup(name+sfx) != nil {
				return false
			}
		}
	}
	return true
}
