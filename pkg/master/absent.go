package master

// What v0.4's apiserver, controller-manager and kubecfg offered and this
// port does not, in one place, each with why; everything else is here.
//
// Ours: v1beta1 only; v0.4 also served /api/v1beta2, a format no 2014
// controller used. A v1beta2 request gets a 404 Status.
//
// Ours: no <prefix>/proxy/, <prefix>/redirect/ or /proxy/minion/: no
// hollow node's pod runs a workload and there is no kubelet to relay to.
//
// Ours: no /logs/ (the master's /var/log/) and no /static/ web UI: one
// would expose this machine's files, the other needs the 2014 UI's assets.
//
// Ours: no "events" resource (new in v0.4's month; nothing recreated here
// wrote or read events): /api/v1beta1/events is a 404 Status.
//
// Ours: of client.BindClientConfigFlags only -master: no -api_version on
// kubecfg, no -api_version, -insecure_skip_tls_verify, -client_certificate,
// -client_key or -certificate_authority on the controller-manager. There is
// one API version, and plain HTTP on loopback.
//
// Ours: the apiserver takes none of -api_prefix, -storage_version,
// -etcd_config, -machines, -minion_regexp, -minion_port,
// -health_check_minions, -minion_cache_ttl, -cloud_provider, -cloud_config,
// -event_ttl, -token_auth_file, -cors_allowed_origins, -allow_privileged,
// -node_milli_cpu, -node_memory or -enable_logs_support: no cloud, kubelet,
// authentication or UI here, the prefix is fixed, minions register
// themselves, and etcd is embedded or named by -etcd_servers.
