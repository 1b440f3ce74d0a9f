#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_report.c - the parts of the Linux plan that are reports, not rules:
 * deny rules for operations Landlock cannot control (platform gaps, network,
 * signals) and the human-readable plan (sbrun --plan).  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/common/textesc.h"

#include <string.h>

#include "compiler/eval/eval.h"

static const char *rule_file(const sb_rule *r)
{
	return r->origin ? r->origin->file : r->loc.file;
}

static int rule_line(const sb_rule *r)
{
	return r->origin ? r->origin->line : r->loc.line;
}

/* ---- non-file operations and platform gaps ---- */

static const struct {
	sb_op op;
	const char *what;
} gap_ops[] = {
	{ SB_OP_FILE_READ_METADATA, "stat/lstat/access/readlink" },
	{ SB_OP_FILE_READ_XATTR, "getxattr/listxattr" },
	{ SB_OP_FILE_WRITE_MODE, "chmod" },
	{ SB_OP_FILE_WRITE_OWNER, "chown" },
	{ SB_OP_FILE_WRITE_TIMES, "utime" },
	{ SB_OP_FILE_WRITE_XATTR, "setxattr" },
	{ SB_OP_FILE_WRITE_FLAGS, "chflags" },
	{ SB_OP_PROCESS_INFO, "reading /proc of other processes (partly: ptrace scope only)" },
	{ SB_OP_PROCESS_FORK, "fork" },
};

static bool covers(sb_op ruleop, sb_op op)
{
	for (sb_op o = op;; o = sb_op_parent(o)) {
		if (o == ruleop)
			return true;
		if (o == SB_OP_DEFAULT)
			return false;
	}
}

static bool is_path_filter(const sb_filter *f)
{
	return f->kind == SB_F_LITERAL || f->kind == SB_F_SUBPATH || f->kind == SB_F_PREFIX ||
	       f->kind == SB_F_REGEX;
}

/* Landlock blocks signals only to processes outside the sandbox, and only
 * from ABI 6 (the signal scope); below it a signal deny is not enforced.  */
static void note_signal_deny(sb_ll_plan *plan, const sb_linux_opts *o, const char *file,
			     int line, const char *what)
{
	if (plan->plan_abi >= 6) {
		sb_ll_rules_note(&plan->r, SB_LL_NOTE_NARROWER, file, line,
				 "%s: only signals to processes outside the sandbox are blocked "
				 "(Landlock scope, ABI 6)", what);
		return;
	}
	plan->unenforceable++;
	sb_ll_rules_note(&plan->r, SB_LL_NOTE_UNENFORCEABLE, file, line,
			 "%s is not enforced below Landlock ABI 6 (no signal scope; this kernel: "
			 "ABI %d)%s", what, plan->plan_abi,
			 o->allow_unenforceable ? " (ignored: opted in)" : "");
}

void sb_ll_scan_other_ops(const sb_profile *orig, sb_ll_plan *plan, const sb_linux_opts *o)
{
	/* Host rules: the network is confined by a namespace and the proxy,
	 * not by refusing sockets (runtime/linux/egress.c).  */
	bool egress = sb_egress_filtered(&orig->egress);
	if (egress) {
		plan->egress = true;
		plan->unix_block = true;
		sb_ll_rules_note(&plan->r, SB_LL_NOTE_NARROWER, NULL, 0,
				 "egress by host name: network namespace with loopback only, the "
				 "egress proxy at " SB_LL_PROXY_ADDR " decides each connection by host; "
				 "socket(AF_UNIX) refused (seccomp), socketpair() stays allowed");
	}
	for (size_t i = 0; i < orig->nrules; i++) {
		const sb_rule *r = orig->rules[i];
		if (r->action != SB_DENY)
			continue;
		char gaps[512] = "";
		size_t gl = 0;
		for (size_t g = 0; g < sizeof gap_ops / sizeof *gap_ops; g++)
			for (size_t k = 0; k < r->nops; k++)
				if (r->ops[k] != SB_OP_DEFAULT && covers(r->ops[k], gap_ops[g].op)) {
					int w = snprintf(gaps + gl, sizeof gaps - gl, "%s%s",
							 gl ? ", " : "", gap_ops[g].what);
					if (w > 0 && (size_t)w < sizeof gaps - gl)
						gl += (size_t)w;
					break;
				}
		if (gl)
			sb_ll_rules_note(&plan->r, SB_LL_NOTE_GAP, rule_file(r), rule_line(r),
					 "not restricted by Landlock: %s", gaps);
		for (size_t k = 0; k < r->nops; k++) {
			sb_op op = r->ops[k];
			if (egress && (op == SB_OP_NETWORK_ALL || op == SB_OP_NETWORK_OUTBOUND ||
				       op == SB_OP_NETWORK_BIND || op == SB_OP_NETWORK_INBOUND))
				break;
			if (op == SB_OP_NETWORK_ALL || op == SB_OP_NETWORK_OUTBOUND ||
			    op == SB_OP_NETWORK_BIND || op == SB_OP_NETWORK_INBOUND) {
				bool paths = r->nfilters > 0;
				for (size_t f = 0; f < r->nfilters; f++)
					paths = paths && is_path_filter(r->filters[f]);
				if (paths) {
					/* UNIX-socket paths: RESOLVE_UNIX (ABI 9) or the
					 * seccomp block of socket(AF_UNIX).  */
					plan->unix_block = true;
					sb_ll_rules_note(&plan->r, SB_LL_NOTE_NARROWER, rule_file(r),
							 rule_line(r),
							 "UNIX-socket deny: socket(AF_UNIX) is refused "
							 "(seccomp) below Landlock ABI 9");
				} else if (r->nfilters == 0) {
					/* (deny network*) and the like: Landlock has no
					 * such right, so refuse socket() for every family
					 * with seccomp.  Narrower when a later rule
					 * re-allows some network: it stays refused.  */
					plan->net_block = true;
					sb_ll_rules_note(&plan->r, SB_LL_NOTE_NARROWER, rule_file(r),
							 rule_line(r),
							 "network deny: socket() is refused for every "
							 "address family (seccomp); socketpair() stays "
							 "allowed");
				} else {
					plan->unenforceable++;
					sb_ll_rules_note(&plan->r, SB_LL_NOTE_UNENFORCEABLE, rule_file(r),
							 rule_line(r),
							 "network deny (%s) is not enforced on Linux%s",
							 sb_op_name(op),
							 o->allow_unenforceable ? " (ignored: opted in)" : "");
				}
				break;
			}
			if (op == SB_OP_SIGNAL)
				note_signal_deny(plan, o, rule_file(r), rule_line(r), "signal deny");
			if (op == SB_OP_FILE_IOCTL)
				sb_ll_rules_note(&plan->r, SB_LL_NOTE_GAP, rule_file(r), rule_line(r),
						 "ioctl deny: only device ioctls on devices opened "
						 "inside (ABI 5), plus TIOCSTI/TIOCLINUX (seccomp)");
		}
	}
	/* (deny default) with no network allow: the same seccomp refusal.  */
	sb_eval *ev = sb_eval_new(orig, 0);
	sb_decision d = sb_eval_decide(ev, SB_OP_NETWORK_OUTBOUND, "/", 0);
	if (!egress && d.kind != SB_DEC_ALLOW && d.via_op == SB_OP_DEFAULT) {
		plan->net_block = true;
		sb_ll_rules_note(&plan->r, SB_LL_NOTE_NARROWER, d.rule ? rule_file(d.rule) : NULL,
				 d.rule ? rule_line(d.rule) : 0,
				 "network denied by default: socket() is refused for every "
				 "address family (seccomp); socketpair() stays allowed");
	}
	d = sb_eval_decide(ev, SB_OP_SIGNAL, "/", 0);
	if (d.kind != SB_DEC_ALLOW && d.via_op == SB_OP_DEFAULT)
		note_signal_deny(plan, o, d.rule ? rule_file(d.rule) : NULL,
				 d.rule ? rule_line(d.rule) : 0, "signals denied by default");
	sb_eval_free(ev);
}

static const char *note_label(sb_ll_note_kind k)
{
	switch (k) {
	case SB_LL_NOTE_SKIPPED: return "skipped";
	case SB_LL_NOTE_NARROWER: return "narrower";
	case SB_LL_NOTE_GAP: return "platform gap";
	case SB_LL_NOTE_UNENFORCEABLE: return "NOT ENFORCEABLE";
	default: return "info";
	}
}

void sb_ll_plan_print(const sb_ll_plan *plan, FILE *out)
{
	sb_ll_abi_info ai = sb_ll_abi_info_for(plan->plan_abi);
	char b[512];
	if (plan->probe.kernel_abi > 0)
		fprintf(out, "# landlock: kernel ABI %d, effective ABI %d%s, errata 0x%lx\n",
			plan->probe.kernel_abi, plan->probe.eff_abi,
			plan->probe.clamped ? " (test clamp)" : "",
			plan->probe.errata < 0 ? 0UL : (unsigned long)plan->probe.errata);
	else
		fprintf(out, "# landlock: unavailable here (%s); plan shown for ABI %d\n",
			strerror(plan->probe.err), plan->plan_abi);
	fprintf(out, "# handled fs: %s\n", sb_ll_rights_str(ai.fs_mask & ~SB_LL_NEVER, b, sizeof b));
	fprintf(out, "# never granted: make_char|make_block; scopes: %s\n",
		ai.scoped_mask ? "abstract_unix_socket|signal" : "none (ABI < 6)");
	if (*sb_ll_abi_losses(plan->plan_abi))
		fprintf(out, "# lost at this ABI: %s\n", sb_ll_abi_losses(plan->plan_abi));
	sb_ll_abi_report(out, plan->plan_abi, "# ");
	fprintf(out, "# %zu rules (%zu hard links, %zu symlinks, %zu unlistable skipped; %zu nodes; %.1f ms)\n",
		plan->r.n, plan->r.hardlink_skips, plan->r.symlink_skips, plan->r.unreadable_skips,
		plan->r.nodes_visited, plan->plan_ms);
	fprintf(out, "# mechanism: %s%s%s\n", plan->mechanism ? plan->mechanism : "complement expansion",
		plan->fallback ? "; masks unavailable: " : "",
		plan->fallback ? plan->fallback : "");
	if (plan->gate)
		fprintf(out, "# write gate: %zu names decided at every call (seccomp user "
			     "notification; the supervisor performs the call)\n",
			sb_ll_masks_gated(&plan->masks));
	else if (plan->gate_off)
		fprintf(out, "# write gate: unavailable: %s\n", plan->gate_off);
	for (size_t i = 0; i < plan->r.n; i++) {
		const sb_ll_rule *r = &plan->r.v[i];
		/* names come from the file system, which the sandbox writes:
		 * escaped like the trace's (runtime/common/textesc.h) */
		fprintf(out, "rule %-6s ", r->origin);
		sb_text_put(out, r->path);
		fprintf(out, " %s\n", sb_ll_rights_str(r->rights & ai.fs_mask, b, sizeof b));
	}
	for (size_t i = 0; i < plan->masks.n; i++) {
		const sb_ll_mask *m = &plan->masks.v[i];
		fprintf(out, "mask %-9s ", sb_ll_mask_kind_name(m));
		sb_text_put(out, m->path);
		fprintf(out, " (%s", m->why ? m->why : "deny");
		if (m->src_line)
			fprintf(out, ", %s:%d", m->src_file ? m->src_file : "<profile>", m->src_line);
		fprintf(out, ") takes %s\n", sb_ll_rights_str(m->removed_node & ai.fs_mask, b, sizeof b));
		for (size_t k = 0; k < m->nexpose; k++) {
			fputs("  bound back ", out);
			sb_text_put(out, m->expose[k].path);
			fputc('\n', out);
		}
		if (m->private_shm)
			fputs("  private /dev/shm (a tmpfs of its own, nothing shared with outside)\n",
			      out);
	}
	for (size_t i = 0; i < plan->nwarnings; i++)
		fprintf(out, "warning: %s\n", plan->warnings[i]);
	if (plan->egress)
		fprintf(out, "netns loopback only; egress proxy " SB_LL_PROXY_ADDR
			" (host rules); seccomp socket(AF_UNIX) -> EPERM; socket(any family but "
			"AF_INET, AF_INET6, AF_NETLINK) -> EAFNOSUPPORT\n");
	else if (plan->net_block)
		fprintf(out, "seccomp socket(any family) -> EPERM (network denied)\n");
	else if (plan->unix_block)
		fprintf(out, "seccomp socket(AF_UNIX) -> EPERM%s\n",
			plan->plan_abi >= 9 ? " (not needed: RESOLVE_UNIX)" : "");
	fprintf(out, "seccomp ioctl(TIOCSTI|TIOCLINUX) -> EPERM; io_uring_setup -> EPERM; "
		     "keyctl, add_key, request_key -> EPERM (a fresh session keyring)\n");
	if (!(ai.fs_mask & SB_LL_TRUNCATE))
		fprintf(out, "seccomp truncate() -> EPERM; open*(O_TRUNC, not for writing) -> EPERM; "
			     "openat2 -> ENOSYS (no Landlock TRUNCATE below ABI 3)\n");
	for (int k = SB_LL_NOTE_UNENFORCEABLE; k >= SB_LL_NOTE_INFO; k--)
		for (size_t i = 0; i < plan->r.nnotes; i++) {
			const sb_ll_note *n = &plan->r.notes[i];
			if ((int)n->kind != k)
				continue;
			if (n->src_file || n->src_line)
				fprintf(out, "%s: %s:%d: %s\n", note_label(n->kind),
					n->src_file ? n->src_file : "<profile>", n->src_line, n->text);
			else
				fprintf(out, "%s: %s\n", note_label(n->kind), n->text);
		}
}

bool sb_ll_plan_looks_absent(const sb_ll_plan *plan, const char *path)
{
	return plan && plan->masks.n && sb_ll_masks_absent(&plan->masks, path);
}

#endif /* __linux__ */
