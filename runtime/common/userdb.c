/* userdb.c - the home directory of a uid (userdb.h).  */
#include "runtime/common/userdb.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compiler/common/xalloc.h"

/* A decimal uid field, digits only (passwd(5) has no signs or spaces).  */
static bool field_is_uid(const char *s, size_t n, uid_t uid)
{
	if (n == 0 || n > 10)
		return false;
	unsigned long long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	return v == (unsigned long long)uid;
}

char *sb_passwd_home(const char *text, size_t len, uid_t uid)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		/* name:password:uid:gid:gecos:home:shell, exactly seven fields;
		 * a NIS "+" or "-" line is no entry of its own */
		const char *f[7];
		size_t fl[7], k = 0;
		const char *s = p;
		for (const char *q = p; k < 7; q++) {
			if (q == eol || *q == ':') {
				f[k] = s;
				fl[k] = (size_t)(q - s);
				k++;
				s = q + 1;
				if (q == eol)
					break;
			}
		}
		bool seven = k == 7 && f[6] + fl[6] == eol;
		if (seven && p[0] != '+' && p[0] != '-' && memchr(p, '\0', (size_t)(eol - p)) == NULL &&
		    field_is_uid(f[2], fl[2], uid))
			return xstrndup(f[5], fl[5]);
		p = eol + 1;
	}
	return NULL;
}

/* /etc/passwd's text, or NULL.  A file too large to be a local account
 * list is left to the name service.  */
static char *read_passwd(size_t *len)
{
	int fd = open("/etc/passwd", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *buf = NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    st.st_size <= (1 << 20)) {
		size_t cap = (size_t)st.st_size, n = 0;
		buf = xmalloc(cap + 1);
		while (n < cap) {
			ssize_t r = read(fd, buf + n, cap - n);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			n += (size_t)r;
		}
		buf[n] = '\0';
		*len = n;
	}
	close(fd);
	return buf;
}

char *sb_user_home(uid_t uid, const char *inherited)
{
	if (inherited && *inherited) {
		size_t len = 0;
		char *text = read_passwd(&len);
		char *home = text ? sb_passwd_home(text, len, uid) : NULL;
		free(text);
		if (home && strcmp(home, inherited) == 0)
			return home;
		free(home);
	}
	struct passwd *pw = getpwuid(uid);
	return pw && pw->pw_dir ? xstrdup(pw->pw_dir) : NULL;
}
