/* test_check_sensitive.c - the sensitive-location pass.  */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/common/sensitive.h"
#include "test_check_fixture.h"

#define HAS(f, s) cr_expect(strstr((f)->buf, (s)) != NULL, "missing <%s> in:\n%s", (s), (f)->buf)
#define HASNT(f, s) cr_expect(strstr((f)->buf, (s)) == NULL, "unexpected <%s> in:\n%s", (s), (f)->buf)
#define EMPTY(f) cr_expect_eq((f)->len, 0, "expected no diagnostics, got:\n%s", (f)->buf)

static fx f;

static void setup(void)
{
	fx_init(&f, "t.sbx");
	fx_add(&f, 1, "default deny");
}

static void teardown(void)
{
	fx_clear(&f);
}

TestSuite(check_sensitive, .init = setup, .fini = teardown);

Test(check_sensitive, seed_policy_is_clean)
{
	f.p.stmts[0].action = SB_ALLOW;
	fx_add(&f, 2, "deny write");
	fx_add(&f, 3, "allow write workspace /private/tmp tmpdir $EXTRA_WRITE");
	fx_add(&f, 4, "allow write /private/var/folders /dev");
	fx_add(&f, 5, "deny read home");
	fx_add(&f, 6, "allow read ~/.omp workspace $EXTRA_READ");
	fx_add(&f, 7, "stat-only exactly home");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 0);
	EMPTY(&f);
}

Test(check_sensitive, grant_inside_entry)
{
	fx_add(&f, 2, "allow read ~/.ssh/id_ed25519 /usr");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "t.sbx:2:12: error: read grant on ~/.ssh/id_ed25519 reaches the sensitive location ~/.ssh");
	HAS(&f, "[sensitive]");
	HAS(&f, "acknowledge sensitive");
}

Test(check_sensitive, grant_equal_entry_write)
{
	fx_add(&f, 2, "allow write /tmp ~/.gitconfig");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "t.sbx:2:18: error: write grant on ~/.gitconfig reaches the sensitive location ~/.gitconfig");
}

Test(check_sensitive, component_boundaries)
{
	fx_add(&f, 2, "allow read write ~/.sshfoo ~/.s ~/.profile_backup ~/projects/.ssh");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 0);
	EMPTY(&f);
}

Test(check_sensitive, case_folded)
{
	fx_add(&f, 2, "allow read ~/.SSH");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "~/.ssh");
}

Test(check_sensitive, ancestor_covers)
{
	fx_add(&f, 2, "deny read home");
	fx_add(&f, 3, "allow read ~/Library");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "t.sbx:3:12: error: read grant on ~/Library covers the sensitive location ~/Library/Keychains");
}

Test(check_sensitive, unfiltered_grant)
{
	fx_add(&f, 2, "deny read home");
	fx_add(&f, 3, "allow read");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "t.sbx:3:1: error: read grant everywhere covers the sensitive location ~/.ssh");
}

Test(check_sensitive, later_deny_takes_back)
{
	fx_add(&f, 2, "allow read ~/.cargo");
	fx_add(&f, 3, "deny read ~/.cargo/credentials");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "~/.cargo/credentials.toml");
	HASNT(&f, "~/.cargo/credentials (");
}

Test(check_sensitive, later_deny_takes_back_all)
{
	fx_add(&f, 2, "allow read write ~/.cargo");
	fx_add(&f, 3, "deny read write ~/.cargo/credentials ~/.cargo/credentials.toml");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 0);
	EMPTY(&f);
}

Test(check_sensitive, deny_must_cover_every_access)
{
	fx_add(&f, 2, "allow read write ~/.ssh");
	fx_add(&f, 3, "deny read ~/.ssh");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "error: write grant on ~/.ssh");
}

Test(check_sensitive, earlier_deny_does_not_help)
{
	fx_add(&f, 2, "deny read ~/.ssh");
	fx_add(&f, 3, "allow read ~/.ssh");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
}

Test(check_sensitive, denies_stat_exec_never)
{
	fx_add(&f, 2, "deny read write ~/.ssh");
	fx_add(&f, 3, "allow stat-only ~/.ssh ~/.aws");
	fx_add(&f, 4, "allow exec ~/.zshrc");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 0);
	EMPTY(&f);
}

Test(check_sensitive, exact_nodes)
{
	fx_add(&f, 2, "allow read exactly home exactly ~/Library");
	fx_add(&f, 3, "allow read exactly ~/.zshrc");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "t.sbx:3:12: error: read grant on exactly ~/.zshrc reaches");
}

Test(check_sensitive, acknowledged)
{
	fx_add(&f, 2, "allow read ~/.gitconfig ack=sensitive why=git_needs_it");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 0);
	EMPTY(&f);
}

Test(check_sensitive, needless_ack_warns)
{
	fx_add(&f, 2, "allow read ~/projects /opt ack=sensitive why=x");
	fx_add(&f, 3, "allow read workspace ack=sensitive why=maybe_home");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 0);
	HAS(&f, "t.sbx:2:1: warning: `acknowledge sensitive` on a rule that grants nothing sensitive");
	HAS(&f, "[unused-ack]");
	HASNT(&f, "t.sbx:3:");
}

Test(check_sensitive, absolute_with_bound_home)
{
	fx_define(&f, "HOME", "/srv/u");
	fx_add(&f, 2, "allow read /srv/u/.aws/config /srv/other/.aws");
	fx_add(&f, 3, "allow write /srv");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 2);
	HAS(&f, "t.sbx:2:12: error: read grant on /srv/u/.aws/config reaches the sensitive location ~/.aws");
	HAS(&f, "t.sbx:3:13: error: write grant on /srv covers");
	HASNT(&f, "/srv/other");
}

Test(check_sensitive, bound_home_resolves_home_targets)
{
	fx_define(&f, "HOME", "/srv/u");
	fx_add(&f, 2, "allow read ~/.kube");
	fx_add(&f, 3, "allow read /Users/x/.kube");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "t.sbx:2:12: error: read grant on ~/.kube (/srv/u/.kube) reaches the sensitive location ~/.kube");
}

Test(check_sensitive, absolute_with_conventional_homes)
{
	fx_add(&f, 2, "allow read /Users/bob/.ssh");
	fx_add(&f, 3, "allow read /home/bob/.docker/config.json");
	fx_add(&f, 4, "allow write /");
	fx_add(&f, 5, "allow read /Users/Shared/data /opt/homebrew /usr");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 3);
	HAS(&f, "t.sbx:2:12: error:");
	HAS(&f, "t.sbx:3:12: error:");
	HAS(&f, "t.sbx:4:13: error: write grant on / covers");
	HASNT(&f, "t.sbx:5:");
}

Test(check_sensitive, runtime_roots_left_to_launcher)
{
	fx_add(&f, 2, "allow read write workspace tmpdir $EXTRA_READ $EXTRA_WRITE $P/.ssh");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 0);
	EMPTY(&f);
}

Test(check_sensitive, bound_param_is_checked)
{
	fx_define(&f, "HOME", "/srv/u");
	fx_define(&f, "P", "/srv/u/.gnupg");
	fx_add(&f, 2, "allow read $P/private-keys-v1.d");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "~/.gnupg");
}

Test(check_sensitive, dotdot_fails_closed)
{
	fx_add(&f, 2, "allow read ~/x/../.ssh");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "'..'");
}

Test(check_sensitive, persistence_warning)
{
	fx_add(&f, 2, "allow write ~/.omp/agent");
	fx_add(&f, 3, "allow read ~/.omp");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 0);
	HAS(&f, "t.sbx:2:13: warning: write grant on ~/.omp/agent reaches ~/.omp");
	HAS(&f, "[persistence]");
	HASNT(&f, "t.sbx:3:");
}

Test(check_sensitive, persistence_acknowledged)
{
	fx_add(&f, 2, "allow write ~/.omp ack=sensitive why=omp_needs_its_config_dir");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 0);
	EMPTY(&f);
}

Test(check_sensitive, policy_file_itself)
{
	char dir[] = "/tmp/sbx-sens-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char file[64], inc[64];
	snprintf(file, sizeof file, "%s/top.sbx", dir);
	snprintf(inc, sizeof inc, "%s/inc.sbx", dir);
	FILE *fp = fopen(file, "w");
	cr_assert_not_null(fp);
	fclose(fp);
	fp = fopen(inc, "w");
	cr_assert_not_null(fp);
	fclose(fp);

	fx g;
	fx_init(&g, file);
	char line[128];
	snprintf(line, sizeof line, "allow write %s", dir);
	fx_add(&g, 1, line);
	snprintf(line, sizeof line, "allow read %s", dir);
	fx_add(&g, 2, line);
	snprintf(line, sizeof line, "allow write exactly %s", inc);
	fx_add_in(&g, inc, 1, line);
	int errors = fx_run(&g, sb_check_sensitive);
	char *real = realpath(file, NULL);
	char *out = strdup(g.buf);
	fx_clear(&g);
	unlink(file);
	unlink(inc);
	rmdir(dir);
	cr_expect_eq(errors, 0, "%s", out);
	char want[200];
	snprintf(want, sizeof want, "covers the policy file %s", real);
	cr_expect(strstr(out, want) != NULL, "%s", out);
	cr_expect(strstr(out, "top.sbx:2:") == NULL, "%s", out);
	cr_expect(strstr(out, "inc.sbx:1:13: warning: write grant on exactly") != NULL, "%s", out);
	cr_expect(strstr(out, "[policy-write]") != NULL, "%s", out);
	free(real);
	free(out);
}

Test(check_sensitive, default_allow_leaves_open)
{
	f.p.stmts[0].action = SB_ALLOW;
	fx_add(&f, 2, "deny write");
	fx_add(&f, 3, "allow write workspace");
	fx_add(&f, 4, "deny read ~/.ssh /Users");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HAS(&f, "t.sbx:1:1: error: `default allow` leaves ~/.aws and ");
	HAS(&f, "more sensitive locations readable: no rule decides read there; add `deny read home;`");
	HASNT(&f, "writable");
}

Test(check_sensitive, default_allow_with_every_entry_denied)
{
	f.p.stmts[0].action = SB_ALLOW;
	fx_add(&f, 2, "deny write /");
	size_t n = 0;
	const sb_sensitive_entry *list = sb_sensitive_list(&n);
	for (size_t e = 0; e < n; e++) {
		char line[200];
		/* spaces in entries would split the fixture's tokens */
		if (strchr(list[e].rel, ' '))
			snprintf(line, sizeof line, "deny read ~/Library");
		else
			snprintf(line, sizeof line, "deny read ~/%s", list[e].rel);
		fx_add(&f, 3 + (int)e, line);
	}
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 0);
	EMPTY(&f);
}

Test(check_sensitive, default_allow_reopened_by_acked_grant)
{
	f.p.stmts[0].action = SB_ALLOW;
	fx_add(&f, 2, "deny read write home");
	fx_add(&f, 3, "allow read home ack=sensitive why=trusted_tool");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 0);
	EMPTY(&f);
}

Test(check_sensitive, conventional_home_taken_back_in_its_own_spelling)
{
	fx_add(&f, 2, "allow read /Users/bob/.cargo");
	fx_add(&f, 3, "deny read /Users/bob/.cargo/credentials /Users/bob/.cargo/credentials.toml");
	fx_add(&f, 4, "allow read /home/ann/.cargo");
	fx_add(&f, 5, "deny read ~/.cargo/credentials ~/.cargo/credentials.toml");
	cr_expect_eq(fx_run(&f, sb_check_sensitive), 1);
	HASNT(&f, "t.sbx:2:");
	HAS(&f, "t.sbx:4:12: error: read grant on /home/ann/.cargo covers the sensitive location ~/.cargo/credentials ");
}
