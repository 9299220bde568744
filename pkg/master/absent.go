package master

// What v0.4 offered and this port does not, in one place: its routes,
// resources and flags that are left out, each with the reason. Everything
// else v0.4's apiserver, controller-manager and kubecfg served or took is
// here.
//
// Ours: the apiserver serves v1beta1 only. v0.4 also served the same
// resources under /api/v1beta2, a second wire format that no 2014
// controller used; one format is enough to run and measure the 2014 control
// loop, and a client asking for v1beta2 gets a 404 Status.
//
// Ours: no proxying routes. v0.4's <prefix>/proxy/ relayed HTTP to one of
// a service's endpoints, picked at random, rewriting links in HTML pages;
// <prefix>/redirect/ answered with a redirect to such an endpoint;
// /proxy/minion/ relayed to a kubelet. There is no workload behind a hollow node's pods and no kubelet,
// so there is nothing to relay to.
//
// Ours: no /logs/ (v0.4 served the master's /var/log/ read-only, unless
// -enable_logs_support=false) and no /static/ web UI: one would expose this
// machine's files, the other needs the 2014 UI's assets.
//
// Ours: no "events" resource (added to v0.4 that month; nothing this port
// recreates wrote or read events), so /api/v1beta1/events is a 404 Status.
//
// Ours: no -api_version on kubecfg and no -api_version,
// -insecure_skip_tls_verify, -client_certificate, -client_key or
// -certificate_authority on the controller-manager (v0.4 bound these with
// client.BindClientConfigFlags; only -master is kept). There is one API
// version to ask for, and the apiserver speaks plain HTTP on loopback.
//
// Ours: the apiserver takes none of v0.4's -api_prefix, -storage_version,
// -etcd_config, -machines, -minion_regexp, -minion_port,
// -health_check_minions, -minion_cache_ttl, -cloud_provider, -cloud_config,
// -event_ttl, -token_auth_file, -cors_allowed_origins, -allow_privileged,
// -node_milli_cpu, -node_memory or -enable_logs_support: there is no cloud,
// no kubelet, no authentication and no UI here, the prefix is fixed at
// /api/v1beta1, minions register themselves, and etcd is embedded or named
// by -etcd_servers.
