package tools

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"reflect"
	"strconv"
	"strings"

	"github.com/coreos/go-etcd/etcd"
	"github.com/go-json-experiment/json/jsontext"
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
// Ours: go-etcd reads etcd's whole answer (for 150 000 pods, the size
// examples/listcost/RESULTS.md measures) into a buffer grown by doubling,
// then decodes it with encoding/json, which reads it twice more. Here go-etcd's own client gets its answer
// through streamList, decoded as it arrives; another client that can hand
// over the raw answer has it decoded once by go-json-experiment's
// decoder, which follows encoding/json's rules. The request to etcd is
// the same one, and error answers are decoded by go-etcd itself, so
// errors are unchanged.
func getList(client EtcdClient, key string) (*etcd.Response, error) {
	if c, ok := client.(*etcd.Client); ok {
		response, err := streamList(c, key)
		var again notStreamed
		if !errors.As(err, &again) {
			return response, err
		}
		// A failure on the way: go-etcd sends the GET again, with its
		// retries on other members, and reports errors as it always has.
	}
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

// listClient sends the LIST's GETs on the transport every client
// NewEtcdClient makes shares.
var listClient = &http.Client{Transport: transport}

// notStreamed is a GET that streamList could not complete.
type notStreamed struct{ error }

// streamList sends the GET that client.Get(key, false, true) sends, to one
// of client's members, and decodes etcd's answer as it arrives. An answer
// that go-etcd would not retry (200, and the 4xx errors etcd sends, such
// as "key not found") is decoded as go-etcd decodes it; for anything else
// (no connection, a 5xx, an answer cut short) it returns notStreamed.
//
// Ours: go-etcd reads the whole answer into memory before decoding it,
// in a buffer grown by doubling (for 150 000 pods, past the size
// examples/listcost/RESULTS.md measures). Decoding while etcd writes
// needs no such buffer, and decoding overlaps with etcd's writing.
func streamList(client *etcd.Client, key string) (*etcd.Response, error) {
	member, ok := currentMember(client)
	if !ok {
		return nil, notStreamed{errors.New("go-etcd's member is unknown")}
	}
	u := member + "/v2/" + strings.Replace(url.QueryEscape(path.Join("keys", key)), "%2F", "/", -1) +
		"?quorum=" + strconv.FormatBool(strongConsistency(client)) + "&recursive=true&sorted=false"
	resp, err := listClient.Get(u)
	if err != nil {
		return nil, notStreamed{err}
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusBadRequest, http.StatusForbidden, http.StatusNotFound, http.StatusPreconditionFailed:
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, notStreamed{err}
		}
		return unmarshal(&etcd.RawResponse{StatusCode: resp.StatusCode, Body: body, Header: resp.Header})
	default:
		io.Copy(io.Discard, resp.Body)
		return nil, notStreamed{fmt.Errorf("etcd answered %d", resp.StatusCode)}
	}
	response, err := decodeListing(resp.Body)
	if err != nil {
		return nil, notStreamed{err}
	}
	response.EtcdIndex, _ = strconv.ParseUint(resp.Header.Get("X-Etcd-Index"), 10, 64)
	response.RaftIndex, _ = strconv.ParseUint(resp.Header.Get("X-Raft-Index"), 10, 64)
	response.RaftTerm, _ = strconv.ParseUint(resp.Header.Get("X-Raft-Term"), 10, 64)
	return response, nil
}

// currentMember returns the member go-etcd sends client's requests to.
//
// A LIST must go there too: a write is answered once the member that took
// it has applied it, so a LIST on the same member sees it, while another
// member may not have applied it yet (a hollow node that registers a
// minion and lists the minions would not find it). go-etcd keeps its
// choice in unexported fields of the v2.0.0 this project pins; they are
// read, never written, and without them the LIST is left to go-etcd.
func currentMember(client *etcd.Client) (string, bool) {
	cluster := reflect.ValueOf(client).Elem().FieldByName("cluster")
	if cluster.Kind() != reflect.Pointer || cluster.IsNil() {
		return "", false
	}
	machines, picked := cluster.Elem().FieldByName("Machines"), cluster.Elem().FieldByName("picked")
	if machines.Kind() != reflect.Slice || picked.Kind() != reflect.Int {
		return "", false
	}
	i := int(picked.Int())
	if i < 0 || i >= machines.Len() {
		return "", false
	}
	return machines.Index(i).String(), true
}

// strongConsistency reports whether client was set to
// etcd.STRONG_CONSISTENCY, for which go-etcd's Get asks for a quorum read:
// the LIST must ask the same, or a member that has not yet applied a write
// could answer without it. Like currentMember, it reads go-etcd's
// unexported config and never writes it.
func strongConsistency(client *etcd.Client) bool {
	config := reflect.ValueOf(client).Elem().FieldByName("config")
	if config.Kind() != reflect.Struct {
		return false
	}
	consistency := config.FieldByName("Consistency")
	return consistency.Kind() == reflect.String && consistency.String() == etcd.STRONG_CONSISTENCY
}

// decodeListing decodes etcd's answer to a GET from r one child node at a
// time, with encoding/json's rules, as Response and Node are decoded
// whole; only the "nodes" of the answer's node are read piecemeal, so that
// no more than one child is held undecoded.
func decodeListing(r io.Reader) (*etcd.Response, error) {
	d := jsontext.NewDecoder(r, jsonv1.DefaultOptionsV1())
	response := new(etcd.Response)
	var node *etcd.Node
	err := decodeMembers(d, response, func(name string) (bool, error) {
		if name != "node" || d.PeekKind() != '{' {
			return false, nil
		}
		node = new(etcd.Node)
		var children etcd.Nodes
		err := decodeMembers(d, node, func(name string) (bool, error) {
			if name != "nodes" || d.PeekKind() != '[' {
				return false, nil
			}
			if _, err := d.ReadToken(); err != nil {
				return true, err
			}
			children = etcd.Nodes{}
			for d.PeekKind() != ']' {
				v, err := d.ReadValue()
				if err != nil {
					return true, err
				}
				var child *etcd.Node
				if err := jsonv1.Unmarshal(v, &child); err != nil {
					return true, err
				}
				children = append(children, child)
			}
			_, err := d.ReadToken()
			return true, err
		})
		node.Nodes = children
		return true, err
	})
	if err != nil {
		return nil, err
	}
	if node != nil {
		response.Node = node
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return nil, fmt.Errorf("etcd's answer goes on after its end")
	}
	return response, nil
}

// decodeMembers reads one JSON object from d into v. For each member,
// special(name) may read the value itself and report that it did;
// every other member is decoded into v as part of an object of its own.
func decodeMembers(d *jsontext.Decoder, v any, special func(name string) (bool, error)) error {
	if tok, err := d.ReadToken(); err != nil {
		return err
	} else if tok.Kind() != '{' {
		return fmt.Errorf("etcd's answer has %v where an object belongs", tok.Kind())
	}
	rest := []byte{'{'}
	for d.PeekKind() != '}' {
		tok, err := d.ReadToken()
		if err != nil {
			return err
		}
		name := tok.String()
		done, err := special(name)
		if err != nil {
			return err
		}
		if done {
			continue
		}
		value, err := d.ReadValue()
		if err != nil {
			return err
		}
		if len(rest) > 1 {
			rest = append(rest, ',')
		}
		rest, _ = jsontext.AppendQuote(rest, name)
		rest = append(append(rest, ':'), value...)
	}
	if _, err := d.ReadToken(); err != nil {
		return err
	}
	return jsonv1.Unmarshal(append(rest, '}'), v)
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
