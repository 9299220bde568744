package published

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// page is a results page as rcbench bench writes one, cut down.
const page = `# kube-rewind benchmark results

## The run

- Started 2026-11-29 17:51 UTC; the whole benchmark took 9 min 52 s.

## The ceiling

| target | process | clients | writes/s |
|---|---|---:|---:|
| raw etcd creates | rcbench | 1 | 990 |
| raw etcd creates | rcbench | 64 | 8486 |

## Headline figures

| scenario, size: figure | process | legacy | modern | upstream |
|---|---|---:|---:|---:|
| scale-up N=1000: time to all running (s) | cluster | 4.13 (4.13–4.34) 5 % | 4.82 (4.34–4.93) 12 % ⚠ | – |
| scale-up N=1000: peak goroutines (goroutines) | controller-manager | 29930 (2991–3008) 1 % | 545 (all runs) | 171 (all runs) |
| scale-up N=100: peak RSS (MiB) | controller-manager | 24.3 | 39.2 | 40.3 |

## Checked against the originals

### modern beside upstream

| scenario, size: figure | process | modern (ours) | upstream | upstream ÷ ours | verdict |
|---|---|---:|---:|---:|---|
| scale-up N=100: peak RSS (MiB) | controller-manager | 39.2 | 40.3 | 1.03 | differs: **NOT EXPLAINED**: its reason predicts more |

## The fair fight

| where | ablation | with it (s) | held |
|---|---|---:|---|
| scale-up N=1000 | the meter | 9.03 | **NOT EXPLAINED** |
| scale-up N=1000 | sparser nodes | 7.51 | yes |

## Sweep

- modern: breaking point scale-up with 30000 pods: 1 of 1 runs failed.

Runs left out:

- scale-up N=1000, upstream: not run: stopped unfinished when the budget ran out.

## The laboratory's share

| run | rcbench CPU | laboratory |
|---|---|---|
| scale-up N=1000 legacy #1 | 1 CPU s | kept up |
| scale-up N=1000 modern #1 | 1 CPU s | saturated |

## Findings

| topic | verdict | why not |
|---|---|---|
| calibrated ceiling | the apiserver creates 4446 pods/s at 64 clients, 52 % of raw etcd |  |
| spread over runs | **NO**: 2 of 9 | **NOT EXPLAINED**: more than predicted |
`

func render(t *testing.T, key string) (string, error) {
	t.Helper()
	r, err := ParseReference(key)
	if err != nil {
		return "", err
	}
	return r.Render(ParseSheet("bench", "examples/bench/RESULTS.md", page))
}

func TestAReferenceReadsTheOneCellItNames(t *testing.T) {
	for key, want := range map[string]string{
		"bench | scale-up N=1000: time to all running (s) | legacy":                         "4.13 s",
		"bench | scale-up N=1000: time to all running (s) | legacy | #3":                    "4.34 s",
		"bench | scale-up N=1000: time to all running (s) | legacy | bare":                  "4.13",
		"bench | scale-up N=1000: peak goroutines (goroutines) | legacy":                    "29 930 goroutines",
		"bench | raw etcd creates & clients=64 | writes/s | unit=creates/s":                 "8 486 creates/s",
		"bench | * & clients=1 | writes/s":                                                  "990",
		"bench | calibrated ceiling | verdict | #3":                                         "52 %",
		"bench | calibrated ceiling | verdict | words":                                      "the apiserver creates 4446 pods/s at 64 clients, 52 % of raw etcd",
		"bench | after the whole benchmark took":                                            "9 min 52 s",
		"bench | after modern: breaking point scale-up with | unit=pods":                    "30 000 pods",
		"bench > modern beside upstream | scale-up N=100: peak RSS (MiB) | upstream ÷ ours": "1.03 (NOT EXPLAINED on its page)",
	} {
		got, err := render(t, key)
		if err != nil || got != want {
			t.Errorf("%s: got %q, %v; want %q", key, got, err, want)
		}
	}
}

func TestAReferenceCarriesWhatThePageSaysOfItsFigure(t *testing.T) {
	for key, want := range map[string]string{
		// The difference its page could not explain.
		"bench | scale-up N=100: peak RSS (MiB) | upstream": "40.3 MiB (NOT EXPLAINED on its page)",
		"bench | scale-up N=100: peak RSS (MiB) | legacy":   "24.3 MiB",
		// A spread flagged where the page's spread is not explained,
		// and a run the laboratory did not keep up with.
		"bench | scale-up N=1000: time to all running (s) | modern": "4.82 s (its spread NOT EXPLAINED on its page; the laboratory did not keep up in 1 of its runs)",
		// Rows that share their first cell: each carries only its own
		// verdict.
		"bench > The fair fight | scale-up N=1000 & ablation=sparser nodes | with it (s) | unit=s": "7.51 s",
		"bench > The fair fight | scale-up N=1000 & ablation=the meter | with it (s) | unit=s":     "9.03 s (NOT EXPLAINED on its page)",
		// A run left out.
		"bench | scale-up N=1000: peak goroutines (goroutines) | upstream": "171 goroutines (1 run(s) of it failed or left out)",
	} {
		got, err := render(t, key)
		if err != nil || got != want {
			t.Errorf("%s: got %q, %v; want %q", key, got, err, want)
		}
	}
}

func TestAReferenceThatNamesNoneOrManyFails(t *testing.T) {
	for key, want := range map[string]string{
		"bench | scale-up N=3000: time to all running (s) | legacy":   "no cell",
		"bench | raw etcd creates | writes/s":                         "2 cells",
		"bench | scale-up N=1000: time to all running (s) | upstream": "holds 0 figure(s)",
		"bench | after raw etcd creates":                              "occurs",
		"bench | after no such words":                                 "no text",
		"nosuch | a | b":                                              "",
		"bench | a row with no column":                                "needs a column",
		"bench | a | b | #0":                                          "not #N",
		"bench | a | b | loud":                                        "unknown option",
		"bench | calibrated ceiling | verdict | #9":                   "not a #9",
	} {
		_, err := render(t, key)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error saying %q", key, err, want)
		}
	}
}

func TestGroupWritesThousandsAsTheProseDoes(t *testing.T) {
	for in, want := range map[string]string{
		"99257": "99 257", "4446 pods/s": "4 446 pods/s", "990": "990", "+1.15 MiB": "+1.15 MiB",
		"2\u202f998": "2 998", "1 000": "1 000", "10110.5 s": "10 110.5 s", "9 min 52 s": "9 min 52 s",
	} {
		if got := Group(in); got != want {
			t.Errorf("Group(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUncitedFindsFiguresThatLookMeasured(t *testing.T) {
	text := "It took 4.13 s and 3 000 goroutines, four times the other.\n" +
		"The tick is 10 s; `-runs=3` and 7 runs.\n" +
		"```\n12 s in code\n```\n" +
		"<!-- cite bench | after took -->9 min 52 s<!-- /cite --> and [a link](x/12%20s.md) in 2014 pods.\n"
	var got []string
	for _, u := range Uncited(text, []Constant{{Go: "x.tick", Text: "10 s"}}) {
		got = append(got, u.Text)
	}
	want := []string{"4.13 s", "3 000 goroutines", "four times", "7 runs"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Uncited found %q, want %q", got, want)
	}
}

// writeTree writes files into a new repository-like folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestTheCheckCatchesAFigureChangedByHand plants each drift the check
// is for: a cited figure edited by hand, a page republished under its
// prose, a figure copied without a reference, a reference to a row gone,
// and a constant the code no longer has.
func TestTheCheckCatchesAFigureChangedByHand(t *testing.T) {
	const prose = "# x\n\n2014 took <!-- cite bench | scale-up N=1000: time to all running (s) | legacy -->?<!-- /cite --> with a 10 s tick.\n"
	root := writeTree(t, map[string]string{
		"examples/bench/RESULTS.md": page,
		"examples/x/README.md":      prose,
		"cmd/m/m.go":                "package m\n\nimport \"time\"\n\nconst tick = 10 * time.Second\n",
	})
	constants, err := Constants(root, []Mirror{{Dir: "cmd/m", Name: "tick", Form: "{s} s"}})
	if err != nil {
		t.Fatal(err)
	}
	changed, err := FillProse(root)
	if err != nil || len(changed) != 1 {
		t.Fatalf("FillProse: %v, %v", changed, err)
	}
	check := func(what string, wantWritten, wantPage string) {
		t.Helper()
		drifts, err := CheckProse(root, constants)
		if err != nil {
			t.Fatal(err)
		}
		if wantWritten == "" {
			if len(drifts) > 0 {
				t.Errorf("%s: the check found %v", what, drifts)
			}
			return
		}
		if len(drifts) != 1 || drifts[0].Written != wantWritten || drifts[0].Page != wantPage || drifts[0].File != "examples/x/README.md" || drifts[0].Line != 3 {
			t.Errorf("%s: the check found %v, want one drift at examples/x/README.md:3 writing %q where the page says %q", what, drifts, wantWritten, wantPage)
		}
	}
	edit := func(file, from, to string) {
		t.Helper()
		path := filepath.Join(root, file)
		data, _ := os.ReadFile(path)
		if !strings.Contains(string(data), from) {
			t.Fatalf("%s has no %q", file, from)
		}
		os.WriteFile(path, []byte(strings.Replace(string(data), from, to, 1)), 0o644)
	}
	check("as filled", "", "")

	edit("examples/x/README.md", "-->4.13 s<", "-->4.12 s<")
	check("a cited figure edited by hand", "4.12 s", "4.13 s")
	edit("examples/x/README.md", "-->4.12 s<", "-->4.13 s<")

	edit("examples/bench/RESULTS.md", "| 4.13 (4.13–4.34)", "| 5.01 (4.13–5.34)")
	check("the page republished", "4.13 s", "5.01 s")
	if _, err := FillProse(root); err != nil {
		t.Fatal(err)
	}
	check("the prose filled again", "", "")

	edit("examples/x/README.md", "with a 10 s", "in 3.5 s, with a 10 s")
	check("a figure copied", "3.5 s", "")
	edit("examples/x/README.md", "in 3.5 s, with a 10 s", "with a 10 s")

	edit("examples/bench/RESULTS.md", "scale-up N=1000: time to all running (s)", "scale-up N=1000: time to all created (s)")
	check("its row gone", "5.01 s", "")
	edit("examples/bench/RESULTS.md", "scale-up N=1000: time to all created (s)", "scale-up N=1000: time to all running (s)")

	edit("cmd/m/m.go", "10 * time.Second", "5 * time.Second")
	if constants, err = Constants(root, []Mirror{{Dir: "cmd/m", Name: "tick", Form: "{s} s"}}); err != nil {
		t.Fatal(err)
	}
	check("the constant changed in the code", "10 s", "")
}

func TestGoValueReadsConstantsFlagsAndLists(t *testing.T) {
	root := writeTree(t, map[string]string{
		"p/a.go": "package p\n\nimport (\n\t\"flag\"\n\t\"time\"\n)\n\nconst base = 2\n\nconst limit = base*time.Minute + 6*time.Millisecond\n\n" +
			"var period = flag.Duration(\"period\", 10*time.Second, \"\")\n\nvar sizes = []int{100, 1_000}\n\nvar qps = flag.Float64(\"qps\", 20, \"\")\n",
	})
	for name, want := range map[string][]float64{
		"limit": {120e9 + 6e6}, "period": {10e9}, "sizes": {100, 1000}, "qps": {20},
	} {
		got, err := GoValue(root, "p", name)
		if err != nil || len(got) != len(want) || got[0] != want[0] || got[len(got)-1] != want[len(want)-1] {
			t.Errorf("GoValue(%s) = %v, %v; want %v", name, got, err, want)
		}
	}
	if _, err := GoValue(root, "p", "missing"); err == nil {
		t.Error("GoValue of an undeclared name: no error")
	}
	cs, err := Constants(root, []Mirror{{Dir: "p", Name: "sizes", Form: "{} pods"}, {Dir: "p", Name: "period", Form: "{s} s"}})
	if err != nil || len(cs) != 3 || cs[1].Text != "1 000 pods" || cs[2].Text != "10 s" || cs[2].Go != "p.period" {
		t.Errorf("Constants = %v, %v", cs, err)
	}
}

// TestEvidenceIsHeldToThePageOfItsCommit reads a figure from a page as
// git holds it at the commit that published it, and plants one changed
// by hand.
func TestEvidenceIsHeldToThePageOfItsCommit(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	if _, err := Git(root, "cat-file", "-e", "550d3e4^{commit}"); err != nil {
		t.Skipf("the repository's history is not here (a shallow clone?): %v", err)
	}
	key := "originals | scale-up N=100: peak RSS (MiB) | legacy"
	if err := CheckEvidence(root, Evidence{Commit: "550d3e4", Key: key, Value: "23.6 MiB"}); err != nil {
		t.Errorf("the evidence as published: %v", err)
	}
	if err := CheckEvidence(root, Evidence{Commit: "550d3e4", Key: key, Value: "23.5 MiB"}); err == nil || !strings.Contains(err.Error(), `said "23.6 MiB"`) {
		t.Errorf("a figure changed by hand: got %v, want the page's 23.6 MiB named", err)
	}
	if err := CheckEvidence(root, Evidence{Commit: "0000000", Key: key, Value: "23.6 MiB"}); err == nil {
		t.Error("a commit that published no page: no error")
	}
	if got := Evident("550d3e4", key, "23.6 MiB"); got != "23.6 MiB on the originals page of 550d3e4" {
		t.Errorf("Evident writes %q", got)
	}
}
