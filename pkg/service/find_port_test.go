package service

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

func TestFindPortByNameNumberOrDefault(t *testing.T) {
	manifest := api.ContainerManifest{Containers: []api.Container{
		{Ports: []api.Port{{Name: "foo", ContainerPort: 8080, HostPort: 9090}}},
		{Ports: []api.Port{{Name: "bar", ContainerPort: 8000, HostPort: 9000}}},
	}}
	cases := []struct {
		name    string
		port    util.IntOrString
		want    int
		wantErr bool
	}{
		{"first named", util.NewIntOrStringFromString("foo"), 8080, false},
		{"second named", util.NewIntOrStringFromString("bar"), 8000, false},
		{"declared number", util.NewIntOrStringFromInt(8000), 8000, false},
		{"undeclared number", util.NewIntOrStringFromInt(7000), 7000, false},
		{"unknown name", util.NewIntOrStringFromString("baz"), 0, true},
		{"empty name", util.NewIntOrStringFromString(""), 8080, false},
		{"zero value", util.IntOrString{}, 8080, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := findPort(&manifest, c.port)
			if (err != nil) != c.wantErr || (!c.wantErr && got != c.want) {
				t.Errorf("findPort = %d, %v; want %d (error %v)", got, err, c.want, c.wantErr)
			}
		})
	}
}

func TestFindPortOfAPodWithoutContainersIsAnError(t *testing.T) {
	if _, err := findPort(&api.ContainerManifest{}, util.IntOrString{}); err == nil {
		t.Error("no error for a pod without containers")
	}
}
