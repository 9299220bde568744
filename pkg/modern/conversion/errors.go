package conversion

// Errors: client-go decides what to do from apimachinery's StatusError (a
// reflector relists on 410 Gone, leader election creates its lock on 404).
// Our client returns pkg/api/errors.StatusError; Error translates.

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	k8serrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Error returns err as an apimachinery StatusError when it carries a
// Status, and unchanged otherwise. The reason strings of v0.4 and those we
// added are spelled as today's (NotFound, Conflict, Gone, ...), so they
// carry over as they are, together with the HTTP code.
func Error(err error) error {
	if err == nil {
		return nil
	}
	s, ok := err.(apierrors.APIStatus)
	if !ok {
		return err
	}
	status := s.Status()
	return &k8serrors.StatusError{ErrStatus: *StatusToV1(&status)}
}

// StatusToV1 converts a Status, such as the object of a watch ERROR event.
func StatusToV1(in *api.Status) *metav1.Status {
	out := &metav1.Status{
		Status:  in.Status,
		Message: in.Message,
		Reason:  metav1.StatusReason(in.Reason),
		Code:    int32(in.Code),
	}
	if d := in.Details; d != nil {
		out.Details = &metav1.StatusDetails{Name: d.ID, Kind: d.Kind}
		for _, c := range d.Causes {
			out.Details.Causes = append(out.Details.Causes, metav1.StatusCause{
				Type: metav1.CauseType(c.Type), Message: c.Message, Field: c.Field,
			})
		}
	}
	return out
}
