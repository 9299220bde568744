// Package conversion turns the 2014 API objects of pkg/api into the
// k8s.io/api/core/v1 types that client-go's informers, listers and the
// modern controllers work on, and back again. It is the modern build's
// client boundary: objects cross it once when they arrive from the
// apiserver (lists and watch events) and once when a controller writes.
//
// Ours: 2014 had a pkg/conversion too, a reflection-driven converter between
// internal and versioned types of one API. This one bridges two APIs seven
// years apart, written out field by field for the controllers to read. A
// v1beta1 object's desiredState and currentState also travel verbatim in
// annotations under LegacyAnnotationPrefix and are restored on the way back,
// so what a controller writes back is exactly what it read, and a pod the
// modern manager creates from a 2014 template reaches the apiserver as the
// legacy manager's pod would. Error maps our Status errors onto
// apimachinery's, so client-go recognises a 404 or a 410.
//
// Only modern code imports this package; the legacy build never links it.
package conversion
