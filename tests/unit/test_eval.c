/* The decision table of decide_once(): hierarchy, specificity, order,
 * unfiltered vs filtered, default placement, subpath boundaries, literal vs
 * subpath, trailing slashes, /private aliases, regex anchoring, require-*
 * combinations and unknowns.  One static table, one loop per test.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/diag.h"
#include "compiler/eval/eval.h"
#include "decide_util.h"
#include "compiler/ir/ir.h"
#include "compiler/sbpl/sbpl_read.h"

enum prof {
	P_SEED, P_SPEC, P_UNF_AFTER, P_UNF_BEFORE, P_ORDER, P_ORDER_REV, P_DEF_END, P_DEF_NET,
	P_NO_DEFAULT, P_TWO_DEFAULTS, P_SUBPATH, P_ALIAS, P_REGEX, P_BAD_REGEX, P_REQ, P_OPAQUE,
	P_IMPORT, P_DEFINE, P_PROCESS, P_HIER, P_MULTI, P_COND, P__COUNT
};

/* Rule numbers in the comments are the indexes the table refers to.  */
static const char *const profiles[P__COUNT] = {
	[P_SEED] = "(version 1)\n"
		"(allow default)\n"                                                  /* 0 */
		"(deny file-write*)\n"                                               /* 1 */
		"(allow file-write* (subpath \"/Users/me/src/app\") (subpath \"/private/tmp\")\n"
		"  (subpath \"/private/var/folders/zz/T\") (subpath \"/Users/me/.omp\"))\n" /* 2 */
		"(allow file-write* (subpath \"/private/var/folders\") (subpath \"/dev\"))\n" /* 3 */
		"(deny file-read* (subpath \"/Users/me\"))\n"                        /* 4 */
		"(allow file-read* (subpath \"/Users/me/.omp\") (subpath \"/Users/me/src/app\"))\n" /* 5 */
		"(allow file-read-metadata (literal \"/Users/me\"))\n",             /* 6 */
	[P_SPEC] = "(version 1)(deny default)\n"                                   /* 0 */
		"(allow file-read-data (subpath \"/\"))\n"                          /* 1 */
		"(deny file-read* (literal \"/f\"))\n",                              /* 2 */
	[P_UNF_AFTER] = "(version 1)(allow default)\n"                             /* 0 */
		"(deny file-read* (subpath \"/s\"))\n"                               /* 1 */
		"(allow file-read*)\n",                                              /* 2 */
	[P_UNF_BEFORE] = "(version 1)(allow default)\n"                            /* 0 */
		"(allow file-read*)\n"                                               /* 1 */
		"(deny file-read* (subpath \"/s\"))\n",                              /* 2 */
	[P_ORDER] = "(version 1)(deny default)\n"                                  /* 0 */
		"(allow file-read* (subpath \"/a\"))\n"                              /* 1 */
		"(deny file-read* (subpath \"/a/b\"))\n"                             /* 2 */
		"(allow file-read* (literal \"/a/b/c\"))\n",                         /* 3 */
	[P_ORDER_REV] = "(version 1)(deny default)\n"                              /* 0 */
		"(allow file-read* (literal \"/a/b/c\"))\n"                          /* 1 */
		"(deny file-read* (subpath \"/a/b\"))\n"                             /* 2 */
		"(allow file-read* (subpath \"/a\"))\n",                             /* 3 */
	[P_DEF_END] = "(version 1)\n"
		"(allow file-read* (subpath \"/a\"))\n"                              /* 0 */
		"(deny default)\n",                                                  /* 1 */
	[P_DEF_NET] = "(version 1)\n"
		"(deny network*)\n"                                                  /* 0 */
		"(allow default)\n",                                                 /* 1 */
	[P_NO_DEFAULT] = "(version 1)\n"
		"(deny file-write* (subpath \"/x\"))\n",                             /* 0 */
	[P_TWO_DEFAULTS] = "(version 1)\n"
		"(allow default)\n"                                                  /* 0 */
		"(deny default)\n",                                                  /* 1 */
	[P_SUBPATH] = "(version 1)(deny default)\n"                                /* 0 */
		"(allow file-read* (subpath \"/a/b\"))\n"                            /* 1 */
		"(allow file-write* (subpath \"/\"))\n"                              /* 2 */
		"(allow file-read-metadata (subpath \"/c/\"))\n"                     /* 3 */
		"(allow file-read-data (literal \"/d/\"))\n"                         /* 4 */
		"(allow file-read-data (literal \"/e\"))\n"                          /* 5 */
		"(allow file-read-data (prefix \"/p\"))\n"                           /* 6 */
		"(allow file-read-data (prefix \"/q/\"))\n",                         /* 7 */
	[P_ALIAS] = "(version 1)(deny default)\n"                                  /* 0 */
		"(allow file-read* (subpath \"/private/tmp\"))\n"                    /* 1 */
		"(allow file-write* (subpath \"/tmp\"))\n"                           /* 2 */
		"(allow file-read* (literal \"/private/etc/hosts\"))\n"              /* 3 */
		"(allow file-read* (subpath \"/private/var/db\"))\n",                /* 4 */
	[P_REGEX] = "(version 1)(deny default)\n"                                  /* 0 */
		"(allow file-read* (regex #\"^/r/[^/]+$\"))\n"                       /* 1 */
		"(allow file-read* (regex #\"\\.txt$\"))\n"                          /* 2 */
		"(allow file-write* (regex #\"^/w(/|$)\"))\n"                        /* 3 */
		"(allow file-read-metadata (regex \"^/m\\.x$\"))\n"                  /* 4 */
		"(allow file-read-xattr (regex #\"^/x/a\\.b$\"))\n",                 /* 5 */
	[P_BAD_REGEX] = "(version 1)(deny default)\n"                              /* 0 */
		"(allow file-read-data (subpath \"/ok\"))\n"                         /* 1 */
		"(allow file-read-data (regex #\"(\"))\n",                           /* 2 */
	[P_REQ] = "(version 1)(deny default)\n"                                    /* 0 */
		"(allow file-read* (require-all (subpath \"/a\") (vnode-type directory)))\n" /* 1 */
		"(allow file-write* (require-any (literal \"/b\") (literal \"/c\")))\n" /* 2 */
		"(allow file-read-metadata (require-not (subpath \"/h\")))\n"        /* 3 */
		"(allow file-read-data (require-all (subpath \"/x\") (require-not (literal \"/x/secret\"))))\n" /* 4 */
		"(allow file-read-xattr (literal \"/v\") (vnode-type regular-file))\n", /* 5 */
	[P_OPAQUE] = "(version 1)(allow default)\n"                                /* 0 */
		"(deny file-read* (subpath \"/s\"))\n"                               /* 1 */
		"(allow file-read* (extension \"com.apple.x\"))\n"                   /* 2 */
		"(deny file-write* (subpath (param \"UNBOUND\")))\n"                 /* 3 */
		"(allow file-write* (subpath \"/w\"))\n",                            /* 4 */
	[P_IMPORT] = "(version 1)(allow default)\n"                                /* 0 */
		"(import \"system.sb\")\n",
	[P_DEFINE] = "(version 1)(define x \"/a\")\n"
		"(allow default)\n"                                                  /* 0 */
		"(deny file-read* (subpath x))\n",                                   /* 1 */
	[P_PROCESS] = "(version 1)(deny default)\n"                                /* 0 */
		"(allow mach-lookup (global-name \"x\"))\n"                          /* 1 */
		"(allow process-exec (literal \"/bin/sh\"))\n"                       /* 2 */
		"(allow process* (subpath \"/usr/bin\"))\n",                         /* 3 */
	[P_HIER] = "(version 1)(deny default)\n"                                   /* 0 */
		"(allow file* (subpath \"/f\"))\n"                                   /* 1 */
		"(deny file-write* (subpath \"/f/ro\"))\n"                           /* 2 */
		"(allow file-write-create (subpath \"/f/ro/drop\"))\n"               /* 3 */
		"(allow file-test-existence (subpath \"/e\"))\n",                    /* 4 */
	[P_MULTI] = "(version 1)(deny default)\n"                                  /* 0 */
		"(allow file-read-data file-write-data (literal \"/m\" \"/n\"))\n"   /* 1 */
		"(deny file-write-data (literal \"/n\") (with no-report))\n",        /* 2 */
	[P_COND] = "(version 1)(deny default)\n"                                   /* 0 */
		"(allow file-read* (subpath \"/a\"))\n"                              /* 1 */
		"(if (param \"X\") (allow file-write* (subpath \"/w\"))\n"           /* 2 */
		"  (deny file-read* (literal \"/a/s\")))\n",                          /* 3 */
};

enum { A = SB_DEC_ALLOW, D = SB_DEC_DENY, U = SB_DEC_UNKNOWN };
enum { NONE = -1, ANY = -2 };   /* rule: implicit fallback / not checked */
enum { DIR = SB_VNODE_DIRECTORY, REG = SB_VNODE_REGULAR };

#define RD SB_OP_FILE_READ_DATA
#define MD SB_OP_FILE_READ_METADATA
#define XA SB_OP_FILE_READ_XATTR
#define R_ SB_OP_FILE_READ
#define WD SB_OP_FILE_WRITE_DATA
#define WC SB_OP_FILE_WRITE_CREATE
#define WU SB_OP_FILE_WRITE_UNLINK
#define W_ SB_OP_FILE_WRITE

struct ecase {
	int prof;
	int op;
	char path[48];
	unsigned vnode;
	int kind;
	int rule;        /* index of the deciding rule in the profile, NONE, ANY */
	int disagree;    /* 1/0: models_disagree expected; -1 not checked */
};

static const struct ecase cases[] = {
	/* The original's profile (docs/migration.md, R1-R8). */
	{ P_SEED, MD, "/Users/me", 0, A, 6, 0 },
	{ P_SEED, RD, "/Users/me", DIR, D, 4, 0 },
	{ P_SEED, RD, "/Users/me/.ssh/id_rsa", 0, D, 4, 0 },
	{ P_SEED, MD, "/Users/me/.ssh/id_rsa", 0, D, 4, 0 },
	{ P_SEED, XA, "/Users/me/.ssh", 0, D, 4, 0 },
	{ P_SEED, RD, "/Users/me/src/app/main.c", 0, A, 5, 0 },
	{ P_SEED, RD, "/Users/me/src/app", DIR, A, 5, 0 },
	{ P_SEED, WC, "/Users/me/src/app/x", 0, A, 2, 0 },
	{ P_SEED, WD, "/Users/me/x", 0, D, 1, 0 },
	{ P_SEED, WC, "/Users/me/.omp/agent.db", 0, A, 2, 0 },
	{ P_SEED, RD, "/Users/me/.omp/agent.db", 0, A, 5, 0 },
	{ P_SEED, WD, "/tmp/x", 0, A, 2, 0 },
	{ P_SEED, WD, "/private/tmp/x", 0, A, 2, 0 },
	{ P_SEED, WD, "/tmp", 0, A, 2, 0 },
	{ P_SEED, WD, "/tmpx", 0, D, 1, 0 },
	{ P_SEED, MD, "/Users/me/src", 0, D, 4, 0 },
	{ P_SEED, RD, "/usr/bin/env", 0, A, 0, 0 },
	{ P_SEED, WD, "/etc/hosts", 0, D, 1, 0 },
	{ P_SEED, WD, "/dev/null", 0, A, 3, 0 },
	{ P_SEED, WD, "/var/folders/zz/T/x", 0, A, 3, 0 },
	{ P_SEED, WD, "/private/var/folders/ab/x", 0, A, 3, 0 },
	{ P_SEED, WD, "/private/var/db/x", 0, D, 1, 0 },
	{ P_SEED, SB_OP_PROCESS_EXEC, "/usr/bin/env", 0, A, 0, 0 },
	{ P_SEED, SB_OP_NETWORK_OUTBOUND, "/private/var/run/x", 0, A, 0, 0 },
	{ P_SEED, XA, "/Users/me/.omp/x", 0, A, 5, 0 },
	{ P_SEED, WU, "/Users/me/.omp/x", 0, A, 2, 0 },
	{ P_SEED, RD, "/Users/mex", 0, A, 0, 0 },
	{ P_SEED, RD, "/Users/me/src/apple", 0, D, 4, 0 },
	{ P_SEED, WD, "/Users/me/src/apple", 0, D, 1, 0 },
	{ P_SEED, SB_OP_FILE_TEST_EXISTENCE, "/Users/me/.ssh", 0, A, 0, 0 },
	{ P_SEED, SB_OP_FILE_MAP_EXECUTABLE, "/Users/me/x", 0, A, 0, 0 },
	{ P_SEED, SB_OP_FILE_IOCTL, "/Users/me/x", 0, A, 0, 0 },
	{ P_SEED, SB_OP_FILE_WRITE_SETUGID, "/Users/me/x", 0, A, 0, 0 },
	{ P_SEED, SB_OP_FS_RENAME, "/Users/me/x", 0, A, 0, 0 },
	{ P_SEED, R_, "/Users/me", 0, D, 4, 0 },
	{ P_SEED, W_, "/Users/me/src/app", 0, A, 2, 0 },
	{ P_SEED, SB_OP_FILE_WRITE_MODE, "/Users/me/.bashrc", 0, D, 1, 0 },
	{ P_SEED, SB_OP_FILE_ALL, "/Users/me", 0, A, 0, 0 },

	/* Specificity: the more specific op is consulted first, in any order. */
	{ P_SPEC, RD, "/f", 0, A, 1, 1 },
	{ P_SPEC, MD, "/f", 0, D, 2, 0 },
	{ P_SPEC, XA, "/g", 0, D, 0, 0 },
	{ P_SPEC, RD, "/g", 0, A, 1, 0 },
	{ P_SPEC, WD, "/f", 0, D, 0, 0 },
	{ P_SPEC, R_, "/f", 0, D, 2, 0 },
	{ P_SPEC, R_, "/g", 0, D, 0, 0 },

	/* Unfiltered rules are that op's default, in either order. */
	{ P_UNF_AFTER, RD, "/s/x", 0, D, 1, 1 },
	{ P_UNF_AFTER, RD, "/s", 0, D, 1, 1 },
	{ P_UNF_AFTER, RD, "/t", 0, A, 2, 0 },
	{ P_UNF_AFTER, WD, "/s/x", 0, A, 0, 0 },
	{ P_UNF_BEFORE, RD, "/s/x", 0, D, 2, 0 },
	{ P_UNF_BEFORE, MD, "/s", 0, D, 2, 0 },
	{ P_UNF_BEFORE, RD, "/t", 0, A, 1, 0 },
	{ P_UNF_BEFORE, RD, "/sx", 0, A, 1, 0 },

	/* Order: the last matching filtered rule of an op wins. */
	{ P_ORDER, RD, "/a/x", 0, A, 1, 0 },
	{ P_ORDER, RD, "/a", 0, A, 1, 0 },
	{ P_ORDER, RD, "/a/b", 0, D, 2, 0 },
	{ P_ORDER, RD, "/a/b/c", 0, A, 3, 0 },
	{ P_ORDER, RD, "/a/b/c/d", 0, D, 2, 0 },
	{ P_ORDER, RD, "/a/b/cd", 0, D, 2, 0 },
	{ P_ORDER, RD, "/a/bc", 0, A, 1, 0 },
	{ P_ORDER, RD, "/b", 0, D, 0, 0 },
	{ P_ORDER, WD, "/a/x", 0, D, 0, 0 },
	{ P_ORDER_REV, RD, "/a/b/c", 0, A, 3, 0 },
	{ P_ORDER_REV, RD, "/a/b", 0, A, 3, 0 },
	{ P_ORDER_REV, RD, "/a/b/x", 0, A, 3, 0 },
	{ P_ORDER_REV, RD, "/b", 0, D, 0, 0 },

	/* default is a fallback, not a positional rule. */
	{ P_DEF_END, RD, "/a/x", 0, A, 0, 0 },
	{ P_DEF_END, RD, "/b", 0, D, 1, 0 },
	{ P_DEF_END, WD, "/a/x", 0, D, 1, 0 },
	{ P_DEF_NET, SB_OP_NETWORK_OUTBOUND, "/x", 0, D, 0, 0 },
	{ P_DEF_NET, SB_OP_NETWORK_BIND, "/x", 0, D, 0, 0 },
	{ P_DEF_NET, SB_OP_NETWORK_INBOUND, "/x", 0, D, 0, 0 },
	{ P_DEF_NET, SB_OP_PROCESS_FORK, "/x", 0, A, 1, 0 },
	{ P_DEF_NET, RD, "/x", 0, A, 1, 0 },
	{ P_NO_DEFAULT, WD, "/x/y", 0, D, 0, 0 },
	{ P_NO_DEFAULT, WD, "/y", 0, A, NONE, 0 },
	{ P_NO_DEFAULT, RD, "/x", 0, A, NONE, 0 },
	{ P_TWO_DEFAULTS, RD, "/x", 0, D, 1, 0 },
	{ P_TWO_DEFAULTS, SB_OP_SIGNAL, "/x", 0, D, 1, 0 },

	/* Subpath boundaries, literal vs subpath, trailing slashes, prefix. */
	{ P_SUBPATH, RD, "/a/b", 0, A, 1, 0 },
	{ P_SUBPATH, RD, "/a/b/c", 0, A, 1, 0 },
	{ P_SUBPATH, RD, "/a/b/c/d/e", 0, A, 1, 0 },
	{ P_SUBPATH, MD, "/a/bc", 0, D, 0, 0 },
	{ P_SUBPATH, MD, "/a", 0, D, 0, 0 },
	{ P_SUBPATH, MD, "/a/b.c", 0, D, 0, 0 },
	{ P_SUBPATH, WD, "/anything/at/all", 0, A, 2, 0 },
	{ P_SUBPATH, WD, "/", 0, A, 2, 0 },
	{ P_SUBPATH, MD, "/c", 0, D, 0, 0 },
	{ P_SUBPATH, MD, "/c/x", 0, D, 0, 0 },
	{ P_SUBPATH, RD, "/d", 0, D, 0, 0 },
	{ P_SUBPATH, RD, "/e", 0, A, 5, 0 },
	{ P_SUBPATH, RD, "/e/x", 0, D, 0, 0 },
	{ P_SUBPATH, RD, "/ee", 0, D, 0, 0 },
	{ P_SUBPATH, MD, "/e", 0, D, 0, 0 },
	{ P_SUBPATH, RD, "/p", 0, A, 6, 0 },
	{ P_SUBPATH, RD, "/pq", 0, A, 6, 0 },
	{ P_SUBPATH, RD, "/p/x", 0, A, 6, 0 },
	{ P_SUBPATH, RD, "/o", 0, D, 0, 0 },
	{ P_SUBPATH, RD, "/q", 0, D, 0, 0 },
	{ P_SUBPATH, RD, "/q/x", 0, A, 7, 0 },

	/* /private aliases: queries resolve, filter strings do not. */
	{ P_ALIAS, RD, "/tmp/x", 0, A, 1, 0 },
	{ P_ALIAS, RD, "/private/tmp/x", 0, A, 1, 0 },
	{ P_ALIAS, RD, "/tmp", 0, A, 1, 0 },
	{ P_ALIAS, WD, "/tmp/x", 0, D, 0, 0 },
	{ P_ALIAS, WD, "/private/tmp", 0, D, 0, 0 },
	{ P_ALIAS, RD, "/etc/hosts", 0, A, 3, 0 },
	{ P_ALIAS, RD, "/private/etc/hosts", 0, A, 3, 0 },
	{ P_ALIAS, RD, "/etc", 0, D, 0, 0 },
	{ P_ALIAS, RD, "/var/db/x", 0, A, 4, 0 },
	{ P_ALIAS, RD, "/varx/db", 0, D, 0, 0 },
	{ P_ALIAS, RD, "/etchosts", 0, D, 0, 0 },
	{ P_ALIAS, RD, "/private/tmpx", 0, D, 0, 0 },

	/* Regexes: POSIX extended, searched anywhere unless anchored. */
	{ P_REGEX, RD, "/r/a", 0, A, 1, 0 },
	{ P_REGEX, RD, "/r/a/b", 0, D, 0, 0 },
	{ P_REGEX, RD, "/r", 0, D, 0, 0 },
	{ P_REGEX, RD, "/x/r/a", 0, D, 0, 0 },
	{ P_REGEX, RD, "/x/y.txt", 0, A, 2, 0 },
	{ P_REGEX, RD, "/x/ytxt", 0, D, 0, 0 },
	{ P_REGEX, RD, "/x/y.txt/z", 0, D, 0, 0 },
	{ P_REGEX, WD, "/w", 0, A, 3, 0 },
	{ P_REGEX, WD, "/w/x", 0, A, 3, 0 },
	{ P_REGEX, WD, "/wx", 0, D, 0, 0 },
	{ P_REGEX, WD, "/a/w", 0, D, 0, 0 },
	{ P_REGEX, MD, "/m.x", 0, A, 4, 0 },
	{ P_REGEX, MD, "/mzx", 0, A, 4, 0 },   /* "\." in a plain string is "." */
	{ P_REGEX, XA, "/x/a.b", 0, A, 5, 0 },
	{ P_REGEX, XA, "/x/azb", 0, D, 0, 0 },
	{ P_BAD_REGEX, RD, "/ok/x", 0, A, 1, 0 },     /* both candidates allow */
	{ P_BAD_REGEX, RD, "/no/x", 0, U, 2, -1 },
	{ P_BAD_REGEX, MD, "/ok/x", 0, D, 0, 0 },

	/* require-* combinations and the vnode type. */
	{ P_REQ, RD, "/a/d", DIR, A, 1, 0 },
	{ P_REQ, RD, "/a/f", REG, D, 0, 0 },
	{ P_REQ, RD, "/a/f", 0, U, 1, -1 },
	{ P_REQ, RD, "/b/x", 0, D, 0, 0 },
	{ P_REQ, WD, "/b", 0, A, 2, 0 },
	{ P_REQ, WD, "/c", 0, A, 2, 0 },
	{ P_REQ, WD, "/d", 0, D, 0, 0 },
	{ P_REQ, WD, "/b/x", 0, D, 0, 0 },
	{ P_REQ, MD, "/h/x", 0, D, 0, 0 },
	{ P_REQ, MD, "/h", 0, D, 0, 0 },
	{ P_REQ, MD, "/z", 0, A, 3, 0 },
	{ P_REQ, MD, "/hx", 0, A, 3, 0 },
	{ P_REQ, RD, "/x/y", 0, A, 4, 0 },
	{ P_REQ, RD, "/x/secret", REG, D, 0, 0 },
	{ P_REQ, RD, "/x/secret/y", REG, A, 4, 0 },
	{ P_REQ, XA, "/anything", REG, A, 5, 0 },
	{ P_REQ, XA, "/v", DIR, A, 5, 0 },
	{ P_REQ, XA, "/w", DIR, D, 0, 0 },
	{ P_REQ, XA, "/w", 0, U, 5, -1 },
	{ P_REQ, XA, "/v", 0, A, 5, 0 },

	/* Unknowns: opaque filters and unbound params, only where they matter. */
	{ P_OPAQUE, RD, "/s/x", 0, U, 2, -1 },
	{ P_OPAQUE, MD, "/s", 0, U, 2, -1 },
	{ P_OPAQUE, RD, "/t", 0, A, 0, 0 },
	{ P_OPAQUE, WD, "/w/x", 0, A, 4, 0 },
	{ P_OPAQUE, WD, "/q", 0, U, 3, -1 },
	{ P_OPAQUE, SB_OP_PROCESS_EXEC, "/q", 0, A, 0, 0 },
	{ P_IMPORT, RD, "/x", 0, U, NONE, -1 },
	{ P_IMPORT, SB_OP_NETWORK_OUTBOUND, "/x", 0, U, NONE, -1 },
	{ P_DEFINE, RD, "/a/b", 0, D, 1, 0 },
	{ P_DEFINE, RD, "/ab", 0, A, 0, 0 },
	{ P_SEED, SB_OP_OTHER, "/x", 0, U, NONE, -1 },
	{ P_SEED, RD, "relative/path", 0, U, NONE, -1 },

	/* Operation hierarchy. */
	{ P_PROCESS, SB_OP_PROCESS_EXEC, "/bin/sh", 0, A, 2, 0 },
	{ P_PROCESS, SB_OP_PROCESS_EXEC, "/usr/bin/env", 0, A, 3, 0 },
	{ P_PROCESS, SB_OP_PROCESS_EXEC, "/opt/x", 0, D, 0, 0 },
	{ P_PROCESS, SB_OP_PROCESS_FORK, "/x", 0, D, 0, 0 },
	{ P_PROCESS, SB_OP_PROCESS_FORK, "/usr/bin/x", 0, A, 3, 0 },
	{ P_PROCESS, SB_OP_PROCESS_EXEC_INTERPRETER, "/bin/sh", 0, A, 2, 0 },
	{ P_PROCESS, SB_OP_PROCESS_INFO, "/usr/bin/x", 0, D, 0, 0 },
	{ P_PROCESS, RD, "/bin/sh", 0, D, 0, 0 },
	{ P_HIER, RD, "/f/x", 0, A, 1, 0 },
	{ P_HIER, XA, "/f", 0, A, 1, 0 },
	{ P_HIER, WD, "/f/x", 0, A, 1, 0 },
	{ P_HIER, WD, "/f/ro/x", 0, D, 2, 0 },
	{ P_HIER, WC, "/f/ro/x", 0, D, 2, 0 },
	{ P_HIER, WC, "/f/ro/drop/x", 0, A, 3, 0 },
	{ P_HIER, WU, "/f/ro/drop/x", 0, D, 2, 0 },
	{ P_HIER, SB_OP_FILE_IOCTL, "/f/x", 0, A, 1, 0 },
	{ P_HIER, SB_OP_FILE_MKNOD, "/f/dev", 0, A, 1, 0 },
	{ P_HIER, SB_OP_FILE_TEST_EXISTENCE, "/f/x", 0, D, 0, 0 },
	{ P_HIER, SB_OP_FILE_TEST_EXISTENCE, "/e/x", 0, A, 4, 0 },
	{ P_HIER, SB_OP_FILE_LINK, "/f/x", 0, D, 0, 0 },
	{ P_HIER, SB_OP_FILE_CLONE, "/f/x", 0, D, 0, 0 },
	{ P_HIER, SB_OP_FS_RENAME, "/f/x", 0, D, 0, 0 },
	{ P_HIER, SB_OP_FILE_ALL, "/f/x", 0, A, 1, 0 },
	{ P_HIER, SB_OP_FILE_ALL, "/g", 0, D, 0, 0 },

	/* Several ops and multi-argument filters; modifiers never decide. */
	{ P_MULTI, RD, "/m", 0, A, 1, 0 },
	{ P_MULTI, RD, "/n", 0, A, 1, 0 },
	{ P_MULTI, WD, "/m", 0, A, 1, 0 },
	{ P_MULTI, WD, "/n", 0, D, 2, 0 },
	{ P_MULTI, WC, "/m", 0, D, 0, 0 },
	{ P_MULTI, RD, "/o", 0, D, 0, 0 },

	/* Rules inside (if ...) carry their condition: unknown where they decide. */
	{ P_COND, WD, "/w/x", 0, U, 2, -1 },
	{ P_COND, WD, "/z", 0, D, 0, 0 },
	{ P_COND, RD, "/a/x", 0, A, 1, 0 },
	{ P_COND, RD, "/a/s", 0, U, 3, -1 },
	{ P_COND, RD, "/b", 0, D, 0, 0 },
};

static sb_profile *load(int which, sb_diag *d)
{
	const char *text = profiles[which];
	sb_profile *p = sb_sbpl_read_ex("case.sb", text, strlen(text), d, SB_READ_CONDITIONALS);
	cr_assert_not_null(p, "profile %d does not read", which);
	return p;
}

static const char *kind_name(int k)
{
	return k == A ? "allow" : k == D ? "deny" : "unknown";
}

Test(eval, decision_table)
{
	FILE *devnull = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
	sb_profile *ps[P__COUNT];
	sb_eval *evs[P__COUNT];
	for (int i = 0; i < P__COUNT; i++) {
		ps[i] = load(i, d);
		evs[i] = sb_eval_new(ps[i], 0);
	}
	size_t n = sizeof cases / sizeof *cases;
	cr_assert(n >= 150, "only %zu cases", n);
	for (size_t i = 0; i < n; i++) {
		const struct ecase *c = &cases[i];
		const sb_profile *p = ps[c->prof];
		sb_decision r = sb_eval_decide(evs[c->prof], (sb_op)c->op, c->path, c->vnode);
		cr_expect(eq(int, r.kind, c->kind), "case %zu: %s %s: got %s, want %s", i,
			  sb_op_name((sb_op)c->op), c->path, kind_name(r.kind), kind_name(c->kind));
		if (c->rule == NONE)
			cr_expect_null(r.rule, "case %zu: %s %s: expected no rule", i, sb_op_name((sb_op)c->op), c->path);
		else if (c->rule >= 0)
			cr_expect(r.rule == p->rules[c->rule], "case %zu: %s %s: deciding rule is not #%d (line %d)",
				  i, sb_op_name((sb_op)c->op), c->path, c->rule, r.rule ? r.rule->loc.line : 0);
		if (c->disagree >= 0)
			cr_expect(eq(int, r.models_disagree, c->disagree), "case %zu: %s %s: models_disagree",
				  i, sb_op_name((sb_op)c->op), c->path);
		if (r.kind == SB_DEC_UNKNOWN)
			cr_expect_not_null(r.reason, "case %zu: an unknown needs a reason", i);
	}
	for (int i = 0; i < P__COUNT; i++) {
		sb_eval_free(evs[i]);
		sb_profile_free(ps[i]);
	}
	sb_diag_free(d);
	fclose(devnull);
}

Test(eval, unknown_reasons)
{
	FILE *devnull = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
	sb_profile *p = load(P_OPAQUE, d);
	sb_decision r = decide_once(p, RD, "/s/x", 0);
	cr_expect(eq(str, (char *)r.reason, "filter not modelled"));
	cr_expect(eq(str, (char *)r.unknown_what, "(extension \"com.apple.x\")"));
	cr_expect(eq(int, r.unknown_loc.line, 3));
	/* the param's spelling is the context's: keep it while reading it */
	sb_eval *ev = sb_eval_new(p, 0);
	r = sb_eval_decide(ev, WD, "/q", 0);
	cr_expect(eq(str, (char *)r.reason, "unbound param"));
	cr_expect(eq(str, (char *)r.unknown_what, "UNBOUND"));
	sb_eval_free(ev);
	sb_profile_free(p);

	p = load(P_IMPORT, d);
	r = decide_once(p, RD, "/x", 0);
	cr_expect(strstr(r.reason, "imported profile") != NULL);
	cr_expect(eq(str, (char *)r.unknown_what, "(import \"system.sb\")"));
	sb_profile_free(p);

	p = load(P_REQ, d);
	r = decide_once(p, RD, "/a/f", 0);
	cr_expect(strstr(r.reason, "vnode") != NULL);
	sb_profile_free(p);

	p = load(P_NO_DEFAULT, d);
	r = decide_once(p, RD, "/y", 0);
	cr_expect(strstr(r.reason, "no default") != NULL);
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(devnull);
}

Test(eval, text_model_reported)
{
	FILE *devnull = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
	sb_profile *p = load(P_SPEC, d);
	sb_decision r = decide_once(p, RD, "/f", 0);
	cr_expect(eq(int, r.kind, A));
	cr_expect(eq(int, r.text_kind, D));
	cr_expect(r.text_rule == p->rules[2]);
	cr_expect(eq(int, r.via_op, RD));
	r = decide_once(p, XA, "/f", 0);
	cr_expect(eq(int, r.via_op, R_));
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(devnull);
}

/* Params bound through the IR binder give the same answers as literals.  */
Test(eval, bound_params)
{
	FILE *devnull = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
	const char *text = "(version 1)(allow default)(deny file-read* (subpath (param \"HOME\")))"
			   "(allow file-read* (subpath (string-append (param \"HOME\") \"/.omp\")))"
			   "(allow file-read* (subpath (param \"EXTRA_READ*\")))";
	sb_profile *p = sb_sbpl_read("b.sb", text, strlen(text), d);
	cr_assert_not_null(p);
	cr_expect(eq(int, decide_once(p, RD, "/Users/me/x", 0).kind, U), "unbound");
	sb_bindings b = { 0 };
	sb_bindings_set(&b, "HOME", "/Users/me");
	const char *extra[] = { "/Users/me/a", "/Users/me/b" };
	sb_bindings_set_list(&b, "EXTRA_READ", extra, 2);
	sb_profile *q = sb_profile_bind(p, &b, NULL, NULL);
	cr_expect(eq(int, decide_once(q, RD, "/Users/me/x", 0).kind, D));
	cr_expect(eq(int, decide_once(q, RD, "/Users/me/.omp/y", 0).kind, A));
	cr_expect(eq(int, decide_once(q, RD, "/Users/me/b/y", 0).kind, A));
	cr_expect(eq(int, decide_once(q, RD, "/Users/me/c", 0).kind, D));
	cr_expect(eq(int, decide_once(q, RD, "/usr/x", 0).kind, A));
	sb_profile_free(q);
	sb_bindings_clear(&b);
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(devnull);
}

Test(eval, convenience_ops)
{
	cr_expect(eq(int, sb_op_from_convenience("read"), RD));
	cr_expect(eq(int, sb_op_from_convenience("list"), RD));
	cr_expect(eq(int, sb_op_from_convenience("stat"), MD));
	cr_expect(eq(int, sb_op_from_convenience("write"), WD));
	cr_expect(eq(int, sb_op_from_convenience("exec"), SB_OP_PROCESS_EXEC));
	cr_expect(eq(int, sb_op_from_convenience("create"), WC));
	cr_expect(eq(int, sb_op_from_convenience("file-read*"), -1));
}

/* The symlink node itself is not resolved: following /tmp needs metadata
 * on the link "/tmp" (docs/sbpl-model.md, "Paths").  */
Test(eval, symlink_node)
{
	FILE *devnull = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
	sb_profile *p = load(P_ALIAS, d);
	cr_expect(eq(int, decide_once(p, MD, "/tmp", SB_VNODE_SYMLINK).kind, A));
	cr_expect(eq(int, decide_node_once(p, MD, "/tmp", SB_VNODE_SYMLINK).kind, D));
	cr_expect(eq(int, decide_node_once(p, MD, "/private/tmp", SB_VNODE_DIRECTORY).kind, A));
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(devnull);
}

/* Without SB_READ_CONDITIONALS (readers whose result is emitted again), an
 * (if ...) is one unmodelled form that may add rules: every answer is
 * unknown.  */
Test(eval, plain_read_keeps_conditionals_whole)
{
	FILE *devnull = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
	const char *text = profiles[P_COND];
	sb_profile *p = sb_sbpl_read("case.sb", text, strlen(text), d);
	cr_assert_not_null(p);
	cr_expect(eq(sz, p->nrules, 2));
	sb_decision r = decide_once(p, RD, "/b", 0);
	cr_expect(eq(int, r.kind, U));
	cr_expect(strstr(r.unknown_what, "(if (param") == r.unknown_what);
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(devnull);
}

/* SB_EVAL_IGNORE_UNMODELLED (sbc diff): the modelled rules decide as if the
 * profile had no active form; the profile itself keeps its forms.  */
Test(eval, ignore_unmodelled_option)
{
	FILE *devnull = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
	const char *text = "(version 1)(deny default)(import \"system.sb\")\n"
			   "(allow file-read* (subpath \"/r\"))\n";
	sb_profile *p = sb_sbpl_read("i.sb", text, strlen(text), d);
	cr_assert_not_null(p);
	cr_assert(eq(sz, p->nunmodelled, 1));
	cr_expect(eq(int, p->unmodelled[0].kind, SB_UNMODELLED_ACTIVE));
	sb_eval *plain = sb_eval_new(p, 0), *rules = sb_eval_new(p, SB_EVAL_IGNORE_UNMODELLED);
	cr_expect(eq(int, sb_eval_decide(plain, RD, "/r/x", 0).kind, U));
	cr_expect(eq(int, sb_eval_decide_indexed(plain, RD, "/r/x", 0).kind, U));
	cr_expect(eq(int, sb_eval_decide(rules, RD, "/r/x", 0).kind, A));
	cr_expect(eq(int, sb_eval_decide(rules, RD, "/q", 0).kind, D));
	cr_expect(eq(int, sb_eval_decide_indexed(rules, RD, "/r/x", 0).kind, A));
	cr_expect(eq(int, sb_eval_decide_indexed(rules, WD, "/r/x", 0).kind, D));
	cr_expect(eq(sz, p->nunmodelled, 1), "the profile is not changed");
	sb_eval_free(plain);
	sb_eval_free(rules);
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(devnull);
}

/* The context keeps what it derives (here a compiled regex) across
 * questions, and two contexts on one profile answer alike.  */
Test(eval, contexts_share_nothing)
{
	FILE *devnull = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
	const char *text = "(version 1)(allow default)\n"
			   "(deny file-read* (regex #\"^/s/[^/]+\\.key$\"))\n";
	sb_profile *p = sb_sbpl_read("r.sb", text, strlen(text), d);
	cr_assert_not_null(p);
	sb_eval *a = sb_eval_new(p, 0);
	for (int i = 0; i < 3; i++) {
		cr_expect(eq(int, sb_eval_decide(a, RD, "/s/a.key", 0).kind, D));
		cr_expect(eq(int, sb_eval_decide(a, RD, "/s/a.txt", 0).kind, A));
	}
	sb_eval *b = sb_eval_new(p, 0);
	cr_expect(eq(int, sb_eval_decide(b, RD, "/s/b.key", 0).kind, D));
	sb_eval_free(a);
	cr_expect(eq(int, sb_eval_decide(b, RD, "/s/t/b.key", 0).kind, A), "b outlives a");
	sb_eval_free(b);
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(devnull);
}
