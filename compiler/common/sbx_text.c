/* sbx_text.c - the .sbx writer (sbx_text.h).  */
#include "compiler/common/sbx_text.h"

#include <stdlib.h>
#include <string.h>
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

bool sbx_text_writable(const char *s)
{
	return sb_path_bad_char(s) < 0;
}

bool sbx_text_needs_quotes(const char *s)
{
	return strpbrk(s, " \t;#\"\\") != NULL;
}

char *sbx_text_shown(const char *s)
{
	char *q = xmalloc(2 * strlen(s) + 3), *w = q;
	*w++ = '"';
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			*w++ = '\\';
		*w++ = *s;
	}
	*w++ = '"';
	*w = '\0';
	return q;
}

char *sbx_text_quoted(const char *s)
{
	return sbx_text_writable(s) ? sbx_text_shown(s) : NULL;
}

static bool portable(const char *s)
{
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+-@~") ==
	       strlen(s);
}

char *sbx_text_target(const char *path, const char *home)
{
	if (!sbx_text_writable(path))
		return NULL;
	if (home && sb_path_is_under(path, home)) {
		char *t = xasprintf("~%s", path + strlen(home));
		if (portable(t))
			return t;
		free(t);
	} else if (portable(path)) {
		return xstrdup(path);
	}
	return sbx_text_quoted(path);
}

char *sbx_text_allow(const char *verb, const char *target)
{
	return xasprintf("allow %s %s;", verb, target);
}

char *sbx_text_network_allow(const char *host)
{
	char *q = sbx_text_quoted(host);
	if (!q)
		return NULL;
	char *r = xasprintf("network allow %s;", q);
	free(q);
	return r;
}
