package driver

import (
	"os"
	"path/filepath"
	"strings"
)

// cwd is the working directory, for relative paths; empty if unknown.
var cwd, _ = os.Getwd()

// shortPath returns filename relative to the working directory when it lies
// under it, as go vet prints it, and unchanged otherwise.
func shortPath(filename string) string {
	if cwd == "" || !filepath.IsAbs(filename) {
		return filename
	}
	rel, err := filepath.Rel(cwd, filename)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filename
	}
	return rel
}

// splitPosition splits "file:line:col" (or "file:line") into the file and
// the rest, ":line:col".
func splitPosition(pos string) (file, lineCol string) {
	file = pos
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 || !isDigits(file[i+1:]) {
			break
		}
		file = file[:i]
	}
	return file, pos[len(file):]
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
