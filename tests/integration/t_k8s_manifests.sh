#!/bin/bash
# The Kubernetes manifests (packaging/kubernetes/: namespace, DaemonSet, headless Service,
# ServiceMonitor, the eBPF patch, kustomization.yaml). There is no cluster here: k8s_check.py
# reads them as the API would (every document named, field names the API knows, the
# kustomization listing every file, the selectors matching, the ports and probes on the
# --listen port, the options known to this binary, the mounts and the security context:
# nothing privileged, every capability dropped, none added but the patch's BPF and PERFMON).
# Then the DaemonSet's exact arguments (a free port, a temporary directory for the node's)
# run as the pod would run them (root: own mount and PID namespaces, a read-only root and
# /sys, no capability, no new privileges): /metrics and the probes' paths answer, the device
# under the target is found, the memory limit holds it, SIGTERM ends it with status 0, and
# the node's directory is left empty. The patch's arguments run with BPF and PERFMON alone
# (each alone is refused), and --layers measures the submit layer in a PID namespace of its
# own (the patch keeps it: no hostPID) as in the host's.
# IOPROBE_K8S_DIR=DIR checks a copy of the manifests instead (to see a check fail).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet.sh"

require_cmd python3
require_cmd curl
python3 -c 'import yaml' 2>/dev/null || skip "needs python3-yaml"

K8S=${IOPROBE_K8S_DIR:-$SRCDIR/packaging/kubernetes}
R=$T_TMP/k8s
"$IOPROBE" --help >"$T_TMP/help" 2>&1
PORT=$(free_port)
PORT2=$(free_port)
tap python3 "$SRCDIR/tests/integration/k8s_check.py" "$K8S" "$T_TMP/help" "$R" "$PORT,$PORT2"
[ -s "$R/default.args" ] || finish

# as a pod: root runs it in mount and PID namespaces of its own with the
# root file system and /sys read-only, the targets bound read-write, the capabilities cut to
# CAPS (the bounding set; none inherited) and no new privileges. Elsewhere it runs as it is.
POD_NS=0
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1 &&
	unshare --mount --pid --fork --mount-proc bash -c 'mount --make-rprivate / &&
		mount -o remount,bind,ro /sys && mount -o remount,bind,ro /' 2>/dev/null; then
	POD_NS=1
else
	echo "# not root, or no namespaces here: the arguments run without the pod's namespaces"
fi
mapfile -t TARGETS <"$R/targets"
mkdir -p "${TARGETS[@]}"

# pod_start CAPS HOSTPID ARGS...: start it in the background; POD is its pid.
pod_start() {
	local caps=$1 hostpid=$2 ns=(--mount) u tries=500
	shift 2
	if [ "$POD_NS" = 0 ]; then
		"$IOPROBE" "$@" >"$OUT" 2>"$ERR" &
		POD=$!
		POD_WAIT=$POD
		BG+=("$POD")
		return 0
	fi
	[ "$hostpid" = true ] || ns+=(--pid --fork --mount-proc --kill-child)
	unshare "${ns[@]}" bash -c '
		set -e
		caps=$1
		n=$2
		shift 2
		mount --make-rprivate /
		for t in "${@:1:n}"; do mount --bind "$t" "$t"; done
		shift "$n"
		mount -o remount,bind,ro /sys
		mount -o remount,bind,ro /
		exec setpriv --bounding-set="-all$caps" --inh-caps=-all --ambient-caps=-all \
			--no-new-privs -- "$@"' _ "$caps" "${#TARGETS[@]}" "${TARGETS[@]}" \
		"$IOPROBE" "$@" >"$OUT" 2>"$ERR" &
	u=$!
	BG+=("$u")
	POD=$u
	if [ "$hostpid" != true ]; then # the PID namespace's init, unshare's child
		POD=
		while [ -z "$POD" ] && [ "$tries" -gt 0 ] && kill -0 "$u" 2>/dev/null; do
			POD=$(pgrep -P "$u")
			tries=$((tries - 1))
			[ -n "$POD" ] || sleep 0.01
		done
	fi
	POD_WAIT=$u
}

# pod_stop: SIGTERM (as the kubelet stops a pod); RC its status, STOP_MS how long it took.
pod_stop() {
	local t0
	t0=$(now_ms)
	kill -TERM "$POD" 2>/dev/null
	wait_exit "$POD_WAIT" 10 || kill -KILL "$POD_WAIT" 2>/dev/null
	wait "$POD_WAIT"
	RC=$?
	STOP_MS=$(($(now_ms) - t0))
}
POD_WAIT=

# pod_http PATH: poll (50 ms, 10 s at most) until the pod answers PATH with 200; fails at once
# when it has ended.
pod_http() {
	local tries=200
	while [ "$tries" -gt 0 ] && kill -0 "$POD_WAIT" 2>/dev/null; do
		curl -fs -o /dev/null --max-time 1 "http://127.0.0.1:$PORT$1" && return 0
		tries=$((tries - 1))
		sleep 0.05
	done
	return 1
}

# hwm_kib PID: the peak resident KiB of PID and its children (the request child, the watchdog).
hwm_kib() {
	local p sum=0 k
	for p in "$1" $(pgrep -P "$1"); do
		k=$(awk '/^VmHWM:/ { print $2 }' "/proc/$p/status" 2>/dev/null)
		sum=$((sum + ${k:-0}))
	done
	echo "$sum"
}

# mem_check WHAT: the manifest's memory limit holds twice the pod's resident peak (its
# processes together) plus the reserve ioprobe wants free (8 MiB + 1.25 MiB a target). Not for a
# sanitizer build (its shadow memory makes the process several times larger: t_memory's rule).
mem_check() {
	local hwm limit need
	if ldd "$IOPROBE" 2>/dev/null | grep -q 'libasan\|libubsan'; then
		echo "# memory: not measured, $IOPROBE is a sanitizer build"
		return
	fi
	hwm=$(hwm_kib "$POD")
	limit=$(cat "$R/memlimit")
	need=$(((2 * hwm + 8192 + 1280 * ${#TARGETS[@]}) * 1024))
	check "memory limit $((limit >> 20)) MiB >= 2 x$1 peak ($((hwm >> 10)) MiB) + reserve" \
		eval "[ $hwm -gt 0 ] && [ $limit -ge $need ]"
}

# submit_ns: the mean submit layer (ns, whole) of the -J run in $OUT; nothing when it has none.
# layer_ns NAME: the mean time of layer NAME (ns) in the -J run's summary in $OUT.
layer_ns() {
	python3 -c 'import json, sys
print(int(json.load(open(sys.argv[1]))[-1]["stat"]["layers"][sys.argv[2]]["avg"]))' "$OUT" "$1" \
		2>/dev/null
}
submit_ns() { layer_ns submit; }

# ---- the DaemonSet's arguments ----
mapfile -t ARGS <"$R/default.args"
echo "# running: ioprobe ${ARGS[*]}"
pod_start "" false "${ARGS[@]}"
if [ "$POD_NS" = 1 ] && [ -n "$POD" ]; then
	pod_http /
	check "as the pod: no capability, no new privileges, PID 1 of its namespace" \
		eval 'grep -q "^CapEff:[[:space:]]*0*$" /proc/$POD/status &&
			grep -q "^NoNewPrivs:[[:space:]]*1$" /proc/$POD/status &&
			grep -q "^NSpid:.*[[:space:]]1$" /proc/$POD/status'
fi
check "it serves /metrics on the --listen port" pod_http /metrics
curl -fs --max-time 5 "http://127.0.0.1:$PORT/metrics" >"$T_TMP/metrics"
for t in "${TARGETS[@]}"; do
	check "/metrics answers with the target's series ($t)" \
		grep -q "^ioprobe_request_duration_seconds_count{target=\"$t\"" "$T_TMP/metrics"
	ro=
	[ "$POD_NS" = 1 ] && ro=", /sys read-only"
	check "the device under the target is found (ioprobe_probe_info's disk)$ro" \
		grep -Eq "^ioprobe_probe_info\{target=\"$t\".*,disk=\"[^\"]+\"" "$T_TMP/metrics"
done
while read -r path; do
	check "the probe's path $path answers 200 on the container port" \
		curl -fs -o /dev/null --max-time 5 "http://127.0.0.1:$PORT$path"
done <"$R/probes"
mem_check " its"
pod_stop
check "SIGTERM ends it with status 0 within 2 s (${STOP_MS} ms)" \
	eval '[ "$RC" = 0 ] && [ "$STOP_MS" -le 2000 ]'
for t in "${TARGETS[@]}"; do
	check "nothing left in the node's directory ($t)" [ -z "$(ls -A "$t")" ]
done

# ---- the eBPF patch's arguments ----
mapfile -t EARGS <"$R/ebpf.args"
HOSTPID=$(cat "$R/ebpf.hostpid")
if [ "${#EARGS[@]}" = 0 ]; then
	echo "# no eBPF patch"
elif [ "$POD_NS" = 0 ]; then
	echo "# not root, or no namespaces here: the eBPF patch's capabilities are not tried"
elif ! timeout -k 5 30 "$IOPROBE" --layers -q -c 2 -i 0 "${TARGETS[0]}" >"$OUT" 2>"$ERR"; then
	echo "# eBPF layers cannot be loaded here even as root ($(head -1 "$ERR")): not tried"
else
	PORT=$PORT2
	echo "# running: ioprobe ${EARGS[*]}"
	pod_start ",+bpf,+perfmon" "$HOSTPID" "${EARGS[@]}"
	pod_http /metrics
	curl -fs --max-time 5 "http://127.0.0.1:$PORT/metrics" >"$T_TMP/metrics"
	check "with BPF and PERFMON alone (the patch's) --layers loads: the layer series" \
		grep -q '^ioprobe_layer_requests_total{' "$T_TMP/metrics"
	mem_check " the patched pod's"
	pod_stop
	check "the patched pod stops on SIGTERM with status 0" rc_is 0
	for c in bpf perfmon; do
		timeout -k 5 30 setpriv --bounding-set="-all,+$c" --inh-caps=-all \
			--ambient-caps=-all --no-new-privs -- \
			"$IOPROBE" --layers -q -c 2 -i 0 "${TARGETS[0]}" >"$OUT" 2>"$ERR"
		RC=$?
		check "${c^^} alone is refused (both are needed): status 2, says why" \
			eval 'rc_is 2 && err_has "needs CAP_BPF and CAP_PERFMON"'
	done
	# --layers knows the probe's requests by their process id in the probe's own PID
	# namespace: in a namespace of its own (the pod without hostPID) it measures the submit
	# layer as on the host, and nothing is counted as throttle (no blk-throttle here)
	timeout -k 5 30 unshare --pid --fork --mount-proc "$IOPROBE" --layers -D -J -c 6 -i 0.02 \
		"${TARGETS[0]}" >"$OUT" 2>"$ERR"
	RC=$?
	submit=$(submit_ns)
	throttle=$(layer_ns throttle)
	check "in a PID namespace of its own --layers measures submit (${submit:-?} ns), no throttle (${throttle:-?} ns)" \
		eval '[ "$RC" = 0 ] && [ "${submit:-0}" -gt 0 ] && [ "${throttle:-1}" = 0 ]'
	check "so the eBPF patch keeps the pod's own PID namespace (no hostPID)" [ "$HOSTPID" = false ]
	probe --layers -D -J -c 6 -i 0.02 "${TARGETS[0]}"
	submit=$(submit_ns)
	check "in the host's PID namespace it measures submit too (${submit:-?} ns)" \
		eval '[ "$RC" = 0 ] && [ "${submit:-0}" -gt 0 ]'
fi

finish
