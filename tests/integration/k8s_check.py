#!/usr/bin/env python3
"""The Kubernetes manifests of packaging/kubernetes/, read as Kubernetes would read them.

    k8s_check.py DIR HELP_FILE OUT_DIR PORT[,PORT2]

DIR holds the manifests, HELP_FILE is the output of `ioprobe --help` (the options the binary
knows), OUT_DIR receives what t_k8s_manifests.sh runs the real binary with, PORT is a free
port to put in --listen (PORT2, default PORT, for the eBPF patch's run). Prints one
"ok - ..." or "FAIL - ..." line per check (fleet.sh's `tap` counts them) and exits 1 when
any failed.

Checked: every file parses and every document has apiVersion, kind and metadata.name;
kustomization.yaml lists every manifest present (and names each *-patch.yaml); one
namespace for all; the field names are ones the API knows (a list below, not the API's
schema: a typo fails, a real field missing from the list is added to KNOWN); the
DaemonSet's selector matches its pods; its arguments are options the binary knows, --listen
on every address and on the container port named "metrics"; the probes go to that port;
the targets are hostPath mounts, read-write, every other host mount read-only and none over
/sys or /proc; no privileged mode, host namespaces, privilege escalation or added
capability, every capability dropped, a read-only root filesystem, RuntimeDefault seccomp;
requests and a memory limit; the Service selects the pods and targets the port "metrics";
the ServiceMonitor selects the Service and scrapes its port by name; the eBPF patch, merged
as kubectl/kustomize merge it, adds exactly BPF and PERFMON, --layers and nothing else to
the arguments, and changes nothing else of the security context.

Written to OUT_DIR for the shell test: default.args and ebpf.args (one argument a line, the
port replaced by PORT or PORT2 and each target by OUT_DIR/node/tN), targets (those directories),
probes (the probes' HTTP paths), memlimit (bytes), ebpf.hostpid (true/false).
"""
import copy
import glob
import os
import re
import sys

import yaml

FAILED = 0


def check(desc, ok, why=""):
    global FAILED
    if ok:
        print(f"ok - {desc}")
    else:
        FAILED += 1
        print(f"FAIL - {desc}" + (f" ({why})" if why else ""))
    return ok


# ---- field names the API knows, for the objects these manifests use ----
META = {"name", "namespace", "labels", "annotations", "generateName", "finalizers",
        "ownerReferences"}
KNOWN = {
    "DaemonSet": {"apiVersion", "kind", "metadata", "spec"},
    "DaemonSet.spec": {"minReadySeconds", "revisionHistoryLimit", "selector", "template",
                       "updateStrategy"},
    "DaemonSet.spec.updateStrategy": {"type", "rollingUpdate"},
    "DaemonSet.spec.updateStrategy.rollingUpdate": {"maxSurge", "maxUnavailable"},
    "selector": {"matchLabels", "matchExpressions"},
    "template": {"metadata", "spec"},
    "pod": {"activeDeadlineSeconds", "affinity", "automountServiceAccountToken", "containers",
            "dnsConfig", "dnsPolicy", "enableServiceLinks", "ephemeralContainers",
            "hostAliases", "hostIPC", "hostNetwork", "hostPID", "hostUsers", "hostname",
            "imagePullSecrets", "initContainers", "nodeName", "nodeSelector", "os",
            "overhead", "preemptionPolicy", "priority", "priorityClassName", "readinessGates",
            "resourceClaims", "resources", "restartPolicy", "runtimeClassName",
            "schedulerName", "schedulingGates", "securityContext", "serviceAccount",
            "serviceAccountName", "setHostnameAsFQDN", "shareProcessNamespace", "subdomain",
            "terminationGracePeriodSeconds", "tolerations", "topologySpreadConstraints",
            "volumes"},
    "pod.securityContext": {"appArmorProfile", "fsGroup", "fsGroupChangePolicy", "runAsGroup",
                            "runAsNonRoot", "runAsUser", "seLinuxChangePolicy",
                            "seLinuxOptions", "seccompProfile", "supplementalGroups",
                            "supplementalGroupsPolicy", "sysctls", "windowsOptions"},
    "seccompProfile": {"type", "localhostProfile"},
    "toleration": {"effect", "key", "operator", "tolerationSeconds", "value"},
    "container": {"args", "command", "env", "envFrom", "image", "imagePullPolicy",
                  "lifecycle", "livenessProbe", "name", "ports", "readinessProbe",
                  "resizePolicy", "resources", "restartPolicy", "securityContext",
                  "startupProbe", "stdin", "stdinOnce", "terminationMessagePath",
                  "terminationMessagePolicy", "tty", "volumeDevices", "volumeMounts",
                  "workingDir"},
    "container.port": {"containerPort", "hostIP", "hostPort", "name", "protocol"},
    "probe": {"exec", "failureThreshold", "grpc", "httpGet", "initialDelaySeconds",
              "periodSeconds", "successThreshold", "tcpSocket",
              "terminationGracePeriodSeconds", "timeoutSeconds"},
    "probe.httpGet": {"host", "httpHeaders", "path", "port", "scheme"},
    "resources": {"claims", "limits", "requests"},
    "container.securityContext": {"allowPrivilegeEscalation", "appArmorProfile",
                                  "capabilities", "privileged", "procMount",
                                  "readOnlyRootFilesystem", "runAsGroup", "runAsNonRoot",
                                  "runAsUser", "seLinuxOptions", "seccompProfile",
                                  "windowsOptions"},
    "capabilities": {"add", "drop"},
    "volumeMount": {"mountPath", "mountPropagation", "name", "readOnly", "recursiveReadOnly",
                    "subPath", "subPathExpr"},
    "volume.hostPath": {"path", "type"},
    "Service": {"apiVersion", "kind", "metadata", "spec"},
    "Service.spec": {"allocateLoadBalancerNodePorts", "clusterIP", "clusterIPs", "externalIPs",
                     "externalName", "externalTrafficPolicy", "healthCheckNodePort",
                     "internalTrafficPolicy", "ipFamilies", "ipFamilyPolicy",
                     "loadBalancerClass", "loadBalancerIP", "loadBalancerSourceRanges",
                     "ports", "publishNotReadyAddresses", "selector", "sessionAffinity",
                     "sessionAffinityConfig", "trafficDistribution", "type"},
    "Service.port": {"appProtocol", "name", "nodePort", "port", "protocol", "targetPort"},
    "ServiceMonitor": {"apiVersion", "kind", "metadata", "spec"},
    "ServiceMonitor.spec": {"attachMetadata", "bodySizeLimit", "endpoints", "jobLabel",
                            "keepDroppedTargets", "labelLimit", "labelNameLengthLimit",
                            "labelValueLengthLimit", "namespaceSelector",
                            "nativeHistogramBucketLimit", "nativeHistogramMinBucketFactor",
                            "podTargetLabels", "sampleLimit", "scrapeClass",
                            "scrapeClassicHistograms", "scrapeProtocols", "selector",
                            "targetLabels", "targetLimit"},
    "ServiceMonitor.endpoint": {"authorization", "basicAuth", "bearerTokenFile",
                                "bearerTokenSecret", "enableHttp2", "filterRunning",
                                "followRedirects", "honorLabels", "honorTimestamps", "interval",
                                "metricRelabelings", "noProxy", "oauth2", "params", "path",
                                "port", "proxyConnectHeader", "proxyFromEnvironment",
                                "proxyUrl", "relabelings", "scheme", "scrapeTimeout",
                                "targetPort", "tlsConfig", "trackTimestampsStaleness"},
    "relabeling": {"action", "modulus", "regex", "replacement", "separator", "sourceLabels",
                   "targetLabel"},
    "ServiceMonitor.namespaceSelector": {"any", "matchNames"},
    "Namespace": {"apiVersion", "kind", "metadata", "spec"},
    "Kustomization": {"apiVersion", "kind", "metadata", "namespace", "resources", "patches",
                      "images", "labels", "commonLabels", "commonAnnotations",
                      "components", "configMapGenerator", "secretGenerator", "namePrefix",
                      "nameSuffix", "replicas", "generatorOptions", "buildMetadata"},
}


def unknown_fields(doc):
    """[(where, key)] for every key not in KNOWN, over the objects walked below."""
    bad = []

    def keys(obj, kind, where):
        if isinstance(obj, dict):
            bad.extend((where, k) for k in obj if k not in KNOWN[kind])

    def meta(obj, where):
        if isinstance(obj, dict) and isinstance(obj.get("metadata"), dict):
            bad.extend((where + ".metadata", k) for k in obj["metadata"] if k not in META)

    def pod(p, where):
        keys(p, "pod", where)
        keys(p.get("securityContext"), "pod.securityContext", where + ".securityContext")
        keys((p.get("securityContext") or {}).get("seccompProfile"), "seccompProfile",
             where + ".securityContext.seccompProfile")
        for t in p.get("tolerations") or []:
            keys(t, "toleration", where + ".tolerations[]")
        for v in p.get("volumes") or []:
            keys(v.get("hostPath"), "volume.hostPath", where + ".volumes[].hostPath")
        for c in (p.get("containers") or []) + (p.get("initContainers") or []):
            w = where + ".containers[" + str(c.get("name")) + "]"
            keys(c, "container", w)
            for port in c.get("ports") or []:
                keys(port, "container.port", w + ".ports[]")
            for pr in ("livenessProbe", "readinessProbe", "startupProbe"):
                if isinstance(c.get(pr), dict):
                    keys(c[pr], "probe", w + "." + pr)
                    keys(c[pr].get("httpGet"), "probe.httpGet", w + "." + pr + ".httpGet")
            keys(c.get("resources"), "resources", w + ".resources")
            sc = c.get("securityContext") or {}
            keys(sc, "container.securityContext", w + ".securityContext")
            keys(sc.get("capabilities"), "capabilities", w + ".securityContext.capabilities")
            keys(sc.get("seccompProfile"), "seccompProfile", w + ".securityContext.seccompProfile")
            for m in c.get("volumeMounts") or []:
                keys(m, "volumeMount", w + ".volumeMounts[]")

    kind = doc.get("kind")
    if kind not in KNOWN:
        return bad
    keys(doc, kind, kind)
    meta(doc, kind)
    spec = doc.get("spec") or {}
    if kind == "DaemonSet":
        keys(spec, "DaemonSet.spec", "spec")
        keys(spec.get("selector"), "selector", "spec.selector")
        us = spec.get("updateStrategy") or {}
        keys(us, "DaemonSet.spec.updateStrategy", "spec.updateStrategy")
        keys(us.get("rollingUpdate"), "DaemonSet.spec.updateStrategy.rollingUpdate",
             "spec.updateStrategy.rollingUpdate")
        tpl = spec.get("template") or {}
        keys(tpl, "template", "spec.template")
        meta(tpl, "spec.template")
        pod(tpl.get("spec") or {}, "spec.template.spec")
    elif kind == "Service":
        keys(spec, "Service.spec", "spec")
        for p in spec.get("ports") or []:
            keys(p, "Service.port", "spec.ports[]")
    elif kind == "ServiceMonitor":
        keys(spec, "ServiceMonitor.spec", "spec")
        keys(spec.get("selector"), "selector", "spec.selector")
        keys(spec.get("namespaceSelector"), "ServiceMonitor.namespaceSelector",
             "spec.namespaceSelector")
        for e in spec.get("endpoints") or []:
            keys(e, "ServiceMonitor.endpoint", "spec.endpoints[]")
            for r in (e.get("relabelings") or []) + (e.get("metricRelabelings") or []):
                keys(r, "relabeling", "spec.endpoints[].relabelings[]")
    return bad


# ---- the options the binary knows (from --help) ----
def help_options(text):
    """({short letter: takes a value}, {long name: takes a value})."""
    shorts, longs = {}, {}
    for line in text.splitlines():
        m = re.match(r"\s+(?:-(\w),\s+)?(--?)([A-Za-z][\w-]*)(\[[^\]]*\])?(\s+<[^>]*>)?", line)
        if not m or len(m.group(3)) < 2:
            continue
        val = bool(m.group(5))
        if m.group(1):
            shorts[m.group(1)] = val
        longs[m.group(3)] = val
    return shorts, longs


def parse_args(args, shorts, longs):
    """[(option, value or None, index of the value)], [(target, index)], [unknown options]."""
    opts, targets, unknown = [], [], []
    i = 0
    while i < len(args):
        a = str(args[i])
        i += 1
        if not a.startswith("-") or a == "-":
            targets.append((a, i - 1))
            continue
        name, eq, inline = a.lstrip("-").partition("=")
        if name in longs and (a.startswith("--") or len(name) > 1):
            takes = longs[name]
        elif not a.startswith("--") and len(name) == 1 and name in shorts:
            takes = shorts[name]
        else:
            unknown.append(a)
            continue
        if takes and not eq:
            opts.append((name, str(args[i]) if i < len(args) else None, i))
            i += 1
        else:
            opts.append((name, inline if eq else None, i - 1))
    return opts, targets, unknown


def opt_value(opts, name):
    """(the last value of option name, the index of the argument that holds it)."""
    vals = [(v, j) for n, v, j in opts if n == name]
    return vals[-1] if vals else (None, None)


LISTEN_RE = re.compile(r"(?:(\[[^\]]*\]|[^:\[\]]*):)?(\d+)")


def quantity(q):
    """A Kubernetes memory quantity in bytes, or None."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?", str(q))
    if not m:
        return None
    mult = {None: 1, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40, "k": 1e3,
            "M": 1e6, "G": 1e9, "T": 1e12}[m.group(2)]
    return int(float(m.group(1)) * mult)


def subset(small, big):
    return bool(small) and all((big or {}).get(k) == v for k, v in small.items())


# ---- strategic merge (what kubectl patch and kustomize's patches do) ----
MERGE_KEYS = {"containers": "name", "initContainers": "name", "volumes": "name",
              "volumeMounts": "mountPath", "ports": "containerPort", "env": "name"}


def merge(base, patch, key=None):
    if isinstance(base, dict) and isinstance(patch, dict):
        out = copy.deepcopy(base)
        for k, v in patch.items():
            if v is None:
                out.pop(k, None)
            elif k in out:
                out[k] = merge(out[k], v, k)
            else:
                out[k] = copy.deepcopy(v)
        return out
    if isinstance(base, list) and isinstance(patch, list) and key in MERGE_KEYS:
        mk = MERGE_KEYS[key]
        out = copy.deepcopy(base)
        for item in patch:
            for j, old in enumerate(out):
                if isinstance(old, dict) and old.get(mk) == item.get(mk):
                    out[j] = merge(old, item)
                    break
            else:
                out.append(copy.deepcopy(item))
        return out
    return copy.deepcopy(patch)  # scalars and other lists: replaced whole


def caps(names):
    return sorted({str(c).upper().removeprefix("CAP_") for c in names or []})


def main():
    mdir, helpfile, outdir, ports = sys.argv[1:5]
    ports = ports.split(",")
    shorts, longs = help_options(open(helpfile).read())
    check("the binary's --help lists its options (--listen among them)",
          "listen" in longs and "q" in shorts, f"{len(longs)} long options read")

    # ---- every file, every document ----
    files = sorted(glob.glob(os.path.join(mdir, "*.yaml")) + glob.glob(os.path.join(mdir, "*.yml")))
    check(f"manifests found in {mdir}", len(files) >= 5, f"{len(files)} files")
    docs = {}  # file name -> [documents]
    for f in files:
        name = os.path.basename(f)
        try:
            ds = [d for d in yaml.safe_load_all(open(f)) if d is not None]
        except yaml.YAMLError as e:
            check(f"{name}: parses as YAML", False, str(e).replace("\n", " "))
            continue
        docs[name] = ds
        bad = [i for i, d in enumerate(ds)
               if not (isinstance(d, dict) and d.get("apiVersion") and d.get("kind")
                       and isinstance(d.get("metadata"), dict) and d["metadata"].get("name"))]
        check(f"{name}: {len(ds)} document(s), each with apiVersion, kind and metadata.name",
              ds and not bad, f"documents {bad} lack one")
        unk = [f"{w}.{k}" for d in ds if isinstance(d, dict) for w, k in unknown_fields(d)]
        check(f"{name}: every field name is one the API knows", not unk,
              "unknown: " + ", ".join(unk) + " (a typo? a real field goes into KNOWN)")

    def kind(k, among=None):
        return [(n, d) for n, ds in docs.items() for d in ds if isinstance(d, dict)
                and d.get("kind") == k and (among is None or among(n))]

    patches = sorted(n for n in docs if n.endswith("-patch.yaml"))
    resources_present = sorted(n for n in docs if n != "kustomization.yaml" and n not in patches)
    res = lambda n: n in resources_present  # noqa: E731

    # ---- kustomization ----
    kust = docs.get("kustomization.yaml", [{}])[0]
    check("kustomization.yaml is a Kustomization (kustomize.config.k8s.io)",
          kust.get("kind") == "Kustomization"
          and str(kust.get("apiVersion", "")).startswith("kustomize.config.k8s.io/"))
    listed = sorted(str(r) for r in kust.get("resources") or [])
    check("kustomization.yaml lists every manifest present, and no other",
          listed == resources_present, f"listed {listed}, present {resources_present}")
    kpath = os.path.join(mdir, "kustomization.yaml")
    ktext = open(kpath).read() if os.path.exists(kpath) else ""
    for p in patches:
        check(f"kustomization.yaml names the optional patch {p}", p in ktext)
    ns = kust.get("namespace")
    nsdocs = kind("Namespace", res)
    check("one Namespace, the kustomization's namespace",
          len(nsdocs) == 1 and nsdocs[0][1]["metadata"]["name"] == ns,
          f"namespace {ns!r}, Namespace objects {[d['metadata']['name'] for _, d in nsdocs]}")
    wrong = [f"{n}:{d['kind']}" for n, ds in docs.items() if n != "kustomization.yaml"
             for d in ds if isinstance(d, dict) and d.get("kind") != "Namespace"
             and (d.get("metadata") or {}).get("namespace") != ns]
    check(f"every namespaced object (patches too) says namespace {ns}", not wrong,
          "elsewhere: " + ", ".join(wrong))

    # ---- DaemonSet ----
    dss = kind("DaemonSet", res)
    if not check("one DaemonSet (apps/v1)", len(dss) == 1 and dss[0][1]["apiVersion"] == "apps/v1",
                 f"{len(dss)} found"):
        return
    ds = dss[0][1]
    tpl = ds["spec"]["template"]
    podlabels = (tpl.get("metadata") or {}).get("labels") or {}
    check("DaemonSet: selector.matchLabels match the pod template's labels",
          subset(ds["spec"].get("selector", {}).get("matchLabels"), podlabels))

    def pod_checks(d, what, expect_caps, expect_hostpid, port):
        """The security and plumbing checks of one DaemonSet; returns its run facts."""
        p = d["spec"]["template"]["spec"]
        cs = p.get("containers") or []
        if not check(f"{what}: one container", len(cs) == 1, f"{len(cs)}"):
            return None
        c = cs[0]
        check(f"{what}: the command is the ioprobe binary (no image entrypoint assumed)",
              os.path.basename(str((c.get("command") or [""])[0])) == "ioprobe",
              f"command {c.get('command')}")
        args = [str(a) for a in c.get("args") or []]
        opts, targets, unknown = parse_args(args, shorts, longs)
        check(f"{what}: every option in args is one the binary knows ({len(opts)})",
              args and not unknown, "unknown: " + " ".join(unknown))
        listen, lidx = opt_value(opts, "listen")
        m = LISTEN_RE.fullmatch(listen or "")
        check(f"{what}: args have --listen [addr]:port", m is not None, f"--listen {listen!r}")
        lport = int(m.group(2)) if m else None
        addr = m.group(1) if m else None
        check(f"{what}: --listen {listen} serves every address (kubelet and Prometheus come "
              "to the pod IP)", m is not None and addr in ("", "0.0.0.0", "[::]"),
              "an address left out is 127.0.0.1")
        check(f"{what}: one target at least", len(targets) >= 1)
        tidx = dict((j, t) for t, j in targets)
        targets = [t for t, _ in targets]
        ports = {pp.get("name"): pp.get("containerPort") for pp in c.get("ports") or []}
        check(f"{what}: container port 'metrics' = the --listen port ({lport})",
              lport is not None and ports.get("metrics") == lport, f"ports {ports}")
        probe_paths = []
        for pr in ("livenessProbe", "readinessProbe"):
            hg = (c.get(pr) or {}).get("httpGet") or {}
            pp = hg.get("port")
            resolved = ports.get(pp) if isinstance(pp, str) else pp
            check(f"{what}: {pr} is an HTTP GET on the metrics port ({pp})",
                  hg and resolved == lport and hg.get("path") in ("/", "/metrics"),
                  f"httpGet {hg}")
            probe_paths.append(str(hg.get("path")))
        # mounts
        vols = {v.get("name"): v for v in p.get("volumes") or []}
        mounts = c.get("volumeMounts") or []
        host = [(m_, vols.get(m_.get("name"), {}).get("hostPath")) for m_ in mounts]
        host = [(m_, h) for m_, h in host if h]

        def under(path, mp):
            return path == mp or path.startswith(mp.rstrip("/") + "/")
        for t in targets:
            hm = [(m_, h) for m_, h in host if under(t, m_["mountPath"])]
            check(f"{what}: target {t} is on a hostPath mount (the node's disk, not the "
                  "container's)", len(hm) == 1, f"{len(hm)} hostPath mounts hold it")
            if len(hm) == 1:
                m_, h = hm[0]
                check(f"{what}: target {t}'s mount is read-write (the temporary file) and its "
                      "hostPath a directory", not m_.get("readOnly") and
                      h.get("type") in ("Directory", "DirectoryOrCreate"), f"{m_}, {h}")
        others = [m_ for m_, h in host if not any(under(t, m_["mountPath"]) for t in targets)]
        check(f"{what}: every other host mount is read-only ({len(others)})",
              all(m_.get("readOnly") for m_ in others),
              ", ".join(m_["mountPath"] for m_ in others if not m_.get("readOnly")))
        shadow = [m_["mountPath"] for m_ in mounts
                  if any(under(m_["mountPath"], s) for s in ("/sys", "/proc"))
                  or m_["mountPath"] in ("/", "/dev")]
        check(f"{what}: nothing mounted over /sys, /proc or /dev (the container's own "
              "read-only sysfs has the block devices; a host /sys would hide its cgroup)",
              not shadow, ", ".join(shadow))
        # security
        check(f"{what}: no host network or IPC namespace",
              not p.get("hostNetwork") and not p.get("hostIPC"))
        check(f"{what}: hostPID {str(expect_hostpid).lower()}",
              bool(p.get("hostPID")) == expect_hostpid,
              f"hostPID {p.get('hostPID')}")
        sc = c.get("securityContext") or {}
        check(f"{what}: not privileged, no privilege escalation",
              sc.get("privileged") is not True and sc.get("allowPrivilegeEscalation") is False)
        check(f"{what}: read-only root filesystem", sc.get("readOnlyRootFilesystem") is True)
        cap = sc.get("capabilities") or {}
        check(f"{what}: capabilities: drop ALL", caps(cap.get("drop")) == ["ALL"],
              f"drop {cap.get('drop')}")
        check(f"{what}: capabilities added: {' '.join(expect_caps) or 'none'}",
              caps(cap.get("add")) == expect_caps, f"add {cap.get('add')}")
        seccomp = (sc.get("seccompProfile") or (p.get("securityContext") or {}).get(
            "seccompProfile") or {}).get("type")
        check(f"{what}: seccomp RuntimeDefault", seccomp == "RuntimeDefault", f"{seccomp}")
        check(f"{what}: no service account token (it never calls the API)",
              p.get("automountServiceAccountToken") is False)
        r = c.get("resources") or {}
        req, lim = r.get("requests") or {}, r.get("limits") or {}
        check(f"{what}: cpu and memory requests, a memory limit, no CPU limit (CFS "
              "throttling would count as latency)",
              "cpu" in req and "memory" in req and "memory" in lim and "cpu" not in lim,
              f"resources {r}")
        mem = quantity(lim.get("memory"))
        need = (8 << 20) + len(targets) * (5 << 18)
        check(f"{what}: memory limit above ioprobe's own reserve (8 MiB + 1.25 MiB a target)",
              mem is not None and mem > need, f"limit {lim.get('memory')}")
        # what the shell test runs: the port and the targets replaced
        run, tdirs = list(args), []
        for j, t in sorted(tidx.items()):
            tdirs.append(os.path.join(outdir, "node", f"t{len(tdirs)}"))
            run[j] = tdirs[-1]
        if m:
            new = (f"{addr}:" if addr is not None else "") + port
            run[lidx] = run[lidx][: len(run[lidx]) - len(listen)] + new
        return {"args": args, "run": run, "targets": tdirs,
                "probes": probe_paths, "memlimit": mem or 0}

    base = pod_checks(ds, "DaemonSet", [], False, ports[0])
    if base is None:
        return

    # ---- Service ----
    svcs = kind("Service", res)
    if check("one Service (v1)", len(svcs) == 1 and svcs[0][1]["apiVersion"] == "v1"):
        svc = svcs[0][1]
        check("Service: its selector matches the DaemonSet's pods",
              subset(svc["spec"].get("selector"), podlabels))
        sp = [p for p in svc["spec"].get("ports") or [] if p.get("name") == "metrics"]
        cport = {p.get("name"): p.get("containerPort")
                 for p in tpl["spec"]["containers"][0].get("ports") or []}
        check("Service: port 'metrics' targets the container port 'metrics'",
              len(sp) == 1 and (sp[0].get("targetPort") == "metrics"
                                or sp[0].get("targetPort") == cport.get("metrics")),
              f"ports {svc['spec'].get('ports')}")
        # ---- ServiceMonitor ----
        sms = kind("ServiceMonitor", res)
        if check("one ServiceMonitor (monitoring.coreos.com/v1)",
                 len(sms) == 1 and sms[0][1]["apiVersion"] == "monitoring.coreos.com/v1"):
            sm = sms[0][1]
            check("ServiceMonitor: selector matches the Service's labels",
                  subset(sm["spec"].get("selector", {}).get("matchLabels"),
                         svc["metadata"].get("labels")))
            nsel = sm["spec"].get("namespaceSelector")
            check("ServiceMonitor: looks in the Service's namespace",
                  nsel is None or nsel.get("any") is True or
                  svc["metadata"].get("namespace") in (nsel.get("matchNames") or []))
            eps = sm["spec"].get("endpoints") or []
            check("ServiceMonitor: every endpoint scrapes the Service's port 'metrics' at "
                  "/metrics", eps and all(e.get("port") == "metrics" and
                                           e.get("path", "/metrics") == "/metrics" for e in eps),
                  f"endpoints {eps}")

            def secs(s):
                m = re.fullmatch(r"(\d+)(s|m)", str(s))
                return int(m.group(1)) * (60 if m.group(2) == "m" else 1) if m else None
            iv = [(secs(e.get("interval")), secs(e.get("scrapeTimeout", "10s"))) for e in eps]
            check("ServiceMonitor: interval 15-60 s, scrapeTimeout below it",
                  iv and all(i and t and 15 <= i <= 60 and t < i for i, t in iv), f"{iv}")
            rl = [r for e in eps for r in e.get("relabelings") or []]
            check("ServiceMonitor: instance is the node's name",
                  any(r.get("targetLabel") == "instance" and
                      r.get("sourceLabels") == ["__meta_kubernetes_pod_node_name"] for r in rl))

    # ---- the eBPF patch ----
    ebpf = {"run": [], "hostpid": False}
    for pname in patches:
        pds = docs[pname]
        ok = check(f"{pname}: one DaemonSet patch, for {ds['metadata']['name']}",
                   len(pds) == 1 and pds[0].get("kind") == "DaemonSet"
                   and pds[0]["metadata"]["name"] == ds["metadata"]["name"])
        if not ok:
            continue
        merged = merge(ds, pds[0])
        pspec = pds[0]["spec"]["template"]["spec"]
        hostpid = bool(pspec.get("hostPID"))
        facts = pod_checks(merged, f"{pname} merged", ["BPF", "PERFMON"], hostpid, ports[-1])
        if facts is None:
            continue
        a = list(facts["args"])
        if "--layers" in a:
            a.remove("--layers")
        check(f"{pname}: args are daemonset.yaml's plus --layers, nothing else",
              "--layers" in facts["args"] and a == base["args"],
              f"{facts['args']} vs {base['args']}")
        b_sc = ds["spec"]["template"]["spec"]["containers"][0]["securityContext"]
        m_sc = merged["spec"]["template"]["spec"]["containers"][0]["securityContext"]
        same = {k: v for k, v in b_sc.items() if k != "capabilities"} == \
            {k: v for k, v in m_sc.items() if k != "capabilities"}
        check(f"{pname}: the rest of the security context is daemonset.yaml's", same)
        changed = sorted(set(pspec) - {"containers", "hostPID"})
        check(f"{pname}: changes no other pod field", not changed, f"changes {changed}")
        ebpf = {"run": facts["run"], "hostpid": hostpid}

    os.makedirs(outdir, exist_ok=True)

    def write(name, lines):
        with open(os.path.join(outdir, name), "w") as f:
            f.writelines(f"{x}\n" for x in lines)
    write("default.args", base["run"])
    write("ebpf.args", ebpf["run"])
    write("targets", base["targets"])
    write("probes", base["probes"])
    write("memlimit", [base["memlimit"]])
    write("ebpf.hostpid", ["true" if ebpf["hostpid"] else "false"])


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # a manifest so broken the checks cannot go on
        check("the manifests can be read through", False, f"{type(e).__name__}: {e}")
    sys.exit(1 if FAILED else 0)
