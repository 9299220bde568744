package original

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Commit is v0.4 of Kubernetes: "Rev the version to 0.4", 2014-10-14.
const Commit = "4452163ffde9dc58382f313b724ddf3bad8ea13f"

// Source says where to get a repository holding Commit.
const Source = "https://github.com/kubernetes/kubernetes"

// Binaries are the programs Build makes.
var Binaries = []string{"apiserver", "controller-manager", "kubecfg"}

// importPath is where the 2014 tree lived on GOPATH.
const importPath = "github.com/GoogleCloudPlatform/kubernetes"

// BuildInfoFile, written beside the binaries, says what they were built
// from and how.
const BuildInfoFile = "BUILD-INFO"

// BuildOptions says what to build from and where to.
type BuildOptions struct {
	// Src is a Kubernetes git repository holding Commit: a checkout, or a
	// bare git directory.
	Src string
	// Out receives the binaries and BuildInfoFile.
	Out string
	// Scratch receives the exported tree, which it replaces; it is left
	// in place to read after the build.
	Scratch string
	// Go is the go command (default "go").
	Go string
}

// Built says what a build made.
type Built struct {
	Out      string
	Duration time.Duration
	// Sizes are the binaries' sizes in bytes, by name.
	Sizes map[string]int64
}

// Build exports Commit from opts.Src into opts.Scratch, applies the fixes
// and builds Binaries into opts.Out.
func Build(opts BuildOptions) (*Built, error) {
	began := time.Now()
	if opts.Go == "" {
		opts.Go = "go"
	}
	gitDir, err := gitDirOf(opts.Src)
	if err != nil {
		return nil, err
	}
	if opts.Scratch, err = filepath.Abs(opts.Scratch); err != nil {
		return nil, err
	}
	if opts.Out, err = filepath.Abs(opts.Out); err != nil {
		return nil, err
	}
	if err := os.RemoveAll(opts.Scratch); err != nil {
		return nil, err
	}
	tree := filepath.Join(opts.Scratch, "src", filepath.FromSlash(importPath))
	if err := os.MkdirAll(tree, 0o755); err != nil {
		return nil, err
	}
	if err := export(gitDir, tree); err != nil {
		return nil, err
	}
	if err := applyFixes(tree); err != nil {
		return nil, fmt.Errorf("editing the exported tree in %s: %v", tree, err)
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return nil, err
	}
	args := []string{"build", "-o", opts.Out + "/", "-ldflags", strings.Join([]string{
		"-X " + importPath + "/pkg/version.gitCommit=" + Commit,
		// Edited for today's Go, so not the tree as committed.
		"-X " + importPath + "/pkg/version.gitTreeState=dirty",
	}, " ")}
	for _, b := range Binaries {
		args = append(args, "./cmd/"+b)
	}
	cmd := exec.Command(opts.Go, args...)
	cmd.Dir = tree
	// GOPATH mode, as in 2014: the tree's vendored dependencies first,
	// then the tree itself; no cgo, so the binaries are static.
	cmd.Env = append(os.Environ(),
		"GO111MODULE=off",
		"GOFLAGS=",
		"GOWORK=off",
		"CGO_ENABLED=0",
		"GOPATH="+filepath.Join(tree, "Godeps", "_workspace")+string(os.PathListSeparator)+opts.Scratch,
	)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build of the v0.4 tree in %s: %v\n%s", tree, err, out)
	}
	built := &Built{Out: opts.Out, Duration: time.Since(began), Sizes: map[string]int64{}}
	for _, b := range Binaries {
		info, err := os.Stat(filepath.Join(opts.Out, b))
		if err != nil {
			return nil, err
		}
		built.Sizes[b] = info.Size()
	}
	goVersion, _ := exec.Command(opts.Go, "env", "GOVERSION").Output()
	info := fmt.Sprintf("Kubernetes v0.4, commit %s, exported from %s\nbuilt with %s in GOPATH mode, CGO_ENABLED=0, on %s\nedits to the exported tree (see pkg/lab/original/fixes.go):\n",
		Commit, gitDir, strings.TrimSpace(string(goVersion)), time.Now().UTC().Format(time.RFC3339))
	for _, f := range fixes {
		info += "  " + f.name + ": " + f.why + "\n"
	}
	if err := os.WriteFile(filepath.Join(opts.Out, BuildInfoFile), []byte(info), 0o644); err != nil {
		return nil, err
	}
	return built, nil
}

// gitDirOf returns the git directory of src, a checkout or a bare git
// directory, once it is known to hold Commit.
func gitDirOf(src string) (string, error) {
	if src == "" {
		return "", fmt.Errorf("no Kubernetes source given: clone %s and name the clone (it holds v0.4, commit %.7s)", Source, Commit)
	}
	if _, err := os.Stat(src); err != nil {
		return "", fmt.Errorf("the Kubernetes source %s: %v", src, err)
	}
	out, err := exec.Command("git", "-C", src, "rev-parse", "--absolute-git-dir").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s is not a git repository (git: %s): clone %s", src, bytes.TrimSpace(out), Source)
	}
	dir := strings.TrimSpace(string(out))
	if err := exec.Command("git", "--git-dir="+dir, "cat-file", "-e", Commit+"^{commit}").Run(); err != nil {
		return "", fmt.Errorf("%s does not hold commit %.7s (Kubernetes v0.4, 2014-10-14): clone %s, or fetch it into this one", src, Commit, Source)
	}
	return dir, nil
}

// export writes the tree of Commit into dir.
func export(gitDir, dir string) error {
	archive := exec.Command("git", "--git-dir="+gitDir, "archive", "--format=tar", Commit)
	untar := exec.Command("tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	var archiveErr, untarErr bytes.Buffer
	archive.Stderr, untar.Stderr = &archiveErr, &untarErr
	if err := untar.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		untar.Wait()
		return fmt.Errorf("git archive %.7s: %v %s", Commit, err, bytes.TrimSpace(archiveErr.Bytes()))
	}
	if err := untar.Wait(); err != nil {
		return fmt.Errorf("extracting the v0.4 tree into %s: %v %s", dir, err, bytes.TrimSpace(untarErr.Bytes()))
	}
	return nil
}
