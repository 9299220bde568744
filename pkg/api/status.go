package api

// Follows the Status of kubernetes/kubernetes pkg/api/v1beta1/types.go as of
// v0.4 (October 2014): the object every error and every delete answers
// with, its reasons and the causes of a refused object.

// Status is the answer to a call that returns no object, and every error.
type Status struct {
	TypeMeta `json:",inline"`
	// Status is Success, Failure or Working.
	Status  string         `json:"status,omitempty"`
	Message string         `json:"message,omitempty"`
	Reason  StatusReason   `json:"reason,omitempty"`
	Details *StatusDetails `json:"details,omitempty"`
	// Code is the HTTP status code, omitted when 0.
	Code int `json:"code,omitempty"`
}

// StatusDetails names the object an error is about and its causes.
type StatusDetails struct {
	ID     string        `json:"id,omitempty"`
	Kind   string        `json:"kind,omitempty"`
	Causes []StatusCause `json:"causes,omitempty"`
}

// Values of Status.Status, capitalised from v0.4 on.
const (
	StatusSuccess = "Success"
	StatusFailure = "Failure"
	StatusWorking = "Working"
)

// StatusReason is the machine-readable reason of a Status.
type StatusReason string

// The v0.4 reasons.
const (
	StatusReasonUnknown       StatusReason = ""
	StatusReasonWorking       StatusReason = "Working"
	StatusReasonNotFound      StatusReason = "NotFound"
	StatusReasonAlreadyExists StatusReason = "AlreadyExists"
	StatusReasonConflict      StatusReason = "Conflict"
	StatusReasonInvalid       StatusReason = "Invalid"
)

// Ours: reasons for the client errors v0.4 answered with a plain-text 404 or
// a 500. The names are the ones Kubernetes adopted later.
const (
	StatusReasonBadRequest            StatusReason = "BadRequest"
	StatusReasonMethodNotAllowed      StatusReason = "MethodNotAllowed"
	StatusReasonGone                  StatusReason = "Gone"
	StatusReasonRequestEntityTooLarge StatusReason = "RequestEntityTooLarge"
	StatusReasonUnsupportedMediaType  StatusReason = "UnsupportedMediaType"
	StatusReasonTimeout               StatusReason = "Timeout"
	StatusReasonInternalError         StatusReason = "InternalError"
	StatusReasonServiceUnavailable    StatusReason = "ServiceUnavailable"
)

// StatusCause is one reason an object was refused; its type goes on the
// wire under the key "reason".
type StatusCause struct {
	Type    CauseType `json:"reason,omitempty"`
	Message string    `json:"message,omitempty"`
	Field   string    `json:"field,omitempty"`
}

// CauseType is the machine-readable kind of a StatusCause.
type CauseType string

// The v0.4 cause types, one per kind of field error.
const (
	CauseTypeFieldValueNotFound     CauseType = "FieldValueNotFound"
	CauseTypeFieldValueRequired     CauseType = "FieldValueRequired"
	CauseTypeFieldValueDuplicate    CauseType = "FieldValueDuplicate"
	CauseTypeFieldValueInvalid      CauseType = "FieldValueInvalid"
	CauseTypeFieldValueNotSupported CauseType = "FieldValueNotSupported"
)
