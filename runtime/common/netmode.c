/* netmode.c - the launch-time network mode (see netmode.h).  The rules
 * added here are what the compiler emits for the same policy text
 * (compiler/lower/lower.c: lower_egress), so the Linux plan and the macOS
 * profile treat them alike.  */
#include "runtime/common/netmode.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/common/status.h"

#define NETWORK_VAR "OMP_SANDBOX_NETWORK"
#define HOSTS_VAR "OMP_SANDBOX_ALLOW_HOSTS"

int sb_net_mode_parse(const char *value, sb_net_mode *out, sb_diag *d)
{
	if (!value || !*value || !strcmp(value, "open"))
		*out = SB_NET_OPEN;
	else if (!strcmp(value, "off"))
		*out = SB_NET_OFF;
	else if (!strcmp(value, "allowlist"))
		*out = SB_NET_ALLOWLIST;
	else {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "network",
			       NETWORK_VAR "='%s' is not a network mode: use open (the default), "
			       "off or allowlist", value);
		return SB_REFUSED;
	}
	return 0;
}

static void add_network_rule(sb_profile *prof, sb_action action, sb_op op, const char *filter,
			     const char *origin, sb_diag *d)
{
	sb_loc loc = { 0 };
	sb_rule *r = sb_rule_new(action, loc);
	sb_rule_add_op(r, op, NULL);
	if (filter)
		sb_rule_add_filter(r, sb_filter_opaque(filter, loc));
	r->origin = sb_origin_new(d, origin, 0, 0, NULL, 0);   /* made here: line 0 */
	sb_profile_add_rule(prof, r);
}

/* The SBPL side of proxied egress: nothing but the proxy is reachable.  */
static void confine_to_proxy(sb_profile *prof, const char *origin, sb_diag *d)
{
	add_network_rule(prof, SB_DENY, SB_OP_NETWORK_ALL, NULL, origin, d);
	add_network_rule(prof, SB_ALLOW, SB_OP_NETWORK_OUTBOUND,
			 "(remote ip (param \"EGRESS_PROXY\"))", origin, d);
}

static int add_hosts(sb_profile *prof, const char *list, sb_diag *d)
{
	char *copy = strdup(list);
	if (!copy)
		abort();
	int rc = 0;
	for (char *save = NULL, *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
		while (*e == ' ')
			e++;
		size_t n = strlen(e);
		while (n && e[n - 1] == ' ')
			e[--n] = '\0';
		if (!*e)
			continue;
		sb_host_pat pat;
		const char *why;
		size_t at;
		if (sb_host_pat_parse(e, &pat, &why, &at) < 0) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "network",
				       HOSTS_VAR " entry '%s': %s", e, why);
			rc = SB_REFUSED;
			continue;
		}
		sb_egress_add(&prof->egress, true, false, &pat,
			      sb_origin_new(d, HOSTS_VAR, 0, 0, NULL, 0));
	}
	free(copy);
	return rc;
}

int sb_net_mode_apply(sb_profile *prof, sb_net_mode mode, const char *allow_hosts, sb_diag *d)
{
	bool hosts = allow_hosts && *allow_hosts;
	if (mode == SB_NET_OFF) {
		if (hosts) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "network",
				       HOSTS_VAR " is set but " NETWORK_VAR "=off refuses every "
				       "connection; use " NETWORK_VAR "=allowlist, or unset " HOSTS_VAR);
			return SB_REFUSED;
		}
		add_network_rule(prof, SB_DENY, SB_OP_NETWORK_ALL, NULL, NETWORK_VAR "=off", d);
		sb_egress_clear(&prof->egress);
		return 0;
	}
	if (mode == SB_NET_OPEN && !sb_egress_filtered(&prof->egress)) {
		if (hosts) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "network",
				       HOSTS_VAR " is set but the network is open, so it would change "
				       "nothing; set " NETWORK_VAR "=allowlist to confine egress to the "
				       "allowed hosts");
			return SB_REFUSED;
		}
		return 0;
	}
	if (!sb_egress_filtered(&prof->egress)) {
		/* allowlist on a profile without host rules: nothing but the
		 * extra hosts */
		sb_egress_add(&prof->egress, false, true, NULL,
			      sb_origin_new(d, NETWORK_VAR "=allowlist", 0, 0, NULL, 0));
		confine_to_proxy(prof, NETWORK_VAR "=allowlist", d);
		if (!hosts)
			sb_diag_report(d, SB_SEV_WARNING, NULL, "network",
				       NETWORK_VAR "=allowlist with a profile without host rules and no "
				       HOSTS_VAR ": every host is refused");
	}
	return hosts ? add_hosts(prof, allow_hosts, d) : 0;
}
