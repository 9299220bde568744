package master

import "strings"

// invalidObjects are well-formed bodies that validation must refuse.
func invalidObjects() []badInput {
	pods := "/api/v1beta1/pods"
	rcs := "/api/v1beta1/replicationControllers"
	rc := func(replicas string) string {
		return `{"id":"bad","desiredState":{"replicas":` + replicas + `,"replicaSelector":{"name":"frontend"},"podTemplate":{"labels":{"name":"frontend"},"desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"web","image":"nginx"}]}}}}}`
	}
	return []badInput{
		{name: "negative replicas", method: "POST", path: rcs, body: rc("-1"), code: 422, mention: "desiredState.replicas: invalid value '-1'"},
		{name: "absurd replicas", method: "POST", path: rcs, body: rc("2147483648"), code: 422, mention: "desiredState.replicas: invalid value '2147483648'"},
		{name: "replicas beyond 64 bits", method: "POST", path: rcs, body: rc("99999999999999999999"), code: 400, mention: "replicas"},
		{name: "replicas as a huge float", method: "POST", path: rcs, body: rc("1e400"), code: 400, mention: "1e400"},
		{name: "fractional replicas", method: "POST", path: rcs, body: rc("1.5"), code: 400, mention: "replicas"},
		{name: "replicas as a string", method: "POST", path: rcs, body: rc(`"3"`), code: 400, mention: "replicas"},
		{name: "resize to negative replicas", method: "PUT", path: rcs + "/frontend", body: strings.Replace(controllerJSON("frontend", -5), `"id":"frontend"`, `"id":"frontend","resourceVersion":1`, 1), code: 422, mention: "desiredState.replicas: invalid value '-5'"},
		{name: "selector not matching the template", method: "POST", path: rcs, body: strings.Replace(rc("1"), `"replicaSelector":{"name":"frontend"}`, `"replicaSelector":{"name":"backend"}`, 1), code: 422, mention: "desiredState.podTemplate.labels"},
		{name: "controller without a selector", method: "POST", path: rcs, body: strings.Replace(rc("1"), `"replicaSelector":{"name":"frontend"},`, "", 1), code: 422, mention: "desiredState.replicaSelector: required value"},
		{name: "controller with a null desired state", method: "POST", path: rcs, body: `{"id":"bad","desiredState":null}`, code: 422, mention: "desiredState.replicaSelector: required value"},
		{name: "template without a manifest version", method: "POST", path: rcs, body: strings.Replace(rc("1"), `"version":"v1beta1",`, "", 1), code: 422, mention: "desiredState.podTemplate.desiredState.manifest.version: required value"},
		{name: "pod without a manifest version", method: "POST", path: pods, body: `{"id":"nover","desiredState":{"manifest":{"containers":[{"name":"a","image":"b"}]}}}`, code: 422, mention: "desiredState.manifest.version: required value"},
		{name: "container without an image", method: "POST", path: pods, body: `{"id":"noimage","desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"a"}]}}}`, code: 422, mention: "containers[0].image: required value"},
		{name: "container port out of range", method: "POST", path: pods, body: `{"id":"port","desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"a","image":"b","ports":[{"containerPort":70000}]}]}}}`, code: 422, mention: "containerPort: invalid value '70000'"},
		{name: "newline in a label value", method: "POST", path: pods, body: strings.Replace(podJSON("nllabel"), `"name":"frontend"`, `"name":"a\nb"`, 1), code: 422, mention: "labels[name]"},
		{name: "terminal escape in an image", method: "POST", path: rcs, body: strings.Replace(controllerJSON("esc", 1), `"image":"nginx"`, `"image":"\u001b[2Jnginx"`, 1), code: 422, mention: "image: invalid value"},
		{name: "label key with an equals sign", method: "POST", path: pods, body: strings.Replace(podJSON("eqlabel"), `"name":"frontend"`, `"a=b":"c"`, 1), code: 422, mention: "labels: invalid value 'a=b'"},
		{name: "service without a port", method: "POST", path: "/api/v1beta1/services", body: `{"id":"noport","selector":{"a":"b"}}`, code: 422, mention: "port: invalid value '0'"},
		{name: "service without a selector", method: "POST", path: "/api/v1beta1/services", body: `{"id":"nosel","port":80}`, code: 422, mention: "selector: required value"},
		{name: "endpoint that is not host:port", method: "PUT", path: "/api/v1beta1/endpoints/web", body: `{"id":"web","endpoints":["nowhere"]}`, code: 422, mention: "endpoints[0]: invalid value 'nowhere'"},
		{name: "minion with a bad host IP", method: "POST", path: "/api/v1beta1/minions", body: `{"id":"m2","hostIP":"not-an-ip"}`, code: 422, mention: "hostIP: invalid value 'not-an-ip'"},
		{name: "binding without a host", method: "POST", path: "/api/v1beta1/bindings", body: `{"podID":"victim"}`, code: 422, mention: "host: required value"},
		{name: "creation time that cannot be written back", method: "PUT", path: pods + "/victim", body: `{"id":"victim","resourceVersion":1,"creationTimestamp":"0000-01-01T00:30:00+01:00"}`, code: 400, mention: "0000-01-01T00:30:00+01:00"},
		{name: "time that is not a time", method: "POST", path: rcs, body: `{"id":"t","creationTimestamp":"yesterday"}`, code: 400, mention: "yesterday"},
	}
}
