/* test_sensitive.c - the sensitive-location matcher (sensitive.h).  */
#include <criterion/criterion.h>
#include <string.h>

#include "compiler/common/sensitive.h"

#define HOME "/Users/me"

static const char *match(const char *p)
{
	const sb_sensitive_entry *e = sb_sensitive_match(p, HOME, NULL, 0);
	return e ? e->rel : NULL;
}

Test(sensitive, original_entries_present)
{
	static const char *const original[] = {
		".ssh", ".aws", ".gnupg", ".netrc", ".netrc.gpg", "Library/Keychains",
		"Library/LaunchAgents", "Library/Application Support/Google", "Library/Safari",
		".bashrc", ".bash_profile", ".zshrc", ".zprofile", ".profile",
	};
	size_t n = 0;
	const sb_sensitive_entry *list = sb_sensitive_list(&n);
	cr_assert_geq(n, 14);
	for (size_t i = 0; i < sizeof original / sizeof *original; i++) {
		bool found = false;
		for (size_t j = 0; j < n && !found; j++)
			found = strcmp(list[j].rel, original[i]) == 0;
		cr_expect(found, "original entry %s missing", original[i]);
	}
	for (size_t j = 0; j < n; j++)
		cr_expect(list[j].why && *list[j].why, "entry %s has no reason", list[j].rel);
}

Test(sensitive, equal_and_inside)
{
	cr_expect_str_eq(match(HOME "/.ssh"), ".ssh");
	cr_expect_str_eq(match(HOME "/.ssh/id_ed25519"), ".ssh");
	cr_expect_str_eq(match(HOME "/Library/Keychains/login.keychain-db"), "Library/Keychains");
	cr_expect_str_eq(match(HOME "/.gitconfig"), ".gitconfig");
	cr_expect_str_eq(match(HOME "/.config/gh/hosts.yml"), ".config/gh");
	cr_expect_str_eq(match(HOME "/.cargo/credentials.toml"), ".cargo/credentials.toml");
	cr_expect_str_eq(match(HOME "/Library/Application Support/Google/Chrome"),
			 "Library/Application Support/Google");
}

Test(sensitive, whole_components_only)
{
	cr_expect_null(match(HOME "/.sshfoo"));
	cr_expect_null(match(HOME "/.s"));
	cr_expect_null(match(HOME "/.profile_backup"));
	cr_expect_null(match(HOME "/.zshrc.d-not"));
	cr_expect_null(match(HOME "/Library/KeychainsOld"));
	cr_expect_null(match(HOME "/.cargo/bin"));
	cr_expect_null(match(HOME "/projects/.ssh-notes"));
	/* .ssh below another directory is not ~/.ssh */
	cr_expect_null(match(HOME "/projects/app/.ssh"));
}

Test(sensitive, ancestors_cover_entries)
{
	cr_expect_not_null(match("/"));
	cr_expect_not_null(match("/Users"));
	cr_expect_not_null(match(HOME));
	cr_expect_str_eq(match(HOME "/Library"), "Library/Keychains");
	cr_expect_str_eq(match(HOME "/.cargo"), ".cargo/credentials");
	cr_expect_str_eq(match(HOME "/.config"), ".config/fish");
	cr_expect_null(match("/Users/other"));
	cr_expect_null(match("/usr/lib"));
	cr_expect_null(match(HOME "/projects"));
}

Test(sensitive, case_folded)
{
	cr_expect_str_eq(match(HOME "/.SSH"), ".ssh");
	cr_expect_str_eq(match(HOME "/library/keychains"), "Library/Keychains");
	cr_expect_str_eq(match("/users/ME/.Aws/credentials"), ".aws");
	cr_expect_null(match(HOME "/.SSHfoo"));
}

Test(sensitive, trailing_and_double_slashes)
{
	cr_expect_str_eq(match(HOME "/.ssh/"), ".ssh");
	cr_expect_str_eq(match(HOME "//.ssh"), ".ssh");
	cr_expect_str_eq(match(HOME "/./.ssh"), ".ssh");
	const sb_sensitive_entry *e = sb_sensitive_match(HOME "/.gnupg", HOME "/", NULL, 0);
	cr_assert_not_null(e);
	cr_expect_str_eq(e->rel, ".gnupg");
}

Test(sensitive, dotdot_fails_closed)
{
	cr_expect_not_null(match(HOME "/x/../.ssh"));
	cr_expect_not_null(sb_sensitive_match_rel("a/../.ssh", false));
	cr_expect_null(match(HOME "/..foo"));
}

Test(sensitive, extra_absolute_files)
{
	const char *extra[] = { "/etc/omp-sandbox/omp.sbx", "/usr/local/bin/omp-sandboxed" };
	cr_expect_not_null(sb_sensitive_match("/etc/omp-sandbox/omp.sbx", HOME, extra, 2));
	cr_expect_not_null(sb_sensitive_match("/etc/omp-sandbox", HOME, extra, 2));
	cr_expect_not_null(sb_sensitive_match("/usr/local", HOME, extra, 2));
	cr_expect_null(sb_sensitive_match("/etc/omp-sandbox/other", HOME, extra, 2));
	cr_expect_null(sb_sensitive_match("/usr/local/bin/omp", HOME, extra, 2));
	cr_expect_null(sb_sensitive_match("/usr/local", HOME, NULL, 0));
}

Test(sensitive, no_home)
{
	cr_expect_null(sb_sensitive_match("/Users/me/.ssh", NULL, NULL, 0));
	cr_expect_null(sb_sensitive_match("/Users/me/.ssh", "", NULL, 0));
}

Test(sensitive, relative_matcher)
{
	cr_expect_str_eq(sb_sensitive_match_rel(".ssh/config", false)->rel, ".ssh");
	cr_expect_not_null(sb_sensitive_match_rel("", false));
	cr_expect_null(sb_sensitive_match_rel("", true));
	cr_expect_null(sb_sensitive_match_rel("Library", true));
	cr_expect_str_eq(sb_sensitive_match_rel("Library", false)->rel, "Library/Keychains");
	cr_expect_str_eq(sb_sensitive_match_rel(".zshrc", true)->rel, ".zshrc");
	cr_expect_null(sb_sensitive_match_rel(".omp", false));
	cr_expect_null(sb_sensitive_match_rel("work/project", false));
}
