package util

// Follows kubernetes/kubernetes pkg/util/validation.go as of v0.4
// (October 2014): the name formats that validation checks against.

import "regexp"

const dnsLabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"

var dnsLabelRegexp = regexp.MustCompile("^" + dnsLabelFmt + "$")

// DNS1123LabelMaxLength is the longest DNS label.
const DNS1123LabelMaxLength = 63

// IsDNSLabel reports whether value is a lower-case RFC 1123 label of at most
// 63 characters.
func IsDNSLabel(value string) bool {
	return len(value) <= DNS1123LabelMaxLength && dnsLabelRegexp.MatchString(value)
}

const dnsSubdomainFmt = dnsLabelFmt + "(\\." + dnsLabelFmt + ")*"

var dnsSubdomainRegexp = regexp.MustCompile("^" + dnsSubdomainFmt + "$")

// DNS1123SubdomainMaxLength is the longest DNS subdomain.
const DNS1123SubdomainMaxLength = 253

// IsDNSSubdomain reports whether value is a lower-case RFC 1123 subdomain of
// at most 253 characters.
func IsDNSSubdomain(value string) bool {
	return len(value) <= DNS1123SubdomainMaxLength && dnsSubdomainRegexp.MatchString(value)
}

const dns952LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?"

var dns952LabelRegexp = regexp.MustCompile("^" + dns952LabelFmt + "$")

// DNS952LabelMaxLength is the longest RFC 952 name, the 2014 limit on
// service ids.
const DNS952LabelMaxLength = 24

// IsDNS952Label reports whether value is an RFC 952 name of at most 24
// characters.
func IsDNS952Label(value string) bool {
	return len(value) <= DNS952LabelMaxLength && dns952LabelRegexp.MatchString(value)
}

var cIdentifierRegexp = regexp.MustCompile("^[A-Za-z_][A-Za-z0-9_]*$")

// IsCIdentifier reports whether value is a C identifier, the 2014 rule for
// environment variable names.
func IsCIdentifier(value string) bool {
	return cIdentifierRegexp.MatchString(value)
}

// IsValidPortNum reports whether port is within 1..65535.
func IsValidPortNum(port int) bool {
	return 0 < port && port < 65536
}
