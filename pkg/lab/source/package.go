package source

// A package is read whole: every non-test Go file of one directory, each
// split into sections, in the order the annotated pages list them.

import (
	"fmt"
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

// LoadPackage parses the non-test Go files of dir, relative to the
// repository at root; nil if there are none.
func LoadPackage(root, dir string) (*Package, error) {
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
