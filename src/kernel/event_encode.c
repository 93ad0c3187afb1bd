// SPDX-License-Identifier: GPL-2.0
/*
 * event_encode.c - perf's pmu/term/ syntax from sysfs and PMU event names
 * through libpfm4 (see event_encode.h).  The sysfs rules follow perf's
 * tools/perf/util/pmu.c: a format file names the attr field and its bit
 * ranges, and a value's low bits fill those bits in ascending order.
 */
#include "event_encode.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SS_TERMS_MAX 16

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen,
						      const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* the first line of @root/@a/@b/@c into @buf (newline cut); 0 or -1 */
static int read_line(const char *root, const char *a, const char *b,
		     const char *c, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	bool ok;

	if (snprintf(path, sizeof(path), "%s/%s/%s%s%s", root, a, b,
		     c ? "/" : "", c ? c : "") >= (int)sizeof(path))
		return -1;
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* "0x3c", "60" or "" (a bare term: 1) into *v; 0 or -1 */
static int term_value(const char *s, uint64_t *v)
{
	char *end;

	if (!*s) {
		*v = 1;
		return 0;
	}
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end || *s == '-' ? -1 : 0;
}

/*
 * Scatter @v into the attr field named by format @fmt ("config:0-7,21",
 * "config1:0-15"), as perf's pmu_format_value() does.  0, or -1 for a
 * malformed format or a value wider than the format's bits.
 */
static int apply_format(const char *fmt, uint64_t v, struct ss_event *ev)
{
	const char *colon = strchr(fmt, ':');
	uint64_t *field;
	const char *p;
	int bit = 0;

	if (!colon)
		return -1;
	if (!strncmp(fmt, "config:", 7))
		field = &ev->config;
	else if (!strncmp(fmt, "config1:", 8))
		field = &ev->config1;
	else if (!strncmp(fmt, "config2:", 8))
		field = &ev->config2;
	else
		return -1;
	for (p = colon + 1; *p;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0 || lo > 63)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi > 63)
				return -1;
			p = end;
		}
		for (long b = lo; b <= hi; b++, bit++)
			if (bit < 64 && (v >> bit & 1))
				*field |= 1ULL << b;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	if (bit < 64 && v >> bit)
		return -1; /* does not fit */
	return 0;
}

/*
 * Apply the comma-separated "term=value" list @terms of PMU @pmu (its
 * folder in @root) to @ev.  0, or -1 with a message.
 */
static int apply_terms(const char *root, const char *pmu, const char *terms,
		       struct ss_event *ev, char *err, size_t errlen)
{
	char buf[512], fmt[128];
	char *save = NULL, *t;

	if (snprintf(buf, sizeof(buf), "%s", terms) >= (int)sizeof(buf))
		return fail(err, errlen, "event terms too long");
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		const char *val = eq ? eq + 1 : "";
		uint64_t v;

		if (eq)
			*eq = '\0';
		if (term_value(val, &v))
			return fail(err, errlen,
				    "%s/%s/: bad value '%s' for term '%s'", pmu,
				    terms, val, t);
		if (!strcmp(t, "config") || !strcmp(t, "config1") ||
		    !strcmp(t, "config2")) {
			snprintf(fmt, sizeof(fmt), "%s:0-63", t);
		} else if (read_line(root, pmu, "format", t, fmt,
				     sizeof(fmt))) {
			return fail(
				err, errlen,
				"PMU %s has no term '%s' (see %s/%s/format)",
				pmu, t, root, pmu);
		}
		if (apply_format(fmt, v, ev))
			return fail(
				err, errlen,
				"%s/%s/: value %s does not fit term '%s' (%s)",
				pmu, terms, val, t, fmt);
	}
	return 0;
}

/* ss_event_resolve_sysfs - see event_encode.h */
int ss_event_resolve_sysfs(const char *root, const char *name,
			   struct ss_event *ev, char *err, size_t errlen)
{
	const char *s1 = strchr(name, '/'), *s2;
	char pmu[64], terms[256], line[512], type[32];
	const struct ss_event_def *defs;
	size_t ndefs;
	uint64_t t;

	s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	if (!s1 || !s2 || s1 == name || s2 == s1 + 1 ||
	    (size_t)(s1 - name) >= sizeof(pmu) ||
	    (size_t)(s2 - s1 - 1) >= sizeof(terms))
		return fail(err, errlen,
			    "bad event \"%s\": want pmu/event/ or "
			    "pmu/term=value,.../",
			    name);
	snprintf(pmu, sizeof(pmu), "%.*s", (int)(s1 - name), name);
	snprintf(terms, sizeof(terms), "%.*s", (int)(s2 - s1 - 1), s1 + 1);
	if (strchr(pmu, '.') ||
	    read_line(root, pmu, "type", NULL, type, sizeof(type)) ||
	    term_value(type, &t) || t > UINT32_MAX)
		return fail(err, errlen, "no PMU named \"%s\" (see %s)", pmu,
			    root);
	memset(ev, 0, sizeof(*ev));
	ev->type = (uint32_t)t;
	if (s2[1] && ss_event_modifiers(s2 + 1, strlen(s2 + 1), ev))
		return fail(err, errlen,
			    "bad modifier \"%s\" in \"%s\" (want u, k, h)",
			    s2 + 1, name);
	if (!strchr(terms, '=') && !strchr(terms, ',')) {
		/* one word: an alias in events/, or a built-in name */
		if (!strchr(terms, '.') &&
		    !read_line(root, pmu, "events", terms, line,
			       sizeof(line))) {
			if (apply_terms(root, pmu, line, ev, err, errlen))
				return -1;
			goto done;
		}
		ndefs = ss_event_defs(&defs);
		for (size_t i = 0; i < ndefs; i++) {
			if (defs[i].type == ev->type &&
			    !strcmp(defs[i].name, terms)) {
				ev->config = defs[i].config;
				goto done;
			}
		}
		return fail(err, errlen,
			    "PMU %s has no event \"%s\" (see %s/%s/events)",
			    pmu, terms, root, pmu);
	}
	if (apply_terms(root, pmu, terms, ev, err, errlen))
		return -1;
done:
	ev->hardware = ev->type != PERF_TYPE_SOFTWARE &&
		       ev->type != PERF_TYPE_TRACEPOINT;
	return 0;
}

/* libpfm4, started once; false when it cannot start here */
static bool pfm_ready(void)
{
	static int state; /* 0 not tried, 1 ready, -1 failed */

	if (!state)
		state = pfm_initialize() == PFM_SUCCESS ? 1 : -1;
	return state > 0;
}

/* a name libpfm4 knows: vendor events, pmu::EVENT:UMASK:mods */
static int resolve_pfm(const char *name, struct ss_event *ev, char *err,
		       size_t errlen)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	int ret;

	if (!pfm_ready())
		return fail(err, errlen,
			    "unknown event \"%s\" (libpfm4 did not start)",
			    name);
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
					PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS)
		return fail(err, errlen,
			    "unknown event \"%s\" (libpfm4: %s; "
			    "switchstat --list-events)",
			    name, pfm_strerror(ret));
	memset(ev, 0, sizeof(*ev));
	ev->type = attr.type;
	ev->config = attr.config;
	ev->config1 = attr.config1;
	ev->config2 = attr.config2;
	ev->exclude_user = attr.exclude_user;
	ev->exclude_kernel = attr.exclude_kernel;
	ev->exclude_hv = attr.exclude_hv;
	ev->hardware = attr.type != PERF_TYPE_SOFTWARE &&
		       attr.type != PERF_TYPE_TRACEPOINT;
	return 0;
}

/* ss_event_resolve - see event_encode.h */
int ss_event_resolve(const char *name, struct ss_event *ev, char *err,
		     size_t errlen)
{
	if (strchr(name, '/'))
		return ss_event_resolve_sysfs(SS_SYSFS_PMUS, name, ev, err,
					      errlen);
	return resolve_pfm(name, ev, err, errlen);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* the PMUs of sysfs and their events/ aliases, as pmu/alias/ */
static void list_sysfs(FILE *f)
{
	struct dirent **pmus;
	int n = scandir(SS_SYSFS_PMUS, &pmus, NULL, by_name);

	for (int i = 0; i < n; i++) {
		char dir[512];
		struct dirent **evs;
		int m;

		if (pmus[i]->d_name[0] != '.') {
			fprintf(f, "  %s/  (type file: %s/%s/type)\n",
				pmus[i]->d_name, SS_SYSFS_PMUS,
				pmus[i]->d_name);
			snprintf(dir, sizeof(dir), "%s/%s/events",
				 SS_SYSFS_PMUS, pmus[i]->d_name);
			m = scandir(dir, &evs, NULL, by_name);
			for (int j = 0; j < m; j++) {
				const char *e = evs[j]->d_name;

				if (e[0] != '.' && !strchr(e, '.'))
					fprintf(f, "    %s/%s/\n",
						pmus[i]->d_name, e);
				free(evs[j]);
			}
			if (m >= 0)
				free(evs);
		}
		free(pmus[i]);
	}
	if (n >= 0)
		free(pmus);
}

/*
 * After an event's name in --list-events: when it has unit masks and none
 * is the default, the name alone does not encode (libpfm4: "invalid or
 * missing unit mask"), so say so and name the first few to add.
 */
/* Attribute @i of libpfm4 event @e into @a; true if it is a unit mask. */
static bool umask_attr(int e, int i, pfm_event_attr_info_t *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	return pfm_get_event_attr_info(e, i, PFM_OS_PERF_EVENT_EXT, a) ==
		       PFM_SUCCESS &&
	       a->type == PFM_ATTR_UMASK;
}

static void list_needed_umasks(FILE *f, int e, const pfm_event_info_t *einfo)
{
	pfm_event_attr_info_t a;
	int n = 0, shown = 0;
	bool dfl = false;

	for (int i = 0; i < einfo->nattrs; i++) {
		if (!umask_attr(e, i, &a))
			continue;
		n++;
		dfl |= a.is_dfl;
	}
	if (!n || dfl)
		return;
	fputs("  (needs a unit mask:", f);
	for (int i = 0; i < einfo->nattrs && shown < 4; i++) {
		if (!umask_attr(e, i, &a))
			continue;
		fprintf(f, " :%s", a.name);
		shown++;
	}
	fprintf(f, "%s)", n > shown ? " ..." : "");
}

/* ss_events_list - see event_encode.h */
int ss_events_list(FILE *f)
{
	const struct ss_event_def *defs;
	size_t ndefs = ss_event_defs(&defs);

	fputs("Built-in (perf's names; modifiers :u :k :h):\n", f);
	for (size_t i = 0; i < ndefs; i++)
		fprintf(f, "  %-24s %s\n", defs[i].name,
			defs[i].type == PERF_TYPE_SOFTWARE ? "software"
							   : "hardware");
	fputs("  rNNNN                    raw PMU event (hex)\n", f);
	fprintf(f, "\nPMUs (%s), as pmu/event/ or pmu/term=value,.../:\n",
		SS_SYSFS_PMUS);
	list_sysfs(f);
	if (!pfm_ready()) {
		fputs("\nlibpfm4 did not start: no PMU event names\n", f);
		return -1;
	}
	fputs("\nlibpfm4 (PMUs detected on this machine; pmu::EVENT[:UMASK]"
	      "[:u|:k]):\n",
	      f);
	for (int p = PFM_PMU_NONE + 1; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pinfo;

		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(p, &pinfo) != PFM_SUCCESS ||
		    !pinfo.is_present)
			continue;
		fprintf(f, "  %s (%s)\n", pinfo.name, pinfo.desc);
		for (int e = pinfo.first_event; e != -1;
		     e = pfm_get_event_next(e)) {
			pfm_event_info_t einfo;

			memset(&einfo, 0, sizeof(einfo));
			einfo.size = sizeof(einfo);
			if (pfm_get_event_info(e, PFM_OS_PERF_EVENT_EXT,
					       &einfo) != PFM_SUCCESS)
				continue;
			fprintf(f, "    %s::%s", pinfo.name, einfo.name);
			list_needed_umasks(f, e, &einfo);
			fputc('\n', f);
		}
	}
	return 0;
}
