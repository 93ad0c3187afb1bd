// SPDX-License-Identifier: GPL-2.0
/*
 * vmlinux_btf.c - the kernel's BTF, parsed once (see vmlinux_btf.h).
 */
#include "vmlinux_btf.h"

#include <stddef.h>

#include <bpf/btf.h>

static struct btf *vmlinux;

/* ss_vmlinux_btf - see vmlinux_btf.h */
const struct btf *ss_vmlinux_btf(void)
{
	if (!vmlinux)
		vmlinux = btf__load_vmlinux_btf();
	return vmlinux;
}

/* ss_vmlinux_btf_release - see vmlinux_btf.h */
void ss_vmlinux_btf_release(void)
{
	btf__free(vmlinux);
	vmlinux = NULL;
}
