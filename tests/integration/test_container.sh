#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The image the project builds (Dockerfile, scripts/check-image.sh), run
# with podman the way deploy/kubernetes/daemonset.yaml runs it: host pid
# namespace, privileged, read-only root, the DaemonSet's mounts (debugfs,
# tracefs, /sys/kernel/btf, /lib/modules, /usr/src, /sys/fs/cgroup
# read-only, a tmpfs /tmp, the BPF cache), tracing host workloads; its
# numbers must match the kernel's:
#   1. -p on a pinned two-thread spinner and a pipe ping-pong (host pids):
#      on-CPU ns within 2% of /proc/PID/task/*/schedstat for the spinner,
#      voluntary and involuntary switches within 2% (or 50) of
#      /proc/PID/task/*/status;
#   2. the DaemonSet's own arguments (--listen -q -i 1000, per cgroup) with
#      a spinner in a second podman container: its series has the cgroup
#      label of its /proc/PID/cgroup and container_id = the first 12 hex
#      digits of its podman id, on-CPU seconds within 2% of schedstat and
#      of its cgroup's cpu.stat, involuntary switches within 2% (or 50);
#   3. without the host pid namespace, -p exits 1 with one message;
#   4. the DaemonSet's compiled-BPF cache volume (a hostPath, root's,
#      0755, at /var/cache/switchstat): a start compiles and saves there,
#      the next with the same options loads it (-v).
# The image is reused when its io.github.switchstat.inputs label matches
# this tree (scripts/check-image.sh --inputs-hash), else built by
# scripts/check-image.sh --image-only.  Skips (77) only when podman, an OCI
# runtime or the image's build tools cannot be had.
#
# Podman here: its default rlimits (nofile 1048576) exceed this host's hard
# limit and podman lowers its own RLIMIT_NPROC hard limit to 32768 at start,
# so the runtime's setrlimit() of anything above those needs
# CAP_SYS_RESOURCE; the test passes the host's nofile and min(host, 32768)
# nproc.  crun 1.8 refuses a hybrid cgroup host whose v2 hierarchy has a
# controller ("cgroups in hybrid mode not supported"): runc is used then.
. "$(dirname "$0")/lib.sh"
need_root
. "$(dirname "$0")/prom_lib.sh"

IMAGE=localhost/switchstat:test
NAME=ss-ct-$$
ct_cleanup() {
	# --ignore: without it one absent name leaves the others running
	podman rm -f -t 0 --ignore "$NAME-tool" "$NAME-wl" "$NAME-nopid" >/dev/null 2>&1
}
trap 'ct_cleanup; cleanup' EXIT

# ---------------------------------------------------------------- tools
if ! command -v podman >/dev/null ||
	! { command -v runc >/dev/null || command -v crun >/dev/null; }; then
	[ "${CHECK_IMAGE_NO_INSTALL:-0}" = 1 ] &&
		skip "podman or an OCI runtime missing (CHECK_IMAGE_NO_INSTALL=1)"
	command -v apt-get >/dev/null || skip "podman missing, no apt-get"
	info "installing podman runc crun with apt-get"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends podman runc crun \
		>"$T/apt.log" 2>&1 ||
		{ apt-get update >>"$T/apt.log" 2>&1 &&
			apt-get install -y --no-install-recommends podman runc crun \
				>>"$T/apt.log" 2>&1; } ||
		{ tail -5 "$T/apt.log"; skip "podman/runc/crun not installable"; }
fi

# ---------------------------------------------------------------- image
want_hash=$(bash "$SRC/scripts/check-image.sh" --inputs-hash)
have_hash=$(podman image inspect --format \
	'{{index .Config.Labels "io.github.switchstat.inputs"}}' "$IMAGE" 2>/dev/null)
if [ "$have_hash" != "$want_hash" ]; then
	info "image ${have_hash:-absent} != tree $want_hash: building it"
	t0=$SECONDS
	bash "$SRC/scripts/check-image.sh" --image-only >"$T/build.log" 2>&1
	rc=$?
	case $rc in
	0) info "built $IMAGE in $((SECONDS - t0)) s" ;;
	77) tail -3 "$T/build.log"; skip "image not buildable here (check-image.sh skipped)" ;;
	*) tail -40 "$T/build.log"; fail "scripts/check-image.sh --image-only exited $rc" ;;
	esac
	have_hash=$(podman image inspect --format \
		'{{index .Config.Labels "io.github.switchstat.inputs"}}' "$IMAGE" 2>/dev/null)
	[ "$have_hash" = "$want_hash" ] ||
		fail "built image is labelled '$have_hash', tree is $want_hash"
else
	info "reusing $IMAGE (inputs $have_hash)"
fi

# ---------------------------------------------------------------- runtime
nofile=$(ulimit -Hn)
nproc=$(ulimit -Hu)
[ "$nofile" = unlimited ] && nofile=1048576
{ [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; } && nproc=32768
RUN=(podman run --rm --pull=never --ulimit "nofile=$nofile:$nofile"
	--ulimit "nproc=$nproc:$nproc")
RT=""
for r in crun runc; do
	command -v "$r" >/dev/null || continue
	if out=$("${RUN[@]}" --runtime "$r" "$IMAGE" --version 2>&1) &&
		grep -q '^switchstat ' <<<"$out"; then
		RT=$r
		break
	fi
	info "podman --runtime $r cannot start a container here: $(tail -1 <<<"$out")"
done
[ -n "$RT" ] || fail "podman starts no container with crun or runc"
RUN+=(--runtime "$RT")
# under scripts/test.sh --throttled the containers too, in the run's cgroup
# (its cap: on cgroupfs the same path in every hierarchy)
if [ -n "$CG_BASE" ]; then
	if [ "$(podman info --format '{{.Host.CgroupManager}}')" = cgroupfs ]; then
		RUN+=(--cgroup-parent "$CG_BASE")
	else
		info "podman's cgroup manager is not cgroupfs: the containers run outside $CG_BASE"
	fi
fi
info "podman $(podman --version | awk '{print $3}') with $RT"

# The DaemonSet's pod: hostPID, privileged, readOnlyRootFilesystem, its
# volumeMounts (tmp is an emptyDir: a tmpfs here).
DS=(--privileged --pid=host --read-only
	-v /sys/kernel/debug:/sys/kernel/debug
	-v /sys/kernel/tracing:/sys/kernel/tracing
	-v /sys/kernel/btf:/sys/kernel/btf:ro
	-v /lib/modules:/lib/modules:ro
	-v /usr/src:/usr/src:ro
	-v /sys/fs/cgroup:/sys/fs/cgroup:ro
	-v "$T/bpf-cache:/var/cache/switchstat"
	--tmpfs /tmp)
mkdir -m 0755 "$T/bpf-cache" # the hostPath: root's, 0755

# start_ct NAME ARGS...: the image in the DaemonSet's pod, switchstat ARGS,
# output in $T/NAME.{out,err}; TOOL_PID is the podman client
start_ct() {
	local name=$1
	shift
	"${RUN[@]}" "${DS[@]}" --name "$NAME-tool" --network host "$IMAGE" "$@" \
		>"$T/$name.out" 2>"$T/$name.err" &
	TOOL_PID=$!
	BG_PIDS+=("$TOOL_PID")
}
# await_ct NAME: until its banner (60 s: the probes compile in there)
await_ct() {
	wait_for "$1: attach in the container" ct_attached "$1"
}
ct_attached() {
	grep -q Tracing "$T/$1.out" "$T/$1.err" 2>/dev/null && return 0
	kill -0 "$TOOL_PID" 2>/dev/null ||
		{ cat "$T/$1.err" >&2; fail "$1: the container exited before attaching"; }
	return 1
}
# stop_ct: SIGINT to switchstat in the container; podman must exit 0
stop_ct() {
	podman kill -s INT "$NAME-tool" >/dev/null 2>&1
	local rc=0
	wait "$TOOL_PID" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$T"/*.err >&2; fail "container exit code $rc"; }
}

# switched_past PID FIELD N0 N: the process's FIELD (status) is N past N0
switched_past() { [ $(($(status_sum "$1" "$2") - $3)) -ge "$4" ]; }

# ---------------------------------------------------------------- 1. -p
two_cpus
bg taskset -c "$CPU_A" "$WORKLOADS/spinner" 2 ct-pinned
SPIN=$BG_LAST
bg "$WORKLOADS/pingpong" "$T/pp.pids"
wait_threads "$SPIN" 3
wait_comm "$SPIN" ct-pinned
wait_file "$T/pp.pids"
read -r PING PONG <"$T/pp.pids"
PIDS=("$SPIN" "$PING" "$PONG")
freeze "${PIDS[@]}"

t0=$SECONDS
start_ct pid --csv -n 0 -i 1000 -p "$SPIN,$PING,$PONG"
await_ct pid
info "attached in $((SECONDS - t0)) s"
declare -A s0 v0 n0
for p in "${PIDS[@]}"; do
	s0[$p]=$(schedstat_sum "$p")
	v0[$p]=$(status_sum "$p" voluntary_ctxt_switches)
	n0[$p]=$(status_sum "$p" nonvoluntary_ctxt_switches)
done
thaw "${PIDS[@]}"
# until the workloads have done what they are for (the counts checked
# below, and the spinner 500 ms of CPU: half an interval and more), however
# slow the host
wait_for "pinned spinner: 51 preemptions" switched_past "$SPIN" nonvoluntary_ctxt_switches "${n0[$SPIN]}" 51
wait_for "ping-pong: 1001 sleeps" switched_past "$PING" voluntary_ctxt_switches "${v0[$PING]}" 1001
wait_for "pinned spinner: 500 ms on CPU" cpu_past "$SPIN" "${s0[$SPIN]}" 500000000
freeze "${PIDS[@]}"
declare -A s1 v1 n1
for p in "${PIDS[@]}"; do
	s1[$p]=$(schedstat_sum "$p")
	v1[$p]=$(status_sum "$p" voluntary_ctxt_switches)
	n1[$p]=$(status_sum "$p" nonvoluntary_ctxt_switches)
done
stop_ct

pids=$(python3 -c 'import csv,sys; print(" ".join(sorted({r["pid"] for r in csv.DictReader(open(sys.argv[1], encoding="latin-1", newline=""))}, key=int)))' "$T/pid.out")
want_pids=$(printf '%s\n' "${PIDS[@]}" | sort -n | tr '\n' ' ')
[ "$pids " = "$want_pids" ] || fail "rows for pids '$pids', want the host pids '$want_pids'"
for p in "${PIDS[@]}"; do
	for k in vol inv; do
		if [ $k = vol ]; then
			want=$((v1[$p] - v0[$p]))
			got=$(csv_sum "$T/pid.out" voluntary pid "$p")
		else
			want=$((n1[$p] - n0[$p]))
			got=$(csv_sum "$T/pid.out" involuntary pid "$p")
		fi
		if [ $((got > want ? got - want : want - got)) -le 50 ]; then
			info "pid $p $k switches: got $got want $want"
		else
			check_within "pid $p $k switches" "$got" "$want" 2
		fi
	done
	if [ "$p" = "$SPIN" ]; then
		check_within "pid $p on-CPU ns" "$(csv_sum "$T/pid.out" oncpu_ns pid "$p")" \
			$((s1[$p] - s0[$p])) 2
	else
		# ~5 us slices: schedstat's clock runs at other points (docs/accuracy.md)
		info "pid $p on-CPU ns: $(within_pct "$(csv_sum "$T/pid.out" oncpu_ns pid "$p")" \
			$((s1[$p] - s0[$p])) 2) (informational)"
	fi
done
# the workloads really did what they are for
[ $((n1[$SPIN] - n0[$SPIN])) -gt 50 ] ||
	fail "pinned spinner: only $((n1[$SPIN] - n0[$SPIN])) involuntary switches"
[ $((v1[$PING] - v0[$PING])) -gt 1000 ] ||
	fail "ping-pong: only $((v1[$PING] - v0[$PING])) voluntary switches"
{
	kill -KILL "${PIDS[@]}"
	wait "$SPIN" "$PING"
} 2>/dev/null

# ------------------------------------------------ 2. the DaemonSet's args
"${RUN[@]}" -d --name "$NAME-wl" --network none -v "$WORKLOADS:/w:ro" --entrypoint /w/spinner \
	"$IMAGE" 1 ct-inpod >"$T/wl.id" 2>"$T/wl.err" ||
	fail "workload container: $(cat "$T/wl.err")"
CID=$(cat "$T/wl.id")
WPID=$(podman inspect --format '{{.State.Pid}}' "$NAME-wl")
[ "${WPID:-0}" -gt 0 ] || fail "no host pid for the workload container"
wait_threads "$WPID" 2
wait_comm "$WPID" ct-inpod
CG=$(awk -F: '$1 == "0" { print $3 }' /proc/"$WPID"/cgroup)
[ -n "$CG_MNT" ] || skip "no cgroup v2 mount"
info "workload container ${CID:0:12}: host pid $WPID, cgroup $CG"
freeze "$WPID"

PORT=$(free_port)
start_ct prom --listen "127.0.0.1:$PORT" -q -i 1000
wait_metric "$PORT" '^switchstat_build_info'
ws0=$(schedstat_sum "$WPID")
wn0=$(status_sum "$WPID" nonvoluntary_ctxt_switches)
wu0=$(awk '$1 == "usage_usec" { print $2 }' "$CG_MNT$CG/cpu.stat")
thaw "$WPID"
run_for_cpu 1000000000 "$WPID" # 1 s of it: a whole interval and more
freeze "$WPID"
tf=$(now_s)
ws1=$(schedstat_sum "$WPID")
wn1=$(status_sum "$WPID" nonvoluntary_ctxt_switches)
wu1=$(awk '$1 == "usage_usec" { print $2 }' "$CG_MNT$CG/cpu.stat")
# an exposition read after the freeze holds the whole window
scraped_after() {
	local lc
	scrape "$PORT" >"$T/m.txt" || fail "scrape failed"
	lc=$(metric_value "$T/m.txt" switchstat_last_collect_timestamp_seconds)
	python3 -c 'import sys; sys.exit(0 if float(sys.argv[1] or 0) > float(sys.argv[2]) else 1)' \
		"$lc" "$1"
}
wait_for "an exposition collected after the freeze" scraped_after "$tf"
stop_ct

sel="cgroup=\"$CG\""
line=$(grep -E '^switchstat_oncpu_seconds_total\{' "$T/m.txt" | grep -F "$sel" || true)
[ -n "$line" ] || {
	grep -E '^switchstat_oncpu_seconds_total' "$T/m.txt" | head -20 >&2
	fail "no series with $sel (the workload container's /proc/PID/cgroup)"
}
info "series: $line"
grep -qF "container_id=\"${CID:0:12}\"" <<<"$line" ||
	fail "container_id of $CG is not ${CID:0:12}: $line"
got_s=$(metric_value "$T/m.txt" "switchstat_oncpu_seconds_total,$sel")
got_ns=$(python3 -c 'import sys; print(round(float(sys.argv[1]) * 1e9))' "$got_s")
check_within "container's on-CPU ns vs schedstat" "$got_ns" $((ws1 - ws0)) 2
check_within "container's on-CPU ns vs its cgroup's cpu.stat" "$got_ns" $(((wu1 - wu0) * 1000)) 2
igot=$(metric_value "$T/m.txt" "switchstat_context_switches_total,$sel,kind=\"involuntary\"")
iwant=$((wn1 - wn0))
if [ $((igot > iwant ? igot - iwant : iwant - igot)) -le 50 ]; then
	info "container's involuntary switches: got $igot want $iwant"
else
	check_within "container's involuntary switches" "$igot" "$iwant" 2
fi
podman rm -f -t 0 "$NAME-wl" >/dev/null 2>&1

# ------------------------------------------- 3. not in the host pid ns
rc=0
# not a window: exit code and message only
"${RUN[@]}" "${DS[@]/--pid=host/--pid=private}" --name "$NAME-nopid" \
	--network none "$IMAGE" \
	-p 1 -d 1 >"$T/nopid.out" 2>"$T/nopid.err" || rc=$?
[ "$rc" -eq 1 ] || { cat "$T/nopid.err" >&2; fail "-p without --pid=host: exit $rc, want 1"; }
[ "$(grep -c "host's pid namespace" "$T/nopid.err")" -eq 1 ] ||
	{ cat "$T/nopid.err" >&2; fail "-p without --pid=host: no one-line reason"; }
info "without --pid=host: exit 1, $(head -1 "$T/nopid.err")"

# ------------------------------------- 4. the compiled-BPF cache volume
# Two starts of the same options (-L: a key no case above made): the first
# compiles and saves into the hostPath, the second loads it.
for r in cache1 cache2; do
	rc=0
	# not a window: exit code and start-up lines only
	"${RUN[@]}" "${DS[@]}" --name "$NAME-tool" --network none "$IMAGE" \
		-v -L -d 1 -i 500 >"$T/$r.out" 2>"$T/$r.err" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$T/$r.err" >&2; fail "$r: exit $rc"; }
	podman rm -f -t 0 --ignore "$NAME-tool" >/dev/null 2>&1
done
obj1=$(sed -n 's/^switchstat: BPF object: //p' "$T/cache1.err")
obj2=$(sed -n 's/^switchstat: BPF object: //p' "$T/cache2.err")
key=$(sed -n 's|^compiled (saved to /var/cache/switchstat/bpf/\([0-9a-f]\{64\}\))$|\1|p' <<<"$obj1")
[ -n "$key" ] || fail "cache volume, first start: -v says '$obj1'"
[ "$obj2" = "cached (/var/cache/switchstat/bpf/$key)" ] ||
	fail "cache volume, second start: -v says '$obj2', want the first's file"
[ -f "$T/bpf-cache/bpf/$key" ] || fail "the cache file is not in the hostPath"
info "cache volume: compiled and saved, then $obj2"

pass "the image in the DaemonSet's pod ($RT) traces host pids and a container's cgroup as /proc does"
