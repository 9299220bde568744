package annotate

import (
	"strings"
	"testing"
)

func TestNamesBreakBetweenPathSegmentsAndSelectorsOnly(t *testing.T) {
	for in, want := range map[string]string{
		"pkg/service/endpoints_controller_modern.go":  "pkg/<wbr>service/<wbr>endpoints_controller_modern.go",
		"the v0.4 manager":                            "the v0.4 manager",
		"1.5 s and 0.25":                              "1.5 s and 0.25",
		"rm.queue.Get()":                              "rm.<wbr>queue.<wbr>Get()",
		"EndpointController.getPodServiceMemberships": "EndpointController.<wbr>getPodServiceMemberships",
		"k8s.io/client-go/tools/cache":                "k8s.io/<wbr>client-go/<wbr>tools/<wbr>cache",
		"examples/history/RESULTS.md":                 "examples/<wbr>history/<wbr>RESULTS.md",
		"style.css, README.md#anchor":                 "style.css, README.md#anchor",
		"It ends. Then":                               "It ends. Then",
		"TestWithoutExpectationsASyncBeforeThePodsAreSeenCreatesThemAgain": "Test<wbr>Without<wbr>Expectations<wbr>ASync<wbr>Before<wbr>The<wbr>Pods<wbr>Are<wbr>Seen<wbr>Creates<wbr>Them<wbr>Again",
	} {
		if got := softCode(in); got != want {
			t.Errorf("softCode(%q)\n got %s\nwant %s", in, got, want)
		}
	}
}

// TestNothingOnScreenBreaksInsideAWord: the stylesheet never lets a line
// break inside a word (overflow-wrap: anywhere, word-break: break-all)
// except on paper, where code cannot scroll.
func TestNothingOnScreenBreaksInsideAWord(t *testing.T) {
	css, err := assets.ReadFile("assets/style.css")
	if err != nil {
		t.Fatal(err)
	}
	screen, _, _ := strings.Cut(string(css), "@media print")
	for _, rule := range []string{"overflow-wrap: anywhere", "overflow-wrap: break-word", "word-break: break-all", "word-break: break-word", "word-wrap: break-word"} {
		if strings.Contains(screen, rule) {
			t.Errorf("style.css has %q for the screen", rule)
		}
	}
}
