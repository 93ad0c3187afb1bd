// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_cache_key.c - the compiled-BPF cache's key (bpf_cache.h): SHA-256 over
 * the compile's inputs and the identity of everything else its output
 * depends on (libraries, kernel headers, kernel, environment, CPUs).
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "bpf_cache.h"
#include "tracefs.h"

#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bcc/bcc_version.h>
#include <bpf/libbpf.h>

/* ---- the key ------------------------------------------------------------ */

/* a field of the key: its tag, its length, its bytes */
static void key_field(struct ss_sha256 *s, char tag, const void *p,
		      uint64_t len)
{
	uint8_t l[8];

	for (int i = 0; i < 8; i++)
		l[i] = len >> (8 * i);
	ss_sha256_update(s, &tag, 1);
	ss_sha256_update(s, l, sizeof(l));
	if (len)
		ss_sha256_update(s, p, len);
}

static void key_str(struct ss_sha256 *s, char tag, const char *str)
{
	/* NULL and "" differ: an identity that could not be read is NULL */
	if (!str)
		key_field(s, tag, "\xff", 1);
	else
		key_field(s, tag, str, strlen(str) + 1);
}

/* ss_cache_key - see bpf_cache.h */
void ss_cache_key(const struct ss_cache_key_in *in,
		  char hex[SS_CACHE_KEY_HEX + 1])
{
	uint32_t v[2] = { SS_CACHE_FORMAT, (uint32_t)in->ncpus };
	struct ss_sha256 s;
	uint8_t d[32];

	ss_sha256_init(&s);
	key_field(&s, 'F', "switchstat BPF cache", 20);
	key_field(&s, 'V', v, sizeof(v));
	key_str(&s, 'T', in->text);
	key_field(&s, 'N', &in->ncflags, sizeof(in->ncflags));
	for (int i = 0; i < in->ncflags; i++)
		key_str(&s, 'C', in->cflags[i]);
	key_str(&s, 'L', in->libs);
	key_str(&s, 'H', in->headers);
	key_str(&s, 'K', in->kernel);
	key_str(&s, 'E', in->env);
	ss_sha256_final(&s, d);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* the identifier at *p (after blanks), copied to out; false if none */
static bool take_ident(const char **p, char *out, size_t outlen)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	while (ident_char(s[n]))
		n++;
	if (!n || n >= outlen)
		return false;
	memcpy(out, s, n);
	out[n] = '\0';
	*p = s + n;
	while (**p == ' ' || **p == '\t')
		(*p)++;
	return true;
}

/* ss_cache_tracepoints - see bpf_cache.h */
int ss_cache_tracepoints(const char *text, char *out, size_t outlen)
{
	static const char mac[] = "TRACEPOINT_PROBE(";
	const char *p = text;
	int found = 0;

	while ((p = strstr(p, mac))) {
		const char *q = p + sizeof(mac) - 1;
		char cat[128], name[128];
		size_t used = strlen(out);

		/* RAW_TRACEPOINT_PROBE and the like are not it */
		if (p > text && ident_char(p[-1])) {
			p = q;
			continue;
		}
		p = q;
		if (!take_ident(&q, cat, sizeof(cat)) || *q++ != ',' ||
		    !take_ident(&q, name, sizeof(name)) || *q != ')')
			continue;
		snprintf(out + used, outlen - used, "%s/%s\n", cat, name);
		found++;
	}
	return found;
}

/* a file's identity: its real path, size and mtime; "?" when missing */
static void ident_file(FILE *f, const char *what, const char *path, bool mtime)
{
	char real[PATH_MAX];
	struct stat st;

	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	if (stat(real, &st)) {
		fprintf(f, "%s %s ?\n", what, real);
		return;
	}
	fprintf(f, "%s %s %lld", what, real, (long long)st.st_size);
	if (mtime)
		fprintf(f, " %lld.%09ld", (long long)st.st_mtim.tv_sec,
			st.st_mtim.tv_nsec);
	fputc('\n', f);
}

/* the loaded libraries that compile: libbcc, libclang*, libLLVM* */
static int ident_lib(struct dl_phdr_info *info, size_t size, void *data)
{
	static const char *const libs[] = { "libbcc", "libclang", "libLLVM" };
	const char *base = strrchr(info->dlpi_name, '/');

	base = base ? base + 1 : info->dlpi_name;
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
		if (!strncmp(base, libs[i], strlen(libs[i])))
			ident_file(data, "lib", info->dlpi_name, true);
	return 0;
}

/* what a FILE * built with open_memstream holds, or NULL */
static char *memstream_done(FILE *f, char **buf)
{
	if (fclose(f)) {
		free(*buf);
		return NULL;
	}
	return *buf;
}

/* ss_cache_key_gather - see bpf_cache.h */
int ss_cache_key_gather(struct ss_cache_key_in *in, const char *text,
			const char *headers)
{
	static const char *const envs[] = { "ARCH", "BCC_KERNEL_SOURCE",
					    "BCC_LINUX_VERSION_CODE",
					    "BCC_KERNEL_MODULES_SUFFIX" };
	static const char *const hfiles[] = {
		"Makefile", "include/generated/uapi/linux/version.h",
		"include/generated/autoconf.h", "include/config/kernel.release"
	};
	char *lb = NULL, *hb = NULL, *kb = NULL, *eb = NULL;
	size_t ln, hn, kn, en;
	FILE *lf = open_memstream(&lb, &ln), *hf = open_memstream(&hb, &hn);
	FILE *kf = open_memstream(&kb, &kn), *ef = open_memstream(&eb, &en);
	char tps[4096] = "", p[PATH_MAX];
	struct utsname u;
	struct stat st;

	in->libs = in->headers = in->kernel = in->env = NULL;
	if (!lf || !hf || !kf || !ef) {
		if (lf)
			fclose(lf);
		if (hf)
			fclose(hf);
		if (kf)
			fclose(kf);
		if (ef)
			fclose(ef);
		free(lb);
		free(hb);
		free(kb);
		free(eb);
		return -1;
	}

	fprintf(lf, "libbcc version %s\n", LIBBCC_VERSION);
	dl_iterate_phdr(ident_lib, lf);

	fprintf(hf, "headers %s\n", headers);
	if (stat(headers, &st) == 0 && S_ISDIR(st.st_mode)) {
		for (size_t i = 0; i < sizeof(hfiles) / sizeof(hfiles[0]);
		     i++) {
			snprintf(p, sizeof(p), "%s/%s", headers, hfiles[i]);
			ident_file(hf, "file", p, true);
		}
	} else {
		/* kheaders.tar.xz: the kernel's own, named by uname */
		ident_file(hf, "file", headers, false);
	}

	uname(&u);
	fprintf(kf, "%s %s %s %s\n", u.sysname, u.release, u.version,
		u.machine);
	ident_file(kf, "btf", "/sys/kernel/btf/vmlinux", false);
	ss_cache_tracepoints(text, tps, sizeof(tps));
	for (char *t = tps, *nl; (nl = strchr(t, '\n')); t = nl + 1) {
		char buf[4096];
		ssize_t r;
		int fd;

		*nl = '\0';
		snprintf(p, sizeof(p), "%s/events/%s/format", ss_tracefs(), t);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		fprintf(kf, "format %s\n", t);
		while (fd >= 0 && (r = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, r, kf);
		if (fd >= 0)
			close(fd);
	}

	for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
		const char *v = getenv(envs[i]);

		fprintf(ef, "%s%s%s\n", envs[i], v ? "=" : " unset",
			v ? v : "");
	}

	in->libs = memstream_done(lf, &lb);
	in->headers = memstream_done(hf, &hb);
	in->kernel = memstream_done(kf, &kb);
	in->env = memstream_done(ef, &eb);
	in->ncpus = libbpf_num_possible_cpus();
	if (!in->libs || !in->headers || !in->kernel || !in->env) {
		ss_cache_key_free(in);
		return -1;
	}
	return 0;
}

/* ss_cache_key_free - see bpf_cache.h */
void ss_cache_key_free(struct ss_cache_key_in *in)
{
	free((char *)in->libs);
	free((char *)in->headers);
	free((char *)in->kernel);
	free((char *)in->env);
	in->libs = in->headers = in->kernel = in->env = NULL;
}
