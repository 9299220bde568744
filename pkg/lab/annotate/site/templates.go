package site

// The site's own templates: the index and the Markdown pages, parsed into
// a copy of the templates every page shares.

import (
	"embed"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
)

//go:embed assets/site.html
var assets embed.FS

var templates = annotate.Templates(assets, "assets/site.html")
