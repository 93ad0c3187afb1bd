// SPDX-License-Identifier: GPL-2.0
/*
 * test_user_images.c - src/kernel/user_images.c: the call-before check on
 * the encodings of this machine's calls (and on bytes no call ends
 * with), and a caller frame of this very process named at its call and
 * refused where it does not follow a call.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>

#include "user_images.h"

#define IS_CALL(...)                                               \
	({                                                         \
		static const unsigned char b_[] = { __VA_ARGS__ }; \
		ss_uimages_is_call(b_, sizeof(b_));                \
	})

#if defined(__x86_64__)
Test(user_images, x86_calls)
{
	cr_assert(IS_CALL(0x90, 0xe8, 0x10, 0x20, 0x30, 0x40)); /* rel32 */
	cr_assert(IS_CALL(0x90, 0xff, 0xd0)); /* call *%rax */
	cr_assert(IS_CALL(0x41, 0xff, 0xd3)); /* call *%r11 */
	cr_assert(IS_CALL(0xff, 0x15, 1, 2, 3, 4)); /* call *x(%rip) */
	cr_assert(IS_CALL(0xff, 0x54, 0x24, 0x08)); /* call *8(%rsp) */
	cr_assert(IS_CALL(0xff, 0x14, 0x25, 1, 2, 3, 4)); /* call *abs32 */
	cr_assert(IS_CALL(0xff, 0x50, 0x10)); /* call *0x10(%rax) */
	cr_assert(IS_CALL(0xff, 0x90, 1, 2, 3, 4)); /* call *d32(%rax) */
	cr_assert(IS_CALL(0x90, 0xff, 0x10)); /* call *(%rax) */
}

Test(user_images, x86_not_calls)
{
	cr_assert_not(IS_CALL(0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc)); /* int3 */
	cr_assert_not(IS_CALL(0x5d, 0xc3)); /* pop %rbp; ret */
	cr_assert_not(IS_CALL(0x0f, 0x1f, 0x44, 0x00, 0x00)); /* a nop */
	cr_assert_not(IS_CALL(0x90, 0xff, 0xe0)); /* jmp *%rax */
	cr_assert_not(IS_CALL(0xff, 0x15, 1, 2, 3)); /* too short */
	cr_assert_not(IS_CALL(0xe8, 1, 2, 3)); /* too short */
}
#elif defined(__aarch64__)
Test(user_images, arm64)
{
	cr_assert(IS_CALL(0x00, 0x00, 0x00, 0x94)); /* bl */
	cr_assert(IS_CALL(0x00, 0x02, 0x3f, 0xd6)); /* blr x16 */
	cr_assert_not(IS_CALL(0xc0, 0x03, 0x5f, 0xd6)); /* ret */
	cr_assert_not(IS_CALL(0x1f, 0x20, 0x03, 0xd5)); /* nop */
}
#endif

static __u64 ret_addr;

__attribute__((noinline)) void uimg_callee(void)
{
	ret_addr = (__u64)__builtin_return_address(0);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void uimg_caller(void)
{
	uimg_callee();
	__asm__ volatile("" ::: "memory");
}

Test(user_images, names_this_process)
{
	struct ss_uimages *im = ss_uimages_new(-1, -1, 1);
	char buf[256];

	cr_assert_not_null(im);
	uimg_caller();
	ss_uimages_begin(im);
	cr_assert_eq(
		ss_uimages_name(im, getpid(), ret_addr, true, buf, sizeof(buf)),
		SS_UF_NAMED);
	cr_assert_str_eq(buf, "uimg_caller");
	cr_assert_eq(ss_uimages_name(im, getpid(), (__u64)uimg_callee + 1,
				     false, buf, sizeof(buf)),
		     SS_UF_NAMED);
	cr_assert_str_eq(buf, "uimg_callee");
	/* an address in no executable mapping is no return address */
	cr_assert_eq(ss_uimages_name(im, getpid(), (__u64)&ret_addr, true, buf,
				     sizeof(buf)),
		     SS_UF_BAD);
	ss_uimages_end(im);
	ss_uimages_free(im);
}
