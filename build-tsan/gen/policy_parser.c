/* A Bison parser, made by GNU Bison 3.8.2.  */

/* Bison implementation for Yacc-like parsers in C

   Copyright (C) 1984, 1989-1990, 2000-2015, 2018-2021 Free Software Foundation,
   Inc.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.

   You should have received a copy of the GNU General Public License
   along with this program.  If not, see <https://www.gnu.org/licenses/>.  */

/* As a special exception, you may create a larger work that contains
   part or all of the Bison parser skeleton and distribute that work
   under terms of your choice, so long as that work isn't itself a
   parser generator using the skeleton or a modified version thereof
   as a parser skeleton.  Alternatively, if you modify or redistribute
   the parser skeleton itself, you may (at your option) remove this
   special exception, which will cause the skeleton and the resulting
   Bison output files to be licensed under the GNU General Public
   License without this special exception.

   This special exception was added by the Free Software Foundation in
   version 2.2 of Bison.  */

/* C LALR(1) parser skeleton written by Richard Stallman, by
   simplifying the original so-called "semantic" parser.  */

/* DO NOT RELY ON FEATURES THAT ARE NOT DOCUMENTED in the manual,
   especially those whose name start with YY_ or yy_.  They are
   private implementation details that can be changed or removed.  */

/* All symbols defined below should begin with yy or YY, to avoid
   infringing on user name space.  This should be done even for local
   variables, as they might otherwise be expanded by user macros.
   There are some unavoidable exceptions within include files to
   define necessary library symbols; they are noted "INFRINGES ON
   USER NAME SPACE" below.  */

/* Identify Bison output, and Bison version.  */
#define YYBISON 30802

/* Bison version string.  */
#define YYBISON_VERSION "3.8.2"

/* Skeleton name.  */
#define YYSKELETON_NAME "yacc.c"

/* Pure parsers.  */
#define YYPURE 2

/* Push parsers.  */
#define YYPUSH 0

/* Pull parsers.  */
#define YYPULL 1

/* Substitute the type names.  */
#define YYSTYPE         SBX_YYSTYPE
#define YYLTYPE         SBX_YYLTYPE
/* Substitute the variable and function names.  */
#define yyparse         sbx_yyparse
#define yylex           sbx_yylex
#define yyerror         sbx_yyerror
#define yydebug         sbx_yydebug
#define yynerrs         sbx_yynerrs


# ifndef YY_CAST
#  ifdef __cplusplus
#   define YY_CAST(Type, Val) static_cast<Type> (Val)
#   define YY_REINTERPRET_CAST(Type, Val) reinterpret_cast<Type> (Val)
#  else
#   define YY_CAST(Type, Val) ((Type) (Val))
#   define YY_REINTERPRET_CAST(Type, Val) ((Type) (Val))
#  endif
# endif
# ifndef YY_NULLPTR
#  if defined __cplusplus
#   if 201103L <= __cplusplus
#    define YY_NULLPTR nullptr
#   else
#    define YY_NULLPTR 0
#   endif
#  else
#   define YY_NULLPTR ((void*)0)
#  endif
# endif

#include "policy_parser.h"
/* Symbol kind.  */
enum yysymbol_kind_t
{
  YYSYMBOL_YYEMPTY = -2,
  YYSYMBOL_YYEOF = 0,                      /* "end of file"  */
  YYSYMBOL_YYerror = 1,                    /* error  */
  YYSYMBOL_YYUNDEF = 2,                    /* "invalid token"  */
  YYSYMBOL_ALLOW = 3,                      /* "allow"  */
  YYSYMBOL_DENY = 4,                       /* "deny"  */
  YYSYMBOL_DEFAULT = 5,                    /* "default"  */
  YYSYMBOL_NETWORK = 6,                    /* "network"  */
  YYSYMBOL_ON = 7,                         /* "on"  */
  YYSYMBOL_OFF = 8,                        /* "off"  */
  YYSYMBOL_INCLUDE = 9,                    /* "include"  */
  YYSYMBOL_LIST = 10,                      /* "list"  */
  YYSYMBOL_PRESET = 11,                    /* "preset"  */
  YYSYMBOL_EXACTLY = 12,                   /* "exactly"  */
  YYSYMBOL_ACKNOWLEDGE = 13,               /* "acknowledge"  */
  YYSYMBOL_READ = 14,                      /* "read"  */
  YYSYMBOL_WRITE = 15,                     /* "write"  */
  YYSYMBOL_STAT_ONLY = 16,                 /* "stat-only"  */
  YYSYMBOL_EXEC = 17,                      /* "exec"  */
  YYSYMBOL_SENSITIVE = 18,                 /* "sensitive"  */
  YYSYMBOL_WIDE = 19,                      /* "wide"  */
  YYSYMBOL_ROOT = 20,                      /* "root name"  */
  YYSYMBOL_ABSPATH = 21,                   /* "absolute path"  */
  YYSYMBOL_TILDEPATH = 22,                 /* "~ path"  */
  YYSYMBOL_ROOTPATH = 23,                  /* "root path"  */
  YYSYMBOL_VARPATH = 24,                   /* "$name"  */
  YYSYMBOL_STRING = 25,                    /* "string"  */
  YYSYMBOL_SEMI = 26,                      /* ";"  */
  YYSYMBOL_YYACCEPT = 27,                  /* $accept  */
  YYSYMBOL_policy = 28,                    /* policy  */
  YYSYMBOL_stmt = 29,                      /* stmt  */
  YYSYMBOL_action = 30,                    /* action  */
  YYSYMBOL_opt_action = 31,                /* opt_action  */
  YYSYMBOL_accesses = 32,                  /* accesses  */
  YYSYMBOL_access = 33,                    /* access  */
  YYSYMBOL_hosts = 34,                     /* hosts  */
  YYSYMBOL_opt_targets = 35,               /* opt_targets  */
  YYSYMBOL_targets = 36,                   /* targets  */
  YYSYMBOL_target = 37,                    /* target  */
  YYSYMBOL_path = 38,                      /* path  */
  YYSYMBOL_opt_ack = 39,                   /* opt_ack  */
  YYSYMBOL_kinds = 40,                     /* kinds  */
  YYSYMBOL_kind = 41                       /* kind  */
};
typedef enum yysymbol_kind_t yysymbol_kind_t;



/* Unqualified %code blocks.  */
#line 27 "grammar/policy.y"

#include <stdlib.h>
#include <string.h>
#include "policy_lexer.h"

/* Locations span from the first to the last non-empty symbol of a rule,
 * so `read /x;` (no action) starts at `read`, not at the end of the
 * previous statement.  An empty symbol has zero width (col == end_col);
 * every token is at least one byte wide.  */
#define SBX_LOC_EMPTY(L) ((L).line == (L).end_line && (L).col == (L).end_col)
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                     \
	do {                                                            \
		if (N) {                                                \
			int first_ = 1;                                 \
			while (first_ < (N) && SBX_LOC_EMPTY(YYRHSLOC(Rhs, first_))) \
				first_++;                               \
			(Cur) = YYRHSLOC(Rhs, first_);                  \
			(Cur).end_line = YYRHSLOC(Rhs, N).end_line;     \
			(Cur).end_col = YYRHSLOC(Rhs, N).end_col;       \
		} else {                                                \
			(Cur) = YYRHSLOC(Rhs, 0);                       \
			(Cur).line = (Cur).end_line;                    \
			(Cur).col = (Cur).end_col;                      \
		}                                                       \
	} while (0)

static void sbx_yyerror(sb_loc *loc, yyscan_t scanner, struct sbx_pctx *ctx, const char *msg);

#line 181 "build-tsan/gen/policy_parser.c"

#ifdef short
# undef short
#endif

/* On compilers that do not define __PTRDIFF_MAX__ etc., make sure
   <limits.h> and (if available) <stdint.h> are included
   so that the code can choose integer types of a good width.  */

#ifndef __PTRDIFF_MAX__
# include <limits.h> /* INFRINGES ON USER NAME SPACE */
# if defined __STDC_VERSION__ && 199901 <= __STDC_VERSION__
#  include <stdint.h> /* INFRINGES ON USER NAME SPACE */
#  define YY_STDINT_H
# endif
#endif

/* Narrow types that promote to a signed type and that can represent a
   signed or unsigned integer of at least N bits.  In tables they can
   save space and decrease cache pressure.  Promoting to a signed type
   helps avoid bugs in integer arithmetic.  */

#ifdef __INT_LEAST8_MAX__
typedef __INT_LEAST8_TYPE__ yytype_int8;
#elif defined YY_STDINT_H
typedef int_least8_t yytype_int8;
#else
typedef signed char yytype_int8;
#endif

#ifdef __INT_LEAST16_MAX__
typedef __INT_LEAST16_TYPE__ yytype_int16;
#elif defined YY_STDINT_H
typedef int_least16_t yytype_int16;
#else
typedef short yytype_int16;
#endif

/* Work around bug in HP-UX 11.23, which defines these macros
   incorrectly for preprocessor constants.  This workaround can likely
   be removed in 2023, as HPE has promised support for HP-UX 11.23
   (aka HP-UX 11i v2) only through the end of 2022; see Table 2 of
   <https://h20195.www2.hpe.com/V2/getpdf.aspx/4AA4-7673ENW.pdf>.  */
#ifdef __hpux
# undef UINT_LEAST8_MAX
# undef UINT_LEAST16_MAX
# define UINT_LEAST8_MAX 255
# define UINT_LEAST16_MAX 65535
#endif

#if defined __UINT_LEAST8_MAX__ && __UINT_LEAST8_MAX__ <= __INT_MAX__
typedef __UINT_LEAST8_TYPE__ yytype_uint8;
#elif (!defined __UINT_LEAST8_MAX__ && defined YY_STDINT_H \
       && UINT_LEAST8_MAX <= INT_MAX)
typedef uint_least8_t yytype_uint8;
#elif !defined __UINT_LEAST8_MAX__ && UCHAR_MAX <= INT_MAX
typedef unsigned char yytype_uint8;
#else
typedef short yytype_uint8;
#endif

#if defined __UINT_LEAST16_MAX__ && __UINT_LEAST16_MAX__ <= __INT_MAX__
typedef __UINT_LEAST16_TYPE__ yytype_uint16;
#elif (!defined __UINT_LEAST16_MAX__ && defined YY_STDINT_H \
       && UINT_LEAST16_MAX <= INT_MAX)
typedef uint_least16_t yytype_uint16;
#elif !defined __UINT_LEAST16_MAX__ && USHRT_MAX <= INT_MAX
typedef unsigned short yytype_uint16;
#else
typedef int yytype_uint16;
#endif

#ifndef YYPTRDIFF_T
# if defined __PTRDIFF_TYPE__ && defined __PTRDIFF_MAX__
#  define YYPTRDIFF_T __PTRDIFF_TYPE__
#  define YYPTRDIFF_MAXIMUM __PTRDIFF_MAX__
# elif defined PTRDIFF_MAX
#  ifndef ptrdiff_t
#   include <stddef.h> /* INFRINGES ON USER NAME SPACE */
#  endif
#  define YYPTRDIFF_T ptrdiff_t
#  define YYPTRDIFF_MAXIMUM PTRDIFF_MAX
# else
#  define YYPTRDIFF_T long
#  define YYPTRDIFF_MAXIMUM LONG_MAX
# endif
#endif

#ifndef YYSIZE_T
# ifdef __SIZE_TYPE__
#  define YYSIZE_T __SIZE_TYPE__
# elif defined size_t
#  define YYSIZE_T size_t
# elif defined __STDC_VERSION__ && 199901 <= __STDC_VERSION__
#  include <stddef.h> /* INFRINGES ON USER NAME SPACE */
#  define YYSIZE_T size_t
# else
#  define YYSIZE_T unsigned
# endif
#endif

#define YYSIZE_MAXIMUM                                  \
  YY_CAST (YYPTRDIFF_T,                                 \
           (YYPTRDIFF_MAXIMUM < YY_CAST (YYSIZE_T, -1)  \
            ? YYPTRDIFF_MAXIMUM                         \
            : YY_CAST (YYSIZE_T, -1)))

#define YYSIZEOF(X) YY_CAST (YYPTRDIFF_T, sizeof (X))


/* Stored state numbers (used for stacks). */
typedef yytype_int8 yy_state_t;

/* State numbers in computations.  */
typedef int yy_state_fast_t;

#ifndef YY_
# if defined YYENABLE_NLS && YYENABLE_NLS
#  if ENABLE_NLS
#   include <libintl.h> /* INFRINGES ON USER NAME SPACE */
#   define YY_(Msgid) dgettext ("bison-runtime", Msgid)
#  endif
# endif
# ifndef YY_
#  define YY_(Msgid) Msgid
# endif
#endif


#ifndef YY_ATTRIBUTE_PURE
# if defined __GNUC__ && 2 < __GNUC__ + (96 <= __GNUC_MINOR__)
#  define YY_ATTRIBUTE_PURE __attribute__ ((__pure__))
# else
#  define YY_ATTRIBUTE_PURE
# endif
#endif

#ifndef YY_ATTRIBUTE_UNUSED
# if defined __GNUC__ && 2 < __GNUC__ + (7 <= __GNUC_MINOR__)
#  define YY_ATTRIBUTE_UNUSED __attribute__ ((__unused__))
# else
#  define YY_ATTRIBUTE_UNUSED
# endif
#endif

/* Suppress unused-variable warnings by "using" E.  */
#if ! defined lint || defined __GNUC__
# define YY_USE(E) ((void) (E))
#else
# define YY_USE(E) /* empty */
#endif

/* Suppress an incorrect diagnostic about yylval being uninitialized.  */
#if defined __GNUC__ && ! defined __ICC && 406 <= __GNUC__ * 100 + __GNUC_MINOR__
# if __GNUC__ * 100 + __GNUC_MINOR__ < 407
#  define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN                           \
    _Pragma ("GCC diagnostic push")                                     \
    _Pragma ("GCC diagnostic ignored \"-Wuninitialized\"")
# else
#  define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN                           \
    _Pragma ("GCC diagnostic push")                                     \
    _Pragma ("GCC diagnostic ignored \"-Wuninitialized\"")              \
    _Pragma ("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
# endif
# define YY_IGNORE_MAYBE_UNINITIALIZED_END      \
    _Pragma ("GCC diagnostic pop")
#else
# define YY_INITIAL_VALUE(Value) Value
#endif
#ifndef YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
# define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
# define YY_IGNORE_MAYBE_UNINITIALIZED_END
#endif
#ifndef YY_INITIAL_VALUE
# define YY_INITIAL_VALUE(Value) /* Nothing. */
#endif

#if defined __cplusplus && defined __GNUC__ && ! defined __ICC && 6 <= __GNUC__
# define YY_IGNORE_USELESS_CAST_BEGIN                          \
    _Pragma ("GCC diagnostic push")                            \
    _Pragma ("GCC diagnostic ignored \"-Wuseless-cast\"")
# define YY_IGNORE_USELESS_CAST_END            \
    _Pragma ("GCC diagnostic pop")
#endif
#ifndef YY_IGNORE_USELESS_CAST_BEGIN
# define YY_IGNORE_USELESS_CAST_BEGIN
# define YY_IGNORE_USELESS_CAST_END
#endif


#define YY_ASSERT(E) ((void) (0 && (E)))

#if 1

/* The parser invokes alloca or malloc; define the necessary symbols.  */

# ifdef YYSTACK_ALLOC
   /* Pacify GCC's 'empty if-body' warning.  */
#  define YYSTACK_FREE(Ptr) do { /* empty */; } while (0)
#  ifndef YYSTACK_ALLOC_MAXIMUM
    /* The OS might guarantee only one guard page at the bottom of the stack,
       and a page size can be as small as 4096 bytes.  So we cannot safely
       invoke alloca (N) if N exceeds 4096.  Use a slightly smaller number
       to allow for a few compiler-allocated temporary stack slots.  */
#   define YYSTACK_ALLOC_MAXIMUM 4032 /* reasonable circa 2006 */
#  endif
# else
#  define YYSTACK_ALLOC YYMALLOC
#  define YYSTACK_FREE YYFREE
#  ifndef YYSTACK_ALLOC_MAXIMUM
#   define YYSTACK_ALLOC_MAXIMUM YYSIZE_MAXIMUM
#  endif
#  if (defined __cplusplus && ! defined EXIT_SUCCESS \
       && ! ((defined YYMALLOC || defined malloc) \
             && (defined YYFREE || defined free)))
#   include <stdlib.h> /* INFRINGES ON USER NAME SPACE */
#   ifndef EXIT_SUCCESS
#    define EXIT_SUCCESS 0
#   endif
#  endif
#  ifndef YYMALLOC
#   define YYMALLOC malloc
#   if ! defined malloc && ! defined EXIT_SUCCESS
void *malloc (YYSIZE_T); /* INFRINGES ON USER NAME SPACE */
#   endif
#  endif
#  ifndef YYFREE
#   define YYFREE free
#   if ! defined free && ! defined EXIT_SUCCESS
void free (void *); /* INFRINGES ON USER NAME SPACE */
#   endif
#  endif
# endif
# define YYCOPY_NEEDED 1
#endif /* 1 */

#if (! defined yyoverflow \
     && (! defined __cplusplus \
         || (defined SBX_YYLTYPE_IS_TRIVIAL && SBX_YYLTYPE_IS_TRIVIAL \
             && defined SBX_YYSTYPE_IS_TRIVIAL && SBX_YYSTYPE_IS_TRIVIAL)))

/* A type that is properly aligned for any stack member.  */
union yyalloc
{
  yy_state_t yyss_alloc;
  YYSTYPE yyvs_alloc;
  YYLTYPE yyls_alloc;
};

/* The size of the maximum gap between one aligned stack and the next.  */
# define YYSTACK_GAP_MAXIMUM (YYSIZEOF (union yyalloc) - 1)

/* The size of an array large to enough to hold all stacks, each with
   N elements.  */
# define YYSTACK_BYTES(N) \
     ((N) * (YYSIZEOF (yy_state_t) + YYSIZEOF (YYSTYPE) \
             + YYSIZEOF (YYLTYPE)) \
      + 2 * YYSTACK_GAP_MAXIMUM)

# define YYCOPY_NEEDED 1

/* Relocate STACK from its old location to the new one.  The
   local variables YYSIZE and YYSTACKSIZE give the old and new number of
   elements in the stack, and YYPTR gives the new location of the
   stack.  Advance YYPTR to a properly aligned location for the next
   stack.  */
# define YYSTACK_RELOCATE(Stack_alloc, Stack)                           \
    do                                                                  \
      {                                                                 \
        YYPTRDIFF_T yynewbytes;                                         \
        YYCOPY (&yyptr->Stack_alloc, Stack, yysize);                    \
        Stack = &yyptr->Stack_alloc;                                    \
        yynewbytes = yystacksize * YYSIZEOF (*Stack) + YYSTACK_GAP_MAXIMUM; \
        yyptr += yynewbytes / YYSIZEOF (*yyptr);                        \
      }                                                                 \
    while (0)

#endif

#if defined YYCOPY_NEEDED && YYCOPY_NEEDED
/* Copy COUNT objects from SRC to DST.  The source and destination do
   not overlap.  */
# ifndef YYCOPY
#  if defined __GNUC__ && 1 < __GNUC__
#   define YYCOPY(Dst, Src, Count) \
      __builtin_memcpy (Dst, Src, YY_CAST (YYSIZE_T, (Count)) * sizeof (*(Src)))
#  else
#   define YYCOPY(Dst, Src, Count)              \
      do                                        \
        {                                       \
          YYPTRDIFF_T yyi;                      \
          for (yyi = 0; yyi < (Count); yyi++)   \
            (Dst)[yyi] = (Src)[yyi];            \
        }                                       \
      while (0)
#  endif
# endif
#endif /* !YYCOPY_NEEDED */

/* YYFINAL -- State number of the termination state.  */
#define YYFINAL  2
/* YYLAST -- Last index in YYTABLE.  */
#define YYLAST   75

/* YYNTOKENS -- Number of terminals.  */
#define YYNTOKENS  27
/* YYNNTS -- Number of nonterminals.  */
#define YYNNTS  15
/* YYNRULES -- Number of rules.  */
#define YYNRULES  42
/* YYNSTATES -- Number of states.  */
#define YYNSTATES  61

/* YYMAXUTOK -- Last valid token kind.  */
#define YYMAXUTOK   281


/* YYTRANSLATE(TOKEN-NUM) -- Symbol number corresponding to TOKEN-NUM
   as returned by yylex, with out-of-bounds checking.  */
#define YYTRANSLATE(YYX)                                \
  (0 <= (YYX) && (YYX) <= YYMAXUTOK                     \
   ? YY_CAST (yysymbol_kind_t, yytranslate[YYX])        \
   : YYSYMBOL_YYUNDEF)

/* YYTRANSLATE[TOKEN-NUM] -- Symbol number corresponding to TOKEN-NUM
   as returned by yylex.  */
static const yytype_int8 yytranslate[] =
{
       0,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     1,     2,     3,     4,
       5,     6,     7,     8,     9,    10,    11,    12,    13,    14,
      15,    16,    17,    18,    19,    20,    21,    22,    23,    24,
      25,    26
};

#if SBX_YYDEBUG
/* YYRLINE[YYN] -- Source line where rule number YYN was defined.  */
static const yytype_uint8 yyrline[] =
{
       0,    95,    95,    96,   100,   101,   102,   103,   104,   105,
     106,   107,   109,   113,   114,   118,   119,   123,   124,   128,
     129,   130,   131,   135,   136,   140,   141,   145,   146,   150,
     151,   155,   156,   157,   158,   159,   160,   164,   165,   169,
     170,   174,   175
};
#endif

/** Accessing symbol of state STATE.  */
#define YY_ACCESSING_SYMBOL(State) YY_CAST (yysymbol_kind_t, yystos[State])

#if 1
/* The user-facing name of the symbol whose (internal) number is
   YYSYMBOL.  No bounds checking.  */
static const char *yysymbol_name (yysymbol_kind_t yysymbol) YY_ATTRIBUTE_UNUSED;

static const char *
yysymbol_name (yysymbol_kind_t yysymbol)
{
  static const char *const yy_sname[] =
  {
  "end of file", "error", "invalid token", "allow", "deny", "default",
  "network", "on", "off", "include", "list", "preset", "exactly",
  "acknowledge", "read", "write", "stat-only", "exec", "sensitive", "wide",
  "root name", "absolute path", "~ path", "root path", "$name", "string",
  ";", "$accept", "policy", "stmt", "action", "opt_action", "accesses",
  "access", "hosts", "opt_targets", "targets", "target", "path", "opt_ack",
  "kinds", "kind", YY_NULLPTR
  };
  return yy_sname[yysymbol];
}
#endif

#define YYPACT_NINF (-25)

#define yypact_value_is_default(Yyn) \
  ((Yyn) == YYPACT_NINF)

#define YYTABLE_NINF (-16)

#define yytable_value_is_error(Yyn) \
  0

/* YYPACT[STATE-NUM] -- Index in YYTABLE of the portion describing
   STATE-NUM.  */
static const yytype_int8 yypact[] =
{
     -25,     0,   -25,   -24,   -25,   -25,     4,    41,    29,     1,
      34,   -25,   -25,    36,   -25,    35,    38,    39,    42,    40,
      43,    44,   -25,   -25,   -25,   -25,     6,   -25,   -25,   -25,
     -25,   -25,    21,   -25,   -25,   -25,    18,   -25,   -25,   -25,
     -25,   -25,   -25,   -25,    47,    12,   -25,   -25,   -25,   -25,
     -25,    37,    45,   -25,   -25,   -25,    -6,   -25,   -25,   -25,
     -25
};

/* YYDEFACT[STATE-NUM] -- Default reduction number in state STATE-NUM.
   Performed when YYTABLE does not specify something else to do.  Zero
   means the default is an error.  */
static const yytype_int8 yydefact[] =
{
       2,     0,     1,     0,    13,    14,     0,     0,     0,     0,
       0,     3,    16,     0,    12,     0,     0,     0,     0,     0,
       0,     0,    19,    20,    21,    22,    25,    17,     4,     5,
       6,    23,     0,     8,     9,    10,     0,    34,    31,    33,
      35,    36,    32,    18,    37,    26,    27,    29,    24,     7,
      30,     0,     0,    28,    41,    42,     0,    39,    11,    38,
      40
};

/* YYPGOTO[NTERM-NUM].  */
static const yytype_int8 yypgoto[] =
{
     -25,   -25,   -25,    51,   -25,   -25,    46,   -25,   -25,   -25,
      17,    27,   -25,   -25,    19
};

/* YYDEFGOTO[NTERM-NUM].  */
static const yytype_int8 yydefgoto[] =
{
       0,     1,    11,    12,    13,    26,    27,    32,    44,    45,
      46,    47,    52,    56,    57
};

/* YYTABLE[YYPACT[STATE-NUM]] -- What to do in state STATE-NUM.  If
   positive, shift that token.  If negative, reduce the rule whose
   number is the opposite.  If YYTABLE_NINF, syntax error.  */
static const yytype_int8 yytable[] =
{
       2,     3,    14,     4,     5,     6,     7,     4,     5,     8,
       9,    10,    54,    55,   -15,   -15,   -15,   -15,    36,    59,
      22,    23,    24,    25,    36,    20,    37,    38,    39,    40,
      41,    42,    37,    38,    39,    40,    41,    42,    37,    38,
      39,    40,    41,    42,     4,     5,    48,    49,    16,    17,
      22,    23,    24,    25,    19,    54,    55,    15,    18,    21,
      51,    28,    53,    50,    29,    30,    33,    31,     0,    34,
      35,    58,    43,     0,     0,    60
};

static const yytype_int8 yycheck[] =
{
       0,     1,    26,     3,     4,     5,     6,     3,     4,     9,
      10,    11,    18,    19,    14,    15,    16,    17,    12,    25,
      14,    15,    16,    17,    12,    24,    20,    21,    22,    23,
      24,    25,    20,    21,    22,    23,    24,    25,    20,    21,
      22,    23,    24,    25,     3,     4,    25,    26,     7,     8,
      14,    15,    16,    17,    25,    18,    19,     6,     7,    25,
      13,    26,    45,    36,    26,    26,    26,    25,    -1,    26,
      26,    26,    26,    -1,    -1,    56
};

/* YYSTOS[STATE-NUM] -- The symbol kind of the accessing symbol of
   state STATE-NUM.  */
static const yytype_int8 yystos[] =
{
       0,    28,     0,     1,     3,     4,     5,     6,     9,    10,
      11,    29,    30,    31,    26,    30,     7,     8,    30,    25,
      24,    25,    14,    15,    16,    17,    32,    33,    26,    26,
      26,    25,    34,    26,    26,    26,    12,    20,    21,    22,
      23,    24,    25,    33,    35,    36,    37,    38,    25,    26,
      38,    13,    39,    37,    18,    19,    40,    41,    26,    25,
      41
};

/* YYR1[RULE-NUM] -- Symbol kind of the left-hand side of rule RULE-NUM.  */
static const yytype_int8 yyr1[] =
{
       0,    27,    28,    28,    29,    29,    29,    29,    29,    29,
      29,    29,    29,    30,    30,    31,    31,    32,    32,    33,
      33,    33,    33,    34,    34,    35,    35,    36,    36,    37,
      37,    38,    38,    38,    38,    38,    38,    39,    39,    40,
      40,    41,    41
};

/* YYR2[RULE-NUM] -- Number of symbols on the right-hand side of rule RULE-NUM.  */
static const yytype_int8 yyr2[] =
{
       0,     2,     0,     2,     3,     3,     3,     4,     3,     3,
       3,     5,     2,     1,     1,     0,     1,     1,     2,     1,
       1,     1,     1,     1,     2,     0,     1,     1,     2,     1,
       2,     1,     1,     1,     1,     1,     1,     0,     3,     1,
       2,     1,     1
};


enum { YYENOMEM = -2 };

#define yyerrok         (yyerrstatus = 0)
#define yyclearin       (yychar = TK_SBX_YYEMPTY)

#define YYACCEPT        goto yyacceptlab
#define YYABORT         goto yyabortlab
#define YYERROR         goto yyerrorlab
#define YYNOMEM         goto yyexhaustedlab


#define YYRECOVERING()  (!!yyerrstatus)

#define YYBACKUP(Token, Value)                                    \
  do                                                              \
    if (yychar == TK_SBX_YYEMPTY)                                        \
      {                                                           \
        yychar = (Token);                                         \
        yylval = (Value);                                         \
        YYPOPSTACK (yylen);                                       \
        yystate = *yyssp;                                         \
        YY_LAC_DISCARD ("YYBACKUP");                              \
        goto yybackup;                                            \
      }                                                           \
    else                                                          \
      {                                                           \
        yyerror (&yylloc, scanner, ctx, YY_("syntax error: cannot back up")); \
        YYERROR;                                                  \
      }                                                           \
  while (0)

/* Backward compatibility with an undocumented macro.
   Use TK_SBX_YYerror or TK_SBX_YYUNDEF. */
#define YYERRCODE TK_SBX_YYUNDEF

/* YYLLOC_DEFAULT -- Set CURRENT to span from RHS[1] to RHS[N].
   If N is 0, then set CURRENT to the empty location which ends
   the previous symbol: RHS[0] (always defined).  */

#ifndef YYLLOC_DEFAULT
# define YYLLOC_DEFAULT(Current, Rhs, N)                                \
    do                                                                  \
      if (N)                                                            \
        {                                                               \
          (Current).first_line   = YYRHSLOC (Rhs, 1).first_line;        \
          (Current).first_column = YYRHSLOC (Rhs, 1).first_column;      \
          (Current).last_line    = YYRHSLOC (Rhs, N).last_line;         \
          (Current).last_column  = YYRHSLOC (Rhs, N).last_column;       \
        }                                                               \
      else                                                              \
        {                                                               \
          (Current).first_line   = (Current).last_line   =              \
            YYRHSLOC (Rhs, 0).last_line;                                \
          (Current).first_column = (Current).last_column =              \
            YYRHSLOC (Rhs, 0).last_column;                              \
        }                                                               \
    while (0)
#endif

#define YYRHSLOC(Rhs, K) ((Rhs)[K])


/* Enable debugging if requested.  */
#if SBX_YYDEBUG

# ifndef YYFPRINTF
#  include <stdio.h> /* INFRINGES ON USER NAME SPACE */
#  define YYFPRINTF fprintf
# endif

# define YYDPRINTF(Args)                        \
do {                                            \
  if (yydebug)                                  \
    YYFPRINTF Args;                             \
} while (0)


/* YYLOCATION_PRINT -- Print the location on the stream.
   This macro was not mandated originally: define only if we know
   we won't break user code: when these are the locations we know.  */

# ifndef YYLOCATION_PRINT

#  if defined YY_LOCATION_PRINT

   /* Temporary convenience wrapper in case some people defined the
      undocumented and private YY_LOCATION_PRINT macros.  */
#   define YYLOCATION_PRINT(File, Loc)  YY_LOCATION_PRINT(File, *(Loc))

#  elif defined SBX_YYLTYPE_IS_TRIVIAL && SBX_YYLTYPE_IS_TRIVIAL

/* Print *YYLOCP on YYO.  Private, do not rely on its existence. */

YY_ATTRIBUTE_UNUSED
static int
yy_location_print_ (FILE *yyo, YYLTYPE const * const yylocp)
{
  int res = 0;
  int end_col = 0 != yylocp->last_column ? yylocp->last_column - 1 : 0;
  if (0 <= yylocp->first_line)
    {
      res += YYFPRINTF (yyo, "%d", yylocp->first_line);
      if (0 <= yylocp->first_column)
        res += YYFPRINTF (yyo, ".%d", yylocp->first_column);
    }
  if (0 <= yylocp->last_line)
    {
      if (yylocp->first_line < yylocp->last_line)
        {
          res += YYFPRINTF (yyo, "-%d", yylocp->last_line);
          if (0 <= end_col)
            res += YYFPRINTF (yyo, ".%d", end_col);
        }
      else if (0 <= end_col && yylocp->first_column < end_col)
        res += YYFPRINTF (yyo, "-%d", end_col);
    }
  return res;
}

#   define YYLOCATION_PRINT  yy_location_print_

    /* Temporary convenience wrapper in case some people defined the
       undocumented and private YY_LOCATION_PRINT macros.  */
#   define YY_LOCATION_PRINT(File, Loc)  YYLOCATION_PRINT(File, &(Loc))

#  else

#   define YYLOCATION_PRINT(File, Loc) ((void) 0)
    /* Temporary convenience wrapper in case some people defined the
       undocumented and private YY_LOCATION_PRINT macros.  */
#   define YY_LOCATION_PRINT  YYLOCATION_PRINT

#  endif
# endif /* !defined YYLOCATION_PRINT */


# define YY_SYMBOL_PRINT(Title, Kind, Value, Location)                    \
do {                                                                      \
  if (yydebug)                                                            \
    {                                                                     \
      YYFPRINTF (stderr, "%s ", Title);                                   \
      yy_symbol_print (stderr,                                            \
                  Kind, Value, Location, scanner, ctx); \
      YYFPRINTF (stderr, "\n");                                           \
    }                                                                     \
} while (0)


/*-----------------------------------.
| Print this symbol's value on YYO.  |
`-----------------------------------*/

static void
yy_symbol_value_print (FILE *yyo,
                       yysymbol_kind_t yykind, YYSTYPE const * const yyvaluep, YYLTYPE const * const yylocationp, yyscan_t scanner, struct sbx_pctx *ctx)
{
  FILE *yyoutput = yyo;
  YY_USE (yyoutput);
  YY_USE (yylocationp);
  YY_USE (scanner);
  YY_USE (ctx);
  if (!yyvaluep)
    return;
  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  YY_USE (yykind);
  YY_IGNORE_MAYBE_UNINITIALIZED_END
}


/*---------------------------.
| Print this symbol on YYO.  |
`---------------------------*/

static void
yy_symbol_print (FILE *yyo,
                 yysymbol_kind_t yykind, YYSTYPE const * const yyvaluep, YYLTYPE const * const yylocationp, yyscan_t scanner, struct sbx_pctx *ctx)
{
  YYFPRINTF (yyo, "%s %s (",
             yykind < YYNTOKENS ? "token" : "nterm", yysymbol_name (yykind));

  YYLOCATION_PRINT (yyo, yylocationp);
  YYFPRINTF (yyo, ": ");
  yy_symbol_value_print (yyo, yykind, yyvaluep, yylocationp, scanner, ctx);
  YYFPRINTF (yyo, ")");
}

/*------------------------------------------------------------------.
| yy_stack_print -- Print the state stack from its BOTTOM up to its |
| TOP (included).                                                   |
`------------------------------------------------------------------*/

static void
yy_stack_print (yy_state_t *yybottom, yy_state_t *yytop)
{
  YYFPRINTF (stderr, "Stack now");
  for (; yybottom <= yytop; yybottom++)
    {
      int yybot = *yybottom;
      YYFPRINTF (stderr, " %d", yybot);
    }
  YYFPRINTF (stderr, "\n");
}

# define YY_STACK_PRINT(Bottom, Top)                            \
do {                                                            \
  if (yydebug)                                                  \
    yy_stack_print ((Bottom), (Top));                           \
} while (0)


/*------------------------------------------------.
| Report that the YYRULE is going to be reduced.  |
`------------------------------------------------*/

static void
yy_reduce_print (yy_state_t *yyssp, YYSTYPE *yyvsp, YYLTYPE *yylsp,
                 int yyrule, yyscan_t scanner, struct sbx_pctx *ctx)
{
  int yylno = yyrline[yyrule];
  int yynrhs = yyr2[yyrule];
  int yyi;
  YYFPRINTF (stderr, "Reducing stack by rule %d (line %d):\n",
             yyrule - 1, yylno);
  /* The symbols being reduced.  */
  for (yyi = 0; yyi < yynrhs; yyi++)
    {
      YYFPRINTF (stderr, "   $%d = ", yyi + 1);
      yy_symbol_print (stderr,
                       YY_ACCESSING_SYMBOL (+yyssp[yyi + 1 - yynrhs]),
                       &yyvsp[(yyi + 1) - (yynrhs)],
                       &(yylsp[(yyi + 1) - (yynrhs)]), scanner, ctx);
      YYFPRINTF (stderr, "\n");
    }
}

# define YY_REDUCE_PRINT(Rule)          \
do {                                    \
  if (yydebug)                          \
    yy_reduce_print (yyssp, yyvsp, yylsp, Rule, scanner, ctx); \
} while (0)

/* Nonzero means print parse trace.  It is left uninitialized so that
   multiple parsers can coexist.  */
int yydebug;
#else /* !SBX_YYDEBUG */
# define YYDPRINTF(Args) ((void) 0)
# define YY_SYMBOL_PRINT(Title, Kind, Value, Location)
# define YY_STACK_PRINT(Bottom, Top)
# define YY_REDUCE_PRINT(Rule)
#endif /* !SBX_YYDEBUG */


/* YYINITDEPTH -- initial size of the parser's stacks.  */
#ifndef YYINITDEPTH
# define YYINITDEPTH 200
#endif

/* YYMAXDEPTH -- maximum size the stacks can grow to (effective only
   if the built-in stack extension method is used).

   Do not make this value too large; the results are undefined if
   YYSTACK_ALLOC_MAXIMUM < YYSTACK_BYTES (YYMAXDEPTH)
   evaluated with infinite-precision integer arithmetic.  */

#ifndef YYMAXDEPTH
# define YYMAXDEPTH 10000
#endif


/* Given a state stack such that *YYBOTTOM is its bottom, such that
   *YYTOP is either its top or is YYTOP_EMPTY to indicate an empty
   stack, and such that *YYCAPACITY is the maximum number of elements it
   can hold without a reallocation, make sure there is enough room to
   store YYADD more elements.  If not, allocate a new stack using
   YYSTACK_ALLOC, copy the existing elements, and adjust *YYBOTTOM,
   *YYTOP, and *YYCAPACITY to reflect the new capacity and memory
   location.  If *YYBOTTOM != YYBOTTOM_NO_FREE, then free the old stack
   using YYSTACK_FREE.  Return 0 if successful or if no reallocation is
   required.  Return YYENOMEM if memory is exhausted.  */
static int
yy_lac_stack_realloc (YYPTRDIFF_T *yycapacity, YYPTRDIFF_T yyadd,
#if SBX_YYDEBUG
                      char const *yydebug_prefix,
                      char const *yydebug_suffix,
#endif
                      yy_state_t **yybottom,
                      yy_state_t *yybottom_no_free,
                      yy_state_t **yytop, yy_state_t *yytop_empty)
{
  YYPTRDIFF_T yysize_old =
    *yytop == yytop_empty ? 0 : *yytop - *yybottom + 1;
  YYPTRDIFF_T yysize_new = yysize_old + yyadd;
  if (*yycapacity < yysize_new)
    {
      YYPTRDIFF_T yyalloc = 2 * yysize_new;
      yy_state_t *yybottom_new;
      /* Use YYMAXDEPTH for maximum stack size given that the stack
         should never need to grow larger than the main state stack
         needs to grow without LAC.  */
      if (YYMAXDEPTH < yysize_new)
        {
          YYDPRINTF ((stderr, "%smax size exceeded%s", yydebug_prefix,
                      yydebug_suffix));
          return YYENOMEM;
        }
      if (YYMAXDEPTH < yyalloc)
        yyalloc = YYMAXDEPTH;
      yybottom_new =
        YY_CAST (yy_state_t *,
                 YYSTACK_ALLOC (YY_CAST (YYSIZE_T,
                                         yyalloc * YYSIZEOF (*yybottom_new))));
      if (!yybottom_new)
        {
          YYDPRINTF ((stderr, "%srealloc failed%s", yydebug_prefix,
                      yydebug_suffix));
          return YYENOMEM;
        }
      if (*yytop != yytop_empty)
        {
          YYCOPY (yybottom_new, *yybottom, yysize_old);
          *yytop = yybottom_new + (yysize_old - 1);
        }
      if (*yybottom != yybottom_no_free)
        YYSTACK_FREE (*yybottom);
      *yybottom = yybottom_new;
      *yycapacity = yyalloc;
    }
  return 0;
}

/* Establish the initial context for the current lookahead if no initial
   context is currently established.

   We define a context as a snapshot of the parser stacks.  We define
   the initial context for a lookahead as the context in which the
   parser initially examines that lookahead in order to select a
   syntactic action.  Thus, if the lookahead eventually proves
   syntactically unacceptable (possibly in a later context reached via a
   series of reductions), the initial context can be used to determine
   the exact set of tokens that would be syntactically acceptable in the
   lookahead's place.  Moreover, it is the context after which any
   further semantic actions would be erroneous because they would be
   determined by a syntactically unacceptable token.

   YY_LAC_ESTABLISH should be invoked when a reduction is about to be
   performed in an inconsistent state (which, for the purposes of LAC,
   includes consistent states that don't know they're consistent because
   their default reductions have been disabled).  Iff there is a
   lookahead token, it should also be invoked before reporting a syntax
   error.  This latter case is for the sake of the debugging output.

   For parse.lac=full, the implementation of YY_LAC_ESTABLISH is as
   follows.  If no initial context is currently established for the
   current lookahead, then check if that lookahead can eventually be
   shifted if syntactic actions continue from the current context.
   Report a syntax error if it cannot.  */
#define YY_LAC_ESTABLISH                                                \
do {                                                                    \
  if (!yy_lac_established)                                              \
    {                                                                   \
      YYDPRINTF ((stderr,                                               \
                  "LAC: initial context established for %s\n",          \
                  yysymbol_name (yytoken)));                            \
      yy_lac_established = 1;                                           \
      switch (yy_lac (yyesa, &yyes, &yyes_capacity, yyssp, yytoken))    \
        {                                                               \
        case YYENOMEM:                                                  \
          YYNOMEM;                                                      \
        case 1:                                                         \
          goto yyerrlab;                                                \
        }                                                               \
    }                                                                   \
} while (0)

/* Discard any previous initial lookahead context because of Event,
   which may be a lookahead change or an invalidation of the currently
   established initial context for the current lookahead.

   The most common example of a lookahead change is a shift.  An example
   of both cases is syntax error recovery.  That is, a syntax error
   occurs when the lookahead is syntactically erroneous for the
   currently established initial context, so error recovery manipulates
   the parser stacks to try to find a new initial context in which the
   current lookahead is syntactically acceptable.  If it fails to find
   such a context, it discards the lookahead.  */
#if SBX_YYDEBUG
# define YY_LAC_DISCARD(Event)                                           \
do {                                                                     \
  if (yy_lac_established)                                                \
    {                                                                    \
      YYDPRINTF ((stderr, "LAC: initial context discarded due to "       \
                  Event "\n"));                                          \
      yy_lac_established = 0;                                            \
    }                                                                    \
} while (0)
#else
# define YY_LAC_DISCARD(Event) yy_lac_established = 0
#endif

/* Given the stack whose top is *YYSSP, return 0 iff YYTOKEN can
   eventually (after perhaps some reductions) be shifted, return 1 if
   not, or return YYENOMEM if memory is exhausted.  As preconditions and
   postconditions: *YYES_CAPACITY is the allocated size of the array to
   which *YYES points, and either *YYES = YYESA or *YYES points to an
   array allocated with YYSTACK_ALLOC.  yy_lac may overwrite the
   contents of either array, alter *YYES and *YYES_CAPACITY, and free
   any old *YYES other than YYESA.  */
static int
yy_lac (yy_state_t *yyesa, yy_state_t **yyes,
        YYPTRDIFF_T *yyes_capacity, yy_state_t *yyssp, yysymbol_kind_t yytoken)
{
  yy_state_t *yyes_prev = yyssp;
  yy_state_t *yyesp = yyes_prev;
  /* Reduce until we encounter a shift and thereby accept the token.  */
  YYDPRINTF ((stderr, "LAC: checking lookahead %s:", yysymbol_name (yytoken)));
  if (yytoken == YYSYMBOL_YYUNDEF)
    {
      YYDPRINTF ((stderr, " Always Err\n"));
      return 1;
    }
  while (1)
    {
      int yyrule = yypact[+*yyesp];
      if (yypact_value_is_default (yyrule)
          || (yyrule += yytoken) < 0 || YYLAST < yyrule
          || yycheck[yyrule] != yytoken)
        {
          /* Use the default action.  */
          yyrule = yydefact[+*yyesp];
          if (yyrule == 0)
            {
              YYDPRINTF ((stderr, " Err\n"));
              return 1;
            }
        }
      else
        {
          /* Use the action from yytable.  */
          yyrule = yytable[yyrule];
          if (yytable_value_is_error (yyrule))
            {
              YYDPRINTF ((stderr, " Err\n"));
              return 1;
            }
          if (0 < yyrule)
            {
              YYDPRINTF ((stderr, " S%d\n", yyrule));
              return 0;
            }
          yyrule = -yyrule;
        }
      /* By now we know we have to simulate a reduce.  */
      YYDPRINTF ((stderr, " R%d", yyrule - 1));
      {
        /* Pop the corresponding number of values from the stack.  */
        YYPTRDIFF_T yylen = yyr2[yyrule];
        /* First pop from the LAC stack as many tokens as possible.  */
        if (yyesp != yyes_prev)
          {
            YYPTRDIFF_T yysize = yyesp - *yyes + 1;
            if (yylen < yysize)
              {
                yyesp -= yylen;
                yylen = 0;
              }
            else
              {
                yyesp = yyes_prev;
                yylen -= yysize;
              }
          }
        /* Only afterwards look at the main stack.  */
        if (yylen)
          yyesp = yyes_prev -= yylen;
      }
      /* Push the resulting state of the reduction.  */
      {
        yy_state_fast_t yystate;
        {
          const int yylhs = yyr1[yyrule] - YYNTOKENS;
          const int yyi = yypgoto[yylhs] + *yyesp;
          yystate = (0 <= yyi && yyi <= YYLAST && yycheck[yyi] == *yyesp
                     ? yytable[yyi]
                     : yydefgoto[yylhs]);
        }
        if (yyesp == yyes_prev)
          {
            yyesp = *yyes;
            YY_IGNORE_USELESS_CAST_BEGIN
            *yyesp = YY_CAST (yy_state_t, yystate);
            YY_IGNORE_USELESS_CAST_END
          }
        else
          {
            if (yy_lac_stack_realloc (yyes_capacity, 1,
#if SBX_YYDEBUG
                                      " (", ")",
#endif
                                      yyes, yyesa, &yyesp, yyes_prev))
              {
                YYDPRINTF ((stderr, "\n"));
                return YYENOMEM;
              }
            YY_IGNORE_USELESS_CAST_BEGIN
            *++yyesp = YY_CAST (yy_state_t, yystate);
            YY_IGNORE_USELESS_CAST_END
          }
        YYDPRINTF ((stderr, " G%d", yystate));
      }
    }
}

/* Context of a parse error.  */
typedef struct
{
  yy_state_t *yyssp;
  yy_state_t *yyesa;
  yy_state_t **yyes;
  YYPTRDIFF_T *yyes_capacity;
  yysymbol_kind_t yytoken;
  YYLTYPE *yylloc;
} yypcontext_t;

/* Put in YYARG at most YYARGN of the expected tokens given the
   current YYCTX, and return the number of tokens stored in YYARG.  If
   YYARG is null, return the number of expected tokens (guaranteed to
   be less than YYNTOKENS).  Return YYENOMEM on memory exhaustion.
   Return 0 if there are more than YYARGN expected tokens, yet fill
   YYARG up to YYARGN. */
static int
yypcontext_expected_tokens (const yypcontext_t *yyctx,
                            yysymbol_kind_t yyarg[], int yyargn)
{
  /* Actual size of YYARG. */
  int yycount = 0;

  int yyx;
  for (yyx = 0; yyx < YYNTOKENS; ++yyx)
    {
      yysymbol_kind_t yysym = YY_CAST (yysymbol_kind_t, yyx);
      if (yysym != YYSYMBOL_YYerror && yysym != YYSYMBOL_YYUNDEF)
        switch (yy_lac (yyctx->yyesa, yyctx->yyes, yyctx->yyes_capacity, yyctx->yyssp, yysym))
          {
          case YYENOMEM:
            return YYENOMEM;
          case 1:
            continue;
          default:
            if (!yyarg)
              ++yycount;
            else if (yycount == yyargn)
              return 0;
            else
              yyarg[yycount++] = yysym;
          }
    }
  if (yyarg && yycount == 0 && 0 < yyargn)
    yyarg[0] = YYSYMBOL_YYEMPTY;
  return yycount;
}




/* The kind of the lookahead of this context.  */
static yysymbol_kind_t
yypcontext_token (const yypcontext_t *yyctx) YY_ATTRIBUTE_UNUSED;

static yysymbol_kind_t
yypcontext_token (const yypcontext_t *yyctx)
{
  return yyctx->yytoken;
}

/* The location of the lookahead of this context.  */
static YYLTYPE *
yypcontext_location (const yypcontext_t *yyctx) YY_ATTRIBUTE_UNUSED;

static YYLTYPE *
yypcontext_location (const yypcontext_t *yyctx)
{
  return yyctx->yylloc;
}

/* User defined function to report a syntax error.  */
static int
yyreport_syntax_error (const yypcontext_t *yyctx, yyscan_t scanner, struct sbx_pctx *ctx);

/*-----------------------------------------------.
| Release the memory associated to this symbol.  |
`-----------------------------------------------*/

static void
yydestruct (const char *yymsg,
            yysymbol_kind_t yykind, YYSTYPE *yyvaluep, YYLTYPE *yylocationp, yyscan_t scanner, struct sbx_pctx *ctx)
{
  YY_USE (yyvaluep);
  YY_USE (yylocationp);
  YY_USE (scanner);
  YY_USE (ctx);
  if (!yymsg)
    yymsg = "Deleting";
  YY_SYMBOL_PRINT (yymsg, yykind, yyvaluep, yylocationp);

  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  switch (yykind)
    {
    case YYSYMBOL_ROOT: /* "root name"  */
#line 85 "grammar/policy.y"
            { free(((*yyvaluep).str)); }
#line 1300 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_ABSPATH: /* "absolute path"  */
#line 85 "grammar/policy.y"
            { free(((*yyvaluep).str)); }
#line 1306 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_TILDEPATH: /* "~ path"  */
#line 85 "grammar/policy.y"
            { free(((*yyvaluep).str)); }
#line 1312 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_ROOTPATH: /* "root path"  */
#line 85 "grammar/policy.y"
            { free(((*yyvaluep).str)); }
#line 1318 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_VARPATH: /* "$name"  */
#line 85 "grammar/policy.y"
            { free(((*yyvaluep).str)); }
#line 1324 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_STRING: /* "string"  */
#line 85 "grammar/policy.y"
            { free(((*yyvaluep).str)); }
#line 1330 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_action: /* action  */
#line 90 "grammar/policy.y"
            { (void)((*yyvaluep).num); }
#line 1336 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_opt_action: /* opt_action  */
#line 90 "grammar/policy.y"
            { (void)((*yyvaluep).num); }
#line 1342 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_accesses: /* accesses  */
#line 90 "grammar/policy.y"
            { (void)((*yyvaluep).num); }
#line 1348 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_access: /* access  */
#line 90 "grammar/policy.y"
            { (void)((*yyvaluep).num); }
#line 1354 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_hosts: /* hosts  */
#line 89 "grammar/policy.y"
            { sbx_hvec_free(((*yyvaluep).hvec)); }
#line 1360 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_opt_targets: /* opt_targets  */
#line 87 "grammar/policy.y"
            { sbx_tvec_free(((*yyvaluep).tvec)); }
#line 1366 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_targets: /* targets  */
#line 87 "grammar/policy.y"
            { sbx_tvec_free(((*yyvaluep).tvec)); }
#line 1372 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_target: /* target  */
#line 86 "grammar/policy.y"
            { sbx_target_free(((*yyvaluep).target)); }
#line 1378 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_path: /* path  */
#line 86 "grammar/policy.y"
            { sbx_target_free(((*yyvaluep).target)); }
#line 1384 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_opt_ack: /* opt_ack  */
#line 88 "grammar/policy.y"
            { sbx_ack_free(((*yyvaluep).ack)); }
#line 1390 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_kinds: /* kinds  */
#line 90 "grammar/policy.y"
            { (void)((*yyvaluep).num); }
#line 1396 "build-tsan/gen/policy_parser.c"
        break;

    case YYSYMBOL_kind: /* kind  */
#line 90 "grammar/policy.y"
            { (void)((*yyvaluep).num); }
#line 1402 "build-tsan/gen/policy_parser.c"
        break;

      default:
        break;
    }
  YY_IGNORE_MAYBE_UNINITIALIZED_END
}






/*----------.
| yyparse.  |
`----------*/

int
yyparse (yyscan_t scanner, struct sbx_pctx *ctx)
{
/* Lookahead token kind.  */
int yychar;


/* The semantic value of the lookahead symbol.  */
/* Default value used for initialization, for pacifying older GCCs
   or non-GCC compilers.  */
YY_INITIAL_VALUE (static YYSTYPE yyval_default;)
YYSTYPE yylval YY_INITIAL_VALUE (= yyval_default);

/* Location data for the lookahead symbol.  */
static YYLTYPE yyloc_default
# if defined SBX_YYLTYPE_IS_TRIVIAL && SBX_YYLTYPE_IS_TRIVIAL
  = { 1, 1, 1, 1 }
# endif
;
YYLTYPE yylloc = yyloc_default;

    /* Number of syntax errors so far.  */
    int yynerrs = 0;

    yy_state_fast_t yystate = 0;
    /* Number of tokens to shift before error messages enabled.  */
    int yyerrstatus = 0;

    /* Refer to the stacks through separate pointers, to allow yyoverflow
       to reallocate them elsewhere.  */

    /* Their size.  */
    YYPTRDIFF_T yystacksize = YYINITDEPTH;

    /* The state stack: array, bottom, top.  */
    yy_state_t yyssa[YYINITDEPTH];
    yy_state_t *yyss = yyssa;
    yy_state_t *yyssp = yyss;

    /* The semantic value stack: array, bottom, top.  */
    YYSTYPE yyvsa[YYINITDEPTH];
    YYSTYPE *yyvs = yyvsa;
    YYSTYPE *yyvsp = yyvs;

    /* The location stack: array, bottom, top.  */
    YYLTYPE yylsa[YYINITDEPTH];
    YYLTYPE *yyls = yylsa;
    YYLTYPE *yylsp = yyls;

    yy_state_t yyesa[20];
    yy_state_t *yyes = yyesa;
    YYPTRDIFF_T yyes_capacity = 20 < YYMAXDEPTH ? 20 : YYMAXDEPTH;

  /* Whether LAC context is established.  A Boolean.  */
  int yy_lac_established = 0;
  int yyn;
  /* The return value of yyparse.  */
  int yyresult;
  /* Lookahead symbol kind.  */
  yysymbol_kind_t yytoken = YYSYMBOL_YYEMPTY;
  /* The variables used to return semantic value and location from the
     action routines.  */
  YYSTYPE yyval;
  YYLTYPE yyloc;

  /* The locations where the error started and ended.  */
  YYLTYPE yyerror_range[3];



#define YYPOPSTACK(N)   (yyvsp -= (N), yyssp -= (N), yylsp -= (N))

  /* The number of symbols on the RHS of the reduced rule.
     Keep to zero when no symbol should be popped.  */
  int yylen = 0;

  YYDPRINTF ((stderr, "Starting parse\n"));

  yychar = TK_SBX_YYEMPTY; /* Cause a token to be read.  */


/* User initialization code.  */
#line 56 "grammar/policy.y"
{
	yylloc.file = ctx->file;
	yylloc.line = yylloc.end_line = 1;
	yylloc.col = yylloc.end_col = 1;
}

#line 1509 "build-tsan/gen/policy_parser.c"

  yylsp[0] = yylloc;
  goto yysetstate;


/*------------------------------------------------------------.
| yynewstate -- push a new state, which is found in yystate.  |
`------------------------------------------------------------*/
yynewstate:
  /* In all cases, when you get here, the value and location stacks
     have just been pushed.  So pushing a state here evens the stacks.  */
  yyssp++;


/*--------------------------------------------------------------------.
| yysetstate -- set current state (the top of the stack) to yystate.  |
`--------------------------------------------------------------------*/
yysetstate:
  YYDPRINTF ((stderr, "Entering state %d\n", yystate));
  YY_ASSERT (0 <= yystate && yystate < YYNSTATES);
  YY_IGNORE_USELESS_CAST_BEGIN
  *yyssp = YY_CAST (yy_state_t, yystate);
  YY_IGNORE_USELESS_CAST_END
  YY_STACK_PRINT (yyss, yyssp);

  if (yyss + yystacksize - 1 <= yyssp)
#if !defined yyoverflow && !defined YYSTACK_RELOCATE
    YYNOMEM;
#else
    {
      /* Get the current used size of the three stacks, in elements.  */
      YYPTRDIFF_T yysize = yyssp - yyss + 1;

# if defined yyoverflow
      {
        /* Give user a chance to reallocate the stack.  Use copies of
           these so that the &'s don't force the real ones into
           memory.  */
        yy_state_t *yyss1 = yyss;
        YYSTYPE *yyvs1 = yyvs;
        YYLTYPE *yyls1 = yyls;

        /* Each stack pointer address is followed by the size of the
           data in use in that stack, in bytes.  This used to be a
           conditional around just the two extra args, but that might
           be undefined if yyoverflow is a macro.  */
        yyoverflow (YY_("memory exhausted"),
                    &yyss1, yysize * YYSIZEOF (*yyssp),
                    &yyvs1, yysize * YYSIZEOF (*yyvsp),
                    &yyls1, yysize * YYSIZEOF (*yylsp),
                    &yystacksize);
        yyss = yyss1;
        yyvs = yyvs1;
        yyls = yyls1;
      }
# else /* defined YYSTACK_RELOCATE */
      /* Extend the stack our own way.  */
      if (YYMAXDEPTH <= yystacksize)
        YYNOMEM;
      yystacksize *= 2;
      if (YYMAXDEPTH < yystacksize)
        yystacksize = YYMAXDEPTH;

      {
        yy_state_t *yyss1 = yyss;
        union yyalloc *yyptr =
          YY_CAST (union yyalloc *,
                   YYSTACK_ALLOC (YY_CAST (YYSIZE_T, YYSTACK_BYTES (yystacksize))));
        if (! yyptr)
          YYNOMEM;
        YYSTACK_RELOCATE (yyss_alloc, yyss);
        YYSTACK_RELOCATE (yyvs_alloc, yyvs);
        YYSTACK_RELOCATE (yyls_alloc, yyls);
#  undef YYSTACK_RELOCATE
        if (yyss1 != yyssa)
          YYSTACK_FREE (yyss1);
      }
# endif

      yyssp = yyss + yysize - 1;
      yyvsp = yyvs + yysize - 1;
      yylsp = yyls + yysize - 1;

      YY_IGNORE_USELESS_CAST_BEGIN
      YYDPRINTF ((stderr, "Stack size increased to %ld\n",
                  YY_CAST (long, yystacksize)));
      YY_IGNORE_USELESS_CAST_END

      if (yyss + yystacksize - 1 <= yyssp)
        YYABORT;
    }
#endif /* !defined yyoverflow && !defined YYSTACK_RELOCATE */


  if (yystate == YYFINAL)
    YYACCEPT;

  goto yybackup;


/*-----------.
| yybackup.  |
`-----------*/
yybackup:
  /* Do appropriate processing given the current state.  Read a
     lookahead token if we need one and don't already have one.  */

  /* First try to decide what to do without reference to lookahead token.  */
  yyn = yypact[yystate];
  if (yypact_value_is_default (yyn))
    goto yydefault;

  /* Not known => get a lookahead token if don't already have one.  */

  /* YYCHAR is either empty, or end-of-input, or a valid lookahead.  */
  if (yychar == TK_SBX_YYEMPTY)
    {
      YYDPRINTF ((stderr, "Reading a token\n"));
      yychar = yylex (&yylval, &yylloc, scanner);
    }

  if (yychar <= TK_YYEOF)
    {
      yychar = TK_YYEOF;
      yytoken = YYSYMBOL_YYEOF;
      YYDPRINTF ((stderr, "Now at end of input.\n"));
    }
  else if (yychar == TK_SBX_YYerror)
    {
      /* The scanner already issued an error message, process directly
         to error recovery.  But do not keep the error token as
         lookahead, it is too special and may lead us to an endless
         loop in error recovery. */
      yychar = TK_SBX_YYUNDEF;
      yytoken = YYSYMBOL_YYerror;
      yyerror_range[1] = yylloc;
      goto yyerrlab1;
    }
  else
    {
      yytoken = YYTRANSLATE (yychar);
      YY_SYMBOL_PRINT ("Next token is", yytoken, &yylval, &yylloc);
    }

  /* If the proper action on seeing token YYTOKEN is to reduce or to
     detect an error, take that action.  */
  yyn += yytoken;
  if (yyn < 0 || YYLAST < yyn || yycheck[yyn] != yytoken)
    {
      YY_LAC_ESTABLISH;
      goto yydefault;
    }
  yyn = yytable[yyn];
  if (yyn <= 0)
    {
      if (yytable_value_is_error (yyn))
        goto yyerrlab;
      yyn = -yyn;
      YY_LAC_ESTABLISH;
      goto yyreduce;
    }

  /* Count tokens shifted since error; after three, turn off error
     status.  */
  if (yyerrstatus)
    yyerrstatus--;

  /* Shift the lookahead token.  */
  YY_SYMBOL_PRINT ("Shifting", yytoken, &yylval, &yylloc);
  yystate = yyn;
  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  *++yyvsp = yylval;
  YY_IGNORE_MAYBE_UNINITIALIZED_END
  *++yylsp = yylloc;

  /* Discard the shifted token.  */
  yychar = TK_SBX_YYEMPTY;
  YY_LAC_DISCARD ("shift");
  goto yynewstate;


/*-----------------------------------------------------------.
| yydefault -- do the default action for the current state.  |
`-----------------------------------------------------------*/
yydefault:
  yyn = yydefact[yystate];
  if (yyn == 0)
    goto yyerrlab;
  goto yyreduce;


/*-----------------------------.
| yyreduce -- do a reduction.  |
`-----------------------------*/
yyreduce:
  /* yyn is the number of a rule to reduce with.  */
  yylen = yyr2[yyn];

  /* If YYLEN is nonzero, implement the default value of the action:
     '$$ = $1'.

     Otherwise, the following line sets YYVAL to garbage.
     This behavior is undocumented and Bison
     users should not rely upon it.  Assigning to YYVAL
     unconditionally makes the parser a bit smaller, and it avoids a
     GCC warning that YYVAL may be used uninitialized.  */
  yyval = yyvsp[1-yylen];

  /* Default location. */
  YYLLOC_DEFAULT (yyloc, (yylsp - yylen), yylen);
  yyerror_range[1] = yyloc;
  YY_REDUCE_PRINT (yyn);
  {
    int yychar_backup = yychar;
    switch (yyn)
      {
  case 4: /* stmt: "default" action ";"  */
#line 100 "grammar/policy.y"
                                          { sbx_ctx_default(ctx, (sb_action)(yyvsp[-1].num), (yylsp[-2])); }
#line 1729 "build-tsan/gen/policy_parser.c"
    break;

  case 5: /* stmt: "network" "on" ";"  */
#line 101 "grammar/policy.y"
                                          { sbx_ctx_network(ctx, true, (yylsp[-2])); }
#line 1735 "build-tsan/gen/policy_parser.c"
    break;

  case 6: /* stmt: "network" "off" ";"  */
#line 102 "grammar/policy.y"
                                          { sbx_ctx_network(ctx, false, (yylsp[-2])); }
#line 1741 "build-tsan/gen/policy_parser.c"
    break;

  case 7: /* stmt: "network" action hosts ";"  */
#line 103 "grammar/policy.y"
                                          { sbx_ctx_hosts(ctx, (sb_action)(yyvsp[-2].num), (yyvsp[-1].hvec), (yylsp[-3])); }
#line 1747 "build-tsan/gen/policy_parser.c"
    break;

  case 8: /* stmt: "include" "string" ";"  */
#line 104 "grammar/policy.y"
                                          { sbx_ctx_include(ctx, (yyvsp[-1].str), (yylsp[-1])); }
#line 1753 "build-tsan/gen/policy_parser.c"
    break;

  case 9: /* stmt: "list" "$name" ";"  */
#line 105 "grammar/policy.y"
                                          { sbx_ctx_list(ctx, (yyvsp[-1].str), (yylsp[-1])); }
#line 1759 "build-tsan/gen/policy_parser.c"
    break;

  case 10: /* stmt: "preset" "string" ";"  */
#line 106 "grammar/policy.y"
                                          { sbx_ctx_preset(ctx, (yyvsp[-1].str), (yylsp[-1])); }
#line 1765 "build-tsan/gen/policy_parser.c"
    break;

  case 11: /* stmt: opt_action accesses opt_targets opt_ack ";"  */
#line 108 "grammar/policy.y"
                                          { sbx_ctx_rule(ctx, (sb_action)(yyvsp[-4].num), (yyvsp[-3].num), (yyvsp[-2].tvec), (yyvsp[-1].ack), (yyloc)); }
#line 1771 "build-tsan/gen/policy_parser.c"
    break;

  case 12: /* stmt: error ";"  */
#line 109 "grammar/policy.y"
                                          { yyerrok; }
#line 1777 "build-tsan/gen/policy_parser.c"
    break;

  case 13: /* action: "allow"  */
#line 113 "grammar/policy.y"
                                          { (yyval.num) = SB_ALLOW; }
#line 1783 "build-tsan/gen/policy_parser.c"
    break;

  case 14: /* action: "deny"  */
#line 114 "grammar/policy.y"
                                          { (yyval.num) = SB_DENY; }
#line 1789 "build-tsan/gen/policy_parser.c"
    break;

  case 15: /* opt_action: %empty  */
#line 118 "grammar/policy.y"
                                          { (yyval.num) = SB_ALLOW; }
#line 1795 "build-tsan/gen/policy_parser.c"
    break;

  case 16: /* opt_action: action  */
#line 119 "grammar/policy.y"
                                          { (yyval.num) = (yyvsp[0].num); }
#line 1801 "build-tsan/gen/policy_parser.c"
    break;

  case 17: /* accesses: access  */
#line 123 "grammar/policy.y"
                                          { (yyval.num) = (yyvsp[0].num); }
#line 1807 "build-tsan/gen/policy_parser.c"
    break;

  case 18: /* accesses: accesses access  */
#line 124 "grammar/policy.y"
                                          { (yyval.num) = (yyvsp[-1].num) | (yyvsp[0].num); }
#line 1813 "build-tsan/gen/policy_parser.c"
    break;

  case 19: /* access: "read"  */
#line 128 "grammar/policy.y"
                                          { (yyval.num) = SBX_ACC_READ; }
#line 1819 "build-tsan/gen/policy_parser.c"
    break;

  case 20: /* access: "write"  */
#line 129 "grammar/policy.y"
                                          { (yyval.num) = SBX_ACC_WRITE; }
#line 1825 "build-tsan/gen/policy_parser.c"
    break;

  case 21: /* access: "stat-only"  */
#line 130 "grammar/policy.y"
                                          { (yyval.num) = SBX_ACC_STAT; }
#line 1831 "build-tsan/gen/policy_parser.c"
    break;

  case 22: /* access: "exec"  */
#line 131 "grammar/policy.y"
                                          { (yyval.num) = SBX_ACC_EXEC; }
#line 1837 "build-tsan/gen/policy_parser.c"
    break;

  case 23: /* hosts: "string"  */
#line 135 "grammar/policy.y"
                                          { (yyval.hvec) = sbx_hvec_add(NULL, (yyvsp[0].str), (yylsp[0])); }
#line 1843 "build-tsan/gen/policy_parser.c"
    break;

  case 24: /* hosts: hosts "string"  */
#line 136 "grammar/policy.y"
                                          { (yyval.hvec) = sbx_hvec_add((yyvsp[-1].hvec), (yyvsp[0].str), (yylsp[0])); }
#line 1849 "build-tsan/gen/policy_parser.c"
    break;

  case 25: /* opt_targets: %empty  */
#line 140 "grammar/policy.y"
                                          { (yyval.tvec) = NULL; }
#line 1855 "build-tsan/gen/policy_parser.c"
    break;

  case 26: /* opt_targets: targets  */
#line 141 "grammar/policy.y"
                                          { (yyval.tvec) = (yyvsp[0].tvec); }
#line 1861 "build-tsan/gen/policy_parser.c"
    break;

  case 27: /* targets: target  */
#line 145 "grammar/policy.y"
                                          { (yyval.tvec) = sbx_tvec_add(NULL, (yyvsp[0].target)); }
#line 1867 "build-tsan/gen/policy_parser.c"
    break;

  case 28: /* targets: targets target  */
#line 146 "grammar/policy.y"
                                          { (yyval.tvec) = sbx_tvec_add((yyvsp[-1].tvec), (yyvsp[0].target)); }
#line 1873 "build-tsan/gen/policy_parser.c"
    break;

  case 29: /* target: path  */
#line 150 "grammar/policy.y"
                                          { (yyval.target) = (yyvsp[0].target); }
#line 1879 "build-tsan/gen/policy_parser.c"
    break;

  case 30: /* target: "exactly" path  */
#line 151 "grammar/policy.y"
                                          { (yyval.target) = (yyvsp[0].target); (yyval.target)->exact = true; (yyval.target)->loc = (yyloc); }
#line 1885 "build-tsan/gen/policy_parser.c"
    break;

  case 31: /* path: "absolute path"  */
#line 155 "grammar/policy.y"
                                          { (yyval.target) = sbx_ctx_target(ctx, SBX_PT_ABS, (yyvsp[0].str), (yylsp[0])); }
#line 1891 "build-tsan/gen/policy_parser.c"
    break;

  case 32: /* path: "string"  */
#line 156 "grammar/policy.y"
                                          { (yyval.target) = sbx_ctx_target(ctx, SBX_PT_QUOTED, (yyvsp[0].str), (yylsp[0])); }
#line 1897 "build-tsan/gen/policy_parser.c"
    break;

  case 33: /* path: "~ path"  */
#line 157 "grammar/policy.y"
                                          { (yyval.target) = sbx_ctx_target(ctx, SBX_PT_TILDE, (yyvsp[0].str), (yylsp[0])); }
#line 1903 "build-tsan/gen/policy_parser.c"
    break;

  case 34: /* path: "root name"  */
#line 158 "grammar/policy.y"
                                          { (yyval.target) = sbx_ctx_target(ctx, SBX_PT_ROOT, (yyvsp[0].str), (yylsp[0])); }
#line 1909 "build-tsan/gen/policy_parser.c"
    break;

  case 35: /* path: "root path"  */
#line 159 "grammar/policy.y"
                                          { (yyval.target) = sbx_ctx_target(ctx, SBX_PT_ROOT, (yyvsp[0].str), (yylsp[0])); }
#line 1915 "build-tsan/gen/policy_parser.c"
    break;

  case 36: /* path: "$name"  */
#line 160 "grammar/policy.y"
                                          { (yyval.target) = sbx_ctx_target(ctx, SBX_PT_VAR, (yyvsp[0].str), (yylsp[0])); }
#line 1921 "build-tsan/gen/policy_parser.c"
    break;

  case 37: /* opt_ack: %empty  */
#line 164 "grammar/policy.y"
                                          { (yyval.ack) = NULL; }
#line 1927 "build-tsan/gen/policy_parser.c"
    break;

  case 38: /* opt_ack: "acknowledge" kinds "string"  */
#line 165 "grammar/policy.y"
                                          { (yyval.ack) = sbx_ack_new((yyvsp[-1].num), (yyvsp[0].str), (yyloc)); }
#line 1933 "build-tsan/gen/policy_parser.c"
    break;

  case 39: /* kinds: kind  */
#line 169 "grammar/policy.y"
                                          { (yyval.num) = (yyvsp[0].num); }
#line 1939 "build-tsan/gen/policy_parser.c"
    break;

  case 40: /* kinds: kinds kind  */
#line 170 "grammar/policy.y"
                                          { (yyval.num) = (yyvsp[-1].num) | (yyvsp[0].num); }
#line 1945 "build-tsan/gen/policy_parser.c"
    break;

  case 41: /* kind: "sensitive"  */
#line 174 "grammar/policy.y"
                                          { (yyval.num) = SBX_ACK_SENSITIVE; }
#line 1951 "build-tsan/gen/policy_parser.c"
    break;

  case 42: /* kind: "wide"  */
#line 175 "grammar/policy.y"
                                          { (yyval.num) = SBX_ACK_WIDE; }
#line 1957 "build-tsan/gen/policy_parser.c"
    break;


#line 1961 "build-tsan/gen/policy_parser.c"

        default: break;
      }
    if (yychar_backup != yychar)
      YY_LAC_DISCARD ("yychar change");
  }
  /* User semantic actions sometimes alter yychar, and that requires
     that yytoken be updated with the new translation.  We take the
     approach of translating immediately before every use of yytoken.
     One alternative is translating here after every semantic action,
     but that translation would be missed if the semantic action invokes
     YYABORT, YYACCEPT, or YYERROR immediately after altering yychar or
     if it invokes YYBACKUP.  In the case of YYABORT or YYACCEPT, an
     incorrect destructor might then be invoked immediately.  In the
     case of YYERROR or YYBACKUP, subsequent parser actions might lead
     to an incorrect destructor call or verbose syntax error message
     before the lookahead is translated.  */
  YY_SYMBOL_PRINT ("-> $$ =", YY_CAST (yysymbol_kind_t, yyr1[yyn]), &yyval, &yyloc);

  YYPOPSTACK (yylen);
  yylen = 0;

  *++yyvsp = yyval;
  *++yylsp = yyloc;

  /* Now 'shift' the result of the reduction.  Determine what state
     that goes to, based on the state we popped back to and the rule
     number reduced by.  */
  {
    const int yylhs = yyr1[yyn] - YYNTOKENS;
    const int yyi = yypgoto[yylhs] + *yyssp;
    yystate = (0 <= yyi && yyi <= YYLAST && yycheck[yyi] == *yyssp
               ? yytable[yyi]
               : yydefgoto[yylhs]);
  }

  goto yynewstate;


/*--------------------------------------.
| yyerrlab -- here on detecting error.  |
`--------------------------------------*/
yyerrlab:
  /* Make sure we have latest lookahead translation.  See comments at
     user semantic actions for why this is necessary.  */
  yytoken = yychar == TK_SBX_YYEMPTY ? YYSYMBOL_YYEMPTY : YYTRANSLATE (yychar);
  /* If not already recovering from an error, report this error.  */
  if (!yyerrstatus)
    {
      ++yynerrs;
      {
        yypcontext_t yyctx
          = {yyssp, yyesa, &yyes, &yyes_capacity, yytoken, &yylloc};
        if (yychar != TK_SBX_YYEMPTY)
          YY_LAC_ESTABLISH;
        if (yyreport_syntax_error (&yyctx, scanner, ctx) == 2)
          YYNOMEM;
      }
    }

  yyerror_range[1] = yylloc;
  if (yyerrstatus == 3)
    {
      /* If just tried and failed to reuse lookahead token after an
         error, discard it.  */

      if (yychar <= TK_YYEOF)
        {
          /* Return failure if at end of input.  */
          if (yychar == TK_YYEOF)
            YYABORT;
        }
      else
        {
          yydestruct ("Error: discarding",
                      yytoken, &yylval, &yylloc, scanner, ctx);
          yychar = TK_SBX_YYEMPTY;
        }
    }

  /* Else will try to reuse lookahead token after shifting the error
     token.  */
  goto yyerrlab1;


/*---------------------------------------------------.
| yyerrorlab -- error raised explicitly by YYERROR.  |
`---------------------------------------------------*/
yyerrorlab:
  /* Pacify compilers when the user code never invokes YYERROR and the
     label yyerrorlab therefore never appears in user code.  */
  if (0)
    YYERROR;
  ++yynerrs;

  /* Do not reclaim the symbols of the rule whose action triggered
     this YYERROR.  */
  YYPOPSTACK (yylen);
  yylen = 0;
  YY_STACK_PRINT (yyss, yyssp);
  yystate = *yyssp;
  goto yyerrlab1;


/*-------------------------------------------------------------.
| yyerrlab1 -- common code for both syntax error and YYERROR.  |
`-------------------------------------------------------------*/
yyerrlab1:
  yyerrstatus = 3;      /* Each real token shifted decrements this.  */

  /* Pop stack until we find a state that shifts the error token.  */
  for (;;)
    {
      yyn = yypact[yystate];
      if (!yypact_value_is_default (yyn))
        {
          yyn += YYSYMBOL_YYerror;
          if (0 <= yyn && yyn <= YYLAST && yycheck[yyn] == YYSYMBOL_YYerror)
            {
              yyn = yytable[yyn];
              if (0 < yyn)
                break;
            }
        }

      /* Pop the current state because it cannot handle the error token.  */
      if (yyssp == yyss)
        YYABORT;

      yyerror_range[1] = *yylsp;
      yydestruct ("Error: popping",
                  YY_ACCESSING_SYMBOL (yystate), yyvsp, yylsp, scanner, ctx);
      YYPOPSTACK (1);
      yystate = *yyssp;
      YY_STACK_PRINT (yyss, yyssp);
    }

  /* If the stack popping above didn't lose the initial context for the
     current lookahead token, the shift below will for sure.  */
  YY_LAC_DISCARD ("error recovery");

  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  *++yyvsp = yylval;
  YY_IGNORE_MAYBE_UNINITIALIZED_END

  yyerror_range[2] = yylloc;
  ++yylsp;
  YYLLOC_DEFAULT (*yylsp, yyerror_range, 2);

  /* Shift the error token.  */
  YY_SYMBOL_PRINT ("Shifting", YY_ACCESSING_SYMBOL (yyn), yyvsp, yylsp);

  yystate = yyn;
  goto yynewstate;


/*-------------------------------------.
| yyacceptlab -- YYACCEPT comes here.  |
`-------------------------------------*/
yyacceptlab:
  yyresult = 0;
  goto yyreturnlab;


/*-----------------------------------.
| yyabortlab -- YYABORT comes here.  |
`-----------------------------------*/
yyabortlab:
  yyresult = 1;
  goto yyreturnlab;


/*-----------------------------------------------------------.
| yyexhaustedlab -- YYNOMEM (memory exhaustion) comes here.  |
`-----------------------------------------------------------*/
yyexhaustedlab:
  yyerror (&yylloc, scanner, ctx, YY_("memory exhausted"));
  yyresult = 2;
  goto yyreturnlab;


/*----------------------------------------------------------.
| yyreturnlab -- parsing is finished, clean up and return.  |
`----------------------------------------------------------*/
yyreturnlab:
  if (yychar != TK_SBX_YYEMPTY)
    {
      /* Make sure we have latest lookahead translation.  See comments at
         user semantic actions for why this is necessary.  */
      yytoken = YYTRANSLATE (yychar);
      yydestruct ("Cleanup: discarding lookahead",
                  yytoken, &yylval, &yylloc, scanner, ctx);
    }
  /* Do not reclaim the symbols of the rule whose action triggered
     this YYABORT or YYACCEPT.  */
  YYPOPSTACK (yylen);
  YY_STACK_PRINT (yyss, yyssp);
  while (yyssp != yyss)
    {
      yydestruct ("Cleanup: popping",
                  YY_ACCESSING_SYMBOL (+*yyssp), yyvsp, yylsp, scanner, ctx);
      YYPOPSTACK (1);
    }
#ifndef yyoverflow
  if (yyss != yyssa)
    YYSTACK_FREE (yyss);
#endif
  if (yyes != yyesa)
    YYSTACK_FREE (yyes);

  return yyresult;
}

#line 178 "grammar/policy.y"


static void sbx_yyerror(sb_loc *loc, yyscan_t scanner, struct sbx_pctx *ctx, const char *msg)
{
	(void)scanner;
	sbx_ctx_error(ctx, loc, "syntax", "%s", msg);
}

/* Names of token kinds as users read them: keywords quoted, token
 * classes described.  */
static const char *sbx_symbol_text(yysymbol_kind_t k, char *buf, size_t size)
{
	switch (k) {
	case YYSYMBOL_YYEOF: return "end of file";
	case YYSYMBOL_YYerror: return "error";
	case YYSYMBOL_YYUNDEF: return "invalid token";
	case YYSYMBOL_ROOT: return "a root name";
	case YYSYMBOL_ABSPATH: return "an absolute path";
	case YYSYMBOL_TILDEPATH: return "a ~ path";
	case YYSYMBOL_ROOTPATH: return "a root path";
	case YYSYMBOL_VARPATH: return "a $name";
	case YYSYMBOL_STRING: return "a string";
	default: break;
	}
	/* with parse.error custom, names come without their quotes */
	const char *n = yysymbol_name(k);
	size_t len = strlen(n);
	if (len >= 2 && n[0] == '"')
		snprintf(buf, size, "'%.*s'", (int)(len - 2), n + 1);
	else
		snprintf(buf, size, "'%s'", n);
	return buf;
}

/* "unexpected X, expecting A, B or C" plus a hint for the common slips.  */
static int yyreport_syntax_error(const yypcontext_t *yyctx, yyscan_t scanner, struct sbx_pctx *ctx)
{
	(void)scanner;
	enum { MAX = 32, LISTED = 5 };
	yysymbol_kind_t exp[MAX];
	int n = yypcontext_expected_tokens(yyctx, exp, MAX);
	yysymbol_kind_t got = yypcontext_token(yyctx);
	const sb_loc *loc = yypcontext_location(yyctx);
	char buf[512], name[32];
	size_t k = 0;
	bool wants_semi = false;
	for (int i = 0; i < n; i++)
		if (exp[i] == YYSYMBOL_SEMI)
			wants_semi = true;
	k += (size_t)snprintf(buf + k, sizeof buf - k, "unexpected %s",
			      sbx_symbol_text(got, name, sizeof name));
	/* the six path token kinds read as one: "a path" */
	static const yysymbol_kind_t path_kinds[] = {
		YYSYMBOL_ABSPATH, YYSYMBOL_STRING, YYSYMBOL_TILDEPATH,
		YYSYMBOL_ROOT, YYSYMBOL_ROOTPATH, YYSYMBOL_VARPATH,
	};
	int npath = 0;
	for (int i = 0; i < n; i++)
		for (size_t j = 0; j < sizeof path_kinds / sizeof path_kinds[0]; j++)
			if (exp[i] == path_kinds[j])
				npath++;
	bool group = npath == (int)(sizeof path_kinds / sizeof path_kinds[0]);
	const char *words[MAX];
	char names[MAX][32];
	int nw = 0;
	if (group)
		words[nw++] = "a path";
	for (int i = 0; i < n; i++) {
		bool is_path = false;
		for (size_t j = 0; j < sizeof path_kinds / sizeof path_kinds[0]; j++)
			if (exp[i] == path_kinds[j])
				is_path = true;
		if (group && is_path)
			continue;
		words[nw] = sbx_symbol_text(exp[i], names[nw], sizeof names[nw]);
		nw++;
	}
	if (nw > 0 && nw <= LISTED) {
		k += (size_t)snprintf(buf + k, sizeof buf - k, ", expecting ");
		for (int i = 0; i < nw; i++)
			k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s",
					      i == 0 ? "" : i == nw - 1 ? " or " : ", ", words[i]);
	}
	if (wants_semi && got == YYSYMBOL_YYEOF)
		snprintf(buf + k, sizeof buf - k, " (statements end with ';')");
	else if (wants_semi)
		snprintf(buf + k, sizeof buf - k, " (missing ';' after the previous statement?)");
	sbx_ctx_error(ctx, loc, "syntax", "%s", buf);
	return 0;
}
