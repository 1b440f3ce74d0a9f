/* machine.c - the params sbrun would bind on this machine (cmds.h), so
 * that `sbc explain` and `sbc diff` answer for the user's own paths: the
 * launcher's own preparation (runtime/common/prep.h) and bindings
 * (runtime/common/launch.h), not a second copy of their rules.  */
#include "compiler/cli/cmds.h"

#include <pwd.h>
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

static void merge_missing(sb_bindings *defs, const sb_bindings *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const sb_binding *b = &m->v[i];
		if (sb_bindings_get(defs, b->name))
			continue;
		if (b->is_list)
			sb_bindings_set_list(defs, b->name, (const char *const *)b->values, b->nvalues);
		else if (b->nvalues == 1)
			sb_bindings_set(defs, b->name, b->values[0]);
	}
}

int sb_cli_bind_machine(const sb_profile *const *profiles, size_t n, sb_bindings *defs,
			sb_diag *d)
{
	char cwdbuf[4096];
	const char *cwd = getcwd(cwdbuf, sizeof cwdbuf);
	struct passwd *pw = getpwuid(getuid());
	sb_prep_in pin = { .envp = environ, .cwd = cwd, .pw_home = pw ? pw->pw_dir : NULL,
			   .platform = sb_platform_native() };
	sb_prep prep;
	if (sb_prep_run(&pin, &prep, d) != 0) {
		sb_diag_report(d, SB_SEV_NOTE, NULL, "bindings",
			       "sbc binds this machine's values as sbrun would, and sbrun would refuse "
			       "them; pass --sample for the documented sample values, or -D NAME=VALUE");
		sb_prep_free(&prep);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		sb_bindings m = { 0 };
		sb_tools_clear(&prep.tools);
		/* unknown preset names are reported once, for the first input */
		sb_tools_select(prep.s.tools, profiles[i], &prep.tools, i == 0 ? d : NULL);
		sb_launch_bindings(&prep, NULL, &m);
		merge_missing(defs, &m);
		sb_bindings_clear(&m);
	}
	sb_prep_free(&prep);
	return 0;
}
