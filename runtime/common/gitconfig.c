/* gitconfig.c - the git config reader (gitconfig.h).  Written here rather
 * than taken from libgit2: the launcher needs four keys and the include
 * graph, with every path kept (absent ones too), and no library runs
 * git's own reader without also resolving includes its own way.  */
#include "runtime/common/gitconfig.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

typedef struct parser {
	const char *file;
	const char *s, *end;
	int line, col;
	sb_diag *d;
	char section[256];     /* lower case */
	char sub[1024];        /* exact */
	bool has_sub;
} parser;

static int peek(const parser *p)
{
	return p->s < p->end ? (unsigned char)*p->s : -1;
}

static int next(parser *p)
{
	if (p->s >= p->end)
		return -1;
	int c = (unsigned char)*p->s++;
	if (c == '\n') {
		p->line++;
		p->col = 1;
	} else {
		p->col++;
	}
	return c;
}

static void warn(parser *p, const char *what)
{
	sb_loc loc = { .file = p->d ? sb_diag_intern(p->d, p->file) : p->file, .line = p->line,
		       .col = p->col };
	if (p->d)
		sb_diag_report(p->d, SB_SEV_WARNING, &loc, "gitconfig",
			       "%s; git refuses this file too (\"bad config line\"): the rest of it "
			       "is not read", what);
}

static void skip_to_eol(parser *p)
{
	int c;
	while ((c = next(p)) != -1 && c != '\n')
		;
}

/* After '[': `name]`, `name "sub"]` or `name.sub]`.  */
static bool parse_section(parser *p)
{
	size_t n = 0;
	p->has_sub = false;
	p->sub[0] = '\0';
	int c;
	while ((c = peek(p)) != -1 && (isalnum(c) || c == '-' || c == '.')) {
		if (n + 1 >= sizeof p->section) {
			warn(p, "section name too long");
			return false;
		}
		p->section[n++] = (char)tolower(c);
		next(p);
	}
	p->section[n] = '\0';
	if (c == ']') {
		next(p);
		/* the deprecated [section.sub] form: the part after the first dot */
		char *dot = strchr(p->section, '.');
		if (dot) {
			snprintf(p->sub, sizeof p->sub, "%s", dot + 1);
			*dot = '\0';
			p->has_sub = true;
		}
		return n > 0;
	}
	if (!isspace(c) || n == 0) {
		warn(p, "bad section header");
		return false;
	}
	while ((c = peek(p)) == ' ' || c == '\t')
		next(p);
	if (next(p) != '"') {
		warn(p, "bad section header (a subsection is quoted)");
		return false;
	}
	size_t k = 0;
	for (;;) {
		c = next(p);
		if (c == -1 || c == '\n') {
			warn(p, "unterminated subsection name");
			return false;
		}
		if (c == '"')
			break;
		if (c == '\\') {
			c = next(p);
			if (c == -1 || c == '\n') {
				warn(p, "unterminated subsection name");
				return false;
			}
		}
		if (k + 1 >= sizeof p->sub) {
			warn(p, "subsection name too long");
			return false;
		}
		p->sub[k++] = (char)c;
	}
	p->sub[k] = '\0';
	p->has_sub = true;
	if (next(p) != ']') {
		warn(p, "bad section header (no ']' after the subsection)");
		return false;
	}
	return true;
}

/* The value after '=' up to the end of the line, as git's parse_value.  */
static char *parse_value(parser *p, bool *ok)
{
	size_t cap = 64, n = 0, spaces = 0;
	char *v = xmalloc(cap);
	bool quote = false, comment = false;
	*ok = true;
	for (;;) {
		int c = next(p);
		if (c == -1 || c == '\n') {
			if (quote) {
				warn(p, "unterminated quoted value");
				*ok = false;
			}
			break;
		}
		if (comment)
			continue;
		if (isspace(c) && !quote) {
			if (n)
				spaces++;
			continue;
		}
		if (!quote && (c == ';' || c == '#')) {
			comment = true;
			continue;
		}
		if (c == '\\') {
			c = next(p);
			switch (c) {
			case '\n':
				continue;   /* continuation */
			case 't': c = '\t'; break;
			case 'b': c = '\b'; break;
			case 'n': c = '\n'; break;
			case '\\': case '"': break;
			default:
				warn(p, "bad escape in a value");
				*ok = false;
				free(v);
				return NULL;
			}
		} else if (c == '"') {
			quote = !quote;
			continue;
		}
		SB_GROW(v, n + spaces + 1, cap, 64);   /* the blanks, c and the NUL */
		while (spaces) {
			v[n++] = ' ';
			spaces--;
		}
		v[n++] = (char)c;
	}
	v[n] = '\0';
	if (!*ok) {
		free(v);
		return NULL;
	}
	return v;
}

static void add(sb_gitcfg *out, sb_gitcfg_kind kind, char *value, int line)
{
	SB_GROW(out->v, out->n, out->cap, 16);
	out->v[out->n++] = (sb_gitcfg_ent){ .kind = kind, .value = value, .line = line };
}

static bool is_bool_word(const char *v)
{
	static const char *const words[] = { "true", "false", "yes", "no", "on", "off", "1", "0", "" };
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strcasecmp(v, words[i]) == 0)
			return true;
	return false;
}

static void keep(parser *p, const char *key, char *value, int line, sb_gitcfg *out)
{
	bool incl = strcmp(key, "path") == 0 &&
		    ((strcmp(p->section, "include") == 0 && !p->has_sub) ||
		     (strcmp(p->section, "includeif") == 0 && p->has_sub));
	bool core = strcmp(p->section, "core") == 0 && !p->has_sub;
	if (value && *value && incl)
		add(out, SB_GITCFG_INCLUDE, value, line);
	else if (value && *value && core && strcmp(key, "hookspath") == 0)
		add(out, SB_GITCFG_HOOKSPATH, value, line);
	else if (value && core && strcmp(key, "fsmonitor") == 0 && !is_bool_word(value))
		add(out, SB_GITCFG_FSMONITOR, value, line);
	else
		free(value);
}

int sb_gitcfg_parse(const char *file, const char *text, size_t len, sb_gitcfg *out, sb_diag *d)
{
	parser p = { .file = file, .s = text, .end = text + len, .line = 1, .col = 1, .d = d };
	bool in_section = false;
	/* a UTF-8 byte order mark, as git skips it */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		p.s += 3;
	for (;;) {
		int c = peek(&p);
		if (c == -1)
			return 0;
		if (c == '\n' || isspace(c)) {
			next(&p);
			continue;
		}
		if (c == '#' || c == ';') {
			skip_to_eol(&p);
			continue;
		}
		if (c == '[') {
			next(&p);
			if (!parse_section(&p))
				return 1;
			in_section = true;
			continue;
		}
		if (!isalpha(c) || !in_section) {
			warn(&p, in_section ? "a key must start with a letter"
					    : "a key before the first [section]");
			return 1;
		}
		char key[256];
		size_t n = 0;
		int line = p.line;
		while ((c = peek(&p)) != -1 && (isalnum(c) || c == '-')) {
			if (n + 1 >= sizeof key) {
				warn(&p, "key name too long");
				return 1;
			}
			key[n++] = (char)tolower(c);
			next(&p);
		}
		key[n] = '\0';
		while ((c = peek(&p)) == ' ' || c == '\t')
			next(&p);
		if (c == '=') {
			next(&p);
			bool ok;
			char *v = parse_value(&p, &ok);
			if (!ok)
				return 1;
			keep(&p, key, v, line, out);
		} else if (c == -1 || c == '\n' || c == '#' || c == ';') {
			/* a key alone: boolean true */
			skip_to_eol(&p);
		} else {
			warn(&p, "expected '=' after the key");
			return 1;
		}
	}
}

int sb_gitcfg_read(const char *file, sb_gitcfg *out, sb_diag *d)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 1;
		sb_diag_report(d, SB_SEV_WARNING, NULL, "gitconfig",
			       "cannot read the git config file %s: %s; what it includes is not "
			       "protected", file, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 1;
	}
	size_t want = (size_t)st.st_size;
	if (want > SB_GITCFG_MAX_BYTES) {
		sb_diag_report(d, SB_SEV_WARNING, NULL, "gitconfig",
			       "the git config file %s is %lld bytes; only the first %u are read, so "
			       "includes and hooksPath after that are not protected", file,
			       (long long)st.st_size, SB_GITCFG_MAX_BYTES);
		want = SB_GITCFG_MAX_BYTES;
	}
	char *buf = xmalloc(want + 1);
	size_t got = 0;
	while (got < want) {
		ssize_t r = read(fd, buf + got, want - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	sb_gitcfg_parse(file, buf, got, out, d);
	free(buf);
	return 0;
}

void sb_gitcfg_clear(sb_gitcfg *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].value);
	free(c->v);
	memset(c, 0, sizeof *c);
}

char *sb_gitcfg_include_target(const char *value, const char *from_file, const char *home,
			       const char **why)
{
	*why = NULL;
	if (strncmp(value, "%(prefix)/", 10) == 0) {
		*why = "'%(prefix)/' is git's installation prefix, known to git only";
		return NULL;
	}
	if (value[0] == '~') {
		if (value[1] != '/' && value[1] != '\0') {
			*why = "'~name' (another user's home) is not followed";
			return NULL;
		}
		return xasprintf("%s%s", home, value + 1);
	}
	if (value[0] == '/')
		return xstrdup(value);
	const char *slash = strrchr(from_file, '/');
	size_t dl = slash ? (size_t)(slash - from_file) : 0;
	return xasprintf("%.*s/%s", (int)dl, from_file, value);
}

char *sb_gitcfg_lexical(const char *p)
{
	char *r = xmalloc(strlen(p) + 2);
	size_t n = 0;
	const char *s = p, *c;
	size_t len;
	while (sb_path_next_comp(&s, &c, &len)) {
		if (len == 2 && c[0] == '.' && c[1] == '.') {
			while (n > 0 && r[n - 1] != '/')
				n--;
			if (n > 0)
				n--;
			continue;
		}
		r[n++] = '/';
		memcpy(r + n, c, len);
		n += len;
	}
	if (n == 0)
		r[n++] = '/';
	r[n] = '\0';
	return r;
}



static char *tilde(const char *v, const char *home)
{
	if (v[0] == '~' && (v[1] == '/' || v[1] == '\0'))
		return xasprintf("%s%s", home, v + 1);
	return xstrdup(v);
}

static void walk(const char *file, const char *home, int depth, sb_gitcfg_walk *w, sb_diag *d)
{
	if (sb_strv_has(w->files, w->nfiles, file))
		return;   /* a cycle, or the same file included twice: read once */
	sb_strv_push_unique(&w->files, &w->nfiles, file);
	sb_gitcfg c = { 0 };
	if (sb_gitcfg_read(file, &c, d) != 0) {
		sb_gitcfg_clear(&c);
		return;
	}
	for (size_t i = 0; i < c.n; i++) {
		const sb_gitcfg_ent *e = &c.v[i];
		sb_loc loc = { .file = sb_diag_intern(d, file), .line = e->line, .col = 1 };
		if (e->kind == SB_GITCFG_HOOKSPATH || e->kind == SB_GITCFG_FSMONITOR) {
			char *t = tilde(e->value, home);
			if (e->kind == SB_GITCFG_HOOKSPATH)
				sb_strv_push_unique(&w->hooks, &w->nhooks, t);
			else
				sb_strv_push_unique(&w->fsmonitor, &w->nfsmonitor, t);
			free(t);
			continue;
		}
		const char *why;
		char *target = sb_gitcfg_include_target(e->value, file, home, &why);
		if (!target) {
			sb_diag_report(d, SB_SEV_WARNING, &loc, "gitconfig",
				       "include '%s' is not followed: %s", e->value, why);
			continue;
		}
		if (depth + 1 > SB_GITCFG_MAX_DEPTH) {
			sb_diag_report(d, SB_SEV_WARNING, &loc, "gitconfig",
				       "include '%s' is deeper than %d levels (git stops with "
				       "\"exceeded maximum include depth\"); not followed", e->value,
				       SB_GITCFG_MAX_DEPTH);
			free(target);
			continue;
		}
		/* one spelling per file, so a cycle through "../a" is seen */
		char *key = realpath(target, NULL);
		if (!key)
			key = sb_gitcfg_lexical(target);
		walk(key, home, depth + 1, w, d);
		free(key);
		free(target);
	}
	sb_gitcfg_clear(&c);
}

void sb_gitcfg_walk_file(const char *root, const char *home, sb_gitcfg_walk *w, sb_diag *d)
{
	walk(root, home, 0, w, d);
}

void sb_gitcfg_walk_clear(sb_gitcfg_walk *w)
{
	sb_strv_free(w->files, w->nfiles);
	sb_strv_free(w->hooks, w->nhooks);
	sb_strv_free(w->fsmonitor, w->nfsmonitor);
	memset(w, 0, sizeof *w);
}
