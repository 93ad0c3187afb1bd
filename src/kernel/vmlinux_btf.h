/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmlinux_btf.h - the running kernel's BTF, parsed once per start-up.
 * Each btf__load_vmlinux_btf() parses /sys/kernel/btf/vmlinux again
 * (13-22 ms for the 5.5 MB of Linux 6.18 here); the features'
 * configure phases, the path choice and the tp_btf load each needed it.
 */
#ifndef SWITCHSTAT_VMLINUX_BTF_H
#define SWITCHSTAT_VMLINUX_BTF_H

struct btf;

/*
 * ss_vmlinux_btf - the kernel's BTF, parsed at the first call and shared
 * until ss_vmlinux_btf_release(); callers never free it.  NULL with errno
 * set when the kernel has none (each call then tries again).
 */
const struct btf *ss_vmlinux_btf(void);

/* ss_vmlinux_btf_release - free it (the next ss_vmlinux_btf parses again) */
void ss_vmlinux_btf_release(void);

#endif
