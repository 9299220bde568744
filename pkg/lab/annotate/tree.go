package annotate

// The tree the pages are made from: the packages read from the
// repository, found by directory and by file, and where each file's page
// goes. Which directories are read is the site's to say.

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// Tree is what was read from the repository: the packages of some of its
// directories, in the order they were read.
type Tree struct {
	// Root is the repository's directory.
	Root     string
	Packages []*source.Package
	byPath   map[string]*source.File
	byDir    map[string]*source.Package
}

// LoadTree reads and splits every non-test Go file of roots and their
// sub-directories under root, in that order. Roots that do not exist are
// skipped, so the site builds from any stage of the repository.
func LoadTree(root string, roots []string) (*Tree, error) {
	s := &Tree{Root: root, byPath: map[string]*source.File{}, byDir: map[string]*source.Package{}}
	for _, r := range roots {
		dirs, err := goDirs(root, r)
		if err != nil {
			return nil, err
		}
		for _, d := range dirs {
			if _, seen := s.byDir[d]; seen {
				continue
			}
			p, err := source.LoadPackage(root, d)
			if err != nil {
				return nil, err
			}
			if p == nil {
				continue
			}
			s.Packages = append(s.Packages, p)
			s.byDir[d] = p
			for _, f := range p.Files {
				s.byPath[f.Path] = f
			}
		}
	}
	return s, nil
}

// goDirs lists dir and its sub-directories, dir first, then sorted.
func goDirs(root, dir string) ([]string, error) {
	base := filepath.Join(root, filepath.FromSlash(dir))
	if _, err := os.Stat(base); os.IsNotExist(err) {
		return nil, nil
	}
	var dirs []string
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != base && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		dirs = append(dirs, filepath.ToSlash(rel))
		return nil
	})
	sort.Slice(dirs, func(i, j int) bool {
		if (dirs[i] == dir) != (dirs[j] == dir) {
			return dirs[i] == dir
		}
		return dirs[i] < dirs[j]
	})
	return dirs, err
}

// File returns the file at path, or nil.
func (s *Tree) File(path string) *source.File { return s.byPath[path] }

// Package returns the package read from dir, or nil.
func (s *Tree) Package(dir string) *source.Package { return s.byDir[dir] }

// PageName is the output file name for a source file's page: the path
// with its slashes turned into dots, so every page sits next to the index.
func PageName(path string) string {
	return strings.ReplaceAll(path, "/", ".") + ".html"
}

// PackageAnchor is the id of a package's entry on the index.
func PackageAnchor(dir string) string {
	return "pkg-" + strings.ReplaceAll(dir, "/", "-")
}

// filesFor returns the files of dir compiled by the given build (shared
// files belong to both).
func (s *Tree) filesFor(dir string, b source.Variant) []*source.File {
	p := s.byDir[dir]
	if p == nil {
		return nil
	}
	var out []*source.File
	for _, f := range p.Files {
		if f.Variant == source.Shared || f.Variant == b {
			out = append(out, f)
		}
	}
	return out
}

// pair returns the other variant of a tagged file: x.go for x_modern.go
// and the other way round, when it exists.
func (s *Tree) pair(f *source.File) *source.File {
	switch f.Variant {
	case source.Legacy:
		return s.byPath[strings.TrimSuffix(f.Path, ".go")+"_modern.go"]
	case source.Modern:
		return s.byPath[strings.TrimSuffix(f.Path, "_modern.go")+".go"]
	}
	return nil
}
