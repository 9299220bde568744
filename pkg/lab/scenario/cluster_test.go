package scenario

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	k8serrors "k8s.io/apimachinery/pkg/api/errors"
)

func TestAWriteIsRetriedOnlyAfterAConflict(t *testing.T) {
	conflict := errors.New("conflict")
	other := errors.New("refused")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		// errs are the writes' errors in turn; past its end, a conflict.
		errs       []error
		wantWrites int
		wantErr    error
	}{
		{"a write that succeeds is made once", context.Background(), []error{nil}, 1, nil},
		{"a conflict is written again until the write succeeds", context.Background(), []error{conflict, conflict, nil}, 3, nil},
		{"another error ends the retries and is returned", context.Background(), []error{conflict, other, nil}, 2, other},
		{"conflicts give up after 21 writes with the last conflict", context.Background(), nil, 21, conflict},
		{"a cancelled run writes no more after a conflict", cancelled, nil, 1, context.Canceled},
		{"a write cut short by its context says so, not the conflict before it", context.Background(), []error{conflict, fmt.Errorf("get: %w", context.Canceled)}, 2, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writes := 0
			err := retryConflicts(tc.ctx, func() (bool, error) {
				err := conflict
				if writes < len(tc.errs) {
					err = tc.errs[writes]
				}
				writes++
				return err == conflict, err
			})
			if writes != tc.wantWrites || !errors.Is(err, tc.wantErr) {
				t.Errorf("%d writes returning %v, want %d returning %v", writes, err, tc.wantWrites, tc.wantErr)
			}
		})
	}
}

// conflictingClient answers the first conflicts updates of a controller
// as our apiserver answers an update of a controller that changed since
// it was read.
type conflictingClient struct {
	*client.Fake
	conflicts int
}

func (c *conflictingClient) UpdateReplicationController(ctx api.Context, rc *api.ReplicationController) (*api.ReplicationController, error) {
	if c.conflicts > 0 {
		c.conflicts--
		return nil, apierrors.NewConflict("replicationController", rc.ID, fmt.Errorf("changed since it was read"))
	}
	return c.Fake.UpdateReplicationController(ctx, rc)
}

// Our apiserver's conflict is a status of pkg/api/errors, which
// client-go's own conflict test does not see: Resize reads the controller
// again after it all the same.
func TestResizeOnOurClusterReadsAgainAfterOurConflict(t *testing.T) {
	conflict := apierrors.NewConflict("replicationController", "frontend", errors.New("changed"))
	if k8serrors.IsConflict(conflict) {
		t.Fatal("apimachinery now reads our conflict: retryConflicts' per-write predicate may go")
	}
	fake := &client.Fake{Ctrl: api.ReplicationController{TypeMeta: api.TypeMeta{ID: "frontend"}}}
	c := &conflictingClient{Fake: fake, conflicts: 2}
	if err := (ourCluster{c: c}).Resize(context.Background(), "frontend", 5); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range fake.Actions() {
		got = append(got, a.Action)
	}
	if want := "[get-controller get-controller get-controller update-controller]"; fmt.Sprint(got) != want {
		t.Errorf("calls %v, want %s", got, want)
	}
	if rc := fake.Actions()[3].Value.(*api.ReplicationController); rc.DesiredState.Replicas != 5 {
		t.Errorf("wrote %d replicas, want 5", rc.DesiredState.Replicas)
	}
}
