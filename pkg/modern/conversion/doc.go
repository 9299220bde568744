// Package conversion turns the 2014 objects of pkg/api into client-go's
// k8s.io/api/core/v1 types and back: the modern build's client boundary,
// crossed once on arrival (lists, watch events) and once on a write. Only
// modern code imports it, and the laboratory (the upstream manager's
// adapter; today's stack, which loads the 2014 examples as v1 objects).
//
// Ours: written out field by field (2014's pkg/conversion converted one
// API's versions by reflection). A v1beta1 object's desiredState and
// currentState ride along in annotations under LegacyAnnotationPrefix, so
// what a controller writes back is what it read; Error maps our Status
// errors onto apimachinery's, so client-go recognises a 404 or a 410.
package conversion
