/* machine.c - the params sbrun would bind on this machine (cmds.h), so
 * that `sbc explain` and `sbc diff` answer for the user's own paths: the
 * launcher's own preparation (runtime/common/prep.h) and bindings
 * (runtime/common/launch.h), not a second copy of their rules.  */
#include "compiler/cli/cmds.h"

#include <pwd.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"
#include "runtime/common/env.h"
#include "runtime/common/launch.h"
#include "runtime/common/prep.h"
#include "runtime/common/tools.h"

extern char **environ;

static void set_like(sb_bindings *out, const sb_binding *b)
{
	if (b->is_list)
		sb_bindings_set_list(out, b->name, (const char *const *)b->values, b->nvalues);
	else if (b->nvalues == 1)
		sb_bindings_set(out, b->name, b->values[0]);
}

/* Samples that the machine binds move to *used; the rest stay samples.  */
static void replace_samples(sb_bindings *used, sb_bindings *samples, const sb_bindings *m)
{
	sb_bindings left = { 0 };
	for (size_t i = 0; i < samples->n; i++) {
		const sb_binding *s = &samples->v[i];
		const sb_binding *b = sb_bindings_get(m, s->name);
		set_like(b ? used : &left, b ? b : s);
	}
	sb_bindings_clear(samples);
	*samples = left;
}

int sb_cli_bind_machine(const sb_profile *const *profiles, size_t n, sb_bindings *used,
			sb_bindings *samples, sb_diag *d)
{
	char *cwd = getcwd(NULL, 0);   /* any length; NULL: none (prep says why) */
	struct passwd *pw = getpwuid(getuid());
	sb_prep_in pin = { .envp = environ, .cwd = cwd, .pw_home = pw ? pw->pw_dir : NULL,
			   .platform = sb_platform_native() };
	sb_prep prep;
	int rc = sb_prep_run(&pin, &prep, d);
	free(cwd);   /* prep keeps its own copies */
	if (rc != 0) {
		sb_diag_report(d, SB_SEV_NOTE, NULL, "bindings",
			       "sbc binds this machine's values as sbrun would, and sbrun would refuse "
			       "them; pass --sample for the documented sample values, or -D NAME=VALUE");
		sb_prep_clear(&prep);
		return -1;
	}
	sb_bindings m = { 0 };
	for (size_t i = 0; i < n; i++) {
		sb_tools_clear(&prep.tools);
		/* unknown preset names are reported once, for the first input */
		sb_tools_select(prep.s.tools, prep.s.protect, profiles[i], &prep.tools,
				i == 0 ? d : NULL);
		/* the git discovery, as the launcher makes it (runtime/common/protect.h) */
		if (sb_prep_protect(&prep, d) != 0) {
			sb_bindings_clear(&m);
			sb_prep_clear(&prep);
			return -1;
		}
		sb_launch_bindings(&prep, NULL, &m);
	}
	replace_samples(used, samples, &m);
	sb_bindings_clear(&m);
	sb_prep_clear(&prep);
	return 0;
}
