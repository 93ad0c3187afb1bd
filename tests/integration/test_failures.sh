#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Kernel headers (missing, incomplete, named with -v; the probes never read
# a kernel struct), a program the verifier rejects, and the exit-code
# contract: environment and BPF failures exit 1 with one clear message (a
# rejected program's names the file of the verifier's log; -v prints it),
# bad input exits 2 with a usage hint, and nothing is left attached.
. "$(dirname "$0")/lib.sh"
need_root

progs() { bpftool prog show 2>/dev/null | grep -c "sched_switch\|ss_checkpoint" || true; }
before=$(progs)

# no kernel headers -> exit 1, says what to install
rc=0
BCC_KERNEL_SOURCE=/nonexistent "$SWITCHSTAT" -d 1 >"$T/h.out" 2>"$T/h.err" || rc=$? # not a window: a failure's exit code and message only
[ "$rc" -eq 1 ] || fail "missing headers: exit $rc, want 1"
grep -q "kernel headers not found" "$T/h.err" || fail "missing headers: no clear message: $(cat "$T/h.err")"
[ "$(grep -c . "$T/h.err")" -le 2 ] || fail "missing headers: more than one message line"
info "no headers: $(tail -1 "$T/h.err")"

# a headers directory that is there but empty -> the same kind of message
mkdir -p "$T/emptyhdr"
rc=0
BCC_KERNEL_SOURCE="$T/emptyhdr" "$SWITCHSTAT" -d 1 >/dev/null 2>"$T/e.err" || rc=$? # not a window: a failure's exit code and message only
[ "$rc" -eq 1 ] || fail "empty headers: exit $rc, want 1"
grep -q "kernel headers at .* are incomplete" "$T/e.err" || fail "empty headers: $(cat "$T/e.err")"
[ "$(grep -c . "$T/e.err")" -le 2 ] || fail "empty headers: more than one message line: $(cat "$T/e.err")"

# half of a split headers package (Debian's linux-headers-R-amd64: a
# Makefile and generated include/, the kernel's own headers in -common):
# libbcc 0.26 crashed on it (SIGSEGV after "kconfig.h not found"); now the
# same kind of message, exit 1, before any compile (also with a cached
# module: the check comes first)
mkdir -p "$T/halfhdr/include/generated"
touch "$T/halfhdr/Makefile"
for cache in off on; do
	rc=0
	if [ "$cache" = off ]; then
		SWITCHSTAT_BPF_CACHE=off BCC_KERNEL_SOURCE="$T/halfhdr" "$SWITCHSTAT" -d 1 >/dev/null 2>"$T/k.err" || rc=$? # not a window: a failure's exit code and message only
	else
		BCC_KERNEL_SOURCE="$T/halfhdr" "$SWITCHSTAT" -d 1 >/dev/null 2>"$T/k.err" || rc=$? # not a window: a failure's exit code and message only
	fi
	[ "$rc" -eq 1 ] || fail "split headers (cache $cache): exit $rc, want 1: $(cat "$T/k.err")"
	grep -q "have no include/linux/kconfig.h" "$T/k.err" || fail "split headers: $(cat "$T/k.err")"
	[ "$(grep -c . "$T/k.err")" -le 2 ] || fail "split headers: more than one message line: $(cat "$T/k.err")"
done
info "half a split headers package: $(tail -1 "$T/k.err" | cut -c1-100)..."

# -v says which headers were used
"$SWITCHSTAT" -v -d 1 -i 500 >/dev/null 2>"$T/v.err" || fail "-v run failed" # not a window: the -v start-up lines only
grep -q "kernel headers for compiling: /" "$T/v.err" || fail "-v does not name the headers"

# kernel structs are read only at offsets from the running kernel's BTF,
# passed as -D numbers: no kernel struct type from headers in the probes
# (its layout would be the headers' kernel's, silently wrong here), and the
# offsets switchstat passes equal BTF's (oracle: bpftool)
if grep -nE "struct (task_struct|signal_struct|mm_struct|css_set|cgroup)\b|->(real_parent|group_leader)\b" \
	"$SRC"/probes/* | grep -vE '^[^:]+:[0-9]+:\s*(\*|/\*|//)'; then
	fail "probes use kernel struct types from headers"
fi
if command -v bpftool >/dev/null && [ -r /sys/kernel/btf/vmlinux ]; then
	grep -q "SS_IDENT_BTF=1" "$T/v.err" || fail "-v: BTF offsets not in use: $(grep cflags "$T/v.err")"
	bpftool btf dump file /sys/kernel/btf/vmlinux format raw |
		awk "/^\[[0-9]+\] STRUCT 'task_struct'/ { on = 1; next } on && /^\[/ { exit }
			on { print }" >"$T/btf.txt"
	fields="group_leader:SS_IDENT_LEADER start_time:SS_IDENT_START comm:SS_IDENT_COMM"
	# the raw sched_switch path's own fields (task.bpf.h)
	grep -q "SS_RAW_TP=1" "$T/v.err" &&
		fields="$fields pid:SS_TASK_PID tgid:SS_TASK_TGID nvcsw:SS_TASK_NVCSW comm:SS_TASK_COMM"
	for f in $fields; do
		bits=$(awk -v m="'${f%%:*}'" '$1 == m { sub("bits_offset=", "", $3); print $3; exit }' "$T/btf.txt")
		got=$(grep -o "${f#*:}=[0-9]*" "$T/v.err" | head -1 | cut -d= -f2)
		[ -n "$bits" ] && [ "$got" = $((bits / 8)) ] ||
			fail "${f#*:}=$got, BTF says task_struct.${f%%:*} at $((bits / 8))"
	done
	info "task_struct offsets passed to the probes equal BTF's (bpftool)"
fi

# a rejected program ends the run with exit 1 and one line saying what to
# do, naming the file that holds the verifier's log; -v prints the log
rc=0
SWITCHSTAT_TEST=verifier_fail "$SWITCHSTAT" -d 1 >"$T/vf.out" 2>"$T/vf.err" || rc=$? # not a window: a failure's exit code and message only
[ "$rc" -eq 1 ] || fail "verifier rejection: exit $rc, want 1"
grep -q "PID" "$T/vf.out" && fail "verifier rejection: printed a table anyway"
grep -q "processed .* insns" "$T/vf.err" && fail "verifier rejection: its log on stderr without -v"
grep -q "rejected by the kernel: .*; " "$T/vf.err" || fail "verifier rejection: no clear message: $(cat "$T/vf.err")"
vlog=$(sed -n 's/.*(verifier log: \([^)]*\)).*/\1/p' "$T/vf.err")
[ -n "$vlog" ] && [ -f "$vlog" ] || fail "verifier rejection: names no log file: $(cat "$T/vf.err")"
grep -q "processed .* insns" "$vlog" || fail "verifier rejection: $vlog holds no verifier log"
rm -f "$vlog"
rc=0
SWITCHSTAT_TEST=verifier_fail "$SWITCHSTAT" -v -d 1 >/dev/null 2>"$T/vfv.err" || rc=$? # not a window: a failure's exit code and message only
[ "$rc" -eq 1 ] || fail "verifier rejection -v: exit $rc, want 1"
grep -q "processed .* insns" "$T/vfv.err" || fail "verifier rejection -v: no verifier log on stderr"
grep -q "rejected by the kernel: .*(verifier log above)" "$T/vfv.err" ||
	fail "verifier rejection -v: no clear message"
info "rejected: $(cat "$T/vf.err")"

# not root -> exit 1
if command -v setpriv >/dev/null; then
	rc=0
	# not a window: a failure's exit code and message only
	setpriv --reuid=65534 --regid=65534 --clear-groups "$SWITCHSTAT" -d 1 \
		>/dev/null 2>"$T/nr.err" || rc=$?
	[ "$rc" -eq 1 ] || fail "non-root: exit $rc, want 1"
	grep -q "must run as root" "$T/nr.err" || fail "non-root: no clear message"
	# the environment is checked before what features look for in it
	rc=0
	# not a window: a failure's exit code and message only
	setpriv --reuid=65534 --regid=65534 --clear-groups "$SWITCHSTAT" \
		--hist runq -d 1 >/dev/null 2>"$T/nrh.err" || rc=$?
	[ "$rc" -eq 1 ] || fail "non-root --hist runq: exit $rc, want 1"
	grep -q "must run as root" "$T/nrh.err" ||
		fail "non-root --hist runq: $(cat "$T/nrh.err")"
	[ "$(grep -c . "$T/nrh.err")" -eq 1 ] ||
		fail "non-root --hist runq: more than one line: $(cat "$T/nrh.err")"
	# bad input still comes first: exit 2 even without root
	rc=0
	# not a window: a failure's exit code and message only
	setpriv --reuid=65534 --regid=65534 --clear-groups "$SWITCHSTAT" \
		-e nope -d 1 >/dev/null 2>"$T/nre.err" || rc=$?
	[ "$rc" -eq 2 ] || fail "non-root -e nope: exit $rc, want 2"
fi

# bad input -> exit 2, one message + usage hint, never a table
for args in "-i" "-i 0" "-i abc" "-i 10x" "-i -5" "-d 0" "-n x" "-p 0" \
	"-p 4194305" "-p 99999999999999999999" "--bogus" "-Q" "extra" \
	"--hist nope" "-s nope" "--csv --json" "--cgroup="; do
	rc=0
	# shellcheck disable=SC2086
	"$SWITCHSTAT" $args >"$T/b.out" 2>"$T/b.err" || rc=$?
	[ "$rc" -eq 2 ] || fail "'$args': exit $rc, want 2"
	[ -s "$T/b.out" ] && fail "'$args': printed to stdout"
	grep -q "^switchstat: " "$T/b.err" || fail "'$args': no message"
	grep -q "switchstat -h" "$T/b.err" || fail "'$args': no usage hint"
done
# -p of a process that does not exist, and of a thread id
pid_max=$(cat /proc/sys/kernel/pid_max)
rc=0
"$SWITCHSTAT" -p $((pid_max - 1)) -d 1 >/dev/null 2>"$T/p.err" || rc=$? # not a window: a failure's exit code and message only
[ "$rc" -eq 2 ] && grep -q "no such process" "$T/p.err" || fail "-p nonexistent: exit $rc: $(cat "$T/p.err")"
bg "$WORKLOADS/spinner" 1 failspin
wait_threads "$BG_LAST" 2
tid=$(ls /proc/"$BG_LAST"/task | grep -v "^$BG_LAST\$" | head -1)
rc=0
"$SWITCHSTAT" -p "$tid" -d 1 >/dev/null 2>"$T/t.err" || rc=$? # not a window: a failure's exit code and message only
[ "$rc" -eq 2 ] && grep -q "is a thread of process $BG_LAST" "$T/t.err" ||
	fail "-p TID: exit $rc: $(cat "$T/t.err")"

after=$(progs)
# (-le: a tool of someone else's may have exited meanwhile; a leak adds)
[ "$after" -le "$before" ] || fail "programs left attached: before $before after $after"
pass "failures are clear, exit codes right, nothing left attached"
