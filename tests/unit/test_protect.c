/* Unit tests for runtime/common/gitconfig.c (the git config reader) and
 * runtime/common/protect.c (the launch-time git discovery).  Every test
 * builds its repositories and homes by hand under a fresh mkdtemp
 * directory (no git needed, the real home is never read).  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/common/diag.h"
#include "compiler/common/xalloc.h"
#include "runtime/common/gitconfig.h"
#include "runtime/common/protect.h"

static char root[256];
static FILE *capf;
static char *captext;
static size_t caplen;
static sb_diag *d;

static char *at(const char *fmt, ...)
{
	static char buf[8][1300];
	static int k;
	char rel[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rel, sizeof rel, fmt, ap);
	va_end(ap);
	k = (k + 1) % 8;
	snprintf(buf[k], sizeof buf[k], "%s/%s", root, rel);
	return buf[k];
}

static void mkdirs(const char *rel)
{
	char p[1024];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0700);
			*s = '/';
		}
	mkdir(p, 0700);
}

static void put(const char *rel, const char *text)
{
	FILE *f = fopen(at("%s", rel), "w");
	cr_assert(not(eq(ptr, f, NULL)), "open %s", rel);
	fputs(text, f);
	fclose(f);
}

/* a hand-made repository: enough for discovery (HEAD, config, hooks) */
static void repo(const char *gitdir)
{
	mkdirs(gitdir);
	char r[900];
	snprintf(r, sizeof r, "%s/hooks", gitdir);
	mkdirs(r);
	snprintf(r, sizeof r, "%s/objects", gitdir);
	mkdirs(r);
	snprintf(r, sizeof r, "%s/refs", gitdir);
	mkdirs(r);
	snprintf(r, sizeof r, "%s/HEAD", gitdir);
	put(r, "ref: refs/heads/main\n");
	snprintf(r, sizeof r, "%s/config", gitdir);
	put(r, "[core]\n\trepositoryformatversion = 0\n");
}

static void setup(void)
{
	strcpy(root, "/tmp/sbx-protect-XXXXXX");
	cr_assert(not(eq(ptr, mkdtemp(root), NULL)));
	char *r = realpath(root, NULL);
	strcpy(root, r);
	free(r);
	mkdirs("home");
	mkdirs("ws");
	capf = open_memstream(&captext, &caplen);
	d = sb_diag_new(capf, SB_FMT_TEXT);
	sb_diag_set_tool(d, "t");
}

static void teardown(void)
{
	sb_diag_free(d);
	fclose(capf);
	free(captext);
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	cr_assert(eq(int, system(cmd), 0));
}

static const char *diags(void)
{
	fflush(capf);
	return captext ? captext : "";
}

static bool has(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

static sb_protect discover(bool git, bool includes)
{
	sb_protect_in in = { .home = at("home"), .workspace = at("ws"), .git = git,
			     .includes = includes, .system_config = at("no-system-config") };
	sb_protect p;
	cr_assert(eq(int, sb_protect_discover(&in, &p, d), 0), "%s", diags());
	return p;
}

/* ---- the reader ---- */

static sb_gitcfg parse(const char *text)
{
	sb_gitcfg c = { 0 };
	sb_gitcfg_parse("cfg", text, strlen(text), &c, d);
	return c;
}

Test(gitconfig, keys_sections_quotes_comments, .init = setup, .fini = teardown)
{
	sb_gitcfg c = parse("# top\n[Include]\n\tPath = a.inc ; comment\n"
			    "[includeIf \"gitdir:~/work/\"]\n  path = \"~/x y.inc\"\n"
			    "[core] hooksPath = hooks\\tdir # tab\n"
			    "[core]\n\tfsmonitor = true\n\tfsmonitor = .git/fsmon\n"
			    "[include \"sub\"]\n\tpath = ignored\n"
			    "[includeIf]\n\tpath = ignored-too\n"
			    "[other]\n\tpath = no\n\tbare\n");
	cr_assert(eq(sz, c.n, 4), "%zu entries: %s", c.n, diags());
	cr_assert(eq(int, c.v[0].kind, SB_GITCFG_INCLUDE));
	cr_assert(eq(str, c.v[0].value, "a.inc"));
	cr_assert(eq(int, c.v[0].line, 3));
	cr_assert(eq(str, c.v[1].value, "~/x y.inc"));
	cr_assert(eq(int, c.v[2].kind, SB_GITCFG_HOOKSPATH));
	cr_assert(eq(str, c.v[2].value, "hooks\tdir"));
	cr_assert(eq(int, c.v[3].kind, SB_GITCFG_FSMONITOR));
	cr_assert(eq(str, c.v[3].value, ".git/fsmon"));
	cr_assert(eq(str, (char *)diags(), ""));
	sb_gitcfg_clear(&c);
}

Test(gitconfig, old_subsection_form_and_continuation, .init = setup, .fini = teardown)
{
	/* [core.sub] is core with a subsection: not core.hooksPath */
	sb_gitcfg c = parse("[core]\n\thooksPath = a\\\nb\n[Core.Sub]\n\thooksPath = no\n"
			    "[include]\n\tpath = p\n");
	cr_assert(eq(sz, c.n, 2), "%s", diags());
	cr_assert(eq(str, c.v[0].value, "ab"));
	cr_assert(eq(str, c.v[1].value, "p"));
	sb_gitcfg_clear(&c);
}

Test(gitconfig, malformed_is_located_warning, .init = setup, .fini = teardown)
{
	static const char *const bad[] = {
		"[core\n\thooksPath = x\n", "[core]\n\t9key = x\n", "key = x\n",
		"[core]\n\thooksPath = \"open\n", "[core]\n\thooksPath = a\\qb\n",
		"[a \"unterminated]\n", "[core]\n\thooksPath x\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		sb_gitcfg c = { 0 };
		int w = sb_gitcfg_parse("bad.cfg", bad[i], strlen(bad[i]), &c, d);
		cr_assert(eq(int, w, 1), "case %zu", i);
		sb_gitcfg_clear(&c);
	}
	cr_assert(not(eq(ptr, strstr(diags(), "bad.cfg:1:"), NULL)), "%s", diags());
	cr_assert(not(eq(ptr, strstr(diags(), "bad.cfg:2:"), NULL)), "%s", diags());
	cr_assert(not(eq(ptr, strstr(diags(), "warning:"), NULL)));
}

Test(gitconfig, binary_and_huge_input_never_crash, .init = setup, .fini = teardown)
{
	char junk[4096];
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = (char)((i * 131 + 7) & 0xff);
	sb_gitcfg c = { 0 };
	sb_gitcfg_parse("junk", junk, sizeof junk, &c, d);
	sb_gitcfg_clear(&c);
	/* a file over the cap: read up to it, with a warning */
	FILE *f = fopen(at("big"), "w");
	fputs("[include]\n\tpath = first.inc\n", f);
	for (size_t i = 0; i < (SB_GITCFG_MAX_BYTES / 20) + 10; i++)
		fputs("[x]\n\tkey = 0123456789012345\n", f);
	fputs("[include]\n\tpath = late.inc\n", f);
	fclose(f);
	cr_assert(eq(int, sb_gitcfg_read(at("big"), &c, d), 0));
	cr_assert(eq(sz, c.n, 1), "%zu: %s", c.n, diags());
	cr_assert(eq(str, c.v[0].value, "first.inc"));
	cr_assert(not(eq(ptr, strstr(diags(), "only the first"), NULL)), "%s", diags());
	sb_gitcfg_clear(&c);
	cr_assert(eq(int, sb_gitcfg_read(at("absent"), &c, d), 1));
}

Test(gitconfig, include_targets_and_cycles, .init = setup, .fini = teardown)
{
	mkdirs("home/.gitconfig.d/deeper");
	put("home/.gitconfig", "[include]\n\tpath = .gitconfig.d/a\n"
			       "[includeIf \"onbranch:main\"]\n\tpath = ~/.gitconfig.d/b\n"
			       "[include]\n\tpath = %(prefix)/etc/x\n");
	put("home/.gitconfig.d/a", "[include]\n\tpath = deeper/c\n[core]\n\thooksPath = ~/hooks\n");
	put("home/.gitconfig.d/deeper/c", "[include]\n\tpath = ../a\n\tpath = ../../.gitconfig\n");
	sb_gitcfg_walk w = { 0 };
	sb_gitcfg_walk_file(at("home/.gitconfig"), at("home"), &w, d);
	cr_assert(has(w.files, w.nfiles, at("home/.gitconfig.d/a")));
	cr_assert(has(w.files, w.nfiles, at("home/.gitconfig.d/b")));   /* absent: listed */
	cr_assert(has(w.files, w.nfiles, at("home/.gitconfig.d/deeper/c")));
	cr_assert(has(w.hooks, w.nhooks, at("home/hooks")));
	cr_assert(not(eq(ptr, strstr(diags(), "%(prefix)"), NULL)), "%s", diags());
	sb_gitcfg_walk_clear(&w);
}

Test(gitconfig, depth_limit, .init = setup, .fini = teardown)
{
	for (int i = 0; i <= SB_GITCFG_MAX_DEPTH + 2; i++) {
		char name[64], text[128];
		snprintf(name, sizeof name, "home/inc%d", i);
		snprintf(text, sizeof text, "[include]\n\tpath = inc%d\n", i + 1);
		put(name, text);
	}
	sb_gitcfg_walk w = { 0 };
	sb_gitcfg_walk_file(at("home/inc0"), at("home"), &w, d);
	cr_assert(eq(sz, w.nfiles, SB_GITCFG_MAX_DEPTH + 1));
	cr_assert(not(eq(ptr, strstr(diags(), "deeper than"), NULL)), "%s", diags());
	sb_gitcfg_walk_clear(&w);
}

/* ---- the discovery ---- */

Test(protect, plain_repository, .init = setup, .fini = teardown)
{
	repo("ws/.git");
	sb_protect p = discover(true, false);
	cr_assert(has(p.nodes, p.nnodes, at("ws/.git")));
	cr_assert(has(p.deny, p.ndeny, at("ws/.git/config")));
	cr_assert(has(p.deny, p.ndeny, at("ws/.git/hooks")));
	cr_assert(has(p.deny, p.ndeny, at("ws/.git/config.worktree")));   /* absent */
	cr_assert(has(p.deny, p.ndeny, at("ws/.git/commondir")));
	cr_assert(has(p.deny, p.ndeny, at("home/.gitconfig")));
	cr_assert(not(has(p.deny, p.ndeny, at("ws/.git"))));   /* the objects stay writable */
	cr_assert(eq(sz, p.repos, 1));
	sb_protect_clear(&p);
}

Test(protect, workspace_below_the_top, .init = setup, .fini = teardown)
{
	repo("ws/.git");
	mkdirs("ws/a/b");
	sb_protect_in in = { .home = at("home"), .workspace = at("ws/a/b"), .git = true,
			     .system_config = at("none") };
	sb_protect p;
	cr_assert(eq(int, sb_protect_discover(&in, &p, d), 0));
	cr_assert(has(p.nodes, p.nnodes, at("ws/.git")));
	cr_assert(has(p.nodes, p.nnodes, at("ws/a/.git")));
	cr_assert(has(p.nodes, p.nnodes, at("ws/a/b/.git")));
	cr_assert(has(p.deny, p.ndeny, at("ws/.git/hooks")));
	sb_protect_clear(&p);
}

Test(protect, gitfile_worktree_commondir, .init = setup, .fini = teardown)
{
	/* the main repository outside the workspace, a linked worktree as it */
	repo("main/.git");
	mkdirs("main/.git/worktrees/wt");
	put("main/.git/worktrees/wt/commondir", "../..\n");
	put("main/.git/worktrees/wt/HEAD", "ref: refs/heads/topic\n");
	char line[1400];
	snprintf(line, sizeof line, "gitdir: %s\n", at("main/.git/worktrees/wt"));
	put("ws/.git", line);
	sb_protect p = discover(true, false);
	cr_assert(has(p.nodes, p.nnodes, at("ws/.git")));
	cr_assert(has(p.nodes, p.nnodes, at("main/.git/worktrees/wt")));
	cr_assert(has(p.nodes, p.nnodes, at("main/.git")));
	cr_assert(has(p.deny, p.ndeny, at("main/.git/worktrees/wt/commondir")));
	cr_assert(has(p.deny, p.ndeny, at("main/.git/worktrees/wt/config.worktree")));
	cr_assert(has(p.deny, p.ndeny, at("main/.git/worktrees/wt/gitdir")));
	cr_assert(has(p.deny, p.ndeny, at("main/.git/config")));
	cr_assert(has(p.deny, p.ndeny, at("main/.git/hooks")));
	sb_protect_clear(&p);
}

Test(protect, relative_gitfile_submodules_and_nested, .init = setup, .fini = teardown)
{
	repo("ws/.git");
	repo("ws/.git/modules/lib");
	repo("ws/.git/modules/group/inner");   /* a submodule named "group/inner" */
	repo("ws/.git/modules/lib/modules/sub");   /* a submodule of the submodule */
	mkdirs("ws/lib");
	put("ws/lib/.git", "gitdir: ../.git/modules/lib\n");
	repo("ws/vendor/other/.git");   /* a repository below the workspace */
	mkdirs("ws/node_modules/x");
	repo("ws/node_modules/x/.git");   /* not scanned */
	sb_protect p = discover(true, false);
	cr_assert(has(p.deny, p.ndeny, at("ws/.git/modules/lib/config")));
	cr_assert(has(p.deny, p.ndeny, at("ws/.git/modules/lib/hooks")));
	cr_assert(has(p.deny, p.ndeny, at("ws/.git/modules/group/inner/hooks")));
	cr_assert(has(p.deny, p.ndeny, at("ws/.git/modules/lib/modules/sub/config")));
	cr_assert(has(p.nodes, p.nnodes, at("ws/lib/.git")));
	cr_assert(has(p.nodes, p.nnodes, at("ws/.git/modules/lib")));
	cr_assert(has(p.nodes, p.nnodes, at("ws/vendor/other/.git")));
	cr_assert(has(p.deny, p.ndeny, at("ws/vendor/other/.git/hooks")));
	cr_assert(not(has(p.nodes, p.nnodes, at("ws/node_modules/x/.git"))));
	sb_protect_clear(&p);
}

Test(protect, includes_hookspath_fsmonitor, .init = setup, .fini = teardown)
{
	repo("ws/.git");
	mkdirs("shared");
	put("ws/.git/config", "[include]\n\tpath = ../../shared/team.inc\n"
			      "[core]\n\thooksPath = .githooks\n\tfsmonitor = tools/fsmon\n");
	put("shared/team.inc", "[include]\n\tpath = team.inc\n[core]\n\thooksPath = /abs/hooks\n");
	put("home/.gitconfig", "[core]\n\thooksPath = relhooks\n");
	sb_protect p = discover(true, false);
	cr_assert(has(p.deny, p.ndeny, at("shared/team.inc")), "%s", diags());
	cr_assert(has(p.deny, p.ndeny, at("ws/.githooks")));
	cr_assert(has(p.deny, p.ndeny, at("ws/tools/fsmon")));
	cr_assert(has(p.deny, p.ndeny, "/abs/hooks"));
	cr_assert(has(p.deny, p.ndeny, at("ws/relhooks")));   /* global, relative to the top */
	sb_protect_clear(&p);
}

Test(protect, symlinked_hooks_both_spellings, .init = setup, .fini = teardown)
{
	repo("ws/.git");
	mkdirs("elsewhere/hooks");
	cr_assert(eq(int, rmdir(at("ws/.git/hooks")), 0));
	cr_assert(eq(int, symlink(at("elsewhere/hooks"), at("ws/.git/hooks")), 0));
	sb_protect p = discover(true, false);
	cr_assert(has(p.deny, p.ndeny, at("ws/.git/hooks")));
	cr_assert(has(p.deny, p.ndeny, at("elsewhere/hooks")));
	sb_protect_clear(&p);
}

/* a hook that is a symlink into the tree runs its target: protected too */
Test(protect, symlinked_hook_targets, .init = setup, .fini = teardown)
{
	repo("ws/.git");
	mkdirs("ws/scripts");
	put("ws/scripts/pre-commit", "#!/bin/sh\nexit 0\n");
	cr_assert(eq(int, symlink("../../scripts/pre-commit", at("ws/.git/hooks/pre-commit")), 0));
	cr_assert(eq(int, symlink(at("ws/scripts/missing"), at("ws/.git/hooks/post-commit")), 0));
	sb_protect p = discover(true, false);
	cr_assert(has(p.deny, p.ndeny, at("ws/scripts/pre-commit")));
	cr_assert(not(has(p.deny, p.ndeny, at("ws/scripts/missing"))), "a dangling hook runs nothing");
	cr_assert(not(has(p.deny, p.ndeny, at("ws/scripts"))));
	sb_protect_clear(&p);
}

Test(protect, global_includes_for_read, .init = setup, .fini = teardown)
{
	mkdirs("home/.gitconfig.d");
	mkdirs("home/.ssh");
	mkdirs("home/.config/git");
	put("home/.gitconfig", "[includeIf \"gitdir:~/work/\"]\n\tpath = ~/.gitconfig.d/work\n"
			       "[include]\n\tpath = ~/.ssh/gitinc\n\tpath = ~/.gitconfig.d/absent\n");
	put("home/.gitconfig.d/work", "[user]\n\temail = w@example.org\n");
	put("home/.ssh/gitinc", "[user]\n\tname = x\n");
	put("home/.config/git/config", "[include]\n\tpath = extra\n");
	put("home/.config/git/extra", "[user]\n\tname = y\n");
	sb_protect p = discover(false, true);
	cr_assert(has(p.includes, p.nincludes, at("home/.gitconfig.d/work")));
	cr_assert(has(p.includes, p.nincludes, at("home/.config/git/extra")));
	cr_assert(not(has(p.includes, p.nincludes, at("home/.ssh/gitinc"))));
	cr_assert(not(has(p.includes, p.nincludes, at("home/.gitconfig.d/absent"))));
	cr_assert(not(eq(ptr, strstr(diags(), ".ssh/gitinc"), NULL)), "%s", diags());
	cr_assert(eq(sz, p.ndeny, 0));   /* git group off: nothing denied */
	sb_protect_clear(&p);
}

Test(protect, repository_includes_for_read, .init = setup, .fini = teardown)
{
	repo("ws/.git");
	mkdirs("home/team");
	put("ws/.git/config", "[include]\n\tpath = ~/team/shared.inc\n");
	put("home/team/shared.inc", "[user]\n\temail = t@example.org\n");
	sb_protect p = discover(true, true);
	cr_assert(has(p.includes, p.nincludes, at("home/team/shared.inc")), "%s", diags());
	cr_assert(has(p.deny, p.ndeny, at("home/team/shared.inc")));
	cr_assert(not(has(p.includes, p.nincludes, at("ws/.git/config"))));
	sb_protect_clear(&p);
}

Test(protect, scan_bound_warns, .init = setup, .fini = teardown)
{
	for (int i = 0; i < 30; i++) {
		char r[64];
		snprintf(r, sizeof r, "ws/d%d", i);
		mkdirs(r);
	}
	sb_protect_in in = { .home = at("home"), .workspace = at("ws"), .git = true,
			     .scan_max = 10, .system_config = at("none") };
	sb_protect p;
	cr_assert(eq(int, sb_protect_discover(&in, &p, d), 0));
	cr_assert(p.scan_cut);
	cr_assert(eq(sz, p.scanned, 10));
	cr_assert(not(eq(ptr, strstr(diags(), "WRITABLE"), NULL)), "%s", diags());
	sb_protect_clear(&p);
}

Test(protect, control_character_refused, .init = setup, .fini = teardown)
{
	repo("ws/.git");
	put("ws/.git/config", "[include]\n\tpath = \"bad\\nname\"\n");
	sb_protect_in in = { .home = at("home"), .workspace = at("ws"), .git = true,
			     .system_config = at("none") };
	sb_protect p;
	cr_assert(not(eq(int, sb_protect_discover(&in, &p, d), 0)));
	cr_assert(not(eq(ptr, strstr(diags(), "OMP_SANDBOX_PROTECT=none"), NULL)), "%s", diags());
	sb_protect_clear(&p);
}

Test(protect, no_repository_nothing_but_globals, .init = setup, .fini = teardown)
{
	sb_protect p = discover(true, false);
	cr_assert(eq(sz, p.nnodes, 0));
	cr_assert(eq(sz, p.repos, 0));
	sb_protect_clear(&p);
}
