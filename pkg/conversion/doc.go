// Package conversion turns the 2014 API objects of pkg/api into the
// k8s.io/api/core/v1 types that client-go's informers, listers and the
// modern controllers work on, and back again. It is the modern build's
// client boundary: objects cross it once when they arrive from the
// apiserver (lists and watch events) and once when a controller writes.
//
// Ours: 2014 had a pkg/conversion too, a reflection-driven converter between
// internal and versioned types of one API. This one bridges two APIs seven
// years apart, written out field by field. Fields of v1beta1 that v1 has no
// place for (the manifest's version, id and uuid, a pod's desired status)
// ride along in annotations under LegacyAnnotationPrefix and are restored on
// the way back, so a pod the modern manager creates from a 2014 template
// reaches the apiserver as the legacy manager's pod would. Error maps our
// Status errors onto apimachinery's, so client-go recognises a 404 or a 410.
//
// Only modern code imports this package; the legacy build never links it.
package conversion
