package validation

// Ours: v0.4 required only that a pod or controller id be non-empty, and
// stored it under /registry/<resource>/<id> as given. An id such as
// "../controllers/evil" therefore landed under another resource's prefix,
// and from then on every LIST of that resource failed. Every id is checked
// here before it can become part of an etcd key.

import (
	"regexp"

	errs "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// controllerIDRegexp admits the camel-case ids of the 2014 examples
// ("nginxController", "redisSlaveController"): letters, digits, '-', '_'
// and '.', starting and ending with a letter or digit.
var controllerIDRegexp = regexp.MustCompile(`^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`)

// MaxControllerIDLength bounds a replication controller id.
const MaxControllerIDLength = 63

// IsValidControllerID reports whether id may name a replication controller.
// Mixed case is allowed because the 2014 manifests use it; a dot-dot is not.
func IsValidControllerID(id string) bool {
	return len(id) <= MaxControllerIDLength && controllerIDRegexp.MatchString(id) && !containsDotDot(id)
}

func containsDotDot(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == '.' {
			return true
		}
	}
	return false
}

// IsValidObjectID reports whether id may name a pod, endpoints or minion: a
// lower-case DNS subdomain of at most 253 characters, which rules out '/',
// "..", spaces, upper case and anything outside ASCII.
func IsValidObjectID(id string) bool {
	return util.IsDNSSubdomain(id)
}

// IDChecks holds the id rule of each resource, by the resource's URL name.
var IDChecks = map[string]func(string) bool{
	"pods":                   IsValidObjectID,
	"replicationControllers": IsValidControllerID,
	"services":               util.IsDNS952Label,
	"endpoints":              util.IsDNS952Label,
	"minions":                IsValidObjectID,
}

// The allowed forms of names, as the error for a name that breaks its rule
// states them.
const (
	FormDNSLabel     = "must be a DNS label: at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit"
	FormDNSSubdomain = "must be a DNS subdomain: at most 253 characters, DNS labels (lower-case letters, digits and '-', starting and ending with a letter or digit) joined by '.'"
	FormDNS952Label  = "must be an RFC 952 name: at most 24 lower-case letters, digits and '-', starting with a letter and ending with a letter or digit"
	FormControllerID = "must be at most 63 letters (either case), digits, '-', '_' and '.', starting and ending with a letter or digit, with no '..'"
)

// IDForms says in words what IDChecks accepts, by resource.
var IDForms = map[string]string{
	"pods":                   FormDNSSubdomain,
	"replicationControllers": FormControllerID,
	"services":               FormDNS952Label,
	"endpoints":              FormDNS952Label,
	"minions":                FormDNSSubdomain,
}

// ValidateID checks id against the rule for resource and returns a field
// error on "id", stating the allowed form, when it fails.
func ValidateID(resource, id string) errs.ErrorList {
	if id == "" {
		return errs.ErrorList{errs.NewFieldRequired("id", id)}
	}
	check, ok := IDChecks[resource]
	if !ok || !check(id) {
		return errs.ErrorList{errs.NewFieldInvalidForm("id", id, IDForms[resource])}
	}
	return nil
}
