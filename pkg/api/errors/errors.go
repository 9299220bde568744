package errors

// Follows kubernetes/kubernetes pkg/api/errors/errors.go as of v0.4 (October
// 2014): messages read `<kind> "<id>" not found` and so on, and the HTTP code
// travels inside the Status.

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

// StatusError is an error carrying the Status the apiserver answers with.
type StatusError struct {
	ErrStatus api.Status
}

// Error returns the Status message.
func (e *StatusError) Error() string {
	return e.ErrStatus.Message
}

// Status returns the Status to send.
func (e *StatusError) Status() api.Status {
	return e.ErrStatus
}

// APIStatus is any error that knows its Status.
type APIStatus interface {
	Status() api.Status
}

// FromObject turns a Status read from the wire back into an error.
func FromObject(status *api.Status) error {
	return &StatusError{ErrStatus: *status}
}

func newStatus(code int, reason api.StatusReason, kind, id, message string) *StatusError {
	s := api.Status{
		Status:  api.StatusFailure,
		Code:    code,
		Reason:  reason,
		Message: message,
	}
	if kind != "" || id != "" {
		s.Details = &api.StatusDetails{Kind: kind, ID: id}
	}
	return &StatusError{s}
}

// NewNotFound says the object kind/id does not exist (404).
func NewNotFound(kind, id string) error {
	return newStatus(http.StatusNotFound, api.StatusReasonNotFound, kind, id,
		fmt.Sprintf("%s %q not found", kind, id))
}

// NewAlreadyExists says kind/id already exists (409).
func NewAlreadyExists(kind, id string) error {
	return newStatus(http.StatusConflict, api.StatusReasonAlreadyExists, kind, id,
		fmt.Sprintf("%s %q already exists", kind, id))
}

// NewConflict says kind/id changed since the caller read it (409).
func NewConflict(kind, id string, err error) error {
	return newStatus(http.StatusConflict, api.StatusReasonConflict, kind, id,
		fmt.Sprintf("%s %q cannot be updated: %v", kind, id, err))
}

// NewInvalid says kind/id failed validation (422), with one cause per field.
func NewInvalid(kind, id string, errs ErrorList) error {
	causes := make([]api.StatusCause, 0, len(errs))
	for i := range errs {
		if err, ok := errs[i].(ValidationError); ok {
			causes = append(causes, api.StatusCause{
				Type:    api.CauseType(err.Type),
				Message: err.Error(),
				Field:   err.Field,
			})
		}
	}
	s := newStatus(http.StatusUnprocessableEntity, api.StatusReasonInvalid, kind, id,
		fmt.Sprintf("%s %q is invalid: %v", kind, id, errs.ToError()))
	s.ErrStatus.Details.Causes = causes
	return s
}

// Ours: v0.4 answered the cases below with a plain-text 404 or a 500; this
// port answers each with a Status naming the problem.

// NewBadRequest says the request itself could not be understood (400).
func NewBadRequest(message string) error {
	return newStatus(http.StatusBadRequest, api.StatusReasonBadRequest, "", "", message)
}

// NewMethodNotSupported says the resource does not accept method (405).
func NewMethodNotSupported(kind, method string) error {
	return newStatus(http.StatusMethodNotAllowed, api.StatusReasonMethodNotAllowed, kind, "",
		fmt.Sprintf("%s is not supported on %s", method, kind))
}

// NewGone says the requested resourceVersion is older than what storage
// still remembers (410); the caller must list again.
func NewGone(message string) error {
	return newStatus(http.StatusGone, api.StatusReasonGone, "", "", message)
}

// NewRequestEntityTooLarge says the body exceeds the limit (413).
func NewRequestEntityTooLarge(limit int64) error {
	return newStatus(http.StatusRequestEntityTooLarge, api.StatusReasonRequestEntityTooLarge, "", "",
		fmt.Sprintf("request body is larger than the limit of %d bytes", limit))
}

// NewUnsupportedMediaType says the body's content type is not JSON or YAML (415).
func NewUnsupportedMediaType(contentType string) error {
	return newStatus(http.StatusUnsupportedMediaType, api.StatusReasonUnsupportedMediaType, "", "",
		fmt.Sprintf("content type %q is not supported; send application/json or application/yaml", contentType))
}

// NewTimeout says the server did not finish in time (504).
func NewTimeout(message string) error {
	return newStatus(http.StatusGatewayTimeout, api.StatusReasonTimeout, "", "", message)
}

// NewServiceUnavailable says storage could not be reached (503).
func NewServiceUnavailable(message string) error {
	return newStatus(http.StatusServiceUnavailable, api.StatusReasonServiceUnavailable, "", "", message)
}

// NewInternalError wraps a real server fault (500).
func NewInternalError(err error) error {
	return newStatus(http.StatusInternalServerError, api.StatusReasonInternalError, "", "",
		fmt.Sprintf("internal error: %v", err))
}

// NewStatus builds an error with any code and reason; the fault switch uses
// it to inject the failure a test asks for.
func NewStatus(code int, reason api.StatusReason, message string) error {
	return newStatus(code, reason, "", "", message)
}

func reasonOf(err error) api.StatusReason {
	if s, ok := err.(APIStatus); ok {
		return s.Status().Reason
	}
	return api.StatusReasonUnknown
}

// CodeOf returns the HTTP code an error carries, or 0.
func CodeOf(err error) int {
	if s, ok := err.(APIStatus); ok {
		return s.Status().Code
	}
	return 0
}

// IsNotFound reports whether err is a not-found error.
func IsNotFound(err error) bool { return reasonOf(err) == api.StatusReasonNotFound }

// IsAlreadyExists reports whether err is an already-exists error.
func IsAlreadyExists(err error) bool { return reasonOf(err) == api.StatusReasonAlreadyExists }

// IsConflict reports whether err is a stale-update conflict.
func IsConflict(err error) bool { return reasonOf(err) == api.StatusReasonConflict }

// IsInvalid reports whether err is a validation failure.
func IsInvalid(err error) bool { return reasonOf(err) == api.StatusReasonInvalid }

// IsBadRequest reports whether err is a malformed request.
func IsBadRequest(err error) bool { return reasonOf(err) == api.StatusReasonBadRequest }

// IsGone reports whether err says a resourceVersion is too old to watch from.
func IsGone(err error) bool { return reasonOf(err) == api.StatusReasonGone }

// ValidationErrorType is the kind of a field error; its value is also the
// cause type on the wire.
type ValidationErrorType string

// The v0.4 field error kinds.
const (
	ValidationErrorTypeNotFound     ValidationErrorType = "FieldValueNotFound"
	ValidationErrorTypeRequired     ValidationErrorType = "FieldValueRequired"
	ValidationErrorTypeDuplicate    ValidationErrorType = "FieldValueDuplicate"
	ValidationErrorTypeInvalid      ValidationErrorType = "FieldValueInvalid"
	ValidationErrorTypeNotSupported ValidationErrorType = "FieldValueNotSupported"
)

var typeText = map[ValidationErrorType]string{
	ValidationErrorTypeNotFound:     "not found",
	ValidationErrorTypeRequired:     "required value",
	ValidationErrorTypeDuplicate:    "duplicate value",
	ValidationErrorTypeInvalid:      "invalid value",
	ValidationErrorTypeNotSupported: "unsupported value",
}

// ValidationError is one bad field.
type ValidationError struct {
	Type     ValidationErrorType
	Field    string
	BadValue interface{}
	// Form says what the field accepts, when a rule of names rejected it.
	//
	// Ours: v0.4's message named the bad value only, so a user had to read
	// the source to learn the allowed form of an id.
	Form string
}

// Error reads "<field>: <kind of problem> '<value>'", as in v0.4, followed
// by ": <form>" when the allowed form is known.
func (v ValidationError) Error() string {
	msg := fmt.Sprintf("%s: %s '%v'", v.Field, typeText[v.Type], v.BadValue)
	if v.Form != "" {
		msg += ": " + v.Form
	}
	return msg
}

// NewFieldRequired says field must be set.
func NewFieldRequired(field string, value interface{}) ValidationError {
	return ValidationError{Type: ValidationErrorTypeRequired, Field: field, BadValue: value}
}

// NewFieldInvalid says field has a value that is not allowed.
func NewFieldInvalid(field string, value interface{}) ValidationError {
	return ValidationError{Type: ValidationErrorTypeInvalid, Field: field, BadValue: value}
}

// NewFieldInvalidForm says field has a value that is not allowed and what
// the allowed form is ("must be ...").
func NewFieldInvalidForm(field string, value interface{}, form string) ValidationError {
	return ValidationError{Type: ValidationErrorTypeInvalid, Field: field, BadValue: value, Form: form}
}

// NewFieldNotSupported says field names something the server does not know.
func NewFieldNotSupported(field string, value interface{}) ValidationError {
	return ValidationError{Type: ValidationErrorTypeNotSupported, Field: field, BadValue: value}
}

// NewFieldDuplicate says field repeats a value that must be unique.
func NewFieldDuplicate(field string, value interface{}) ValidationError {
	return ValidationError{Type: ValidationErrorTypeDuplicate, Field: field, BadValue: value}
}

// NewFieldNotFound says field refers to something that does not exist.
func NewFieldNotFound(field string, value interface{}) ValidationError {
	return ValidationError{Type: ValidationErrorTypeNotFound, Field: field, BadValue: value}
}

// ErrorList is a list of field errors.
type ErrorList []error

// ToError joins the list into one error, or returns nil when it is empty.
func (list ErrorList) ToError() error {
	if len(list) == 0 {
		return nil
	}
	msgs := make([]string, len(list))
	for i, err := range list {
		msgs[i] = err.Error()
	}
	return fmt.Errorf("%s", strings.Join(msgs, "; "))
}

// Prefix puts prefix in front of every field name: "name" becomes
// "prefix.name" and "[0]" becomes "prefix[0]".
func (list ErrorList) Prefix(prefix string) ErrorList {
	for i := range list {
		if err, ok := list[i].(ValidationError); ok {
			switch {
			case strings.HasPrefix(err.Field, "["):
				err.Field = prefix + err.Field
			case err.Field != "":
				err.Field = prefix + "." + err.Field
			default:
				err.Field = prefix
			}
			list[i] = err
		}
	}
	return list
}

// PrefixIndex puts "[index]" in front of every field name.
func (list ErrorList) PrefixIndex(index int) ErrorList {
	return list.Prefix(fmt.Sprintf("[%d]", index))
}
