package pages

// The pages' templates: the side-by-side pages, the walk and the history,
// parsed into a copy of the templates every page shares.

import (
	"embed"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
)

//go:embed assets/pages.html
var assets embed.FS

var templates = annotate.Templates(assets, "assets/pages.html")
