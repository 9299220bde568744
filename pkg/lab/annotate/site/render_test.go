package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate/pages"
)

// writeTree writes files (path → content) under a new temporary root.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// A miniature repository with both ReplicationManager files, and only the
// legacy endpoints controller.
var miniature = map[string]string{
	"pkg/controller/doc.go": "// Package controller keeps replicas.\npackage controller\n",
	"pkg/controller/replication_controller.go": `//go:build !modern

package controller

// Follows the 2014 manager.

// ReplicationManager is the 2014 manager.
type ReplicationManager struct{}

func (rm *ReplicationManager) syncReplicationController() error {
	// Every sync lists pods.
	ListPods()
	return nil
}

func ListPods() {}
`,
	"pkg/controller/replication_controller_modern.go": `//go:build modern

package controller

// ReplicationManager is today's manager.
type ReplicationManager struct{}

// slowStartBatch creates in batches of 1, 2, 4.
func slowStartBatch(count int) int { return count }
`,
	"pkg/service/doc.go":                  "// Package service keeps endpoints.\npackage service\n",
	"pkg/service/endpoints_controller.go": "//go:build !modern\n\npackage service\n\n// EndpointController is the 2014 one.\ntype EndpointController struct{}\n",
	"pkg/controller/pod_control_test.go":  "package controller\n",
}

func TestAModernFileThatExistsIsExcerptedBesideTheLegacyOne(t *testing.T) {
	root := writeTree(t, miniature)
	out := t.TempDir()
	res, err := Build(root, out)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if res.Files != 5 {
		t.Errorf("rendered %d files, want 5 (test files are skipped)", res.Files)
	}
	rm := readPage(t, out, "side-by-side-replication-manager.html")
	for _, want := range []string{
		"<code>slowStartBatch</code>",                                    // a modern excerpt
		"<code>ReplicationManager.<wbr>syncReplicationController</code>", // a focused legacy step
		"No declaration named getPodsToDelete",                           // a missing modern function
		"No declaration named ReplicationManager.synchronize",
	} {
		if !strings.Contains(rm, want) {
			t.Errorf("the ReplicationManager page lacks %q", want)
		}
	}
	// The step's comment is the row's prose, left out of the excerpt.
	if strings.Contains(rm, "Every sync lists pods.") {
		t.Errorf("the ReplicationManager page shows a comment its prose says")
	}
	if strings.Contains(rm, pages.ModernMissing) {
		t.Errorf("the ReplicationManager page says %q although the modern file exists", pages.ModernMissing)
	}
	ep := readPage(t, out, "side-by-side-endpoints.html")
	if n := strings.Count(ep, pages.ModernMissing); n < len(pages.Comparisons[1].Rows) {
		t.Errorf("the endpoints page says %q %d times, want once per row at least", pages.ModernMissing, n)
	}
	modern := readPage(t, out, annotate.PageName("pkg/controller/replication_controller_modern.go"))
	if !strings.Contains(modern, "modern (-tags modern)") || !strings.Contains(modern, annotate.PageName("pkg/controller/replication_controller.go")) {
		t.Errorf("the modern file's page lacks its build label or the link to its 2014 pair")
	}
	legacy := readPage(t, out, annotate.PageName("pkg/controller/replication_controller.go"))
	if !strings.Contains(legacy, "2014 (default build)") || !strings.Contains(legacy, "Follows the 2014 manager.") {
		t.Errorf("the 2014 file's page lacks its build label or its introduction")
	}
}

func TestASiteBuildsFromATreeWithNoneOfTheSources(t *testing.T) {
	out := t.TempDir()
	if _, err := Build(t.TempDir(), out); err != nil {
		t.Fatalf("Build: %v", err)
	}
	for _, c := range pages.Comparisons {
		if page := readPage(t, out, c.Page); !strings.Contains(page, pages.ModernMissing) {
			t.Errorf("%s does not say the modern file is missing", c.Page)
		}
	}
}

func readPage(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(data)
}
