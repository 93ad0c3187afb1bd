// SPDX-License-Identifier: GPL-2.0
/*
 * test_event_encode.c - src/kernel/event_encode.c: perf's pmu/term/ syntax
 * on a sysfs tree made here (the layout of
 * /sys/bus/event_source/devices), and libpfm4 encodings against libpfm4's
 * own check_events tool (built from Debian's libpfm4-dev examples).
 */
/* linux/perf_event.h (through events.h) before libpfm4's copy of it */
#include "event_encode.h"

#include <criterion/criterion.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[] = "/tmp/ss_pmus.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512], dir[512], *slash;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	FILE *f = fopen(path, "w");

	cr_assert(f, "%s", path);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* an x86-like "cpu" PMU, an arm64-like one, and the software PMU */
static void make_tree(void)
{
	cr_assert(mkdtemp(root));
	put("cpu/type", "4");
	put("cpu/format/event", "config:0-7");
	put("cpu/format/umask", "config:8-15");
	put("cpu/format/cmask", "config:24-31");
	put("cpu/format/edge", "config:18");
	put("cpu/format/ldlat", "config1:0-15");
	put("cpu/format/split", "config:0-3,32-35"); /* scattered bits */
	put("cpu/events/cycles", "event=0x3c");
	put("cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3");
	put("armv8_pmuv3/type", "8");
	put("armv8_pmuv3/format/event", "config:0-15");
	put("armv8_pmuv3/events/cpu_cycles", "event=0x0011");
	put("software/type", "1");
}

static void drop_tree(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_expect_eq(system(cmd), 0);
}

static struct ss_event enc(const char *name)
{
	struct ss_event ev;
	char err[256] = "";

	cr_assert_eq(ss_event_resolve_sysfs(root, name, &ev, err, sizeof(err)),
		     0, "%s: %s", name, err);
	return ev;
}

static const char *enc_fail(const char *name)
{
	static char err[256];
	struct ss_event ev;

	err[0] = '\0';
	cr_assert_eq(ss_event_resolve_sysfs(root, name, &ev, err, sizeof(err)),
		     -1, "%s encoded", name);
	return err;
}

TestSuite(sysfs, .init = make_tree, .fini = drop_tree);

Test(sysfs, aliases_and_terms)
{
	struct ss_event ev = enc("cpu/cycles/");

	cr_expect_eq(ev.type, 4);
	cr_expect_eq(ev.config, 0x3c);
	cr_expect(ev.hardware);
	ev = enc("cpu/event=0x3c,umask=0x1,cmask=2,edge/");
	cr_expect_eq(ev.config, 0x3c | 0x1 << 8 | 2u << 24 | 1u << 18);
	ev = enc("cpu/mem-loads/");
	cr_expect_eq(ev.config, 0x1cd);
	cr_expect_eq(ev.config1, 3);
	ev = enc("cpu/split=0xab/"); /* low nibble to 0-3, next to 32-35 */
	cr_expect_eq(ev.config, 0xbULL | 0xaULL << 32);
	ev = enc("cpu/config=0x5300c0,config1=7/");
	cr_expect_eq(ev.config, 0x5300c0);
	cr_expect_eq(ev.config1, 7);
	ev = enc("armv8_pmuv3/cpu_cycles/");
	cr_expect_eq(ev.type, 8);
	cr_expect_eq(ev.config, 0x11);
}

Test(sysfs, modifiers_and_builtin_names)
{
	struct ss_event ev = enc("cpu/cycles/u");

	cr_expect(!ev.exclude_user && ev.exclude_kernel && ev.exclude_hv);
	ev = enc("cpu/cycles/k");
	cr_expect(ev.exclude_user && !ev.exclude_kernel);
	/* the software PMU has no events/: perf's own names of its type */
	ev = enc("software/cpu-clock/");
	cr_expect_eq(ev.type, PERF_TYPE_SOFTWARE);
	cr_expect_eq(ev.config, PERF_COUNT_SW_CPU_CLOCK);
	cr_expect(!ev.hardware);
}

Test(sysfs, errors_say_what_is_missing)
{
	cr_expect(strstr(enc_fail("nope/cycles/"), "no PMU named \"nope\""));
	cr_expect(strstr(enc_fail("cpu/bogus/"), "has no event \"bogus\""));
	cr_expect(strstr(enc_fail("cpu/bogus=1/"), "has no term 'bogus'"));
	cr_expect(strstr(enc_fail("cpu/event=0x100/"), "does not fit"));
	cr_expect(strstr(enc_fail("cpu/event=zz/"), "bad value"));
	cr_expect(strstr(enc_fail("cpu/cycles/x"), "bad modifier"));
	cr_expect(strstr(enc_fail("cpu/cycles"), "want pmu/event/"));
	cr_expect(strstr(enc_fail("/cycles/"), "want pmu/event/"));
	cr_expect(strstr(enc_fail("../cpu/cycles/"), "no PMU"));
	/* the software PMU does not take hardware names */
	cr_expect(strstr(enc_fail("software/cycles/"), "has no event"));
}

/* the real machine's sysfs: the software PMU is there everywhere */
Test(sysfs, this_machine)
{
	struct ss_event ev;
	char err[256] = "";

	cr_assert_eq(ss_event_resolve("software/page-faults/", &ev, err,
				      sizeof(err)),
		     0, "%s", err);
	cr_expect_eq(ev.type, PERF_TYPE_SOFTWARE);
	cr_expect_eq(ev.config, PERF_COUNT_SW_PAGE_FAULTS);
}

/*
 * The bits of check_events' "Codes" that perf_event_open sets itself from
 * the exclude_* fields (x86: USR, OS, INT, EN; arm64 PMUv3: the exception
 * level filters), which libpfm4 leaves out of a perf encoding.
 */
#if defined(__x86_64__) || defined(__i386__)
#define PLM_BITS (1ULL << 16 | 1ULL << 17 | 1ULL << 20 | 1ULL << 22)
#elif defined(__aarch64__)
#define PLM_BITS (0x1fULL << 27)
#else
#define PLM_BITS 0ULL
#endif

/* check_events NAME's first code, or -1 when it cannot encode NAME */
static int check_events_code(const char *name, uint64_t *code)
{
	char cmd[512], line[512];
	int found = -1;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s '%s' 2>/dev/null", CHECK_EVENTS, name);
	p = popen(cmd, "r");
	cr_assert(p);
	while (fgets(line, sizeof(line), p))
		if (!strncmp(line, "Codes", 5) && strchr(line, ':')) {
			*code = strtoull(strchr(line, ':') + 1, NULL, 16);
			found = 0;
		}
	pclose(p);
	return found;
}

/*
 * Every PMU libpfm4 detects here (but its generic perf ones): the first
 * events of each, encoded by switchstat and by check_events, agree.
 */
Test(libpfm4, encodings_match_check_events)
{
	int compared = 0;

	if (access(CHECK_EVENTS, X_OK))
		cr_skip_test("check_events not built (libpfm4-dev examples)");
	cr_assert_eq(pfm_initialize(), PFM_SUCCESS);
	for (int p = PFM_PMU_NONE + 1; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi = { .size = sizeof(pi) };
		int n = 0;

		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present ||
		    !strncmp(pi.name, "perf", 4))
			continue;
		for (int e = pi.first_event; e != -1 && n < 25;
		     e = pfm_get_event_next(e)) {
			pfm_event_info_t ei = { .size = sizeof(ei) };
			char name[256], err[256];
			struct ss_event ev;
			uint64_t code;

			if (pfm_get_event_info(e, PFM_OS_NONE, &ei) !=
			    PFM_SUCCESS)
				continue;
			snprintf(name, sizeof(name), "%s::%s", pi.name,
				 ei.name);
			if (check_events_code(name, &code))
				continue; /* needs a umask: not encodable */
			cr_assert_eq(
				ss_event_resolve(name, &ev, err, sizeof(err)),
				0, "%s: %s", name, err);
			cr_expect_eq(ev.type, PERF_TYPE_RAW, "%s", name);
			cr_expect_eq(ev.config, code & ~PLM_BITS,
				     "%s: switchstat 0x%llx, check_events "
				     "0x%llx",
				     name, (unsigned long long)ev.config,
				     (unsigned long long)code);
			cr_expect(ev.hardware);
			n++;
			compared++;
		}
	}
	if (!compared)
		cr_skip_test("libpfm4 detects no PMU of its own here");
	/* a modifier moves into exclude_*, the code stays */
	{
		struct ss_event ev;
		char err[256];
		uint64_t code;

		if (!check_events_code("INST_RETIRED:ANY_P", &code) &&
		    !ss_event_resolve("INST_RETIRED:ANY_P:u", &ev, err,
				      sizeof(err))) {
			cr_expect_eq(ev.config, code & ~PLM_BITS);
			cr_expect(ev.exclude_kernel && !ev.exclude_user);
		}
	}
}
