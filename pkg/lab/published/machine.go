package published

import (
	"regexp"
	"strings"
)

// machinePath finds an absolute path of a machine's own: a home
// directory, a scratch directory or a checkout's usual places, where a
// space, quote, bracket, '=', ':' or backquote, or the line's start,
// comes before it.
var machinePath = regexp.MustCompile("(?m)(?:^|[\\s\"'(=:`>])((?:/home|/root|/tmp|/work|/Users|/var/folders|/private/tmp)/[^\\s\"')`<]*)")

// sessionLabel finds a remark about when in someone's work a binary was
// built, which names nothing a reader can check.
var sessionLabel = regexp.MustCompile(`(?i)\b(?:this session|this round)\b`)

// MachinePaths returns what in text names the machine that wrote it: its
// absolute paths (those of checkout, the repository's location there,
// too) and remarks such as "(start of this session)".
func MachinePaths(text, checkout string) []string {
	var hits []string
	for _, m := range machinePath.FindAllStringSubmatch(text, -1) {
		hits = append(hits, m[1])
	}
	if checkout != "" && checkout != "/" && strings.Contains(text, checkout) {
		hits = append(hits, checkout)
	}
	hits = append(hits, sessionLabel.FindAllString(text, -1)...)
	return hits
}
