// Package passes runs analysis passes on one package at a time, given the
// facts of the packages it imports, as golang.org/x/tools/go/analysis/checker
// does for a whole graph at once: so that the language server re-analyzes on
// a save only the packages that changed, and the command only the packages
// its result cache has nothing for.
package passes

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"runtime/debug"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// Unit is one type-checked package, ready for analysis.
type Unit struct {
	Fset         *token.FileSet
	Files        []*ast.File
	OtherFiles   []string
	IgnoredFiles []string
	Pkg          *types.Package
	Info         *types.Info
	Sizes        types.Sizes
	TypeErrors   []types.Error
	IllTyped     bool // the package or a package it imports has errors
	Module       *packages.Module
	// ReadFile returns the content of one of the package's files.
	ReadFile func(name string) ([]byte, error)
	// Results are the results, computed already, of analyzers without
	// facts or diagnostics that the analyzer run requires (the language
	// server builds the inspector while it type-checks the package): Run
	// takes them rather than running those analyzers.
	Results map[*analysis.Analyzer]any
}

// FactSet is what one analyzer knows through facts at one package: the
// facts it exported there and those it inherited from the packages
// imported, as the checker keeps them.
type FactSet struct {
	objects  map[objectFactKey]analysis.Fact
	packages map[packageFactKey]analysis.Fact
}

// NewFactSet returns an empty set of facts.
func NewFactSet() *FactSet {
	return &FactSet{objects: map[objectFactKey]analysis.Fact{}, packages: map[packageFactKey]analysis.Fact{}}
}

// SetObject records fact about obj.
func (s *FactSet) SetObject(obj types.Object, fact analysis.Fact) {
	s.objects[objectFactKey{obj, reflect.TypeOf(fact)}] = fact
}

// SetPackage records fact about pkg.
func (s *FactSet) SetPackage(pkg *types.Package, fact analysis.Fact) {
	s.packages[packageFactKey{pkg, reflect.TypeOf(fact)}] = fact
}

// Objects returns the facts of s about objects, in no particular order.
func (s *FactSet) Objects() []analysis.ObjectFact {
	all := make([]analysis.ObjectFact, 0, len(s.objects))
	for k, f := range s.objects {
		all = append(all, analysis.ObjectFact{Object: k.obj, Fact: f})
	}
	return all
}

// Own returns the facts of s about pkg and its objects, the facts a pass on
// pkg exported, in no particular order.
func (s *FactSet) Own(pkg *types.Package) (objects []analysis.ObjectFact, packages []analysis.Fact) {
	for k, f := range s.objects {
		if k.obj.Pkg() == pkg {
			objects = append(objects, analysis.ObjectFact{Object: k.obj, Fact: f})
		}
	}
	for k, f := range s.packages {
		if k.pkg == pkg {
			packages = append(packages, f)
		}
	}
	return objects, packages
}

type objectFactKey struct {
	obj types.Object
	typ reflect.Type
}

type packageFactKey struct {
	pkg *types.Package
	typ reflect.Type
}

// Imported is what a package imports, as analysis needs it: the package's
// types and the facts of each analyzer there, nil for an analyzer that
// failed on it.
type Imported struct {
	Pkg   *types.Package
	Facts map[*analysis.Analyzer]*FactSet
}

// Output is what the passes on one package give: the diagnostics of the
// analyzer asked for, or the error that stopped it, and the facts of every
// analyzer that has fact types (the one asked for and those it requires).
type Output struct {
	Diags []analysis.Diagnostic
	Err   error
	Facts map[*analysis.Analyzer]*FactSet
}

// Run runs root, after the analyzers it requires, on u. imports are the
// packages u imports, with the facts computed there. An analyzer that panics
// is an error, not a crash of the server.
func Run(root *analysis.Analyzer, u *Unit, imports []Imported) *Output {
	out := &Output{Facts: map[*analysis.Analyzer]*FactSet{}}
	results := map[*analysis.Analyzer]any{}
	errs := map[*analysis.Analyzer]error{}
	var run func(a *analysis.Analyzer) error
	run = func(a *analysis.Analyzer) error {
		if err, done := errs[a]; done {
			return err
		}
		errs[a] = nil
		if res, ok := u.Results[a]; ok {
			results[a] = res
			return nil
		}
		err := func() error {
			inputs := map[*analysis.Analyzer]any{}
			for _, req := range a.Requires {
				if err := run(req); err != nil {
					return fmt.Errorf("failed prerequisites: %s", req)
				}
				inputs[req] = results[req]
			}
			var facts *FactSet
			if len(a.FactTypes) > 0 {
				var ok bool
				if facts, ok = Inherit(a, imports); !ok {
					return fmt.Errorf("failed prerequisites: %s on a package that %s imports", a, u.Pkg.Path())
				}
			}
			res, diags, err := runPass(a, u, inputs, facts)
			if err != nil {
				return err
			}
			results[a] = res
			if facts != nil {
				out.Facts[a] = facts
			}
			if a == root {
				out.Diags = diags
			}
			return nil
		}()
		errs[a] = err
		return err
	}
	out.Err = run(root)
	if out.Err != nil {
		out.Diags = nil
	}
	return out
}

// Inherit returns the facts of a that a package importing imports starts
// with: those of every imported package about objects that may be visible
// through it, and every package fact, as the checker passes them on. It
// returns false when a failed on an imported package.
func Inherit(a *analysis.Analyzer, imports []Imported) (*FactSet, bool) {
	facts := NewFactSet()
	for _, imp := range imports {
		from := imp.Facts[a]
		if from == nil {
			return nil, false
		}
		for k, f := range from.objects {
			if exportedFrom(k.obj, imp.Pkg) {
				facts.objects[k] = f
			}
		}
		for k, f := range from.packages {
			facts.packages[k] = f
		}
	}
	return facts, true
}

// exportedFrom reports whether obj may be visible to a package that imports
// pkg: the checker's over-approximation of what export data holds, which
// decides which facts it passes on.
func exportedFrom(obj types.Object, pkg *types.Package) bool {
	switch obj := obj.(type) {
	case *types.Func:
		return obj.Exported() && obj.Pkg() == pkg || obj.Signature().Recv() != nil
	case *types.Var:
		return obj.IsField() || obj.Pkg() == pkg
	case *types.TypeName, *types.Const:
		return true
	}
	return false
}

// runPass runs one analyzer on u, with the results of the analyzers it
// requires and, when it has fact types, its facts (which it adds to).
func runPass(a *analysis.Analyzer, u *Unit, inputs map[*analysis.Analyzer]any, facts *FactSet) (res any, diags []analysis.Diagnostic, err error) {
	if u.IllTyped && !a.RunDespiteErrors {
		return nil, nil, fmt.Errorf("analysis skipped due to errors in package")
	}
	running := true
	var exportErr, reportErr error
	pass := &analysis.Pass{
		Analyzer:     a,
		Fset:         u.Fset,
		Files:        u.Files,
		OtherFiles:   u.OtherFiles,
		IgnoredFiles: u.IgnoredFiles,
		Pkg:          u.Pkg,
		TypesInfo:    u.Info,
		TypesSizes:   u.Sizes,
		TypeErrors:   u.TypeErrors,
		Module:       analysisModule(u.Module),
		ResultOf:     inputs,
		Report: func(d analysis.Diagnostic) {
			if err := validFixes(u.Fset, d.SuggestedFixes); err != nil && reportErr == nil {
				reportErr = fmt.Errorf("internal error: %s suggests an invalid fix on package %s: %v", a, u.Pkg.Path(), err)
			}
			diags = append(diags, d)
		},
		ReadFile: func(name string) ([]byte, error) {
			if !readable(u, name) {
				return nil, fmt.Errorf("Pass.ReadFile: %s is not among OtherFiles, IgnoredFiles, or names of Files", name)
			}
			return u.ReadFile(name)
		},
	}
	if facts == nil {
		facts = NewFactSet()
	}
	pass.ImportObjectFact = func(obj types.Object, fact analysis.Fact) bool {
		if obj == nil {
			return false
		}
		return copyFact(facts.objects[objectFactKey{obj, reflect.TypeOf(fact)}], fact)
	}
	pass.ImportPackageFact = func(pkg *types.Package, fact analysis.Fact) bool {
		if pkg == nil {
			return false
		}
		return copyFact(facts.packages[packageFactKey{pkg, reflect.TypeOf(fact)}], fact)
	}
	pass.ExportObjectFact = func(obj types.Object, fact analysis.Fact) {
		switch {
		case !running:
			exportErr = fmt.Errorf("%s exported a fact about %s after its run", a, obj)
		case obj == nil || obj.Pkg() != u.Pkg:
			exportErr = fmt.Errorf("%s exported a fact about %s, which is not of package %s", a, obj, u.Pkg.Path())
		default:
			facts.objects[objectFactKey{obj, reflect.TypeOf(fact)}] = fact
		}
	}
	pass.ExportPackageFact = func(fact analysis.Fact) {
		if !running {
			exportErr = fmt.Errorf("%s exported a package fact after its run", a)
			return
		}
		facts.SetPackage(u.Pkg, fact)
	}
	pass.AllObjectFacts = facts.Objects
	pass.AllPackageFacts = func() []analysis.PackageFact {
		all := make([]analysis.PackageFact, 0, len(facts.packages))
		for k, f := range facts.packages {
			all = append(all, analysis.PackageFact{Package: k.pkg, Fact: f})
		}
		return all
	}

	defer func() {
		running = false
		if r := recover(); r != nil {
			res, diags, err = nil, nil, fmt.Errorf("internal error: %s panicked on package %s: %v\n%s", a, u.Pkg.Path(), r, debug.Stack())
		}
	}()
	res, err = a.Run(pass)
	switch {
	case err != nil:
		return nil, nil, err
	case exportErr != nil:
		return nil, nil, fmt.Errorf("internal error: %w", exportErr)
	case reportErr != nil:
		return nil, nil, reportErr
	case reflect.TypeOf(res) != a.ResultType:
		return nil, nil, fmt.Errorf("internal error: on package %s, analyzer %s returned a result of type %v, but declared ResultType %v",
			u.Pkg.Path(), a, reflect.TypeOf(res), a.ResultType)
	}
	return res, diags, nil
}

// copyFact copies the fact from into to, which has its type, and reports
// whether there was one.
func copyFact(from, to analysis.Fact) bool {
	if from == nil {
		return false
	}
	reflect.ValueOf(to).Elem().Set(reflect.ValueOf(from).Elem())
	return true
}

// readable reports whether a pass on u may read the file name, as the
// checker allows: a file of the package, Go or other.
func readable(u *Unit, name string) bool {
	if slices.Contains(u.OtherFiles, name) || slices.Contains(u.IgnoredFiles, name) {
		return true
	}
	for _, f := range u.Files {
		if u.Fset.File(f.FileStart).Name() == name {
			return true
		}
	}
	return false
}

// analysisModule is the module of a package as a pass spells it: never nil,
// empty when unknown, as the checker gives it.
func analysisModule(m *packages.Module) *analysis.Module {
	if m == nil {
		return &analysis.Module{}
	}
	return convertModule(m)
}

func convertModule(m *packages.Module) *analysis.Module {
	if m == nil {
		return nil
	}
	am := &analysis.Module{
		Path:      m.Path,
		Version:   m.Version,
		Replace:   convertModule(m.Replace),
		Time:      m.Time,
		Main:      m.Main,
		Indirect:  m.Indirect,
		Dir:       m.Dir,
		GoMod:     m.GoMod,
		GoVersion: m.GoVersion,
	}
	if m.Error != nil {
		am.Error = &analysis.ModuleError{Err: m.Error.Err}
	}
	return am
}

// FactAnalyzers returns root and the analyzers it requires, directly or not,
// that have fact types: those whose facts a package passes on to the
// packages importing it.
func FactAnalyzers(root *analysis.Analyzer) []*analysis.Analyzer {
	var all []*analysis.Analyzer
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, req := range a.Requires {
			visit(req)
		}
		if len(a.FactTypes) > 0 {
			all = append(all, a)
		}
	}
	visit(root)
	return all
}

// validFixes checks the fixes of one diagnostic as the checker does, and
// puts them in its form: each fix's edits sorted by position (insertions
// before a deletion at the same point, insertions at one point in their
// order), each with an end; no two fixes with one message, no edit across
// files, no overlapping edits.
func validFixes(fset *token.FileSet, fixes []analysis.SuggestedFix) error {
	messages := map[string]bool{}
	for i := range fixes {
		fix := &fixes[i]
		if messages[fix.Message] {
			return fmt.Errorf("two fixes with the message %q", fix.Message)
		}
		messages[fix.Message] = true
		slices.SortStableFunc(fix.TextEdits, func(x, y analysis.TextEdit) int {
			return cmp.Or(cmp.Compare(x.Pos, y.Pos), cmp.Compare(x.End, y.End))
		})
		for j := range fix.TextEdits {
			e := &fix.TextEdits[j]
			file := fset.File(e.Pos)
			if file == nil {
				return fmt.Errorf("fix %q: an edit at no file", fix.Message)
			}
			if !e.End.IsValid() {
				e.End = e.Pos
			}
			fileEnd := token.Pos(file.Base() + file.Size())
			if e.End > fileEnd && e.End < fileEnd+10 {
				e.End = fileEnd // an end computed past the file's last token, as the checker allows
			}
			if e.End < e.Pos || e.End > fileEnd {
				return fmt.Errorf("fix %q: an edit that ends before it starts or beyond its file", fix.Message)
			}
			if j > 0 && e.Pos < fix.TextEdits[j-1].End {
				return fmt.Errorf("fix %q: overlapping edits in %s", fix.Message, file.Name())
			}
		}
	}
	return nil
}
