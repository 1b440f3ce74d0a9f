/* userdb.h - the home directory of a uid, for the home verification
 * (prep.h, docs/security-model.md).  */
#ifndef SB_RUNTIME_USERDB_H
#define SB_RUNTIME_USERDB_H

#include <stddef.h>
#include <sys/types.h>

/* The home field of the first entry for `uid` in passwd(5) text, or NULL
 * when no well-formed entry has that uid.  Owned by the caller.  */
char *sb_passwd_home(const char *text, size_t len, uid_t uid);

/* The home the user database reports for `uid`, or NULL when the lookup
 * fails.  When /etc/passwd holds an entry for `uid` whose home is exactly
 * `inherited` (the HOME the launcher was given), that is the answer and
 * the name service is not asked: a launch with a consistent HOME reads
 * one file instead of loading NSS (nsswitch.conf, nscd's socket).  Any
 * other case asks getpwuid(), so a directory service (LDAP, sssd) or an
 * entry that differs still decides as before.  Owned by the caller.  */
char *sb_user_home(uid_t uid, const char *inherited);

#endif
