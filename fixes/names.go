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
	// taken are the names given so far, siblings included: two declarations
	// of one package never share a name, whatever they were wanted as.
	taken map[string]bool
}

// Declare returns the name under which file f declares (or finds declared) a
// package-level object that the fix wants to call want, and whether f must
// declare it. same reports whether an existing object is the one the fix
// would declare (then it is reused, wherever it is declared).
//
// The first file to declare it gets want; another file of the package,
// whose fix must stand alone too, declares its own copy under want followed
// by the file's name, as a person keeping one copy per file would name it
// (appendHMACSHA256Signer in signer.go), then numbered.
//
// A declaration of several objects asks for want and gives the suffixes of the
// others' names, which sibling spells: all of them must be free.
func (n *PackageNames) Declare(f *File, want string, same func(types.Object) bool, suffixes ...string) (string, bool) {
	name, found := n.find(f, want, same, suffixes)
	if found != nil {
		return name, false
	}
	tf := f.Fset.File(f.AST.FileStart)
	if n.given == nil {
		n.given, n.taken = map[string]map[*token.File]string{}, map[string]bool{}
	}
	if n.given[want] == nil {
		n.given[want] = map[*token.File]string{}
	}
	n.given[want][tf] = name
	n.taken[name] = true
	for _, sfx := range suffixes {
		n.taken[sibling(want, name, sfx)] = true
	}
	return name, true
}

// find returns the name that Declare gives file f's declaration of want,
// with the existing object that it reuses under that name, or nil when f
// declares it (or a fix of f declared it already).
func (n *PackageNames) find(f *File, want string, same func(types.Object) bool, suffixes []string) (string, types.Object) {
	tf := f.Fset.File(f.AST.FileStart)
	if name, ok := n.given[want][tf]; ok {
		return name, nil
	}
	// The endings to try: none, the file's word, then numbered.
	word := fileWord(tf.Name())
	for i := 0; ; i++ {
		var name string
		switch {
		case i == 0:
			name = want
		case word != "" && i == 1:
			name = want + word
		case word != "":
			name = want + word + strconv.Itoa(i)
		default:
			name = want + strconv.Itoa(i+1)
		}
		if obj := n.Pkg.Scope().Lookup(name); obj != nil {
			if same(obj) {
				return name, obj
			}
			continue
		}
		if n.free(want, name, suffixes) {
			return name, nil
		}
	}
}

// sibling returns the name of the object that a declaration of several
// objects, named name where it wanted want, declares with suffix: want and
// suffix, then the ending that name has after want, so that every object of
// a file's copy ends with the file's word (pooledHashesWeburl beside
// pooledHashWeburl), and of a numbered copy with its number.
func sibling(want, name, suffix string) string {
	return want + suffix + strings.TrimPrefix(name, want)
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

// free reports whether name and its siblings, for each suffix, are declared
// neither in the package nor as an import name of one of its files, are not
// reserved, and were not given to another declaration.
func (n *PackageNames) free(want, name string, suffixes []string) bool {
	for _, sfx := range append([]string{""}, suffixes...) {
		s := sibling(want, name, sfx)
		if n.taken[s] || n.Reserved[s] || sfx != "" && n.Pkg.Scope().Lookup(s) != nil {
			return false
		}
		for _, scope := range n.FileScopes {
			if scope != nil && scope.Lookup(s) != nil {
				return false
			}
		}
	}
	return true
}
