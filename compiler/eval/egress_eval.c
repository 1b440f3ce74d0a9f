/* egress_eval.c - see egress_eval.h.  */
#include "compiler/eval/egress_eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/xalloc.h"
#include "compiler/eval/eval.h"

static void rule_text(const sb_egress_rule *r, char *buf, size_t size)
{
	if (r->all) {
		snprintf(buf, size, "network %s", r->allow ? "on" : "off");
		return;
	}
	char *t = sb_host_pat_text(&r->pat);
	snprintf(buf, size, "network %s \"%s\"", r->allow ? "allow" : "deny", t);
	free(t);
}

void sb_egress_answer_for(const sb_profile *p, const sb_dest *d, sb_egress_answer *out)
{
	memset(out, 0, sizeof *out);
	out->rule = -1;
	const sb_egress *e = &p->egress;
	if (!sb_egress_filtered(e)) {
		sb_eval *ev = sb_eval_new(p, 0);
		sb_decision nd = sb_eval_decide(ev, SB_OP_NETWORK_OUTBOUND, "/", 0);
		sb_eval_free(ev);
		out->allowed = nd.kind == SB_DEC_ALLOW;
		out->sbpl = nd.rule;
		snprintf(out->text, sizeof out->text, "no host rules: the network is %s for every host",
			 out->allowed ? "on" : "off");
		out->where = nd.rule ? nd.rule->origin : NULL;
		out->origin = nd.rule && nd.rule->origin
				      ? xasprintf("%s:%d", nd.rule->origin->file, nd.rule->origin->line)
				      : xstrdup("");
		return;
	}
	out->by_proxy = true;
	out->rule = sb_egress_decide(e, d, &out->allowed);
	if (out->allowed && d->is_ip) {
		/* a literal is an address too: internal ranges need an IP rule */
		bool ok;
		long k = sb_egress_check_addr(e, d->family, d->addr, d->port, &ok, &out->internal);
		if (!ok) {
			out->allowed = false;
			out->rule = k;
		}
	}
	if (out->rule >= 0) {
		rule_text(&e->v[out->rule], out->text, sizeof out->text);
		out->where = e->v[out->rule].origin;
		out->origin = out->where ? sb_origin_where(out->where) : xstrdup("");
	} else {
		out->origin = xstrdup("");
		snprintf(out->text, sizeof out->text, "%s",
			 out->internal ? "an internal address no IP/CIDR rule allows"
				       : "no network rule allows it");
	}
}

void sb_egress_answer_clear(sb_egress_answer *a)
{
	free(a->origin);
	a->origin = NULL;
}
