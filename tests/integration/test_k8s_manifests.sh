#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# test_k8s_manifests.sh - deploy/kubernetes validates offline against the
# Kubernetes API schemas and the Prometheus operator's ServiceMonitor
# schema (npm kubernetes-models, installed by scripts/setup.sh --tests into
# tests/deploy/node_modules), has what a switchstat DaemonSet needs
# (hostPID, mounts, privileges with their reason, resources, liveness probe
# on /metrics, scrape annotations), and the validator rejects broken copies.
. "$(dirname "$0")/lib.sh"
command -v node >/dev/null || skip "needs node (nodejs)"
V=$SRC/tests/deploy
[ -d "$V/node_modules/kubernetes-models" ] ||
	skip "no $V/node_modules: run scripts/setup.sh --tests (npm ci)"
K=$SRC/deploy/kubernetes
ls "$K"/*.yaml >/dev/null || fail "no manifests in $K"

node "$V/validate.js" "$K"/*.yaml >"$T/ok.log" 2>&1 || fail "$(cat "$T/ok.log")"
sed 's/^/  /' "$T/ok.log"
grep -q "ok .*DaemonSet/switchstat" "$T/ok.log" || fail "DaemonSet not validated"
grep -q "ok .*ServiceMonitor/switchstat" "$T/ok.log" || fail "ServiceMonitor not validated"

# privileged must say which capabilities it stands for and why
grep -B14 "privileged: true" "$K/daemonset.yaml" | grep -q "BPF + PERFMON" ||
	fail "privileged without the comment naming the capabilities"

# the validator can fail: a wrong type, a bad duration, a missing mount,
# a liveness probe elsewhere, the BPF cache on an emptyDir
broken() { # NAME SED-EXPR FILE
	sed "$2" "$K/$3" >"$T/$1.yaml"
	cmp -s "$T/$1.yaml" "$K/$3" && fail "$1: sed changed nothing"
	if node "$V/validate.js" "$T/$1.yaml" >"$T/$1.log" 2>&1; then
		fail "$1: broken manifest accepted"
	fi
	info "$1 rejected: $(grep -v '^ok' "$T/$1.log" | head -1)"
}
broken hostpid 's/hostPID: true/hostPID: "yes"/' daemonset.yaml
broken interval 's/interval: 15s/interval: 15 seconds/' servicemonitor.yaml
broken mount 's|mountPath: /sys/kernel/btf|mountPath: /sys/kernel/btf2|' daemonset.yaml
broken probe '/livenessProbe:/,/path:/s|path: /metrics|path: /healthz|' daemonset.yaml
broken port 's/containerPort: 9479/containerPort: 9480/' daemonset.yaml
# the BPF cache on an emptyDir (mode 0777: the cache refuses it)
broken cache '/^        - name: bpf-cache$/,${s/hostPath:/emptyDir: {}/;/path: \/var\/cache\/switchstat/d;/type: DirectoryOrCreate/d}' daemonset.yaml
# ... or on a hostPath that is not a directory
broken cachetype 's/type: DirectoryOrCreate/type: FileOrCreate/' daemonset.yaml
pass "deploy/kubernetes validates against the schemas"
