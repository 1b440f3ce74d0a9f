" Vim syntax file
" Language:    sbx, the omp-sandbox policy language (see sbx(5))
" Filenames:   *.sbx

if exists("b:current_syntax")
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn case match

syn keyword sbxStatement  default network list include preset nextgroup=sbxAction skipwhite
syn keyword sbxAction     allow deny
syn keyword sbxBoolean    on off
syn keyword sbxAccess     read write exec
syn match   sbxAccess     "\<stat-only\>"
syn keyword sbxModifier   exactly
syn keyword sbxAck        acknowledge nextgroup=sbxAckWhat skipwhite
syn keyword sbxAckWhat    sensitive wide contained
syn keyword sbxRoot       home workspace tmpdir
syn match   sbxTilde      "\~\(/[^ \t;"#]*\)\="
syn match   sbxRootPath   "\<\(home\|workspace\|tmpdir\)/[^ \t;"#]*"
syn match   sbxVariable   "\$[A-Za-z_][A-Za-z0-9_]*"
syn match   sbxPath       "\(^\|[ \t]\)\zs/[^ \t;"#]*"
syn region  sbxString     start=+"+ skip=+\\\\\|\\"+ end=+"+ contains=sbxEscape oneline
syn match   sbxEscape     +\\[\\"]+ contained
syn match   sbxSemicolon  ";"
syn keyword sbxTodo       TODO FIXME XXX NOTE contained
syn match   sbxComment    "#.*$" contains=sbxTodo

hi def link sbxStatement  Statement
hi def link sbxAction     Keyword
hi def link sbxBoolean    Boolean
hi def link sbxAccess     Type
hi def link sbxModifier   StorageClass
hi def link sbxAck        PreProc
hi def link sbxAckWhat    Constant
hi def link sbxRoot       Identifier
hi def link sbxTilde      Identifier
hi def link sbxRootPath   Identifier
hi def link sbxVariable   Identifier
hi def link sbxPath       String
hi def link sbxString     String
hi def link sbxEscape     SpecialChar
hi def link sbxSemicolon  Delimiter
hi def link sbxTodo       Todo
hi def link sbxComment    Comment

let b:current_syntax = "sbx"

let &cpo = s:cpo_save
unlet s:cpo_save
