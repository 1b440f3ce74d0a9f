/* denial.c - the denial tracer (denial.h, docs/trace.md).  */
#include "runtime/common/denial.h"
#include "runtime/common/textesc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "compiler/common/path.h"
#include "compiler/common/sensitive.h"
#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"
#include "compiler/eval/egress_eval.h"
#include "compiler/eval/eval.h"

typedef struct entry {
	sb_access access;
	char *path;
	char *process;
	int pid;
	size_t count;
	bool platform_only;
	const char *src_file;      /* the deciding rule's policy origin */
	int src_line;
	char *rule_text;           /* "deny read home", or the SBPL rule */
	char *own_file;            /* CONNECT: src_file points here */
	int port;                  /* CONNECT: the first refused port */
	char *detail;              /* CONNECT: the proxy's reason */
	bool absent;               /* hidden by a mask: ENOENT inside, not EACCES */
	bool link_source;          /* WRITE: a hard link to it was refused (write gate) */
} entry;

struct sb_tracer {
	sb_tracer_cfg cfg;
	sb_strmap *seen;           /* access byte + path -> entry */
	entry **v;
	size_t n, cap;
	sb_tracer_counts counts;
	double tokens;
	struct timespec last;
	sb_strmap *sources;        /* included policy file -> its text (owned) */
	sb_eval *ev;               /* decides for cfg.bound, NULL without one */
	const char *unobserved[SB_TRACER_MAX_UNOBSERVED];
	size_t nunobserved;
};

static const char *const words[SB_ACC__COUNT] = {
	"read", "list", "write", "create", "delete", "exec", "network", "connect", "truncate",
};

const char *sb_access_word(sb_access a)
{
	return (unsigned)a < SB_ACC__COUNT ? words[a] : "?";
}

sb_tracer *sb_tracer_new(const sb_tracer_cfg *cfg)
{
	sb_tracer *t = xcalloc(1, sizeof *t);
	t->cfg = *cfg;
	if (!t->cfg.burst)
		t->cfg.burst = 200;
	if (!t->cfg.per_second)
		t->cfg.per_second = 50;
	if (!t->cfg.max_distinct)
		t->cfg.max_distinct = 10000;
	t->seen = sb_strmap_new();
	t->ev = t->cfg.bound ? sb_eval_new(t->cfg.bound, 0) : NULL;
	t->tokens = t->cfg.burst;
	clock_gettime(CLOCK_MONOTONIC, &t->last);
	return t;
}

static void entry_free(entry *e)
{
	free(e->path);
	free(e->process);
	free(e->rule_text);
	free(e->own_file);
	free(e->detail);
	free(e);
}

void sb_tracer_free(sb_tracer *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		entry_free(t->v[i]);
	free(t->v);
	sb_strmap_free(t->seen);
	sb_eval_free(t->ev);
	if (t->sources) {
		sb_strmap_each(t->sources, free);
		sb_strmap_free(t->sources);
	}
	free(t);
}

/* ---- output escaping: nothing from the sandboxed side reaches the
 * output raw (a newline in a file name must not start a forged line) ---- */

static void put_text(FILE *f, const char *s)
{
	sb_text_put(f, s);   /* C0, C1, DEL, invalid UTF-8, bidi: escaped */
}

/* A rule's origin: "file:line", or the name alone for a rule made at
 * launch (line 0: OMP_SANDBOX_NETWORK=off, runtime/common/netmode.c).  */
static void put_origin(FILE *f, const char *file, int line)
{
	put_text(f, file);
	if (line > 0)
		fprintf(f, ":%d", line);
}

/* Length of the valid UTF-8 sequence at p, 0 when invalid.  */
static size_t utf8_len(const unsigned char *p)
{
	size_t n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
	if (p[0] > 0xf4)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static void put_json(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else if (*p < 0x80) {
			fputc(*p++, f);
		} else {
			size_t n = utf8_len(p);
			if (n) {
				fwrite(p, 1, n, f);
				p += n;
			} else {
				fputs("\\ufffd", f);   /* not UTF-8: one replacement a byte */
				p++;
			}
		}
	}
	fputc('"', f);
}

static void put_json_or_null(FILE *f, const char *s)
{
	if (s)
		put_json(f, s);
	else
		fputs("null", f);
}

/* ---- naming paths as a user writes them ---- */

/* "~/rel" or "~" for paths in the home directory, else a copy.  */
static char *display_path(const sb_tracer *t, const char *p)
{
	const char *h = t->cfg.home;
	char *r = NULL;
	if (h && sb_path_is_under(p, h)) {
		const char *rest = p + strlen(h);
		r = xasprintf("~%s", rest);
	} else {
		r = xstrdup(p);
	}
	return r;
}

/* A policy target (docs/language.md): bare when every byte is plain, else
 * a quoted string.  */
static char *policy_target(const sb_tracer *t, const char *p)
{
	char *disp = display_path(t, p);
	bool plain = true;
	for (const char *c = disp; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+-@~",
			    *c))
			plain = false;
	if (plain)
		return disp;
	size_t n = strlen(p);
	char *q = xmalloc(2 * n + 3), *w = q;
	*w++ = '"';
	for (const char *c = p; *c; c++) {
		if (*c == '"' || *c == '\\')
			*w++ = '\\';
		*w++ = *c;
	}
	*w++ = '"';
	*w = '\0';
	free(disp);
	return q;
}

static bool is_wide(const sb_tracer *t, const char *p)
{
	return strcmp(p, "/") == 0 || (t->cfg.home && sb_path_is_under(t->cfg.home, p));
}

static const sb_sensitive_entry *sensitive(const sb_tracer *t, const char *p)
{
	return t->cfg.home ? sb_sensitive_match(p, t->cfg.home, NULL, 0) : NULL;
}

/* What a grant for this denial names: the file for read, write and exec,
 * the directory for creating and removing (Landlock checks the parent).  */
static bool is_wide(const sb_tracer *t, const char *p);

/* Was creating `path` (or something below it) denied in this session?  */
static bool denied_create(const sb_tracer *t, const char *path)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i]->access == SB_ACC_CREATE && sb_path_is_under(t->v[i]->path, path))
			return true;
	return false;
}

/* Does `dir` hold an entry this session was not denied creating?  Then a
 * grant on `dir` would open that entry too (~/.cache holds the real
 * ~/.cache/pip beside a new ~/.cache/mytool).  Unlistable: assume so.  */
static bool holds_others(const sb_tracer *t, const char *dir)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return true;
	bool other = false;
	struct dirent *de;
	while (!other && (de = readdir(dh))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *p = sb_path_join(dir, de->d_name);
		other = !denied_create(t, p);
		free(p);
	}
	closedir(dh);
	return other;
}

/* The grant for creating is the directory (Landlock checks the parent),
 * unless that would be wider than what was denied: a wide directory (the
 * home directory, /), or one that holds other entries.  Then it is the new
 * path itself, which must exist before the launch (a Landlock rule needs
 * an existing file).  */
static bool create_self(const sb_tracer *t, sb_access a, const char *path)
{
	if (a != SB_ACC_CREATE)
		return false;
	char *dir = sb_path_dirname(path);
	bool r = is_wide(t, dir) || holds_others(t, dir);
	free(dir);
	return r;
}

static char *grant_target_t(const sb_tracer *t, sb_access a, const char *path)
{
	if ((a == SB_ACC_CREATE && !create_self(t, a, path)) || a == SB_ACC_DELETE)
		return sb_path_dirname(path);
	return xstrdup(path);
}

static bool is_read(sb_access a)
{
	return a == SB_ACC_READ || a == SB_ACC_LIST;
}

static bool is_write(sb_access a)
{
	return a == SB_ACC_WRITE || a == SB_ACC_CREATE || a == SB_ACC_DELETE ||
	       a == SB_ACC_TRUNCATE;
}

static char *unit_for(const sb_tracer *t, bool write, const char *target);

char *sb_tracer_fix(const sb_tracer *t, sb_access a, const char *path)
{
	if (a == SB_ACC_CONNECT)
		return xasprintf("the policy statement `network allow \"%s\";`%s%s", path,
				 t->cfg.allow_hosts_var ? " or OMP_SANDBOX_ALLOW_HOSTS=" : "",
				 t->cfg.allow_hosts_var ? path : "");
	if (a == SB_ACC_NETWORK)
		return xstrdup("the policy's `network on;` (or a host in the egress allowlist)");
	char *target = grant_target_t(t, a, path);
	/* what the tool walks, as --learn grants it: one round, not one a file */
	char *unit = a != SB_ACC_LIST && a != SB_ACC_EXEC ? unit_for(t, is_write(a), target) : NULL;
	if (unit) {
		free(target);
		target = unit;
	}
	char *disp = display_path(t, target);
	const sb_sensitive_entry *s = sensitive(t, target);
	bool wide = is_wide(t, target);
	char *r;
	if (a == SB_ACC_LIST && (wide || s)) {
		/* Listing names no content: `exactly` grants just the directory
		 * node, which is neither wide nor sensitive (docs/checks.md).  */
		char *tg = t->cfg.home && !strcmp(target, t->cfg.home) ? xstrdup("home")
									  : policy_target(t, target);
		r = xasprintf("the policy statement `allow read exactly %s;` (on macOS; on Linux "
			      "a directory's listing cannot be granted without its subtree)", tg);
		free(tg);
	} else if (is_read(a) && t->cfg.extra_read_var) {
		r = xasprintf("OMP_SANDBOX_EXTRA_READ=%s%s", disp,
			      s ? " (sensitive: also set OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1)" : "");
	} else if (is_write(a) && t->cfg.extra_write_var && !wide) {
		bool first = !unit && create_self(t, a, path);
		r = xasprintf("OMP_SANDBOX_EXTRA_WRITE=%s%s%s%s%s", disp,
			      s ? " (sensitive: also set OMP_SANDBOX_CONFIRM_SENSITIVE_WRITE=1)" : "",
			      first ? " (create it first, e.g. mkdir -p " : "", first ? disp : "",
			      first ? ", if it is a directory)" : "");
	} else {
		char *tg = policy_target(t, target);
		r = xasprintf("the policy statement `allow %s %s;`%s%s",
			      is_read(a) ? "read" : is_write(a) ? "write" : "exec", tg,
			      s ? " (sensitive: it needs `acknowledge sensitive \"reason\"`)" : "",
			      wide && (is_write(a) || is_read(a))
				      ? " (wide: it needs `acknowledge wide \"reason\"`)" : "");
		free(tg);
	}
	free(disp);
	free(target);
	return r;
}

/* The default protection of persistence files decided (a rule of
 * examples/protect/GROUP.sbx, or a path of the launch-time git lists
 * $PROTECT_GIT of examples/omp.sbx): its group, or NULL.  */
static const char *protect_group(const sb_tracer *t, const entry *e, int *len)
{
	if (!is_write(e->access))
		return NULL;
	const char *src = e->src_file ? e->src_file : "";
	const char *g = strstr(src, "protect/");
	if (g && (g == src || g[-1] == '/')) {
		g += strlen("protect/");
		*len = (int)strcspn(g, ".");
		return g;
	}
	bool git = false;
	for (size_t i = 0; i < t->cfg.nprotect_git && !git; i++)
		git = sb_path_is_under(e->path, t->cfg.protect_git[i]);
	for (size_t i = 0; i < t->cfg.nprotect_nodes && !git; i++)
		git = strcmp(e->path, t->cfg.protect_nodes[i]) == 0;
	if (!git || !e->src_file)
		return NULL;
	*len = 3;
	return "git";
}

/* The fix for an entry: a protected file is lifted by its group, not by
 * a grant (a later grant is what the protection is there to refuse).  */
static char *entry_fix(const sb_tracer *t, const entry *e)
{
	int n;
	const char *g = protect_group(t, e, &n);
	if (!g)
		return sb_tracer_fix(t, e->access, e->path);
	char *tg = policy_target(t, e->path);
	char *r = xasprintf("OMP_SANDBOX_PROTECT without \"%.*s\" (OMP_SANDBOX_PROTECT=none lifts "
			    "every group), or the policy statement `allow write %s;` after the "
			    "protections; what is written there runs outside the sandbox later",
			    n, g, tg);
	free(tg);
	return r;
}

/* ---- the deciding rule ---- */

static sb_op op_of(sb_access a)
{
	switch (a) {
	case SB_ACC_READ:
	case SB_ACC_LIST:
		return SB_OP_FILE_READ_DATA;
	case SB_ACC_WRITE:
	case SB_ACC_TRUNCATE:
		return SB_OP_FILE_WRITE_DATA;
	case SB_ACC_CREATE:
		return SB_OP_FILE_WRITE_CREATE;
	case SB_ACC_DELETE:
		return SB_OP_FILE_WRITE_UNLINK;
	case SB_ACC_EXEC:
		return SB_OP_PROCESS_EXEC;
	default:
		return SB_OP_NETWORK_OUTBOUND;
	}
}

/* Line `line` (1-based) of the policy, the statement on it without its
 * comment and trailing ';'.  NULL when unknown.  */
static char *read_small(const char *file, size_t *len)
{
	FILE *f = fopen(file, "re");
	if (!f)
		return NULL;
	char *buf = xmalloc(1 << 20);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* The text of the policy file `file` names (the policy itself, or a file
 * it includes, relative to its directory), or NULL.  */
static const char *source_text(sb_tracer *t, const char *file, size_t *len)
{
	if (!t->cfg.policy_name)
		return NULL;
	const char *base = strrchr(t->cfg.policy_name, '/');
	base = base ? base + 1 : t->cfg.policy_name;
	const char *fbase = strrchr(file, '/');
	fbase = fbase ? fbase + 1 : file;
	if (t->cfg.policy_text && (strcmp(t->cfg.policy_name, file) == 0 ||
				   (strcmp(base, file) == 0 || (file[0] == '/' && strcmp(base, fbase) == 0)))) {
		*len = t->cfg.policy_len;
		return t->cfg.policy_text;
	}
	if ((!t->cfg.policy_dir && file[0] != '/') || sb_path_has_dotdot(file))
		return NULL;
	if (!t->sources)
		t->sources = sb_strmap_new();
	void **slot = sb_strmap_slot(t->sources, file, strlen(file), true);
	if (!*slot) {
		char *path = file[0] == '/' ? xstrdup(file) : sb_path_join(t->cfg.policy_dir, file);
		size_t n = 0;
		char *txt = read_small(path, &n);
		free(path);
		*slot = txt ? txt : xstrdup("");
	}
	*len = strlen(*slot);
	return *len ? *slot : NULL;
}

static char *policy_statement(sb_tracer *t, const char *file, int line)
{
	size_t tlen = 0;
	const char *txt = file && line > 0 ? source_text(t, file, &tlen) : NULL;
	if (!txt)
		return NULL;
	const char *p = txt, *end = txt + tlen;
	for (int l = 1; l < line && p < end; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	const char *e = nl ? nl : end;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	const char *stop = p;
	bool in_str = false;
	for (; stop < e; stop++) {
		if (*stop == '"')
			in_str = !in_str;
		if (!in_str && (*stop == ';' || *stop == '#'))
			break;
	}
	bool cont = stop == e;       /* the statement goes on past this line */
	while (stop > p && (stop[-1] == ' ' || stop[-1] == '\t'))
		stop--;
	if (stop == p)
		return NULL;
	char *r = NULL;
	r = xasprintf("%.*s%s", (int)(stop - p), p, cont ? " ..." : "");
	return r;
}

/* The last deny rule naming a network operation (the network is decided
 * per socket, not per path).  */
static const sb_rule *network_rule(const sb_profile *p)
{
	for (size_t i = p->nrules; i-- > 0;) {
		const sb_rule *r = p->rules[i];
		if (r->action != SB_DENY)
			continue;
		for (size_t k = 0; k < r->nops; k++)
			if (r->ops[k] == SB_OP_NETWORK_ALL || r->ops[k] == SB_OP_NETWORK_OUTBOUND ||
			    r->ops[k] == SB_OP_DEFAULT)
				return r;
	}
	return NULL;
}

/* "FILE:LINE" into the entry's origin; false when it is not one.  */
static bool set_origin(entry *e, const char *origin)
{
	const char *colon = origin ? strrchr(origin, ':') : NULL;
	if (!colon || colon == origin || !colon[1] ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return false;
	free(e->own_file);
	e->own_file = xstrndup(origin, (size_t)(colon - origin));
	e->src_file = e->own_file;
	e->src_line = atoi(colon + 1);
	return true;
}

/* A refused request: the host rule that decided it, as sbc explain --host
 * finds it (compiler/eval/egress_eval.h); the proxy's reason otherwise.  */
static void classify_connect(sb_tracer *t, entry *e)
{
	sb_dest dst;
	const char *why;
	sb_egress_answer ans;
	if (!t->cfg.bound || sb_dest_parse(e->path, e->port, &dst, &why) < 0)
		return;
	sb_egress_answer_for(t->cfg.bound, &dst, &ans);
	if (ans.allowed)
		return;   /* refused for its addresses: the proxy's reason says which */
	set_origin(e, ans.origin);
	if (ans.text[0])
		e->rule_text = xstrdup(ans.text);
}

static bool unix_under_hosts(const sb_tracer *t, const entry *e)
{
	return !strcmp(e->path, "AF_UNIX") && t->cfg.bound &&
	       sb_egress_filtered(&t->cfg.bound->egress);
}

static void classify(sb_tracer *t, entry *e, const char *origin)
{
	const sb_rule *r = NULL;
	if (origin && e->access != SB_ACC_CONNECT && set_origin(e, origin)) {
		/* the platform named the rule: it decided, whatever our model says */
		e->rule_text = policy_statement(t, e->src_file, e->src_line);
		return;
	}
	if (e->access == SB_ACC_CONNECT) {
		classify_connect(t, e);
		return;
	}
	if (e->platform_only && e->detail)
		return;   /* refused whatever the policy says: no rule decided */
	if (e->access == SB_ACC_NETWORK && unix_under_hosts(t, e)) {
		/* no rule of the policy: the egress namespace refuses every
		 * UNIX socket (a pathname one would bypass the proxy) */
		e->platform_only = true;
		e->detail = xstrdup(
			"with host rules every UNIX-domain socket is refused: one would bypass the "
			"egress proxy (docs/egress.md); glibc's probe of nscd's socket, made at "
			"each start of a shell or git, is refused harmlessly and falls back to "
			"/etc/passwd");
		return;
	}
	if (e->access == SB_ACC_NETWORK) {
		r = t->cfg.bound ? network_rule(t->cfg.bound) : NULL;
	} else if (t->ev) {
		sb_decision dec = sb_eval_decide(t->ev, op_of(e->access), e->path,
					    e->access == SB_ACC_LIST ? SB_VNODE_DIRECTORY : 0);
		if (dec.kind == SB_DEC_DENY)
			r = dec.rule;
		else
			e->platform_only = true;
	}
	if (!r)
		return;
	e->src_file = r->src_file;
	e->src_line = r->src_line;
	e->rule_text = policy_statement(t, r->src_file, r->src_line);
}

static const char *verb_of(sb_access a);
static const sb_sensitive_entry *grant_sensitive(const sb_tracer *t, const char *verb,
						 const char *target);

/* ---- live reports ---- */

static bool take_token(sb_tracer *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double dt = (double)(now.tv_sec - t->last.tv_sec) + (now.tv_nsec - t->last.tv_nsec) / 1e9;
	t->last = now;
	t->tokens += dt * t->cfg.per_second;
	if (t->tokens > t->cfg.burst)
		t->tokens = t->cfg.burst;
	if (t->tokens < 1)
		return false;
	t->tokens -= 1;
	return true;
}

static void report_text(const sb_tracer *t, const entry *e, FILE *f)
{
	fprintf(f, "sandbox: denied %s ", sb_access_word(e->access));
	put_text(f, e->path);
	if (e->access == SB_ACC_CONNECT)
		fprintf(f, ":%d", e->port);
	if (e->absent)
		fputs(" (hidden: it looks absent inside the sandbox)", f);
	fputs(" \xe2\x80\x94 ", f);   /* an em dash */
	if (e->platform_only && e->detail) {
		/* refused whatever the policy says (the backend says why) */
		if (e->access != SB_ACC_NETWORK)
			fputs("refused on this kernel: ", f);
		put_text(f, e->detail);
		fputs("; no variable allows it", f);
	} else if (e->platform_only && sb_path_is_under(e->path, "/dev/shm")) {
		fputs("the profile allows this, but without masks (no user or mount namespace "
		      "here, or --mechanism complement) the sandbox has no private /dev/shm; "
		      "sbrun --allow-shm grants the host's, shared with every process of yours "
		      "(docs/limitations.md)", f);
	} else if (e->platform_only) {
		fputs("the profile allows this, but the Linux plan is narrower here "
		      "(sbrun --plan shows which rule it could not express); no variable allows it", f);
	} else {
		if (e->src_file)
			put_origin(f, e->src_file, e->src_line);
		else if (e->detail)
			put_text(f, e->detail);
		else
			fputs("the profile", f);
		if (e->rule_text) {
			fputs(" \"", f);
			put_text(f, e->rule_text);
			fputc('"', f);
		}
		char *fix = entry_fix(t, e);
		fputs("; to allow: ", f);
		put_text(f, fix);   /* it holds the path */
		free(fix);
	}
	fputs(" [", f);
	put_text(f, e->process ? e->process : "?");
	fprintf(f, " pid %d]\n", e->pid);
}

static void report_json(const sb_tracer *t, const entry *e, const char *syscall, FILE *f)
{
	fputs("{\"event\":\"denied\",\"access\":", f);
	put_json(f, sb_access_word(e->access));
	fputs(",\"path\":", f);
	put_json(f, e->path);
	fprintf(f, ",\"pid\":%d,\"process\":", e->pid);
	put_json_or_null(f, e->process);
	fputs(",\"syscall\":", f);
	put_json_or_null(f, syscall);
	if (e->access == SB_ACC_CONNECT) {
		fprintf(f, ",\"port\":%d,\"reason\":", e->port);
		put_json_or_null(f, e->detail);
	} else if (e->detail) {
		fputs(",\"reason\":", f);
		put_json(f, e->detail);
	}
	fputs(",\"policy\":", f);
	if (e->src_file) {
		fputs("{\"file\":", f);
		put_json(f, e->src_file);
		if (e->src_line > 0)
			fprintf(f, ",\"line\":%d,\"statement\":", e->src_line);
		else
			fputs(",\"line\":null,\"statement\":", f);
		put_json_or_null(f, e->rule_text);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ",\"absent\":%s", e->absent ? "true" : "false");
	fprintf(f, ",\"platform_only\":%s,\"fix\":", e->platform_only ? "true" : "false");
	if (e->platform_only) {
		fputs("null", f);
	} else {
		char *fix = entry_fix(t, e);
		put_json(f, fix);
		free(fix);
	}
	const sb_sensitive_entry *s =
		e->access == SB_ACC_NETWORK || e->access == SB_ACC_CONNECT ? NULL
					    : grant_sensitive(t, verb_of(e->access), e->path);
	fputs(",\"sensitive\":", f);
	put_json_or_null(f, s ? s->why : NULL);
	fputs("}\n", f);
}

void sb_tracer_denied(sb_tracer *t, const sb_denial *d)
{
	t->counts.denied++;
	size_t plen = strlen(d->path);
	char *key = xmalloc(plen + 2);
	key[0] = (char)('a' + d->access);
	memcpy(key + 1, d->path, plen + 1);
	void **slot = sb_strmap_slot(t->seen, key, plen + 1, false);
	if (slot && *slot) {
		((entry *)*slot)->count++;
		free(key);
		return;
	}
	if (t->n >= t->cfg.max_distinct) {
		t->counts.suppressed++;   /* past the cap: counted, not kept */
		free(key);
		return;
	}
	entry *e = xcalloc(1, sizeof *e);
	e->access = d->access;
	e->path = xstrdup(d->path);
	e->process = d->process ? xstrdup(d->process) : NULL;
	e->pid = d->pid;
	e->count = 1;
	e->platform_only = d->platform_only;
	e->absent = d->absent;
	e->link_source = d->access == SB_ACC_WRITE && d->syscall &&
			 (!strcmp(d->syscall, "link") || !strcmp(d->syscall, "linkat"));
	e->port = d->port;
	e->detail = d->detail ? xstrdup(d->detail) : NULL;
	classify(t, e, d->origin);
	*sb_strmap_slot(t->seen, key, plen + 1, true) = e;
	free(key);
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->v = xrealloc(t->v, t->cap * sizeof *t->v);
	}
	t->v[t->n++] = e;
	t->counts.distinct++;
	if (!t->cfg.out)
		return;
	if (!take_token(t)) {
		t->counts.suppressed++;
		return;
	}
	t->counts.reported++;
	/* One write a report, so it does not interleave with what the
	 * sandboxed tools write to the same stderr.  */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = xopen_memstream(&buf, &len);
	if (t->cfg.json)
		report_json(t, e, d->syscall, m);
	else
		report_text(t, e, m);
	fclose(m);
	fwrite(buf, 1, len, t->cfg.out);
	fflush(t->cfg.out);
	free(buf);
}

void sb_tracer_lost(sb_tracer *t, size_t n)
{
	t->counts.lost += n;
}

sb_tracer_counts sb_tracer_counts_get(const sb_tracer *t)
{
	return t->counts;
}

void sb_tracer_unobserved(sb_tracer *t, const char *what)
{
	if (t->nunobserved < SB_TRACER_MAX_UNOBSERVED)
		t->unobserved[t->nunobserved++] = what;
}

void sb_tracer_summary(sb_tracer *t, int status)
{
	FILE *f = t->cfg.out;
	if (!f)
		return;
	const sb_tracer_counts *c = &t->counts;
	if (t->cfg.json) {
		fprintf(f, "{\"event\":\"summary\",\"status\":%d,\"denied\":%zu,\"distinct\":%zu,"
			   "\"reported\":%zu,\"suppressed\":%zu,\"unreadable\":%zu,\"unobserved\":[",
			status, c->denied, c->distinct, c->reported, c->suppressed, c->lost);
		for (size_t i = 0; i < t->nunobserved; i++) {
			if (i)
				fputc(',', f);
			put_json(f, t->unobserved[i]);
		}
		fputs("]}\n", f);
	} else {
		fprintf(f, "sandbox: trace summary: %zu denied access%s (%zu distinct), exit status %d",
			c->denied, c->denied == 1 ? "" : "es", c->distinct, status);
		if (c->suppressed)
			fprintf(f, "; %zu report%s suppressed (rate limit or the %zu-entry cap)",
				c->suppressed, c->suppressed == 1 ? "" : "s", t->cfg.max_distinct);
		if (c->lost)
			fprintf(f, "; %zu event%s could not be read", c->lost, c->lost == 1 ? "" : "s");
		fputc('\n', f);
		for (size_t i = 0; i < t->n && i < 20; i++) {
			const entry *e = t->v[i];
			fprintf(f, "sandbox:   %zux %s ", e->count, sb_access_word(e->access));
			put_text(f, e->path);
			if (e->src_file)
				{
				fputs(" (", f);
				put_origin(f, e->src_file, e->src_line);
				fputc(')', f);
			}
			else if (e->platform_only && e->detail)
				fputs(" (refused on this kernel)", f);
			fputc('\n', f);
		}
		if (t->n > 20)
			fprintf(f, "sandbox:   ... and %zu more\n", t->n - 20);
		for (size_t i = 0; i < t->nunobserved; i++)
			fprintf(f, "sandbox:   not observed: %s\n", t->unobserved[i]);
	}
	fflush(f);
}

/* ---- learn ---- */

typedef struct grant {
	char *target;              /* absolute */
	const char *verb;          /* "read", "write", "exec" */
	const entry *why;          /* the first denial it answers */
	size_t nwhy;
	bool unit;                 /* widened to the unit the tool walks */
} grant;

static int cmp_grant(const void *a, const void *b)
{
	const grant *x = a, *y = b;
	int c = strcmp(x->verb, y->verb);
	return c ? c : strcmp(x->target, y->target);
}

static bool has_control(const char *p)
{
	for (const unsigned char *c = (const unsigned char *)p; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return true;
	return false;
}

static const char *verb_of(sb_access a)
{
	return a == SB_ACC_LIST ? "read exactly" : is_read(a) ? "read" : is_write(a) ? "write"
											: "exec";
}

/* A program reads back what it writes: where the profile denies reading
 * the written place too, the grant is "read write".  */
static const char *write_verb(const sb_tracer *t, sb_access a, const char *target)
{
	if (!is_write(a) || !t->ev)
		return verb_of(a);
	sb_decision dec = sb_eval_decide(t->ev, SB_OP_FILE_READ_DATA, target, 0);
	return dec.kind == SB_DEC_DENY ? "read write" : "write";
}

/* What sbc --check's sensitive pass says of a grant: an `exactly` target
 * stands for one node, so an ancestor of a sensitive entry is fine.  */
static const sb_sensitive_entry *grant_sensitive(const sb_tracer *t, const char *verb,
						 const char *target)
{
	if (!strcmp(verb, "exec") || !t->cfg.home)
		return NULL;
	if (strcmp(verb, "read exactly"))
		return sensitive(t, target);
	if (!sb_path_is_under(target, t->cfg.home))
		return NULL;
	const char *rel = target + strlen(t->cfg.home);
	while (*rel == '/')
		rel++;
	return sb_sensitive_match_rel(rel, true);
}

/* Group three or more files of one verb in one directory into a grant
 * on the directory, unless the directory is wide or itself sensitive
 * while the files are not.  */
enum { GROUP_MIN = 3 };

static void add_grant(grant **v, size_t *n, size_t *cap, char *target, const char *verb,
		      const entry *why)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].verb, verb) && !strcmp((*v)[i].target, target)) {
			(*v)[i].nwhy++;
			free(target);
			return;
		}
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[(*n)++] = (grant){ target, verb, why, 1, false };
}

static void group_by_dir(const sb_tracer *t, grant *v, size_t *n)
{
	for (size_t i = 0; i < *n; i++) {
		char *dir = sb_path_dirname(v[i].target);
		size_t same = 0;
		for (size_t k = 0; k < *n; k++) {
			char *dk = sb_path_dirname(v[k].target);
			if (!strcmp(v[k].verb, v[i].verb) && !strcmp(dk, dir))
				same++;
			free(dk);
		}
		bool ok = same >= GROUP_MIN && strcmp(v[i].verb, "read exactly") && !is_wide(t, dir) &&
			  (!sensitive(t, dir) || sensitive(t, v[i].target));
		if (!ok) {
			free(dir);
			continue;
		}
		const char *verb = v[i].verb;
		size_t w = 0, first = *n;
		for (size_t k = 0; k < *n; k++) {
			char *dk = sb_path_dirname(v[k].target);
			bool member = !strcmp(v[k].verb, verb) && !strcmp(dk, dir);
			free(dk);
			if (member && first == *n) {
				first = w;
				free(v[k].target);
				v[k].target = xstrdup(dir);
				v[w++] = v[k];
			} else if (member) {
				v[first].nwhy += v[k].nwhy;
				free(v[k].target);
			} else {
				v[w++] = v[k];
			}
		}
		*n = w;
		free(dir);
	}
}

/* The directory a tool walks as a whole, around `p`: a git repository (a
 * bare one: HEAD, objects and refs; or the worktree holding a `.git`), a
 * package or project (package.json, pyvenv.cfg, Cargo.toml, go.mod).  A
 * tool that fails on its first file fails one file per round, so a grant
 * of that file alone takes as many rounds as the tool has files to read
 * (nine for a clone); the whole unit takes one.  Only strictly inside the
 * home directory, never the home itself or a sensitive place.  NULL when
 * `p` is in no such unit.  */
static bool has(const char *dir, const char *name)
{
	char *q = sb_path_join(dir, name);
	struct stat st;
	bool r = lstat(q, &st) == 0;
	free(q);
	return r;
}

static char *walked_unit(const sb_tracer *t, const char *p)
{
	const char *h = t->cfg.home;
	if (!h || !sb_path_is_strictly_under(p, h))
		return NULL;
	char *dir = sb_path_dirname(p);
	while (dir && sb_path_is_strictly_under(dir, h)) {
		const char *base = strrchr(dir, '/') + 1;
		char *unit = NULL;
		if (!strcmp(base, ".git"))
			unit = sb_path_dirname(dir);
		else if ((has(dir, "HEAD") && has(dir, "objects") && has(dir, "refs")) ||
			 has(dir, ".git") || has(dir, "package.json") || has(dir, "pyvenv.cfg") ||
			 has(dir, "Cargo.toml") || has(dir, "go.mod"))
			unit = xstrdup(dir);
		if (unit) {
			free(dir);
			if (!sb_path_is_strictly_under(unit, h) || sensitive(t, unit)) {
				free(unit);
				return NULL;
			}
			return unit;
		}
		char *up = sb_path_dirname(dir);
		free(dir);
		dir = up;
	}
	free(dir);
	return NULL;
}

/* The unit to grant instead of `target` (NULL: none): not for a sensitive
 * target, nor for a unit the profile opens already (the workspace), which
 * holds a deny of its own (.git/hooks) that is never widened.  */
static char *unit_for(const sb_tracer *t, bool write, const char *target)
{
	if (sensitive(t, target))
		return NULL;
	char *u = walked_unit(t, target);
	sb_op op = write ? SB_OP_FILE_WRITE_DATA : SB_OP_FILE_READ_DATA;
	if (u && t->ev && sb_eval_decide(t->ev, op, u, SB_VNODE_DIRECTORY).kind == SB_DEC_ALLOW) {
		free(u);
		u = NULL;
	}
	return u;
}

/* Grants on files inside a walked unit become one grant on the unit.  */
static void group_by_unit(const sb_tracer *t, grant *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(v[i].verb, "exec") || !strcmp(v[i].verb, "read exactly"))
			continue;
		char *u = unit_for(t, strstr(v[i].verb, "write") != NULL, v[i].target);
		if (!u)
			continue;
		v[i].unit = true;
		free(v[i].target);
		v[i].target = u;
	}
}

/* Drop grants inside another grant of the same verb.  */
static void drop_covered(grant *v, size_t *n)
{
	size_t w = 0;
	for (size_t i = 0; i < *n; i++) {
		bool covered = false;
		for (size_t k = 0; k < *n && !covered; k++)
			covered = k != i && !strcmp(v[k].verb, v[i].verb) &&
				  sb_path_is_strictly_under(v[i].target, v[k].target);
		if (covered) {
			free(v[i].target);
			continue;
		}
		v[w++] = v[i];
	}
	*n = w;
}

/* Equal grants (two files of one unit) become one.  */
static void dedup(grant *v, size_t *n)
{
	size_t w = 0;
	for (size_t i = 0; i < *n; i++) {
		size_t k = 0;
		while (k < w && !(strcmp(v[k].verb, v[i].verb) == 0 &&
				  strcmp(v[k].target, v[i].target) == 0))
			k++;
		if (k < w) {
			v[k].nwhy += v[i].nwhy;
			v[k].unit = v[k].unit || v[i].unit;
			free(v[i].target);
			continue;
		}
		v[w++] = v[i];
	}
	*n = w;
}

static void write_checks(FILE *f, const sb_tracer *t, const grant *g)
{
	const sb_sensitive_entry *s = grant_sensitive(t, g->verb, g->target);
	if (s)
		fprintf(f, "# sbc --check: error [sensitive]: ~/%s (%s); add `acknowledge sensitive "
			   "\"why\"` to this statement only if you mean it\n", s->rel, s->why);
	if (strcmp(g->verb, "exec") && strcmp(g->verb, "read exactly") && is_wide(t, g->target))
		fputs("# sbc --check: error [wide-root]: the root, the home directory or an ancestor "
		      "of it; add `acknowledge wide \"why\"` only if you mean it\n", f);
	if (strstr(g->verb, "write") && t->cfg.home) {
		char *omp = sb_path_join(t->cfg.home, ".omp");
		if (sb_path_is_under(g->target, omp))
			fputs("# sbc --check: warning [persistence]: omp later runs code from ~/.omp "
			      "outside any sandbox\n", f);
		free(omp);
	}
}

static void write_fragment(FILE *f, const sb_tracer *t, const char *cmd)
{
	fputs("# Learned by --learn: a policy fragment that would allow what this session\n"
	      "# was denied.  It changes nothing by itself.  Include it after the rules it\n"
	      "# relaxes, at the end of your policy:  include \"THIS-FILE.sbx\";\n"
	      "# then run sbc --check on that policy.  A sensitive or wide grant fails the\n"
	      "# check until you add the acknowledgement it names: only you can decide that.\n", f);
	fputs("# session: ", f);
	put_text(f, cmd ? cmd : "?");
	fputc('\n', f);
	grant *v = NULL;
	size_t n = 0, cap = 0;
	bool network = false;
	size_t ctl = 0, local_sockets = 0, links = 0;
	for (size_t i = 0; i < t->n; i++) {
		const entry *e = t->v[i];
		if (e->platform_only)
			continue;
		if (e->access == SB_ACC_NETWORK) {
			/* `network on` for a refused AF_UNIX socket (a local probe,
			 * nscd's) would open every host; under host rules it switches
			 * the allowlist off.  Never proposed for those.  */
			if (strcmp(e->path, "AF_UNIX") != 0 &&
			    !(t->cfg.bound && sb_egress_filtered(&t->cfg.bound->egress)))
				network = true;
			else
				local_sockets++;
			continue;
		}
		if (e->access == SB_ACC_CONNECT)
			continue;   /* after the file grants */
		if (has_control(e->path)) {
			ctl++;
			continue;
		}
		if (e->link_source) {
			/* a new name for a write-denied file would let it be
			 * written: refused, and tools copy instead (git's local
			 * clone): granting write on the source would be wider */
			links++;
			continue;
		}
		char *target = grant_target_t(t, e->access, e->path);
		add_grant(&v, &n, &cap, target, write_verb(t, e->access, target), e);
	}
	group_by_unit(t, v, n);
	group_by_dir(t, v, &n);
	drop_covered(v, &n);
	dedup(v, &n);
	if (n > 1)   /* only connect denials: v is NULL, and qsort(NULL, 0) is undefined */
		qsort(v, n, sizeof *v, cmp_grant);
	for (size_t i = 0; i < n; i++) {
		const entry *e = v[i].why;
		fputs("\n# needed by ", f);
		put_text(f, e->process ? e->process : "?");
		fprintf(f, " (pid %d): %s ", e->pid, sb_access_word(e->access));
		char *disp = display_path(t, e->path);
		put_text(f, disp);
		free(disp);
		if (v[i].nwhy > 1)
			fprintf(f, " and %zu more in this directory", v[i].nwhy - 1);
		if (e->src_file) {
			fputs("; denied by ", f);
			put_origin(f, e->src_file, e->src_line);
			if (e->rule_text) {
				fputs(" \"", f);
				put_text(f, e->rule_text);
				fputc('"', f);
			}
		}
		fputc('\n', f);
		if (create_self(t, e->access, e->path) && !strcmp(v[i].target, e->path))
			fputs("# a new entry of a directory that also holds other things (a grant on "
			      "the directory\n# would open them too): create it before the launch (a "
			      "Landlock rule needs\n# an existing path)\n", f);
		if (v[i].unit) {
			fputs("# the whole of ", f);
			char *ud = display_path(t, v[i].target);
			put_text(f, ud);
			free(ud);
			fputs(": the tool walks it (a repository or a project), so one file a round "
			      "would take a round a file\n", f);
		}
		if (!strcmp(v[i].verb, "read exactly"))
			fputs("# on macOS only: on Linux a directory's listing cannot be granted without "
			      "its subtree, so it stays denied there\n", f);
		write_checks(f, t, &v[i]);
		char *tg = t->cfg.home && !strcmp(v[i].target, t->cfg.home) ? xstrdup("home")
									      : policy_target(t, v[i].target);
		fprintf(f, "allow %s %s;\n", v[i].verb, tg);
		free(tg);
		free(v[i].target);
	}
	free(v);
	if (network)
		fputs("\n# needed: a network socket the policy denies\nnetwork on;\n", f);
	if (links)
		fprintf(f, "\n# %zu hard link%s to a write-denied file refused (a new name would let it be\n"
			   "# written); tools copy instead (git's local clone does).  Not learned: write on\n"
			   "# the source would be wider than what they need.\n", links,
			links == 1 ? "" : "s");
	if (local_sockets)
		fputs("\n# A UNIX-domain socket was refused (glibc probes nscd's at each start of a\n"
		      "# shell or git, harmlessly).  Not learned: `network on;` would open every\n"
		      "# host, and after host rules switch the allowlist off.\n", f);
	for (size_t i = 0; i < t->n; i++) {
		const entry *e = t->v[i];
		if (e->access != SB_ACC_CONNECT || has_control(e->path) || strchr(e->path, '"'))
			continue;
		fputs("\n# needed by ", f);
		put_text(f, e->process ? e->process : "?");
		fprintf(f, ": connect %s:%d", e->path, e->port);
		if (e->src_file) {
			fputs("; denied by ", f);
			put_origin(f, e->src_file, e->src_line);
			if (e->rule_text) {
				fputs(" \"", f);
				put_text(f, e->rule_text);
				fputc('"', f);
			}
		} else if (e->detail) {
			fputs("; ", f);
			put_text(f, e->detail);
		}
		fprintf(f, "\nnetwork allow \"%s\";\n", e->path);
	}
	if (ctl)
		fprintf(f, "\n# %zu denied path%s with control characters (a newline, ...) not learned: "
			   "grant them by hand if they are real\n", ctl, ctl == 1 ? "" : "s");
	size_t plat = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i]->platform_only) {
			if (!plat++)
				fputs("\n# Denied by the Linux plan where the profile allows it, or on this "
				      "kernel whatever it says: no policy statement changes these (see "
				      "sbrun --plan):\n", f);
			fprintf(f, "#   %s ", sb_access_word(t->v[i]->access));
			put_text(f, t->v[i]->path);
			if (t->v[i]->detail) {
				fputs(" (", f);
				put_text(f, t->v[i]->detail);
				fputc(')', f);
			}
			fputc('\n', f);
		}
	if (t->counts.suppressed > 0 && t->n >= t->cfg.max_distinct)
		fprintf(f, "\n# %zu more denials were not kept (the %zu-entry cap)\n",
			t->counts.suppressed, t->cfg.max_distinct);
}

int sb_tracer_write_learned(sb_tracer *t, const char *file, const char *cmd)
{
	char *tmp = NULL;
	tmp = xasprintf("%s.XXXXXX", file);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		errno = e;
		return -1;
	}
	write_fragment(f, t, cmd);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad || fchmodat(AT_FDCWD, tmp, 0644, 0) != 0 || rename(tmp, file) != 0) {
		int e = errno ? errno : EIO;
		unlink(tmp);
		free(tmp);
		errno = e;
		return -1;
	}
	free(tmp);
	return 0;
}
