package tools

import (
	"net/http"
	"strconv"

	"github.com/coreos/go-etcd/etcd"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// rawGetter and rawCreator are the parts of go-etcd's client that return
// etcd's answer undecoded.
type rawGetter interface {
	RawGet(key string, sort, recursive bool) (*etcd.RawResponse, error)
}

type rawCreator interface {
	RawCreate(key, value string, ttl uint64) (*etcd.RawResponse, error)
}

// getList sends the one recursive GET of key that a LIST makes, as
// client.Get(key, false, true) would, and returns the same response.
//
// Ours: go-etcd decodes etcd's answer with encoding/json, which reads the
// whole answer twice (once to check it, once to decode it); for 150 000
// pods that answer is some 150 MB. Here a client that can hand over the
// raw answer has it decoded once, by go-json-experiment's decoder, which
// follows encoding/json's rules. The request to etcd is the same one, and
// an error answer is decoded by go-etcd itself, so errors are unchanged.
func getList(client EtcdClient, key string) (*etcd.Response, error) {
	raw, ok := client.(rawGetter)
	if !ok {
		return client.Get(key, false, true)
	}
	rr, err := raw.RawGet(key, false, true)
	if err != nil {
		return nil, err
	}
	return unmarshal(rr)
}

// create is client.Create(key, value, 0), its answer decoded as getList
// decodes one: every pod POST decodes etcd's answer, which holds the pod.
func create(client EtcdClient, key, value string) (*etcd.Response, error) {
	raw, ok := client.(rawCreator)
	if !ok {
		return client.Create(key, value, 0)
	}
	rr, err := raw.RawCreate(key, value, 0)
	if err != nil {
		return nil, err
	}
	return unmarshal(rr)
}

// unmarshal is rr.Unmarshal() with the decoder of go-json-experiment.
func unmarshal(rr *etcd.RawResponse) (*etcd.Response, error) {
	if rr.StatusCode != http.StatusOK && rr.StatusCode != http.StatusCreated {
		return rr.Unmarshal()
	}
	response := new(etcd.Response)
	if err := jsonv1.Unmarshal(rr.Body, response); err != nil {
		return rr.Unmarshal()
	}
	response.EtcdIndex, _ = strconv.ParseUint(rr.Header.Get("X-Etcd-Index"), 10, 64)
	response.RaftIndex, _ = strconv.ParseUint(rr.Header.Get("X-Raft-Index"), 10, 64)
	response.RaftTerm, _ = strconv.ParseUint(rr.Header.Get("X-Raft-Term"), 10, 64)
	return response, nil
}
