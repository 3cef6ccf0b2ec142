package analyzer

import (
	"embed"
	"fmt"
	"go/ast"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// The documentation of every check is a Markdown file in checks/, named
// after the check: the one source of `hashalloc help`, `hashalloc -explain`,
// the analyzer's Doc, the checks in full (docs/checks.md) and the README's
// checks at a glance. A file holds
//
//	the one-line summary
//
//	what the check reports (paragraphs)
//
//	## Example
//	## Fix
//	## Why
//
// in that order; the first code block of the example is the one the README
// shows. TestChecksDocs fails when docs/checks.md or the README disagrees.
//
//go:embed checks/*.md
var checkFiles embed.FS

// Check documents one of hashalloc's checks. Its Name is the stable category
// of its findings: the first word of their messages, the Category of their
// diagnostics, and the name that -checks, the golangci-lint setting checks
// and //hashalloc:ignore accept.
type Check struct {
	// Name is the category, e.g. "hasher-alloc".
	Name string
	// Summary says in one line what the check reports.
	Summary string
	// Doc says what the check reports and where, in Markdown.
	Doc string
	// Example shows code before and after the fix, in Markdown.
	Example string
	// Fix says how the fix rewrites the code, and when there is none.
	Fix string
	// Why says what the reported code costs and what the fix saves.
	Why string
}

// directive is the category of a warning about a //hashalloc:ignore
// comment that names something that is not a check. It is not a check: no
// option turns it off.
const directive = "directive"

// checkNames lists the checks in the order in which they are documented.
var checkNames = []string{hasherAlloc, hmacRekey, concatHash, sumAlloc, hotBuffer}

var checks = loadChecks()

// Checks returns the documentation of every check, in the documented order.
func Checks() []Check {
	return append([]Check(nil), checks...)
}

// LookupCheck returns the documentation of the check named name.
func LookupCheck(name string) (Check, bool) {
	for _, c := range checks {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}

// loadChecks parses the documentation of every check. A malformed file is a
// bug that every test of the package shows, so it panics.
func loadChecks() []Check {
	var all []Check
	for _, name := range checkNames {
		data, err := checkFiles.ReadFile("checks/" + name + ".md")
		if err != nil {
			panic(err)
		}
		c, err := parseCheck(name, string(data))
		if err != nil {
			panic(fmt.Sprintf("analyzer/checks/%s.md: %v", name, err))
		}
		all = append(all, c)
	}
	return all
}

func parseCheck(name, text string) (Check, error) {
	c := Check{Name: name}
	summary, rest, ok := strings.Cut(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n")
	if !ok || strings.Contains(summary, "\n") || strings.HasSuffix(summary, ".") {
		return c, fmt.Errorf("the first paragraph must be a one-line summary without a final period")
	}
	c.Summary = summary
	fields := []*string{&c.Doc, &c.Example, &c.Fix, &c.Why}
	for i, heading := range []string{"## Example", "## Fix", "## Why"} {
		before, after, ok := strings.Cut(rest, "\n"+heading+"\n")
		if !ok {
			return c, fmt.Errorf("no %q section after the %s one", heading, []string{"first", "Example", "Fix"}[i])
		}
		*fields[i] = strings.TrimSpace(before)
		rest = after
	}
	c.Why = strings.TrimSpace(rest)
	for _, f := range fields {
		if *f == "" {
			return c, fmt.Errorf("an empty section")
		}
	}
	return c, nil
}

// Markdown renders c as a section of the checks in full (docs/checks.md).
func (c Check) Markdown() string {
	return fmt.Sprintf("## %s\n\n> %s\n\n%s\n\n### Example\n\n%s\n\n### Fix\n\n%s\n\n### Why\n\n%s\n",
		c.Name, c.Summary, c.Doc, c.Example, c.Fix, c.Why)
}

// Glance renders c for the README's checks at a glance: its summary, a link
// to its section in full (full, a path with no fragment) and the first code
// block of its example.
func (c Check) Glance(full string) string {
	example := c.Example
	if _, rest, ok := strings.Cut(example, "```go\n"); ok {
		if code, _, ok := strings.Cut(rest, "\n```"); ok {
			example = "```go\n" + code + "\n```"
		}
	}
	return fmt.Sprintf("### %s\n\n> %s ([in full](%s#%s))\n\n%s\n", c.Name, c.Summary, full, c.Name, example)
}

// Text renders c for a terminal: Markdown code blocks become indented text.
func (c Check) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n\n%s\n", c.Name, c.Summary, plainText(c.Doc))
	for _, s := range []struct{ title, text string }{{"Example", c.Example}, {"Fix", c.Fix}, {"Why", c.Why}} {
		fmt.Fprintf(&b, "\n%s:\n\n%s\n", s.title, plainText(s.text))
	}
	return b.String()
}

// mdLink is a Markdown link, [text](target).
var mdLink = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)

// plainLinks spells the links of a line of Markdown for a terminal: a link
// to another page of docs/ as that page's path in the repository, after
// its text when the text is not the page's name.
func plainLinks(line string) string {
	return mdLink.ReplaceAllStringFunc(line, func(link string) string {
		m := mdLink.FindStringSubmatch(link)
		text, target := m[1], m[2]
		if !strings.Contains(target, "://") {
			target = "docs/" + target
		}
		if text == m[2] {
			return target
		}
		return text + " (" + target + ")"
	})
}

// plainText indents the code blocks of Markdown text and drops their
// fences, and spells its links as plain text.
func plainText(md string) string {
	var b strings.Builder
	inCode := false
	for line := range strings.SplitSeq(md, "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
			continue
		}
		if inCode && line != "" {
			b.WriteString("    ")
		} else if !inCode {
			line = plainLinks(line)
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// checksDoc lists the checks for the analyzer's Doc.
func checksDoc() string {
	var b strings.Builder
	b.WriteString("Checks (the category of each finding; choose with -checks, explain with -explain CHECK):\n")
	for _, c := range checks {
		fmt.Fprintf(&b, "\n  %-13s %s", c.Name, c.Summary)
	}
	return b.String()
}

// checkSet is the value of -checks: which checks report.
type checkSet struct {
	spec string
	on   map[string]bool // nil: every check
}

func (s *checkSet) String() string {
	if s == nil || s.spec == "" {
		return "all"
	}
	return s.spec
}

// Set parses a comma-separated list read from left to right: "all" turns
// every check on, a name turns one on, "-name" turns one off. The list starts
// from no check, or from all of them when its first entry turns one off, so
// that "-hot-buffer" means "all,-hot-buffer". An empty list is an error: it
// would run every check, the opposite of what it seems to say.
func (s *checkSet) Set(v string) error {
	var items []string
	for item := range strings.SplitSeq(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			items = append(items, item)
		}
	}
	if len(items) == 0 {
		return fmt.Errorf("-checks: %q names no check (want all, a check, or -CHECK to turn one off; see hashalloc help)", v)
	}
	on := map[string]bool{}
	if strings.HasPrefix(items[0], "-") {
		for _, name := range checkNames {
			on[name] = true
		}
	}
	for _, item := range items {
		name, off := strings.CutPrefix(item, "-")
		switch _, known := LookupCheck(name); {
		case name == "all":
			for _, n := range checkNames {
				on[n] = !off
			}
		case known:
			on[name] = !off
		default:
			return fmt.Errorf("-checks: %q is not a check%s: want all, a check (%s) or -CHECK to turn one off",
				item, didYouMean(name), strings.Join(checkNames, ", "))
		}
	}
	s.spec, s.on = strings.Join(items, ","), on
	return nil
}

// enabled reports whether the check named category reports.
func (s *checkSet) enabled(category string) bool {
	return s.on == nil || s.on[category]
}

// checkIgnoreDirective warns about the names in a //hashalloc:ignore comment
// that are not checks: a misspelt name would ignore nothing, silently.
func (p *pass) checkIgnoreDirective(c *ast.Comment, names []string) {
	for _, name := range names {
		if _, ok := LookupCheck(name); ok {
			continue
		}
		p.Report(analysis.Diagnostic{
			Pos:      c.Pos(),
			End:      c.End(),
			Category: directive,
			Message: fmt.Sprintf("%s: //hashalloc:ignore names %q, which is not a check%s, so it ignores nothing; the checks are %s",
				directive, name, didYouMean(name), strings.Join(checkNames, ", ")),
		})
	}
}

// didYouMean suggests the check whose name is closest to name, if one is
// close enough to be a misspelling.
func didYouMean(name string) string {
	best, bestDist := "", 3
	for _, n := range checkNames {
		if d := editDistance(name, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + best + "?)"
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
