package stack

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
)

// CreateFromDir creates every object in the *.json files of dir, in file
// name order; an object that already exists is left as it is. It returns
// the ids it created or found, "<kind>/<id>".
func CreateFromDir(c client.Interface, dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.json files in %s", dir)
	}
	sort.Strings(files)
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return out, err
		}
		obj, err := api.Decode(data)
		if err != nil {
			return out, fmt.Errorf("%s: %v", f, err)
		}
		if err := Create(c, obj); err != nil && !errors.IsAlreadyExists(err) {
			return out, fmt.Errorf("%s: %v", f, err)
		}
		out = append(out, api.KindOf(obj)+"/"+obj.GetTypeMeta().ID)
	}
	return out, nil
}

// Create creates one pod, replication controller or service.
func Create(c client.Interface, obj api.Object) error {
	ctx := api.NewDefaultContext()
	var err error
	switch o := obj.(type) {
	case *api.Pod:
		_, err = c.CreatePod(ctx, o)
	case *api.ReplicationController:
		_, err = c.CreateReplicationController(ctx, o)
	case *api.Service:
		_, err = c.CreateService(ctx, o)
	default:
		err = fmt.Errorf("cannot create a %s", api.KindOf(obj))
	}
	return err
}
