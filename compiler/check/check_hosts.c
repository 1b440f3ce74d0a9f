/* check_hosts.c - the host-rule pass (check.h, docs/checks.md): warnings
 * about egress by host name.
 *   [host-broad]   an allow of every name ("*"), of a whole top-level domain
 *                  ("*.com"), of a domain where anyone can host content
 *                  (a cloud provider's storage or app domains), or of a
 *                  CIDR range wider than /8 (IPv6: /16): data can leave
 *                  to anyone through it.
 *   [host-model]   host rules decide, and none of the model APIs omp talks
 *                  to is allowed: omp cannot work behind this allowlist.
 *   [dead-rule]    host rules before the last `network on|off`: that
 *                  statement decides every host, they decide nothing.
 *   [allowlist-off] that statement is `network on`: the allowlist is off.  */
#include "compiler/check/check.h"
#include "compiler/check/check_shared.h"
#include "compiler/common/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Domains below which anyone can publish (a bucket, an app, a page): an
 * allow of the whole domain lets data go to any account there.  */
static const char *const shared_domains[] = {
	"amazonaws.com", "s3.amazonaws.com", "cloudfront.net", "elasticbeanstalk.com",
	"azurewebsites.net", "blob.core.windows.net", "core.windows.net", "azureedge.net",
	"cloudapp.net", "googleapis.com", "storage.googleapis.com", "appspot.com",
	"run.app", "web.app", "firebaseapp.com", "cloudfunctions.net", "herokuapp.com",
	"vercel.app", "netlify.app", "pages.dev", "workers.dev", "r2.dev",
	"github.io", "gitlab.io", "ngrok.io", "ngrok-free.app", "trycloudflare.com",
	"glitch.me", "repl.co", "onrender.com", "fly.dev", "digitaloceanspaces.com",
};

/* The model APIs omp's providers use (examples/omp-allowlist.sbx names them). */
static const char *const model_hosts[] = {
	"api.anthropic.com", "api.openai.com", "generativelanguage.googleapis.com",
	"openrouter.ai", "api.x.ai", "api.mistral.ai", "api.groq.com", "api.deepseek.com",
	"api.githubcopilot.com", "api.cerebras.ai", "api.together.xyz",
	"api.fireworks.ai", "bedrock-runtime.us-east-1.amazonaws.com",
};

static const char *broad_reason(const sb_host_pat *p)
{
	switch (p->kind) {
	case SB_HOST_ANY:
		return "it allows every host name";
	case SB_HOST_SUFFIX:
		if (!strchr(p->name, '.'))
			return "it allows a whole top-level domain";
		for (size_t i = 0; i < sizeof shared_domains / sizeof shared_domains[0]; i++)
			if (!strcmp(p->name, shared_domains[i]))
				return "anyone can host content below that domain (a cloud provider's "
				       "storage or apps)";
		return NULL;
	case SB_HOST_IP:
		if ((p->family == 4 && p->prefix < 8) || (p->family == 6 && p->prefix < 16))
			return "the address range is wider than /8 (IPv6: /16)";
		return NULL;
	case SB_HOST_NAME:
		return NULL;
	}
	return NULL;
}

int sb_check_hosts_with(const sbx_check_shared *sh, sb_diag *d)
{
	const sbx_policy *p = sh->p;
	size_t last_all = 0, nhosts = 0;
	bool have_all = false;
	const sbx_stmt *last_hosts = NULL;
	sb_egress eg = { 0 };
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind == SBX_STMT_NETWORK) {
			have_all = true;
			last_all = i;
			sb_egress_add(&eg, s->action == SB_ALLOW, true, NULL, NULL);
		} else if (s->kind == SBX_STMT_HOSTS) {
			nhosts++;
			last_hosts = s;
			for (size_t j = 0; j < s->nhosts; j++) {
				sb_host_pat copy = s->hosts[j];
				copy.name = copy.name ? xstrdup(copy.name) : NULL;
				sb_egress_add(&eg, s->action == SB_ALLOW, false, &copy, NULL);
				const char *why = s->action == SB_ALLOW ? broad_reason(&s->hosts[j]) : NULL;
				if (!why)
					continue;
				char *t = sb_host_pat_text(&s->hosts[j]);
				sb_diag_report(d, SB_SEV_WARNING, &s->host_locs[j], "host-broad",
					       "network allow \"%s\" is broad: %s, so data can leave to "
					       "anyone through it; name the hosts needed", t, why);
				free(t);
			}
		}
	}
	if (!nhosts) {
		sb_egress_clear(&eg);
		return 0;
	}
	/* [allowlist-off]: `network on` after host rules (a learned fragment
	 * included after omp-allowlist.sbx) opens every host.  */
	if (have_all && p->stmts[last_all].action == SB_ALLOW) {
		const sbx_stmt *first = NULL;
		for (size_t i = 0; i < last_all && !first; i++)
			if (p->stmts[i].kind == SBX_STMT_HOSTS && p->stmts[i].action == SB_ALLOW)
				first = &p->stmts[i];
		if (first) {
			sb_diag_report(d, SB_SEV_WARNING, &p->stmts[last_all].loc, "allowlist-off",
				       "'network on;' after host rules switches the egress allowlist "
				       "off: every host becomes reachable; to reach one more host, "
				       "write network allow \"HOST\"; instead");
			sb_diag_note(d, &first->loc, "the host rules it switches off start here");
		}
	}
	for (size_t i = 0; have_all && i < last_all; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind != SBX_STMT_HOSTS)
			continue;
		sb_diag_report(d, SB_SEV_WARNING, &s->loc, "dead-rule",
			       "these host rules decide nothing: the later 'network %s;' decides "
			       "every host",
			       p->stmts[last_all].action == SB_ALLOW ? "on" : "off");
		sb_diag_note(d, &p->stmts[last_all].loc, "the deciding 'network' statement is here");
	}
	if (sb_egress_filtered(&eg)) {
		bool any = false;
		for (size_t i = 0; i < sizeof model_hosts / sizeof model_hosts[0] && !any; i++) {
			sb_dest dst;
			const char *why;
			bool ok = false;
			if (sb_dest_parse(model_hosts[i], 443, &dst, &why) == 0)
				sb_egress_decide(&eg, &dst, &ok);
			any = ok;
		}
		if (!any)
			sb_diag_report(d, SB_SEV_WARNING, &last_hosts->loc, "host-model",
				       "the host rules allow none of the model APIs (api.anthropic.com, "
				       "api.openai.com, generativelanguage.googleapis.com, openrouter.ai, "
				       "...): omp cannot reach its model behind this allowlist; add the "
				       "provider's host, e.g. network allow \"api.anthropic.com\";");
	}
	sb_egress_clear(&eg);
	return 0;
}

int sb_check_hosts(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	sbx_check_shared sh;
	sbx_check_shared_init(&sh, p, defs);
	int errors = sb_check_hosts_with(&sh, d);
	sbx_check_shared_clear(&sh);
	return errors;
}
