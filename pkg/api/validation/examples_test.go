package validation

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	errs "github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

// validate runs the validation the apiserver would for obj.
func validate(obj api.Object) errs.ErrorList {
	obj.GetTypeMeta().Namespace = api.NamespaceDefault
	switch o := obj.(type) {
	case *api.Pod:
		return ValidatePod(o)
	case *api.ReplicationController:
		return ValidateReplicationController(o)
	case *api.Service:
		return ValidateService(o)
	case *api.Endpoints:
		return ValidateEndpoints(o)
	case *api.Minion:
		return ValidateMinion(o)
	case *api.Binding:
		return ValidateBinding(o)
	}
	return errs.ErrorList{errs.NewFieldNotSupported("kind", api.KindOf(obj))}
}

func TestEveryExampleInTheRepositoryDecodesAndValidates(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../../api/examples/*", "../../../examples/*/*.json"} {
		matches, _ := filepath.Glob(pattern)
		for _, m := range matches {
			// examples/talk holds talk-mode recordings and
			// examples/mutation the results of make mutate, not API
			// objects.
			if dir := filepath.Base(filepath.Dir(m)); dir != "talk" && dir != "mutation" {
				files = append(files, m)
			}
		}
	}
	if len(files) < 10 {
		t.Fatalf("found only %d example files", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			obj, err := api.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if list := validate(obj); len(list) != 0 {
				t.Error(list.ToError())
			}
		})
	}
}
