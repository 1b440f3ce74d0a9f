/* path.c - lexical path rules, component-wise comparison, canonicalisation
 * and SBPL string escaping (see path.h).  */
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

#include <ctype.h>
#include <errno.h>
#ifdef __linux__
#include <fcntl.h>
#include <unistd.h>
#endif
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_path_bad_char(const char *p)
{
	for (const unsigned char *s = (const unsigned char *)p; *s; s++)
		if (*s < 0x20 || *s == 0x7f)
			return (int)(s - (const unsigned char *)p);
	return -1;
}

bool sb_path_has_dotdot(const char *p)
{
	const char *s = p;
	while (*s) {
		while (*s == '/')
			s++;
		const char *e = s;
		while (*e && *e != '/')
			e++;
		if (e - s == 2 && s[0] == '.' && s[1] == '.')
			return true;
		s = e;
	}
	return false;
}

bool sb_path_is_normal(const char *p)
{
	if (!p || p[0] != '/')
		return false;
	if (p[1] == '\0')
		return true;
	const char *s = p + 1;
	for (;;) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == 0)
			return false;             /* "//" or trailing "/" */
		if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		if (!e)
			return true;
		s = e + 1;
	}
}

char *sb_path_normalize(const char *p, const char **why)
{
	const char *dummy;
	if (!why)
		why = &dummy;
	*why = NULL;
	if (!p || p[0] != '/') {
		*why = "path must be absolute";
		return NULL;
	}
	if (sb_path_has_dotdot(p)) {
		*why = "path contains a '..' component";
		return NULL;
	}
	size_t len = strlen(p);
	char *out = xmalloc(len + 2);
	size_t o = 0;
	const char *s = p;
	while (*s) {
		while (*s == '/')
			s++;
		const char *e = s;
		while (*e && *e != '/')
			e++;
		size_t n = (size_t)(e - s);
		if (n == 0 || (n == 1 && s[0] == '.')) {
			s = e;
			continue;
		}
		out[o++] = '/';
		memcpy(out + o, s, n);
		o += n;
		s = e;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return out;
}

/* Compare the first n bytes, optionally ASCII case-folded.  */
static bool same_bytes(const char *a, const char *b, size_t n, bool fold)
{
	if (!fold)
		return memcmp(a, b, n) == 0;
	for (size_t i = 0; i < n; i++)
		if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
			return false;
	return true;
}

static bool under_n(const char *p, size_t pl, const char *root, size_t rl, bool strict,
		    bool fold)
{
	if (rl == 1 && root[0] == '/')          /* "/" contains every absolute path */
		return p[0] == '/' && (!strict || pl > 1);
	if (pl < rl || !same_bytes(p, root, rl, fold))
		return false;
	if (pl == rl)
		return !strict;
	return p[rl] == '/';
}

bool sb_path_equal(const char *a, const char *b) { return strcmp(a, b) == 0; }
static bool under(const char *p, const char *root, bool strict, bool fold)
{
	return under_n(p, strlen(p), root, strlen(root), strict, fold);
}

bool sb_path_is_under(const char *p, const char *root) { return under(p, root, false, false); }
bool sb_path_is_strictly_under(const char *p, const char *root) { return under(p, root, true, false); }
bool sb_path_is_under_fold(const char *p, const char *root) { return under(p, root, false, true); }
bool sb_path_is_under_n(const char *p, size_t plen, const char *root, size_t rlen)
{
	return under_n(p, plen, root, rlen, false, false);
}

char *sb_path_join(const char *base, const char *rel)
{
	if (!rel || !*rel)
		return xstrdup(base);
	if (strcmp(base, "/") == 0)
		return xasprintf("/%s", rel);
	return xasprintf("%s/%s", base, rel);
}

char *sb_path_dirname(const char *p)
{
	const char *slash = strrchr(p, '/');
	if (!slash || slash == p)
		return xstrdup("/");
	return xstrndup(p, (size_t)(slash - p));
}

static const char *const private_aliased[] = { "/tmp", "/var", "/etc" };

bool sb_path_is_private_aliased(const char *p)
{
	for (size_t i = 0; i < sizeof private_aliased / sizeof *private_aliased; i++)
		if (sb_path_is_under(p, private_aliased[i]))
			return true;
	return false;
}

const char *sb_path_strip_private(const char *p)
{
	static const char prefix[] = "/private";
	if (strncmp(p, prefix, sizeof prefix - 1) != 0)
		return NULL;
	const char *rest = p + sizeof prefix - 1;
	return sb_path_is_private_aliased(rest) ? rest : NULL;
}

char *sb_path_private_alias(const char *p)
{
	return sb_path_is_private_aliased(p) ? xasprintf("/private%s", p) : xstrdup(p);
}

char *sb_path_real(const char *p)
{
#ifdef __linux__
	/* O_PATH resolves like realpath (search permission on each directory,
	 * symlinks followed, ENOENT/ENOTDIR/ELOOP/EACCES alike) and opens
	 * nothing; the kernel's name of the result is the canonical path.  */
	int fd = open(p, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char link[40], buf[PATH_MAX];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, buf, sizeof buf);
	close(fd);
	/* no /proc, a name too long, or one the kernel marks (" (deleted)",
	 * a path outside this root): ask realpath() */
	if (n > 0 && (size_t)n < sizeof buf && buf[0] == '/') {
		buf[n] = '\0';
		static const char deleted[] = " (deleted)";
		size_t dn = sizeof deleted - 1;
		if (!((size_t)n > dn && !memcmp(buf + n - dn, deleted, dn)))
			return xstrdup(buf);
	}
#endif
	return realpath(p, NULL);
}

char *sb_path_canon(const char *p)
{
	char *r = sb_path_real(p);
	if (r)
		return r;
	if (errno != ENOENT)
		return NULL;
	/* Missing leaf: canonical parent + the leaf as typed.  */
	size_t len = strlen(p);
	while (len > 1 && p[len - 1] == '/')
		len--;                           /* "dir/" of a missing dir has no leaf */
	if (len != strlen(p)) {
		errno = ENOENT;
		return NULL;
	}
	const char *slash = strrchr(p, '/');
	if (!slash) {
		errno = EINVAL;
		return NULL;
	}
	const char *leaf = slash + 1;
	if (!*leaf || strcmp(leaf, ".") == 0 || strcmp(leaf, "..") == 0) {
		errno = EINVAL;
		return NULL;
	}
	char *parent = slash == p ? xstrdup("/") : xstrndup(p, (size_t)(slash - p));
	char *rp = sb_path_real(parent);
	free(parent);
	if (!rp)
		return NULL;                     /* errno from realpath: parent missing */
	char *out = sb_path_join(rp, leaf);
	free(rp);
	return out;
}

char *sb_sbpl_escape(const char *s)
{
	if (sb_path_bad_char(s) >= 0)
		return NULL;
	size_t n = 0;
	for (const char *p = s; *p; p++)
		n += (*p == '\\' || *p == '"') ? 2 : 1;
	char *out = xmalloc(n + 1);
	char *o = out;
	for (const char *p = s; *p; p++) {
		if (*p == '\\' || *p == '"')
			*o++ = '\\';
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

/* Next path component of *s, skipping empty and "." components.  */
bool sb_path_next_comp(const char **s, const char **c, size_t *n)
{
	const char *p = *s;
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p) {
			*s = p;
			return false;
		}
		const char *start = p;
		while (*p && *p != '/')
			p++;
		if (p - start == 1 && start[0] == '.')
			continue;
		*c = start;
		*n = (size_t)(p - start);
		*s = p;
		return true;
	}
}

int sb_fold_char(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

bool sb_path_comp_eq(const char *a, size_t na, const char *b, size_t nb, bool fold)
{
	if (na != nb)
		return false;
	if (!fold)
		return memcmp(a, b, na) == 0;
	for (size_t i = 0; i < na; i++)
		if (sb_fold_char((unsigned char)a[i]) != sb_fold_char((unsigned char)b[i]))
			return false;
	return true;
}

sbx_path_rel sbx_path_relation(const char *p, const char *q, bool fold)
{
	for (;;) {
		const char *pc = NULL, *qc = NULL;
		size_t pn = 0, qn = 0;
		bool hp = sb_path_next_comp(&p, &pc, &pn);
		bool hq = sb_path_next_comp(&q, &qc, &qn);
		if (!hp && !hq)
			return SBX_PATH_EQUAL;
		if (!hp)
			return SBX_PATH_ABOVE;
		if (!hq)
			return SBX_PATH_INSIDE;
		if (!sb_path_comp_eq(pc, pn, qc, qn, fold))
			return SBX_PATH_UNRELATED;
	}
}

const char *sbx_path_below(const char *p, const char *root, bool fold)
{
	for (;;) {
		const char *pc = NULL, *qc = NULL;
		size_t pn = 0, qn = 0;
		const char *before = p;
		bool hq = sb_path_next_comp(&root, &qc, &qn);
		if (!hq) {
			while (*before == '/')
				before++;
			return before;
		}
		if (!sb_path_next_comp(&p, &pc, &pn) || !sb_path_comp_eq(pc, pn, qc, qn, fold))
			return NULL;
	}
}
