/* netmode.h - OMP_SANDBOX_NETWORK and OMP_SANDBOX_ALLOW_HOSTS applied to a
 * profile read for launch (docs/egress.md, docs/omp-sandboxed.md).
 *   open       (default) the profile as it is
 *   off        every socket refused: the profile's network is denied
 *   allowlist  egress by host name: only the profile's host rules (the
 *              omp-allowlist preset in omp-sandboxed) plus ALLOW_HOSTS
 * OMP_SANDBOX_ALLOW_HOSTS=a,b:443,c adds `network allow` entries after the
 * profile's own (comma-separated: an entry may carry a port); it needs host
 * rules to decide (allowlist, or a profile with host rules).  */
#ifndef SB_NETMODE_H
#define SB_NETMODE_H

#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"

typedef enum { SB_NET_OPEN, SB_NET_OFF, SB_NET_ALLOWLIST } sb_net_mode;

/* Parse OMP_SANDBOX_NETWORK (NULL or "" = open).  Returns 0, or
 * SB_REFUSED after an error naming the accepted values.  */
int sb_net_mode_parse(const char *value, sb_net_mode *out, sb_diag *d);

/* Apply the mode and the extra hosts to `prof` (in place).  Returns 0 or
 * SB_REFUSED with a located reason.  */
int sb_net_mode_apply(sb_profile *prof, sb_net_mode mode, const char *allow_hosts, sb_diag *d);

#endif
