package testreport

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/procfs"
)

// MutateOptions say what Mutate runs, and where.
type MutateOptions struct {
	// Root is the module's folder; its tracked files, as they are in the
	// work tree, are what is mutated.
	Root string
	// Work is a scratch folder: the copy of the tree and gremlins' files.
	Work string
	// Gremlins is the command that runs gremlins, with its arguments.
	Gremlins []string
	// Coefficient multiplies the time of the first, unmutated test run
	// into each mutant's timeout, which is never below MinTimeout.
	Coefficient int
	// Commit names the tree, as the page prints it.
	Commit string
	// Targets are the packages to mutate; each runs in the builds whose
	// files differ (Build is filled in).
	Targets []Target
	// Log receives gremlins' output, a line per mutant.
	Log io.Writer
	// Done, when set, receives each build's result as soon as it is in,
	// so that a run stopped halfway keeps what it finished.
	Done func(Result) error
}

// Mutate runs gremlins over each target, one after another with one
// worker each (a mutation run is a test run per mutant, and the machine may
// be shared), in a copy of the tree's tracked files, so that nothing of
// _output is copied into each of gremlins' own working copies.
func Mutate(opts MutateOptions) ([]Result, error) {
	src := filepath.Join(opts.Work, "src")
	if err := os.RemoveAll(src); err != nil {
		return nil, err
	}
	if err := exportTree(opts.Root, src); err != nil {
		return nil, err
	}
	var results []Result
	for _, t := range opts.Targets {
		builds, err := buildsOf(src, t)
		if err != nil {
			return nil, err
		}
		for _, b := range builds {
			r, err := mutateOne(opts, src, b)
			if err != nil {
				return nil, err
			}
			results = append(results, r)
			if opts.Done != nil {
				if err := opts.Done(r); err != nil {
					return nil, err
				}
			}
		}
	}
	return results, nil
}

// exportTree copies the files git tracks under root into dir.
func exportTree(root, dir string) error {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		return fmt.Errorf("git ls-files: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		from := filepath.Join(root, name)
		info, err := os.Lstat(from)
		if err != nil || !info.Mode().IsRegular() {
			// Deleted in the work tree, or a link: not source to mutate.
			continue
		}
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

// goFiles lists, for each package under dir (relative to root) in one
// build, its folder relative to dir and its Go files, compiled and not.
type goFiles struct {
	dir               string
	compiled, ignored []string
}

func listGoFiles(root, dir, tags string) ([]goFiles, error) {
	cmd := exec.Command("go", "list", "-tags="+tags, "-f", "{{.Dir}}\t{{join .GoFiles \" \"}}\t{{join .IgnoredGoFiles \" \"}}", "./"+dir+"/...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v %s", dir, err, stderr.String())
	}
	base, err := filepath.Abs(filepath.Join(root, dir))
	if err != nil {
		return nil, err
	}
	var list []goFiles
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		rel, err := filepath.Rel(base, f[0])
		if err != nil {
			return nil, err
		}
		var ignored []string
		for _, name := range strings.Fields(f[2]) {
			if !strings.HasSuffix(name, "_test.go") {
				ignored = append(ignored, name)
			}
		}
		list = append(list, goFiles{filepath.ToSlash(rel), strings.Fields(f[1]), ignored})
	}
	return list, nil
}

// buildsOf returns t once for 2014 and, when -tags modern changes which
// files of its packages compile, once more for modern.
func buildsOf(root string, t Target) ([]Target, error) {
	legacy, err := listGoFiles(root, t.Dir, "")
	if err != nil {
		return nil, err
	}
	modern, err := listGoFiles(root, t.Dir, "modern")
	if err != nil {
		return nil, err
	}
	t2014, tModern := t, t
	t2014.Build, tModern.Build = "2014", "modern"
	if fmt.Sprint(legacy) == fmt.Sprint(modern) {
		return []Target{t2014}, nil
	}
	return []Target{t2014, tModern}, nil
}

// excluded returns the regular expression of the files gremlins must
// leave alone in t: those its build does not compile, and with t.Files
// every other file.
func excluded(root string, t Target) (string, error) {
	tags := ""
	if t.Build == "modern" {
		tags = "modern"
	}
	list, err := listGoFiles(root, t.Dir, tags)
	if err != nil {
		return "", err
	}
	only := map[string]bool{}
	for _, f := range t.Files {
		only[f] = true
	}
	var names []string
	for _, p := range list {
		for _, f := range p.ignored {
			names = append(names, regexp.QuoteMeta(filepath.ToSlash(filepath.Join(p.dir, f))))
		}
		for _, f := range p.compiled {
			if path := filepath.ToSlash(filepath.Join(p.dir, f)); len(only) > 0 && !only[path] {
				names = append(names, regexp.QuoteMeta(path))
			}
		}
	}
	if len(names) == 0 {
		return "", nil
	}
	return "^(" + strings.Join(names, "|") + ")$", nil
}

// MinTimeout is the least time a mutant's tests may run before the mutant
// counts as hung. gremlins times out a mutant at a multiple of its first,
// unmutated test run, whose build is cached, while every mutant's run
// builds the mutated package and its tests again: for a package whose
// tests take two seconds, ten times that is less than the build takes on
// a busy machine, and a mutant the tests would have passed or failed
// counted as hung, that is as caught. (A run of pkg/controller's 2014 build
// beside other work counted most of its mutants hung where a quieter one
// counted a few.) A mutant that hangs for real still ends, after this.
const MinTimeout = 2 * time.Minute

// CoefficientFor returns the timeout coefficient to give gremlins for
// tests whose unmutated run took unmutated: coefficient, or more where
// that times out before floor.
func CoefficientFor(unmutated time.Duration, coefficient int, floor time.Duration) int {
	if unmutated <= 0 {
		return coefficient
	}
	need := int((floor + unmutated - 1) / unmutated)
	return max(coefficient, need)
}

// timeTests runs t's tests once, unmutated, as gremlins' first run does,
// and returns how long they took. It also leaves their build cached.
func timeTests(src string, t Target) (time.Duration, error) {
	args := []string{"test", "-count=1"}
	if t.Build == "modern" {
		args = append(args, "-tags=modern")
	}
	cmd := exec.Command("go", append(args, "./"+t.Dir+"/...")...)
	cmd.Dir = src
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("the unmutated tests of %s (%s) fail: %v\n%s", t.Dir, t.Build, err, out)
	}
	return time.Since(start), nil
}

func mutateOne(opts MutateOptions, src string, t Target) (Result, error) {
	exclude, err := excluded(src, t)
	if err != nil {
		return Result{}, err
	}
	name := strings.ReplaceAll(t.Dir, "/", "-")
	if len(t.Files) > 0 {
		name += "-" + strings.ReplaceAll(strings.Join(t.Files, "-"), "/", "-")
	}
	out, err := filepath.Abs(filepath.Join(opts.Work, name+"-"+t.Build+".json"))
	if err != nil {
		return Result{}, err
	}
	unmutated, err := timeTests(src, t)
	if err != nil {
		return Result{}, err
	}
	coefficient := CoefficientFor(unmutated, opts.Coefficient, MinTimeout)
	args := append([]string{}, opts.Gremlins[1:]...)
	args = append(args, "unleash", "--workers=1", "--timeout-coefficient="+strconv.Itoa(coefficient), "--output="+out)
	if t.Build == "modern" {
		args = append(args, "--tags=modern")
	}
	if exclude != "" {
		args = append(args, "--exclude-files="+exclude)
	}
	cmd := exec.Command(opts.Gremlins[0], args...)
	cmd.Dir = filepath.Join(src, t.Dir)
	prefix := fmt.Sprintf("[%s %s] ", t.Name(), t.Build)
	w := &prefixWriter{w: opts.Log, prefix: prefix}
	cmd.Stdout, cmd.Stderr = w, w
	fmt.Fprintf(opts.Log, "%s%s %s\n", prefix, opts.Gremlins[0], strings.Join(args, " "))
	start := time.Now()
	load := startLoad()
	err = cmd.Run()
	loadMean, loadMax := load.stop()
	if err != nil {
		return Result{}, fmt.Errorf("%sgremlins: %v", prefix, err)
	}
	f, err := os.Open(out)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	counts, survivors, err := ReadGremlins(f, src, t, func(m Mutant) bool { return compiles(src, t, m) })
	if err != nil {
		return Result{}, fmt.Errorf("%s%s: %v", prefix, out, err)
	}
	return Result{
		Target:    t,
		Commit:    opts.Commit,
		Date:      start.UTC().Format("2006-01-02"),
		Load:      fmt.Sprintf("%.1f mean, %.1f at most", loadMean, loadMax),
		Cores:     runtime.NumCPU(),
		Minutes:   time.Since(start).Minutes(),
		Timeout:   (time.Duration(coefficient) * unmutated).Round(time.Second).String(),
		Counts:    counts,
		Survivors: survivors,
	}, nil
}

// prefixWriter starts every line written to w with prefix.
type prefixWriter struct {
	mu      sync.Mutex
	w       io.Writer
	prefix  string
	midLine bool
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if !p.midLine {
			io.WriteString(p.w, p.prefix)
		}
		p.w.Write(line)
		p.midLine = line[len(line)-1] != '\n'
	}
	return len(b), nil
}

// loadSampler reads the one-minute load average every ten seconds.
type loadSampler struct {
	done    chan struct{}
	wg      sync.WaitGroup
	samples []float64
}

func startLoad() *loadSampler {
	l := &loadSampler{done: make(chan struct{})}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		tick := time.NewTicker(10 * time.Second)
		defer tick.Stop()
		for {
			if v, ok := loadAverage(); ok {
				l.samples = append(l.samples, v)
			}
			select {
			case <-l.done:
				return
			case <-tick.C:
			}
		}
	}()
	return l
}

func (l *loadSampler) stop() (mean, max float64) {
	close(l.done)
	l.wg.Wait()
	for _, v := range l.samples {
		mean += v
		if v > max {
			max = v
		}
	}
	if len(l.samples) > 0 {
		mean /= float64(len(l.samples))
	}
	return mean, max
}

// loadAverage is the one-minute load average the kernel reports.
func loadAverage() (float64, bool) {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return 0, false
	}
	load, err := fs.LoadAvg()
	if err != nil {
		return 0, false
	}
	return load.Load1, true
}

// arithmetic is gremlins' ARITHMETIC_BASE: each operator and what it
// becomes.
var arithmetic = map[byte]byte{'+': '-', '-': '+', '*': '/', '/': '*', '%': '*'}

// testVet are the analyzers go test runs before the tests; a mutant that
// fails one of them fails go test without running a test.
var testVet = []string{"-atomic", "-bool", "-buildtags", "-directive", "-errorsas", "-ifaceassert", "-nilfunc", "-printf", "-stringintconv", "-tests"}

// compiles makes the ARITHMETIC_BASE mutation m in the tree at root and
// reports whether its package and the package's tests still get past what
// go test does before running them: compiling and the vet checks. The file
// is put back as it was.
func compiles(root string, t Target, m Mutant) bool {
	file := filepath.Join(root, filepath.FromSlash(m.File))
	orig, err := os.ReadFile(file)
	if err != nil {
		return true
	}
	offset, line := -1, 1
	for i := 0; i < len(orig); i++ {
		if line == m.Line {
			offset = i + m.Column - 1
			break
		}
		if orig[i] == '\n' {
			line++
		}
	}
	if offset < 0 || offset >= len(orig) {
		return true
	}
	to, ok := arithmetic[orig[offset]]
	if !ok {
		return true
	}
	mutated := append([]byte{}, orig...)
	mutated[offset] = to
	if err := os.WriteFile(file, mutated, 0o644); err != nil {
		return true
	}
	defer os.WriteFile(file, orig, 0o644)
	tags := ""
	if t.Build == "modern" {
		tags = "modern"
	}
	args := append([]string{"vet", "-tags=" + tags}, testVet...)
	cmd := exec.Command("go", append(args, "./"+filepath.ToSlash(filepath.Dir(m.File)))...)
	cmd.Dir = root
	return cmd.Run() == nil
}
