/* A Bison parser, made by GNU Bison 3.8.2.  */

/* Bison interface for Yacc-like parsers in C

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

/* DO NOT RELY ON FEATURES THAT ARE NOT DOCUMENTED in the manual,
   especially those whose name start with YY_ or yy_.  They are
   private implementation details that can be changed or removed.  */

#ifndef YY_SBX_YY_BUILD_TSAN_GEN_POLICY_PARSER_H_INCLUDED
# define YY_SBX_YY_BUILD_TSAN_GEN_POLICY_PARSER_H_INCLUDED
/* Debug traces.  */
#ifndef SBX_YYDEBUG
# if defined YYDEBUG
#if YYDEBUG
#   define SBX_YYDEBUG 1
#  else
#   define SBX_YYDEBUG 0
#  endif
# else /* ! defined YYDEBUG */
#  define SBX_YYDEBUG 0
# endif /* ! defined YYDEBUG */
#endif  /* ! defined SBX_YYDEBUG */
#if SBX_YYDEBUG
extern int sbx_yydebug;
#endif
/* "%code requires" blocks.  */
#line 18 "grammar/policy.y"

#include "compiler/common/diag.h"
#include "compiler/front/parse_ctx.h"
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

#line 66 "build-tsan/gen/policy_parser.h"

/* Token kinds.  */
#ifndef SBX_YYTOKENTYPE
# define SBX_YYTOKENTYPE
  enum sbx_yytokentype
  {
    TK_SBX_YYEMPTY = -2,
    TK_YYEOF = 0,                  /* "end of file"  */
    TK_SBX_YYerror = 256,          /* error  */
    TK_SBX_YYUNDEF = 257,          /* "invalid token"  */
    TK_ALLOW = 258,                /* "allow"  */
    TK_DENY = 259,                 /* "deny"  */
    TK_DEFAULT = 260,              /* "default"  */
    TK_NETWORK = 261,              /* "network"  */
    TK_ON = 262,                   /* "on"  */
    TK_OFF = 263,                  /* "off"  */
    TK_INCLUDE = 264,              /* "include"  */
    TK_LIST = 265,                 /* "list"  */
    TK_PRESET = 266,               /* "preset"  */
    TK_EXACTLY = 267,              /* "exactly"  */
    TK_ACKNOWLEDGE = 268,          /* "acknowledge"  */
    TK_READ = 269,                 /* "read"  */
    TK_WRITE = 270,                /* "write"  */
    TK_STAT_ONLY = 271,            /* "stat-only"  */
    TK_EXEC = 272,                 /* "exec"  */
    TK_SENSITIVE = 273,            /* "sensitive"  */
    TK_WIDE = 274,                 /* "wide"  */
    TK_ROOT = 275,                 /* "root name"  */
    TK_ABSPATH = 276,              /* "absolute path"  */
    TK_TILDEPATH = 277,            /* "~ path"  */
    TK_ROOTPATH = 278,             /* "root path"  */
    TK_VARPATH = 279,              /* "$name"  */
    TK_STRING = 280,               /* "string"  */
    TK_SEMI = 281                  /* ";"  */
  };
  typedef enum sbx_yytokentype sbx_yytoken_kind_t;
#endif

/* Value type.  */
#if ! defined SBX_YYSTYPE && ! defined SBX_YYSTYPE_IS_DECLARED
union SBX_YYSTYPE
{
#line 62 "grammar/policy.y"

	char *str;
	unsigned num;
	sbx_target *target;
	sbx_tvec *tvec;
	sbx_ack *ack;
	sbx_hvec *hvec;

#line 118 "build-tsan/gen/policy_parser.h"

};
typedef union SBX_YYSTYPE SBX_YYSTYPE;
# define SBX_YYSTYPE_IS_TRIVIAL 1
# define SBX_YYSTYPE_IS_DECLARED 1
#endif

/* Location type.  */
typedef sb_loc SBX_YYLTYPE;




int sbx_yyparse (yyscan_t scanner, struct sbx_pctx *ctx);


#endif /* !YY_SBX_YY_BUILD_TSAN_GEN_POLICY_PARSER_H_INCLUDED  */
