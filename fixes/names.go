package fixes

import (
	"go/token"
	"go/types"
	"strconv"
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
	name := want
	for i := 2; ; i++ {
		if obj := n.Pkg.Scope().Lookup(name); obj != nil {
			if same(obj) {
				return name, false
			}
		} else if !taken[name] && n.free(name, suffixes) {
			break
		}
		name = want + strconv.Itoa(i)
	}
	if byFile == nil {
		byFile = map[*token.File]string{}
		n.given[want] = byFile
	}
	byFile[tf] = name
	return name, true
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
