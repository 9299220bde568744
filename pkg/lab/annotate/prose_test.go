package annotate

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

func TestInlineMarkupLinksReferencesAndKeepsCodeLiteral(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{
			"a kubernetes reference links to its issue",
			"see kubernetes/kubernetes#6866.",
			`see <a href="https://github.com/kubernetes/kubernetes/issues/6866">kubernetes/kubernetes#6866</a>.`,
		},
		{
			"a bare number is a kubernetes reference",
			"(#7869, May 2015)",
			`(<a href="https://github.com/kubernetes/kubernetes/issues/7869">#7869</a>, May 2015)`,
		},
		{
			"another repository keeps its own address",
			"etcd-io/etcd#925",
			`<a href="https://github.com/etcd-io/etcd/issues/925">etcd-io/etcd#925</a>`,
		},
		{
			"URLs are linked without trailing punctuation",
			"at https://example.org/a/b.",
			`at <a href="https://example.org/a/b">https://example.org/a/b</a>.`,
		},
		{
			"a URL without a real host stays text",
			"http://host:port/api",
			`http://host:port/<wbr>api`, // not a link; it may break after a "/"
		},
		{
			"backticks make code, and code is not linked",
			"call `f(#12)` then #13",
			`call <code>f(#12)</code> then <a href="https://github.com/kubernetes/kubernetes/issues/13">#13</a>`,
		},
		{
			"text is escaped",
			`a < b && "c"`,
			`a &lt; b &amp;&amp; &#34;c&#34;`,
		},
		{
			"a number glued to a word is no reference",
			"C#5 and #12abc",
			`C#5 and #12abc`,
		},
		{
			"an unmatched backtick stays text",
			"one ` tick",
			"one ` tick",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Inline(tc.in)); got != tc.want {
				t.Errorf("Inline(%q)\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestMarkersOpeningAParagraphGetABadge(t *testing.T) {
	for _, tc := range []struct {
		marker, class string
	}{
		{"Ours", "m-ours"},
		{"2014", "m-2014"},
		{"Modern", "m-modern"},
	} {
		t.Run(tc.marker, func(t *testing.T) {
			ps := source.Paragraphs([]string{tc.marker + ": the reason,", "over two lines."})
			if len(ps) != 1 || ps[0].Marker != tc.marker || ps[0].Text != tc.marker+": the reason, over two lines." {
				t.Fatalf("paragraphs = %+v", ps)
			}
			html := string(ProseHTML(ps))
			want := `<span class="badge ` + tc.class + `">` + tc.marker + `:</span> the reason`
			if !strings.Contains(html, want) || !strings.Contains(html, `class="marked `+tc.class+`"`) {
				t.Errorf("html = %s, want the %s badge", html, tc.marker)
			}
		})
	}
}

func TestAMarkerOpeningASentenceMidParagraphGetsTheSameBadge(t *testing.T) {
	ps := source.Paragraphs([]string{"The manager acts. Modern: an informer (history: pod-informer)."})
	if ps[0].Marker != "" {
		t.Errorf("marker = %q, want none: the paragraph does not open with it", ps[0].Marker)
	}
	html := string(ProseHTML(ps))
	if want := `acts. <span class="badge m-modern">Modern:</span> an informer`; !strings.Contains(html, want) {
		t.Errorf("html = %s, want %s", html, want)
	}
	for _, in := range []string{"in October 2014: no badge", "see `Modern: code`", "x.Ours: no"} {
		if html := string(Inline(in)); strings.Contains(html, `class="badge`) {
			t.Errorf("Inline(%q) = %s: a marker that opens no sentence got a badge", in, html)
		}
	}
}

func TestHistoryCitationsLinkEachName(t *testing.T) {
	for in, want := range map[string]string{
		"(history: burst-cap, slow-start)": `(history: <a class="hist" href="history.html#burst-cap">burst-cap</a>, <a class="hist" href="history.html#slow-start">slow-start</a>)`,
		"(2016; history: controller-ref)":  `(2016; history: <a class="hist" href="history.html#controller-ref">controller-ref</a>)`,
		"make history: no citation":        `make history: no citation`,
	} {
		if got := string(Inline(in)); got != want {
			t.Errorf("Inline(%q)\n got %s\nwant %s", in, got, want)
		}
	}
	code := `<span class="c1">// batches (history: burst-cap,</span>` + "\n" + `<span class="c1">// slow-start).</span>`
	got := linkHistoryInCode(code)
	if !strings.Contains(got, historyLink("burst-cap")) || !strings.Contains(got, historyLink("slow-start")) {
		t.Errorf("a citation wrapped over two comment lines is not linked: %s", got)
	}
	if err := checkHistoryLinks("x.html", []byte(historyLink("no-such-change"))); err == nil {
		t.Errorf("a citation of an unknown change passed the check")
	}
}
