package apiserver

// Follows kubernetes/kubernetes pkg/apiserver/validator.go as of v0.4
// (October 2014): <prefix>/validate asks the controller-manager and the
// scheduler for their /healthz and answers one status for each.
//
// Ours: the answers are sorted by name (v0.4 walked a map); each check
// gives up after ValidateTimeout and reads at most 64<<10 bytes (v0.4's
// client had no timeout, so one hung component hung /validate); the answer
// says it is JSON; v0.4's debug log of every answer is left out. With no
// scheduler here, its entry reports "unknown" with the refused connection.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"time"
)

// DefaultValidateServers are the components v0.4 checked, at their default
// ports on the apiserver's own host.
var DefaultValidateServers = map[string]string{
	"controller-manager": "127.0.0.1:10252",
	"scheduler":          "127.0.0.1:10251",
}

// ValidateTimeout bounds the health check of one component.
const ValidateTimeout = 5 * time.Second

// The health codes of v0.4's pkg/health: 0 healthy, 1 unhealthy, 2
// unknown (the component could not be asked).
const (
	healthy = iota
	unhealthy
	unknown
)

var healthNames = map[int]string{healthy: "healthy", unhealthy: "unhealthy", unknown: "unknown"}

// ServerStatus is the health of one component as /validate reports it.
// healthCode is left out when 0 (healthy); err is the string "nil" when the
// check succeeded.
type ServerStatus struct {
	Component  string `json:"component,omitempty"`
	Health     string `json:"health,omitempty"`
	HealthCode int    `json:"healthCode,omitempty"`
	Msg        string `json:"msg,omitempty"`
	Err        string `json:"err,omitempty"`
}

// validator serves /validate for a fixed set of components.
type validator struct {
	// servers maps a component's name to its host:port.
	servers map[string]string
	client  *http.Client
}

func newValidator(servers map[string]string) *validator {
	return &validator{servers: servers, client: &http.Client{Timeout: ValidateTimeout}}
}

// check asks one component for /healthz: healthy on a 200, unhealthy on
// any other status, unknown when it cannot be asked.
func (v *validator) check(addr string) (int, string, error) {
	resp, err := v.client.Get("http://" + addr + "/healthz")
	if err != nil {
		return unknown, "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return unknown, string(data), err
	}
	if resp.StatusCode != http.StatusOK {
		return unhealthy, string(data), fmt.Errorf("unhealthy http status code: %d (%s)", resp.StatusCode, resp.Status)
	}
	return healthy, string(data), nil
}

// ServeHTTP checks every component, one after the other, and answers 200
// with their statuses whatever they are.
func (v *validator) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	label(w, verbGet, "validate")
	names := make([]string, 0, len(v.servers))
	for name := range v.servers {
		names = append(names, name)
	}
	sort.Strings(names)
	reply := []ServerStatus{}
	for _, name := range names {
		code, msg, err := v.check(v.servers[name])
		errorMsg := "nil"
		if err != nil {
			errorMsg = err.Error()
		}
		reply = append(reply, ServerStatus{Component: name, Health: healthNames[code], HealthCode: code, Msg: msg, Err: errorMsg})
	}
	data, err := json.Marshal(reply)
	if err != nil {
		errorJSON(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(data)
}
