package annotate

// The tree the pages are made from: the packages read from the
// repository, found by directory and by file, and where each file's page
// goes. Which directories are read is the site's to say.

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Package is one directory of Go files.
type Package struct {
	// Dir is slash-separated and relative to the root.
	Dir   string
	Name  string
	Doc   []Paragraph
	Files []*File
}

// Tree is what was read from the repository: the packages of some of its
// directories, in the order they were read.
type Tree struct {
	// Root is the repository's directory.
	Root     string
	Packages []*Package
	byPath   map[string]*File
	byDir    map[string]*Package
}

// LoadTree reads and splits every non-test Go file of roots and their
// sub-directories under root, in that order. Roots that do not exist are
// skipped, so the site builds from any stage of the repository.
func LoadTree(root string, roots []string) (*Tree, error) {
	s := &Tree{Root: root, byPath: map[string]*File{}, byDir: map[string]*Package{}}
	for _, r := range roots {
		dirs, err := goDirs(root, r)
		if err != nil {
			return nil, err
		}
		for _, d := range dirs {
			if _, seen := s.byDir[d]; seen {
				continue
			}
			p, err := loadPackage(root, d)
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

// loadPackage parses the non-test Go files of dir; nil if there are none.
func loadPackage(root, dir string) (*Package, error) {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		return nil, err
	}
	p := &Package{Dir: dir}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		rel := path.Join(dir, name)
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, err
		}
		f, err := ParseFile(rel, src)
		if err != nil {
			return nil, fmt.Errorf("parsing %s: %v", rel, err)
		}
		p.Files = append(p.Files, f)
	}
	if len(p.Files) == 0 {
		return nil, nil
	}
	// doc.go first, then by name, which puts x_modern.go right after x.go.
	sort.SliceStable(p.Files, func(i, j int) bool {
		di, dj := path.Base(p.Files[i].Path) == "doc.go", path.Base(p.Files[j].Path) == "doc.go"
		if di != dj {
			return di
		}
		return p.Files[i].Path < p.Files[j].Path
	})
	p.Name = p.Files[0].Package
	for _, f := range p.Files {
		if len(f.PackageDoc) > 0 {
			p.Doc = f.PackageDoc
			break
		}
	}
	return p, nil
}

// File returns the file at path, or nil.
func (s *Tree) File(path string) *File { return s.byPath[path] }

// Package returns the package read from dir, or nil.
func (s *Tree) Package(dir string) *Package { return s.byDir[dir] }

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
func (s *Tree) filesFor(dir string, b Variant) []*File {
	p := s.byDir[dir]
	if p == nil {
		return nil
	}
	var out []*File
	for _, f := range p.Files {
		if f.Variant == Shared || f.Variant == b {
			out = append(out, f)
		}
	}
	return out
}

// pair returns the other variant of a tagged file: x.go for x_modern.go
// and the other way round, when it exists.
func (s *Tree) pair(f *File) *File {
	switch f.Variant {
	case Legacy:
		return s.byPath[strings.TrimSuffix(f.Path, ".go")+"_modern.go"]
	case Modern:
		return s.byPath[strings.TrimSuffix(f.Path, "_modern.go")+".go"]
	}
	return nil
}
