/* SPDX-License-Identifier: GPL-2.0 */
/*
 * user_images.h - the images (mapped files) of the processes whose user
 * stacks --stacks took, read while each process runs, so that their
 * frames are named from the process's own image at print time, also
 * after it has exited, and each caller frame is checked to be a return
 * address (an instruction after a call) before it is named.
 */
#ifndef SWITCHSTAT_USER_IMAGES_H
#define SWITCHSTAT_USER_IMAGES_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/types.h>

struct ss_uimages;

/* What ss_uimages_name found for one user frame. */
enum ss_uframe {
	SS_UF_NAMED = 0, /* named into the buffer ("[unknown]": no symbol) */
	SS_UF_BAD = 1, /* cannot be a return address: the walk went wrong */
	SS_UF_EXITED = 2, /* the process exited before its image was read */
};

/*
 * ss_uimages_new - an empty set.  @new_fd: the probes' perf event array
 * of announced process ids (stk_new), @seen_fd: their set of announced
 * ones (stk_seen); either -1 when there are none (images are then read
 * at print time only).  Opens a perf buffer per CPU of the @ncpus
 * possible (those online) and starts a thread that reads each announced
 * process's image as it is announced.  NULL when out of memory, no
 * buffer opens or the thread cannot start.
 */
struct ss_uimages *ss_uimages_new(int new_fd, int seen_fd, int ncpus);

/* ss_uimages_free - stop the thread, free every image; NULL is fine. */
void ss_uimages_free(struct ss_uimages *im);

/*
 * ss_uimages_begin - before draining the stacks map: lock the set (the
 * thread waits) and note which processes have exited by now (their
 * stacks are all in the map).
 */
void ss_uimages_begin(struct ss_uimages *im);

/*
 * ss_uimages_end - after the stacks are printed: free the images of the
 * processes ss_uimages_begin found exited, take them out of the probes'
 * set (a new process with that id is announced again), unlock.
 */
void ss_uimages_end(struct ss_uimages *im);

/*
 * ss_uimages_name - between begin and end: name @addr of process @pid
 * into @buf (@len bytes, "[unknown]" when no symbol covers it).
 * @caller: a caller's frame (a return address, not the innermost one):
 * it must follow a call instruction in the image (else SS_UF_BAD) and is
 * named at @addr - 1 (the call, not what follows it).  Returns an enum
 * ss_uframe.
 */
int ss_uimages_name(struct ss_uimages *im, int pid, __u64 addr, bool caller,
		    char *buf, size_t len);

/*
 * ss_uimages_is_call - true when the @n bytes before a return address
 * (@b[@n - 1] the byte just before it) end with a call instruction of
 * this machine (x86-64: call rel32 or call r/m64, any prefixes; arm64:
 * BL, BLR, BLRA*); always true on other machines.  Pure (unit-tested).
 */
bool ss_uimages_is_call(const unsigned char *b, size_t n);

/*
 * ss_uimages_at_start - between begin and end: return address @addr of
 * process @pid is in its libc's start of main (__libc_start_call_main,
 * __libc_start_main: within 1 KiB of the latter, in the libc this
 * program runs with): the outermost frame of a whole walk, named or not.
 */
bool ss_uimages_at_start(struct ss_uimages *im, int pid, __u64 addr);

#endif
