// Package resultcache keeps hashalloc's results per package between runs,
// so that a repeat run over unchanged code costs a go list and a look-up.
//
// A package's key (see Keyer) covers everything its result depends on: its
// files and the keys of the packages it imports, hashalloc's build, its
// options, the profile's content and the Go toolchain and build
// configuration; a change to any of them is another key, so an entry is
// never stale: it is only unused, and trimmed. An entry (see Entry) holds the
// package's diagnostics and suggested fixes as byte offsets in the files it
// names, with each file's content hash, checked again when it is read.
//
// The cache lives in the user's cache directory (os.UserCacheDir, then
// hashalloc), or in $HASHALLOC_CACHE; HASHALLOC_CACHE=off turns it off.
// Entries are written to a temporary file and renamed, so concurrent runs
// read whole entries or none; entries unused for a week are deleted, and the
// oldest when the cache outgrows MaxSize.
package resultcache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/tools/go/analysis"
)

// Key is the key of one package's result.
type Key [sha256.Size]byte

// String returns the key in hex.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Limits of the cache's size.
const (
	// MaxSize is the size in bytes above which the oldest entries are
	// deleted.
	MaxSize = 256 << 20
	// maxAge is how long an unused entry is kept.
	maxAge = 7 * 24 * time.Hour
	// trimEvery is how often the cache is trimmed, at most.
	trimEvery = 24 * time.Hour
	// touchAfter is the age from which a hit marks its entry used again
	// (as the go command's cache does, to spare a write on every hit).
	touchAfter = time.Hour
)

// Cache is a directory of entries.
type Cache struct {
	dir     string
	now     func() time.Time
	maxSize int64
}

// DefaultDir returns the cache's directory: $HASHALLOC_CACHE, or hashalloc
// in the user's cache directory. It returns "" when HASHALLOC_CACHE is off.
func DefaultDir() (string, error) {
	if d := os.Getenv("HASHALLOC_CACHE"); d != "" {
		if d == "off" {
			return "", nil
		}
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set HASHALLOC_CACHE, or -cache=off): %v", err)
	}
	return filepath.Join(d, "hashalloc"), nil
}

// Open returns the cache in dir, creating dir.
func Open(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("cache: %v", err)
	}
	return &Cache{dir: dir, now: time.Now, maxSize: MaxSize}, nil
}

// OpenDefault opens the cache in DefaultDir, or returns nil, and no error,
// when HASHALLOC_CACHE is off.
func OpenDefault() (*Cache, error) {
	dir, err := DefaultDir()
	if err != nil || dir == "" {
		return nil, err
	}
	return Open(dir)
}

// Result returns the diagnostics stored under k, with positions in
// files.Fset; it reports false when there are none or they no longer hold
// (see Files.Decode).
func (c *Cache) Result(k Key, files *Files) ([]analysis.Diagnostic, bool) {
	data, ok := c.Get(k)
	if !ok {
		return nil, false
	}
	return files.Decode(data)
}

// path is the file of key's entry.
func (c *Cache) path(k Key) string {
	s := k.String()
	return filepath.Join(c.dir, s[:2], s)
}

// Get returns the data stored under k, if any.
func (c *Cache) Get(k Key) ([]byte, bool) {
	name := c.path(k)
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	if fi, err := os.Stat(name); err == nil && c.now().Sub(fi.ModTime()) > touchAfter {
		now := c.now()
		_ = os.Chtimes(name, now, now) // an entry not marked used is trimmed earlier: no harm
	}
	return data, true
}

// Put stores data under k.
func (c *Cache) Put(k Key, data []byte) error {
	name := c.path(k)
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return fmt.Errorf("cache: %v", err)
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return fmt.Errorf("cache: %v", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cache: %v", err)
	}
	return nil
}

// Trim deletes, at most once a day, the entries unused for a week, then
// the oldest entries while the cache holds more than MaxSize bytes, and
// temporary files a run left behind.
func (c *Cache) Trim() error {
	mark := filepath.Join(c.dir, "trimmed")
	now := c.now()
	if fi, err := os.Stat(mark); err == nil && now.Sub(fi.ModTime()) < trimEvery {
		return nil
	}
	if err := os.WriteFile(mark, nil, 0o666); err != nil {
		return fmt.Errorf("cache: %v", err)
	}
	_ = os.Chtimes(mark, now, now)
	type entry struct {
		name string
		size int64
		used time.Time
	}
	var entries []entry
	var total int64
	err := filepath.WalkDir(c.dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // deleted by a concurrent trim
			}
			return err
		}
		if d.IsDir() || name == mark {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		age := now.Sub(fi.ModTime())
		if age > maxAge || filepath.Base(name)[0] == '.' && age > time.Hour {
			os.Remove(name)
			return nil
		}
		entries = append(entries, entry{name, fi.Size(), fi.ModTime()})
		total += fi.Size()
		return nil
	})
	if err != nil {
		return fmt.Errorf("cache: %v", err)
	}
	slices.SortFunc(entries, func(a, b entry) int { return a.used.Compare(b.used) })
	for _, e := range entries {
		if total <= c.maxSize {
			break
		}
		os.Remove(e.name)
		total -= e.size
	}
	return nil
}

// BuildID returns the SHA-256 of the running executable, in hex: what tells
// one build of hashalloc from another.
func BuildID() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
