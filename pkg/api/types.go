package api

// Follows kubernetes/kubernetes pkg/api/v1beta1/types.go as of v0.4 (October
// 2014). JSON keys, their order and their omitempty rules are the v1beta1
// ones, so a 2014 manifest decodes unchanged and our output reads like the
// original server's.

import (
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// TypeMeta is the header every object carries inline.
type TypeMeta struct {
	Kind              string            `json:"kind,omitempty"`
	ID                string            `json:"id,omitempty"`
	UID               string            `json:"uid,omitempty"`
	CreationTimestamp util.Time         `json:"creationTimestamp"`
	SelfLink          string            `json:"selfLink,omitempty"`
	ResourceVersion   uint64            `json:"resourceVersion,omitempty"`
	APIVersion        string            `json:"apiVersion,omitempty"`
	Namespace         string            `json:"namespace,omitempty"`
	Annotations       map[string]string `json:"annotations,omitempty"`

	// Ours: the two fields below did not exist in 2014. The modern build
	// needs them (ControllerRef came in 2016, generation in 2015); the
	// legacy code never reads them and they are omitted when empty.
	OwnerReferences []OwnerReference `json:"ownerReferences,omitempty"`
	Generation      int64            `json:"generation,omitempty"`
}

// GetTypeMeta returns the header; every object has it by embedding TypeMeta.
func (t *TypeMeta) GetTypeMeta() *TypeMeta { return t }

// OwnerReference names the object that owns this one.
//
// Ours: the shape of the 2016 metadata.ownerReferences entry, added so the
// modern build can claim, adopt and release pods by ControllerRef.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// ContainerManifest is what a kubelet ran: a versioned list of containers.
type ContainerManifest struct {
	Version       string        `json:"version"`
	ID            string        `json:"id"`
	UUID          string        `json:"uuid,omitempty"`
	Volumes       []Volume      `json:"volumes"`
	Containers    []Container   `json:"containers"`
	RestartPolicy RestartPolicy `json:"restartPolicy,omitempty"`
}

// ContainerManifestList is the per-host list the 2014 kubelets read.
type ContainerManifestList struct {
	TypeMeta `json:",inline"`
	Items    []ContainerManifest `json:"items,omitempty"`
}

// Volume is a named directory that containers of a pod can mount.
type Volume struct {
	Name   string        `json:"name"`
	Source *VolumeSource `json:"source"`
}

// VolumeSource says where a volume comes from; exactly one field is set.
type VolumeSource struct {
	HostDir           *HostDir           `json:"hostDir"`
	EmptyDir          *EmptyDir          `json:"emptyDir"`
	GCEPersistentDisk *GCEPersistentDisk `json:"persistentDisk"`
}

// HostDir is a directory of the host.
type HostDir struct {
	Path string `json:"path"`
}

// EmptyDir is a scratch directory that lives as long as the pod.
type EmptyDir struct{}

// GCEPersistentDisk is a Google Compute Engine disk.
type GCEPersistentDisk struct {
	PDName    string `json:"pdName"`
	FSType    string `json:"fsType,omitempty"`
	Partition int    `json:"partition,omitempty"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
}

// Protocol is TCP or UDP.
type Protocol string

const (
	ProtocolTCP Protocol = "TCP"
	ProtocolUDP Protocol = "UDP"
)

// Port is a network port of a container.
type Port struct {
	Name          string   `json:"name,omitempty"`
	HostPort      int      `json:"hostPort,omitempty"`
	ContainerPort int      `json:"containerPort"`
	Protocol      Protocol `json:"protocol,omitempty"`
	HostIP        string   `json:"hostIP,omitempty"`
}

// VolumeMount places a volume inside a container.
type VolumeMount struct {
	Name      string `json:"name"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
	MountPath string `json:"mountPath,omitempty"`
	Path      string `json:"path,omitempty"`
	MountType string `json:"mountType,omitempty"`
}

// EnvVar is an environment variable; v1beta1 still read the older "key".
type EnvVar struct {
	Name  string `json:"name"`
	Key   string `json:"key,omitempty"`
	Value string `json:"value,omitempty"`
}

// HTTPGetAction is an HTTP GET against the container.
type HTTPGetAction struct {
	Path string           `json:"path,omitempty"`
	Port util.IntOrString `json:"port,omitempty"`
	Host string           `json:"host,omitempty"`
}

// TCPSocketAction is a TCP connect to the container.
type TCPSocketAction struct {
	Port util.IntOrString `json:"port,omitempty"`
}

// ExecAction runs a command in the container.
type ExecAction struct {
	Command []string `json:"command,omitempty"`
}

// LivenessProbe tells the kubelet how to check a container is alive.
type LivenessProbe struct {
	HTTPGet             *HTTPGetAction   `json:"httpGet,omitempty"`
	TCPSocket           *TCPSocketAction `json:"tcpSocket,omitempty"`
	Exec                *ExecAction      `json:"exec,omitempty"`
	InitialDelaySeconds int64            `json:"initialDelaySeconds,omitempty"`
}

// PullPolicy says when the kubelet pulls an image.
type PullPolicy string

// Container is one container of a pod.
type Container struct {
	Name            string         `json:"name"`
	Image           string         `json:"image"`
	Command         []string       `json:"command,omitempty"`
	WorkingDir      string         `json:"workingDir,omitempty"`
	Ports           []Port         `json:"ports,omitempty"`
	Env             []EnvVar       `json:"env,omitempty"`
	Memory          int            `json:"memory,omitempty"`
	CPU             int            `json:"cpu,omitempty"`
	VolumeMounts    []VolumeMount  `json:"volumeMounts,omitempty"`
	LivenessProbe   *LivenessProbe `json:"livenessProbe,omitempty"`
	Lifecycle       *Lifecycle     `json:"lifecycle,omitempty"`
	Privileged      bool           `json:"privileged,omitempty"`
	ImagePullPolicy PullPolicy     `json:"imagePullPolicy"`
}

// Handler is an action run at a point of a container's life.
type Handler struct {
	Exec    *ExecAction    `json:"exec,omitempty"`
	HTTPGet *HTTPGetAction `json:"httpGet,omitempty"`
}

// Lifecycle holds the hooks of a container.
type Lifecycle struct {
	PostStart *Handler `json:"postStart,omitempty"`
	PreStop   *Handler `json:"preStop,omitempty"`
}

// RestartPolicyAlways restarts a container whenever it stops.
type RestartPolicyAlways struct{}

// RestartPolicyOnFailure restarts a container that exited non-zero.
type RestartPolicyOnFailure struct{}

// RestartPolicyNever never restarts a container.
type RestartPolicyNever struct{}

// RestartPolicy holds exactly one policy; validation defaults it to Always.
type RestartPolicy struct {
	Always    *RestartPolicyAlways    `json:"always,omitempty"`
	OnFailure *RestartPolicyOnFailure `json:"onFailure,omitempty"`
	Never     *RestartPolicyNever     `json:"never,omitempty"`
}

// PodStatus is the coarse state of a pod in 2014.
type PodStatus string

const (
	// PodWaiting: accepted, not yet running (unscheduled, or pulling).
	PodWaiting PodStatus = "Waiting"
	// PodRunning: bound to a host and its containers are up.
	PodRunning PodStatus = "Running"
	// PodTerminated: its containers have stopped; it no longer counts as a
	// replica.
	PodTerminated PodStatus = "Terminated"
)

// ContainerStateWaiting is a container not yet started.
type ContainerStateWaiting struct {
	// Reason says why it is not running yet.
	Reason string `json:"reason,omitempty"`
}

// ContainerStateRunning is a running container.
type ContainerStateRunning struct {
	StartedAt time.Time `json:"startedAt,omitempty"`
}

// ContainerStateTerminated is a container that has exited.
type ContainerStateTerminated struct {
	ExitCode   int       `json:"exitCode"`
	Signal     int       `json:"signal,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	StartedAt  time.Time `json:"startedAt,omitempty"`
	FinishedAt time.Time `json:"finishedAt,omitempty"`
}

// ContainerState holds at most one of the states of a container. v1beta1
// named the last one "termination".
type ContainerState struct {
	Waiting     *ContainerStateWaiting    `json:"waiting,omitempty"`
	Running     *ContainerStateRunning    `json:"running,omitempty"`
	Termination *ContainerStateTerminated `json:"termination,omitempty"`
}

// ContainerStatus is what a kubelet reported of one container. Its times
// are plain time.Time, as in v1beta1, so a zero one still goes on the wire.
type ContainerStatus struct {
	State        ContainerState `json:"state,omitempty"`
	RestartCount int            `json:"restartCount"`
	PodIP        string         `json:"podIP,omitempty"`
	Image        string         `json:"image"`
}

// PodInfo maps container name to its status.
type PodInfo map[string]ContainerStatus

// PodState is a pod's desired or current state.
type PodState struct {
	Manifest ContainerManifest `json:"manifest,omitempty"`
	Status   PodStatus         `json:"status,omitempty"`
	Host     string            `json:"host,omitempty"`
	HostIP   string            `json:"hostIP,omitempty"`
	PodIP    string            `json:"podIP,omitempty"`
	Info     PodInfo           `json:"info,omitempty"`

	// Ours: a Ready condition, written by the hollow nodes, so that the
	// modern build's ready and available counts mean something. 2014 had
	// no readiness.
	Conditions []Condition `json:"conditions,omitempty"`
}

// ConditionReady is the type of a pod's readiness condition.
const ConditionReady = "Ready"

// ConditionReplicaFailure is the type of a controller's failed create or
// delete condition.
const ConditionReplicaFailure = "ReplicaFailure"

// Condition is one typed true/false fact about an object.
//
// Ours: conditions appeared in 2015; the port uses them for pod readiness and
// a controller's ReplicaFailure, both read only by the modern build.
type Condition struct {
	Type               string    `json:"type"`
	Status             string    `json:"status"`
	LastTransitionTime util.Time `json:"lastTransitionTime"`
	Reason             string    `json:"reason,omitempty"`
	Message            string    `json:"message,omitempty"`
}

// Pod is a group of containers scheduled onto one host.
type Pod struct {
	TypeMeta     `json:",inline"`
	Labels       map[string]string `json:"labels,omitempty"`
	DesiredState PodState          `json:"desiredState,omitempty"`
	CurrentState PodState          `json:"currentState,omitempty"`
}

// PodList is a list of pods.
type PodList struct {
	TypeMeta `json:",inline"`
	Items    []Pod `json:"items"`
}

// PodTemplate is the pod a replication controller stamps out.
type PodTemplate struct {
	DesiredState PodState          `json:"desiredState,omitempty"`
	Labels       map[string]string `json:"labels,omitempty"`
}

// ReplicationControllerState is a controller's desired or current state.
// v0.4 used the same struct for both; currentState carries only replicas
// (and, for the modern build, the Ours: status fields below).
type ReplicationControllerState struct {
	Replicas        int               `json:"replicas"`
	ReplicaSelector map[string]string `json:"replicaSelector,omitempty"`
	PodTemplate     PodTemplate       `json:"podTemplate,omitempty"`

	// Ours: fields of the modern ReplicaSet spec and status (2015–2017),
	// read and written only by the modern build. MinReadySeconds belongs to
	// desiredState; the others to currentState.
	MinReadySeconds      int         `json:"minReadySeconds,omitempty"`
	FullyLabeledReplicas int         `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int         `json:"readyReplicas,omitempty"`
	AvailableReplicas    int         `json:"availableReplicas,omitempty"`
	ObservedGeneration   int64       `json:"observedGeneration,omitempty"`
	Conditions           []Condition `json:"conditions,omitempty"`
}

// ReplicationController keeps a number of copies of a pod template running.
type ReplicationController struct {
	TypeMeta     `json:",inline"`
	DesiredState ReplicationControllerState `json:"desiredState,omitempty"`
	CurrentState ReplicationControllerState `json:"currentState,omitempty"`
	Labels       map[string]string          `json:"labels,omitempty"`
}

// ReplicationControllerList is a list of replication controllers.
type ReplicationControllerList struct {
	TypeMeta `json:",inline"`
	Items    []ReplicationController `json:"items,omitempty"`
}

// Service is a named port in front of the pods its selector picks.
type Service struct {
	TypeMeta                   `json:",inline"`
	Port                       int               `json:"port"`
	Protocol                   Protocol          `json:"protocol,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Selector                   map[string]string `json:"selector,omitempty"`
	CreateExternalLoadBalancer bool              `json:"createExternalLoadBalancer,omitempty"`
	ContainerPort              util.IntOrString  `json:"containerPort,omitempty"`
}

// ServiceList is a list of services.
type ServiceList struct {
	TypeMeta `json:",inline"`
	Items    []Service `json:"items"`
}

// Endpoints lists the "ip:port" addresses behind a service; its id is the
// service's id.
type Endpoints struct {
	TypeMeta  `json:",inline"`
	Endpoints []string `json:"endpoints,omitempty"`
}

// EndpointsList is a list of endpoints.
type EndpointsList struct {
	TypeMeta `json:",inline"`
	Items    []Endpoints `json:"items,omitempty"`
}

// ResourceName names a resource of a minion: "cpu" (in thousandths of a
// core) or "memory" (in bytes).
type ResourceName string

// The resources v0.4 knew.
const (
	ResourceCPU    ResourceName = "cpu"
	ResourceMemory ResourceName = "memory"
)

// ResourceList maps a resource to its quantity.
type ResourceList map[ResourceName]util.IntOrString

// NodeResources is what a minion offers.
type NodeResources struct {
	Capacity ResourceList `json:"capacity,omitempty"`
}

// Minion is a host that runs pods.
type Minion struct {
	TypeMeta      `json:",inline"`
	HostIP        string        `json:"hostIP,omitempty"`
	NodeResources NodeResources `json:"resources,omitempty"`
}

// MinionList is a list of minions; v1beta1 sent the items twice, under the
// deprecated "minions" and under "items".
type MinionList struct {
	TypeMeta `json:",inline"`
	Minions  []Minion `json:"minions,omitempty"`
	Items    []Minion `json:"items,omitempty"`
}

// Binding assigns a pod to a host: the 2014 scheduler's one write.
type Binding struct {
	TypeMeta `json:",inline"`
	PodID    string `json:"podID"`
	Host     string `json:"host"`
}

// ServerOp is one asynchronous operation the apiserver is tracking.
type ServerOp struct {
	TypeMeta `json:",inline"`
}

// ServerOpList lists the operations the apiserver is tracking.
type ServerOpList struct {
	TypeMeta `json:",inline"`
	Items    []ServerOp `json:"items,omitempty"`
}
