/* Unit tests for runtime/macos/macos_trace.c (unverified on macOS: there is
 * no Mac here): the exact argv of the log process, the tag, and parsing of
 * violation lines written by hand in the format of `log stream --style
 * compact` (not recorded on a Mac), and the launch's trace messages.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/diag.h"
#include "compiler/sbpl/sbpl_read.h"
#include "runtime/common/launch.h"
#include "runtime/macos/macos_trace.h"

#define TAG "OMPSBX-0123456789abcdef"
#define KERN "2026-12-01 23:50:01.123 E  kernel[0:2a1f] (Sandbox) Sandbox: "

Test(macos_trace, log_argv_is_exact)
{
	char **v = sb_macos_log_argv("/usr/bin/log", TAG);
	const char *want[] = { "/usr/bin/log", "stream", "--style", "compact", "--predicate",
			       "(processID == 0) AND (eventMessage ENDSWITH \"" TAG "\")", NULL };
	for (size_t i = 0; want[i]; i++)
		cr_assert(eq(str, v[i], (char *)want[i]));
	cr_assert(v[6] == NULL);
	sb_macos_argv_free(v);
}

Test(macos_trace, tag_is_fresh_hex)
{
	char a[SB_MACOS_TAG_SIZE], b[SB_MACOS_TAG_SIZE];
	cr_assert(eq(int, sb_macos_trace_tag(a), 0));
	cr_assert(eq(int, sb_macos_trace_tag(b), 0));
	cr_assert(eq(sz, strlen(a), (size_t)23));
	cr_assert(eq(int, strncmp(a, "OMPSBX-", 7), 0));
	cr_assert(eq(sz, strspn(a + 7, "0123456789abcdef"), (size_t)16));
	cr_assert(ne(str, a, b));
}

Test(macos_trace, violation_then_message_line)
{
	sb_seatbelt_event ev;
	cr_assert(eq(int, sb_macos_log_parse(KERN "cat(7866) deny(1) file-read-data /Users/u/.ssh/id_rsa",
					     TAG, &ev), SB_LOG_VIOLATION));
	cr_assert(eq(str, ev.process, "cat"));
	cr_assert(eq(int, ev.pid, 7866));
	cr_assert(eq(str, ev.op, "file-read-data"));
	cr_assert(eq(str, ev.target, "/Users/u/.ssh/id_rsa"));
	cr_assert(eq(str, ev.origin, ""));
	cr_assert(eq(int, sb_macos_log_parse("omp-sandbox rule omp.sbx:24 " TAG, TAG, &ev),
		     SB_LOG_MESSAGE));
	cr_assert(eq(str, ev.origin, "omp.sbx:24"));
}

Test(macos_trace, message_ending_the_line_and_odd_names)
{
	sb_seatbelt_event ev;
	cr_assert(eq(int, sb_macos_log_parse(KERN "Google Chrome (Helper)(912) deny(1) file-write-create "
					     "/Users/u/My Files/a b.txt omp-sandbox rule my pol.sbx:7 " TAG,
					     TAG, &ev), SB_LOG_VIOLATION));
	cr_assert(eq(str, ev.process, "Google Chrome (Helper)"));
	cr_assert(eq(int, ev.pid, 912));
	cr_assert(eq(str, ev.target, "/Users/u/My Files/a b.txt"));
	cr_assert(eq(str, ev.origin, "my pol.sbx:7"));
	sb_denial dn;
	cr_assert(sb_macos_event_denial(&ev, false, &dn));
	cr_assert(eq(int, dn.access, SB_ACC_CREATE));
	cr_assert(eq(str, (char *)dn.origin, "my pol.sbx:7"));
}

Test(macos_trace, network_and_unclassified)
{
	sb_seatbelt_event ev;
	sb_denial dn;
	cr_assert(eq(int, sb_macos_log_parse(KERN "curl(77) deny(1) network-outbound 93.184.216.34:443 "
					     "omp-sandbox rule omp.sbx:31 " TAG, TAG, &ev), SB_LOG_VIOLATION));
	cr_assert(sb_macos_event_denial(&ev, false, &dn));
	cr_assert(eq(int, dn.access, SB_ACC_NETWORK));
	cr_assert(eq(str, (char *)dn.path, "93.184.216.34:443"));
	cr_assert(eq(int, sb_macos_log_parse(KERN "git(5) deny(1) mach-lookup com.apple.x", TAG, &ev),
		     SB_LOG_VIOLATION));
	cr_assert(not(sb_macos_event_denial(&ev, false, &dn)));
	cr_assert(eq(int, sb_macos_log_parse(KERN "ls(5) deny(1) file-read-data /Users/u", TAG, &ev),
		     SB_LOG_VIOLATION));
	cr_assert(sb_macos_event_denial(&ev, true, &dn));
	cr_assert(eq(int, dn.access, SB_ACC_LIST));
	cr_assert(eq(int, sb_macos_log_parse(KERN "rm(5) deny(1) file-write-unlink /Users/u/x", TAG, &ev),
		     SB_LOG_VIOLATION));
	cr_assert(sb_macos_event_denial(&ev, false, &dn));
	cr_assert(eq(int, dn.access, SB_ACC_DELETE));
}

Test(macos_trace, not_ours)
{
	sb_seatbelt_event ev;
	/* logged by a process, not the kernel: a forgery */
	cr_assert(eq(int, sb_macos_log_parse("2026-12-01 23:50:01.126 Df logger[7868:2a20] Sandbox: "
					     "cat(1) deny(1) file-read-data /etc/x omp-sandbox rule a:1 " TAG,
					     TAG, &ev), SB_LOG_OTHER));
	/* another session's message */
	cr_assert(eq(int, sb_macos_log_parse("omp-sandbox rule omp.sbx:1 OMPSBX-00000000000000ff", TAG,
					     &ev), SB_LOG_OTHER));
	cr_assert(eq(int, sb_macos_log_parse("Filtering the log data using \"x\"", TAG, &ev),
		     SB_LOG_OTHER));
	cr_assert(eq(int, sb_macos_log_parse(KERN "garbage", TAG, &ev), SB_LOG_OTHER));
	cr_assert(eq(int, sb_macos_log_parse("", TAG, &ev), SB_LOG_OTHER));
}

Test(macos_trace, deny_rules_tagged_with_their_origin)
{
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	static const char src[] = "(version 1)\n(allow default)\n(deny file-read* (subpath \"/a\"))\n"
				  "(allow file-read* (subpath \"/a/b\"))\n(deny network*)\n";
	sb_profile *p = sb_sbpl_read("t.sb", src, sizeof src - 1, d);
	cr_assert(p != NULL);
	p->rules[1]->origin = sb_origin_new(d, "omp.sbx", 24, 1, NULL, 0);
	sb_launch_tag_denies(p, TAG);
	char *text = sb_profile_text(p);
	cr_assert(strstr(text, "(deny file-read* (with message \"omp-sandbox rule omp.sbx:24 " TAG
			       "\") (subpath \"/a\"))") != NULL, "%s", text);
	cr_assert(strstr(text, "(deny network* (with message \"omp-sandbox rule #3 " TAG "\"))") != NULL,
		  "%s", text);
	cr_assert(strstr(text, "(allow file-read* (subpath \"/a/b\"))") != NULL, "%s", text);
	free(text);
	sb_profile_free(p);
	sb_diag_free(d);
}
