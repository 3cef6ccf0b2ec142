// Package doclinks holds a test of the documentation's relative links.
package doclinks

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	link    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile(`^#{1,6} +(.+?) *#*$`)
)

// TestLinks checks that every relative link of the README and of docs/
// leads to a file of the repository and, when it has a fragment, to a
// heading of that file.
func TestLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{filepath.Join(root, "README.md")}, docs...)
	anchors := map[string]map[string]bool{}
	for _, file := range files {
		links, err := scan(file, anchors)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range links {
			target, fragment, _ := strings.Cut(l, "#")
			path := file
			if target != "" {
				path = filepath.Join(filepath.Dir(file), filepath.FromSlash(target))
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: link %s: %v", file, l, err)
					continue
				}
			}
			if fragment == "" {
				continue
			}
			if !strings.HasSuffix(path, ".md") {
				t.Errorf("%s: link %s: a fragment of a file that is not Markdown", file, l)
				continue
			}
			if _, ok := anchors[path]; !ok {
				if _, err := scan(path, anchors); err != nil {
					t.Fatal(err)
				}
			}
			if !anchors[path][fragment] {
				t.Errorf("%s: link %s: %s has no heading #%s", file, l, path, fragment)
			}
		}
	}
}

// scan returns the relative links of a Markdown file and records the
// anchors of its headings, outside code blocks.
func scan(file string, anchors map[string]map[string]bool) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	anchors[file] = map[string]bool{}
	var links []string
	inCode := false
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			a := slug(m[1])
			if n := seen[a]; n > 0 {
				anchors[file][fmt.Sprintf("%s-%d", a, n)] = true
			} else {
				anchors[file][a] = true
			}
			seen[a]++
		}
		for _, m := range link.FindAllStringSubmatch(line, -1) {
			if target := m[1]; !strings.Contains(target, "://") && !strings.HasPrefix(target, "mailto:") {
				links = append(links, target)
			}
		}
	}
	return links, nil
}

// slug is the anchor GitHub gives a heading: lower case, punctuation other
// than hyphens and underscores dropped, spaces turned into hyphens.
func slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}
