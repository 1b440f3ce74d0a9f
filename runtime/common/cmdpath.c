/* cmdpath.c - command and interpreter resolution (defect D12 and the
 * "relative PATH entry" fix of docs/migration.md).  execvp() is never used:
 * it would search relative entries and fall back to running files through
 * /bin/sh.  */
#include "runtime/common/cmdpath.h"
#include "compiler/common/xalloc.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_exec_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

static char *join(const char *dir, size_t dlen, const char *name)
{
	while (dlen > 1 && dir[dlen - 1] == '/')
		dlen--;
	size_t nlen = strlen(name);
	char *r = xmalloc(dlen + nlen + 2);
	memcpy(r, dir, dlen);
	size_t o = dlen;
	if (!(dlen == 1 && dir[0] == '/'))
		r[o++] = '/';
	memcpy(r + o, name, nlen + 1);
	return r;
}

char *sb_cmd_resolve(const char *name, const char *path_var, const char *cwd)
{
	if (!name || !*name)
		return NULL;
	if (strchr(name, '/')) {
		char *p = name[0] == '/' ? xstrdup(name) : cwd ? join(cwd, strlen(cwd), name) : NULL;
		if (p && is_exec_file(p))
			return p;
		free(p);
		return NULL;
	}
	if (!path_var)
		return NULL;
	const char *s = path_var;
	for (;;) {
		const char *e = strchr(s, ':');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len > 0 && s[0] == '/') {
			char *p = join(s, len, name);
			if (is_exec_file(p))
				return p;
			free(p);
		}
		if (!e)
			break;
		s = e + 1;
	}
	return NULL;
}

/* Read the "#!" line of `file` into buf; false when there is none.  */
static bool read_shebang(const char *file, char *buf, size_t size)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 2 || buf[0] != '#' || buf[1] != '!')
		return false;
	buf[n] = '\0';
	char *nl = strchr(buf, '\n');
	if (!nl)
		return false;
	*nl = '\0';
	return true;
}

/* Next whitespace-separated word of *s, NUL-terminated in place.  */
static char *next_word(char **s)
{
	char *p = *s;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return NULL;
	char *w = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return w;
}

char *sb_cmd_interpreter(const char *file, const char *path_var, char **missing)
{
	char buf[512];
	if (missing)
		*missing = NULL;
	if (!read_shebang(file, buf, sizeof buf))
		return NULL;
	char *rest = buf + 2;
	char *interp = next_word(&rest);
	if (!interp)
		return NULL;
	const char *base = strrchr(interp, '/');
	base = base ? base + 1 : interp;
	if (strcmp(base, "env") == 0) {
		/* "#!/usr/bin/env [-S] [VAR=x ...] NAME": skip options and assignments.  */
		char *w;
		while ((w = next_word(&rest)) && (w[0] == '-' || strchr(w, '=')))
			;
		if (!w)
			return NULL;
		char *r = sb_cmd_resolve(w, path_var, NULL);
		if (!r && missing)
			*missing = xstrdup(w);
		return r;
	}
	if (interp[0] != '/')
		return NULL;
	if (is_exec_file(interp))
		return xstrdup(interp);
	if (missing)
		*missing = xstrdup(interp);
	return NULL;
}
