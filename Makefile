# omp-sandbox - non-recursive GNU Make build.
#   make            build sbc, sbrun, omp-sandboxed into build/bin
#   make run        install build deps, build, run omp-sandboxed --self-test
#                   in a private mount namespace with a throwaway home
#   make test       install deps (Debian, as root), build, run every suite
#   make test-sanitize  the same suites under ASan+UBSan (build-san/)
#   make fuzz       libFuzzer harnesses (clang, ASan+UBSan) into build-fuzz/, each run
#                   FUZZ_SECONDS (default 60) from fuzz/corpus/NAME/
#   make bench      the benchmark (bench/run.sh, writes docs/benchmarks.md);
#                   make bench-quick: small sizes, few runs (as in CI)
# Knobs: V=1 (echo commands), B=dir (build dir), SAN=1 (sanitizers).
.SUFFIXES:
.DELETE_ON_ERROR:
# Generated parser sources are kept (never treated as intermediate files).
.SECONDARY:
SHELL := /bin/bash

B       ?= build
CC      ?= cc
VERSION := 0.1.0
HOMEPAGE := https://github.com/bnivanov/omp-sandbox
CSTD    := -std=c11
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
OPT     ?= -O2 -g
CPPFLAGS += -D_GNU_SOURCE -DSB_VERSION='"$(VERSION)"' -DSB_HOMEPAGE='"$(HOMEPAGE)"' -I. -I$(B)/gen -MMD -MP
CFLAGS  += $(CSTD) $(OPT) $(WARN)
LDLIBS  += -lm -pthread
# The launchers bind eagerly: lazy binding writes the GOT on first call,
# after the launch's forks, a copy-on-write fault per page in each process
# (bench/analysis.md, launch).
RT_LDFLAGS := -Wl,-z,now -Wl,-z,relro
ifeq ($(SAN),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
# FUZZ=1: objects instrumented for libFuzzer (clang only; see `make fuzz`).
ifeq ($(FUZZ),1)
CC      := clang
CFLAGS  += -fsanitize=fuzzer-no-link
endif
ifneq ($(V),1)
Q := @
endif

BISON ?= bison
FLEX  ?= flex

# ---- sources: one folder per stage, one archive per folder ----
# docs/architecture.md gives the stages and what each may use; the layer
# check (tools/check-layers.sh, run by `make test`) links every archive
# alone with only the archives it may use, so a forbidden call fails there.
# Wildcards: adding a file to a stage needs no Makefile change.
C_STAGES := common ir front check lower sbpl eval driver cli
R_STAGES := common macos linux cli
GRAMMARS := $(wildcard grammar/*.y)
LEXERS   := $(wildcard grammar/*.l)
GEN_C    := $(patsubst grammar/%.y,$(B)/gen/%_parser.c,$(GRAMMARS)) \
            $(patsubst grammar/%.l,$(B)/gen/%_lexer.c,$(LEXERS))
GEN_H    := $(GEN_C:.c=.h)
GEN_OBJ  := $(patsubst $(B)/gen/%.c,$(B)/obj/gen/%.o,$(GEN_C))

stage_src = $(filter-out %_main.c,$(wildcard $(1)/*.c))
# The compiler's archives, lowest first; programs link them highest first.
$(foreach s,$(C_STAGES),$(eval C_OBJ_$(s) := $(patsubst %.c,$(B)/obj/%.o,$(call stage_src,compiler/$(s)))))
C_OBJ_front += $(GEN_OBJ)
$(foreach s,$(R_STAGES),$(eval R_OBJ_$(s) := $(patsubst %.c,$(B)/obj/%.o,$(call stage_src,runtime/$(s)))))
# The runtime again, with test hooks (sandbox-exec stand-in, Landlock
# failure injection).  Only test binaries link it; release binaries never do.
$(foreach s,$(R_STAGES),$(eval R_TOBJ_$(s) := $(patsubst %.c,$(B)/tobj/%.o,$(call stage_src,runtime/$(s)))))

clib = $(B)/lib/libsbc-$(1).a
rlib = $(B)/lib/libsbrt-$(1).a
rtlib = $(B)/lib/libsbrt-$(1)-test.a
# Link order: users before what they use.
# sbc's cli binds this machine's values for explain and diff exactly as the
# launcher does, through the runtime's common stage (docs/architecture.md).
C_LINK    := $(call clib,cli) $(call rlib,common) $(foreach s,driver lower check front eval sbpl ir common,$(call clib,$(s)))
# What the runtime's own archives may use of the compiler (no front end,
# no check pass, no lowering): docs/architecture.md.
C_RT_LINK := $(foreach s,eval sbpl ir common,$(call clib,$(s)))
# The runtime programs compile policies in-process through the driver.
C_DRV_LINK := $(foreach s,driver lower check front eval sbpl ir common,$(call clib,$(s)))
R_LINK    := $(foreach s,cli linux macos common,$(call rlib,$(s)))
R_TLINK   := $(foreach s,cli linux macos common,$(call rtlib,$(s)))
CORE_LIBS := $(C_DRV_LINK)

UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_OBJ := $(patsubst %.c,$(B)/tobj/%.o,$(UNIT_SRC))

BINS      := $(B)/bin/sbc $(B)/bin/sbrun $(B)/bin/omp-sandboxed
TEST_BINS := $(B)/test-bin/sbrun $(B)/test-bin/omp-sandboxed
HELPERS   := $(patsubst tests/helpers/%.c,$(B)/test-bin/%,$(wildcard tests/helpers/*.c))

.PHONY: all run test check test-bins unit test-sanitize fuzz fuzz-build fuzz-run clean deps install uninstall bench bench-quick check-layers test-kernels test-hostile
all: $(BINS)

# ---- generated parsers ----
$(B)/gen/%_parser.c $(B)/gen/%_parser.h: grammar/%.y
	@mkdir -p $(@D)
	$(Q)$(BISON) -Wall -Werror --header=$(B)/gen/$*_parser.h -o $(B)/gen/$*_parser.c $<
$(B)/gen/%_lexer.c $(B)/gen/%_lexer.h: grammar/%.l $(B)/gen/%_parser.h
	@mkdir -p $(@D)
	$(Q)$(FLEX) --header-file=$(B)/gen/$*_lexer.h -o $(B)/gen/$*_lexer.c $<
# A pattern rule with two targets makes both in one run (GNU make).

# ---- objects ----
$(B)/obj/%.o: %.c | $(GEN_H)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
$(B)/obj/gen/%.o: $(B)/gen/%.c | $(GEN_H)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-unused-function -Wno-missing-prototypes -c -o $@ $<
$(B)/tobj/%.o: %.c | $(GEN_H)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -DSB_TEST_HOOKS=1 -I$(B)/gen $(CFLAGS) -Wno-missing-prototypes -c -o $@ $<

define stage_archive
$(1): $(2)
	@mkdir -p $$(@D)
	$$(Q)rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach s,$(C_STAGES),$(eval $(call stage_archive,$(call clib,$(s)),$(C_OBJ_$(s)))))
$(foreach s,$(R_STAGES),$(eval $(call stage_archive,$(call rlib,$(s)),$(R_OBJ_$(s)))))
$(foreach s,$(R_STAGES),$(eval $(call stage_archive,$(call rtlib,$(s)),$(R_TOBJ_$(s)))))
ALL_CLIBS := $(foreach s,$(C_STAGES),$(call clib,$(s)))
ALL_RLIBS := $(foreach s,$(R_STAGES),$(call rlib,$(s)))

# Every archive linked alone with only what it may use (docs/architecture.md).
check-layers: $(ALL_CLIBS) $(ALL_RLIBS)
	$(Q)B=$(B) CC="$(CC)" LDFLAGS="$(LDFLAGS)" tools/check-layers.sh

# ---- the embedded default policy: examples/omp.sbx compiled at build time ----
$(B)/bin/embed: tools/embed.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CSTD) $(OPT) $(WARN) -o $@ $<
$(B)/gen/omp.sb: examples/omp.sbx $(wildcard examples/tools/*.sbx examples/protect/*.sbx) $(B)/bin/sbc
	@mkdir -p $(@D)
	$(Q)$(B)/bin/sbc -o $@ $<
$(B)/gen/omp-allowlist.sb: examples/omp-allowlist.sbx $(B)/gen/omp.sb $(B)/bin/sbc
	@mkdir -p $(@D)
	$(Q)$(B)/bin/sbc -o $@ $<
# the default profile and the allowlist variant (OMP_SANDBOX_NETWORK=allowlist);
# the denial trace quotes statements from the profiles' data form
$(B)/gen/default_profile.c: $(B)/gen/omp.sb $(B)/gen/omp-allowlist.sb $(B)/bin/embed
	$(Q){ $(B)/bin/embed sb_default_profile $(B)/gen/omp.sb && \
	      $(B)/bin/embed sb_allowlist_profile $(B)/gen/omp-allowlist.sb | grep -v '^#include'; } > $@.tmp && mv $@.tmp $@
$(B)/obj/gen/default_profile.o: $(B)/gen/default_profile.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# ---- programs ----
$(B)/bin/sbc: $(B)/obj/compiler/cli/sbc_main.o $(C_LINK)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(B)/bin/sbrun: $(B)/obj/runtime/cli/sbrun_main.o $(B)/obj/gen/default_profile.o $(R_LINK) $(CORE_LIBS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) $(RT_LDFLAGS) -o $@ $^ $(LDLIBS)
$(B)/bin/omp-sandboxed: $(B)/obj/runtime/cli/omp_sandboxed_main.o $(B)/obj/gen/default_profile.o $(R_LINK) $(CORE_LIBS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) $(RT_LDFLAGS) -o $@ $^ $(LDLIBS)
$(B)/test-bin/sbrun: $(B)/tobj/runtime/cli/sbrun_main.o $(B)/obj/gen/default_profile.o $(R_TLINK) $(CORE_LIBS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(B)/test-bin/omp-sandboxed: $(B)/tobj/runtime/cli/omp_sandboxed_main.o $(B)/obj/gen/default_profile.o $(R_TLINK) $(CORE_LIBS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(B)/test-bin/%: tests/helpers/%.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-prototypes -o $@ $< $(LDLIBS)
# Helpers that link the libraries (Landlock plan and probe-tree tests).
LIB_HELPERS := $(patsubst %,$(B)/test-bin/%,ll_run probe_tree)
$(LIB_HELPERS): $(B)/test-bin/%: tests/helpers/%.c $(R_TLINK) $(CORE_LIBS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -DSB_TEST_HOOKS=1 $(CFLAGS) -Wno-missing-prototypes -o $@ $(filter %.c %.a,$^) $(LDLIBS)
# (their .d files name only part of what they include: said here)
$(LIB_HELPERS): tests/helpers/llspec.h

# ---- benchmarks (bench/run.sh; docs/benchmarks.md) ----
# bench/NAME.c -> $(B)/bench/NAME, linked with the runtime and the core.
$(B)/bench/%: bench/%.c $(R_LINK) $(CORE_LIBS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(R_LINK) $(CORE_LIBS) $(LDLIBS)
bench:
	$(Q)B=$(B) bench/run.sh
bench-quick:
	$(Q)B=$(B) bench/run.sh --quick

$(B)/tests/unit: $(UNIT_OBJ) $(R_TLINK) $(C_LINK)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcriterion

# ---- set-up and tests ----
deps:
	$(Q)scripts/deps.sh

# The README's commands.  Both install what they need first, in order.
run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tests/lib/demo-self-test.sh $(B)

test: deps
	$(Q)$(MAKE) --no-print-directory check
	$(Q)$(MAKE) --no-print-directory test-hostile

# The second pass of `make test` (README "Tests"): the suites again on an
# ordinary but hostile host -- global omp and bun, root's ~/.gitconfig and
# ~/.npmrc, another user's home, a bind mount under /tmp, a parallel build --
# made by tests/lib/hostile-host.sh in a private mount namespace (nothing
# outside changes).  Every suite but the sanitizer re-run, the QEMU guest,
# the benchmarks and the test of hostile-host.sh itself.  SKIP (not a
# failure) without root.
HOSTILE_SKIP := sanitize kernel-debian12 bench hostile-host
HOSTILE_SUITES = unit $(filter-out $(HOSTILE_SKIP),$(patsubst tests/suite-%.sh,%,$(wildcard tests/suite-*.sh)))
test-hostile: test-bins $(B)/tests/unit
	$(Q)rc=0; SBX_SKIP_SANITIZE=1 SBX_SUITES="$(HOSTILE_SUITES)" B=$(B) \
		tests/lib/hostile-host.sh run -- tests/run-all.sh || rc=$$?; \
	if [ $$rc = 77 ]; then echo "SKIP: the hostile pass (tests/lib/hostile-host.sh needs root)"; else exit $$rc; fi

# The README's two commands in a throwaway Debian root (debootstrap, chroot;
# docs/fresh-debian.md).  Not part of `make test`: it downloads and builds
# everything again.  SUITE=trixie for Debian 13.
# The Debian package (debian/, debhelper), lintian clean, into $(B)/deb/.
.PHONY: deb
deb:
	$(Q)scripts/make-deb.sh $(B)

.PHONY: test-fresh
test-fresh:
	$(Q)scripts/test-fresh.sh $(SUITE)

check: test-bins $(B)/tests/unit check-layers
	$(Q)B=$(B) tests/run-all.sh

# Everything a suite runs, rebuilt: `make all` alone leaves the test
# builds (build/test-bin/) stale, and a suite run by hand then tests old code.
test-bins: all $(TEST_BINS) $(HELPERS)

# One suite, its binaries rebuilt first: `make suite-trace` runs tests/suite-trace.sh.
suite-%: test-bins
	$(Q)B=$(B) bash tests/suite-$*.sh

# Debian 12's stock kernel (Landlock ABI 2) under QEMU: tests/suite-kernel-debian12.sh
test-kernels: test-bins
	$(Q)B=$(B) bash tests/suite-kernel-debian12.sh

unit: $(B)/tests/unit
	$(Q)$(B)/tests/unit

test-sanitize: deps
	$(Q)SBX_IN_SANITIZE=1 ASAN_OPTIONS=$${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
		$(MAKE) --no-print-directory B=build-san SAN=1 OPT="-O1 -g" check

# ---- fuzzing: libFuzzer harnesses fuzz/fuzz_*.c, seed corpora fuzz/corpus/NAME/ ----
# `make fuzz` builds them with clang (ASan+UBSan) into build-fuzz/ and runs
# each for FUZZ_SECONDS (default 60); findings land in build-fuzz/crashes/.
FUZZ_SECONDS ?= 60
FUZZ_SRC  := $(wildcard fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRC))

$(B)/fuzz/%: fuzz/%.c $(C_LINK)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(C_LINK) $(LDFLAGS) $(LDLIBS)

fuzz-build: $(FUZZ_BINS)

fuzz-run: $(FUZZ_BINS)
	$(Q)B=$(B) FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run.sh $(FUZZ_BINS)

fuzz:
	$(Q)$(MAKE) --no-print-directory B=build-fuzz SAN=1 FUZZ=1 OPT="-O1 -g" fuzz-run

clean:
	rm -rf build build-san build-fuzz

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# ---- benchmarks (not part of check; no timing assertions anywhere) ----
.PHONY: bench-eval
bench-eval: $(B)/bin/eval_bench
	$(Q)$(B)/bin/eval_bench
$(B)/bin/eval_bench: bench/eval_bench.c $(C_LINK)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS)

# ---- install / uninstall (GNU conventions; DESTDIR for staged installs) ----
# make install PREFIX=/opt/omp-sandbox   or   make install DESTDIR=/tmp/stage
# Installs outside every directory the sandbox can write (D7): never into ~/.omp.
prefix     ?= /usr/local
PREFIX     ?= $(prefix)
BINDIR     ?= $(PREFIX)/bin
DATADIR    ?= $(PREFIX)/share
MANDIR     ?= $(DATADIR)/man
INSTALL    ?= install
APPARMORDIR ?= /etc/apparmor.d
# mkdir -p, not install -d: install -d would also chmod existing directories
# such as Debian's setgid /usr/local/share (2775).
MKDIR_P    ?= mkdir -p
PKGDATADIR := $(DATADIR)/omp-sandbox
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
VIMDIR     ?= $(DATADIR)/vim/vimfiles
PROGRAMS   := sbc sbrun omp-sandboxed
MAN1       := $(wildcard man/*.1)
MAN5       := $(wildcard man/*.5)
EXAMPLES   := $(wildcard examples/*.sbx examples/README.md)
EXAMPLES_CI := $(wildcard examples/ci/*.sbx)
EXAMPLES_TOOLS := $(wildcard examples/tools/*.sbx)
EXAMPLES_PROTECT := $(wildcard examples/protect/*.sbx)

.PHONY: check-portable
install: all
	$(MKDIR_P) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(PKGDATADIR)/examples/ci $(DESTDIR)$(PKGDATADIR)/examples/tools $(DESTDIR)$(PKGDATADIR)/examples/protect $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(VIMDIR)/syntax $(DESTDIR)$(VIMDIR)/ftdetect
	$(INSTALL) -m 755 $(BINS) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/
	$(INSTALL) -m 644 $(EXAMPLES) $(DESTDIR)$(PKGDATADIR)/examples/
	$(if $(EXAMPLES_CI),$(INSTALL) -m 644 $(EXAMPLES_CI) $(DESTDIR)$(PKGDATADIR)/examples/ci/)
	$(INSTALL) -m 644 $(EXAMPLES_TOOLS) $(DESTDIR)$(PKGDATADIR)/examples/tools/
	$(INSTALL) -m 644 $(EXAMPLES_PROTECT) $(DESTDIR)$(PKGDATADIR)/examples/protect/
	$(foreach p,$(PROGRAMS),$(INSTALL) -m 644 completions/$(p).bash $(DESTDIR)$(BASHCOMPDIR)/$(p);)
	$(INSTALL) -m 644 $(addprefix completions/_,$(PROGRAMS)) $(DESTDIR)$(ZSHCOMPDIR)/
	$(INSTALL) -m 644 editors/vim/syntax/sbx.vim $(DESTDIR)$(VIMDIR)/syntax/sbx.vim
	$(INSTALL) -m 644 editors/vim/ftdetect/sbx.vim $(DESTDIR)$(VIMDIR)/ftdetect/sbx.vim
	@# Ubuntu 23.10+: unprivileged user namespaces (the masks) need a profile
	if [ -d $(DESTDIR)$(APPARMORDIR) ]; then \
		sed 's|@BINDIR@|$(BINDIR)|g' packaging/apparmor/omp-sandbox.in >$(B)/omp-sandbox.apparmor && \
		$(INSTALL) -m 644 $(B)/omp-sandbox.apparmor $(DESTDIR)$(APPARMORDIR)/omp-sandbox && \
		if [ -z "$(DESTDIR)" ] && command -v apparmor_parser >/dev/null 2>&1; then \
			apparmor_parser -r $(APPARMORDIR)/omp-sandbox || \
			echo "warning: apparmor_parser could not load $(APPARMORDIR)/omp-sandbox"; fi; \
	fi

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(PROGRAMS))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5)))
	rm -f $(addprefix $(DESTDIR)$(PKGDATADIR)/examples/,$(notdir $(EXAMPLES)))
	rm -f $(addprefix $(DESTDIR)$(PKGDATADIR)/examples/ci/,$(notdir $(EXAMPLES_CI)))
	rm -f $(addprefix $(DESTDIR)$(PKGDATADIR)/examples/tools/,$(notdir $(EXAMPLES_TOOLS)))
	rm -f $(addprefix $(DESTDIR)$(PKGDATADIR)/examples/protect/,$(notdir $(EXAMPLES_PROTECT)))
	-rmdir $(DESTDIR)$(PKGDATADIR)/examples/ci $(DESTDIR)$(PKGDATADIR)/examples/tools $(DESTDIR)$(PKGDATADIR)/examples/protect $(DESTDIR)$(PKGDATADIR)/examples $(DESTDIR)$(PKGDATADIR) 2>/dev/null
	rm -f $(addprefix $(DESTDIR)$(BASHCOMPDIR)/,$(PROGRAMS))
	rm -f $(addprefix $(DESTDIR)$(ZSHCOMPDIR)/_,$(PROGRAMS))
	rm -f $(DESTDIR)$(VIMDIR)/syntax/sbx.vim $(DESTDIR)$(VIMDIR)/ftdetect/sbx.vim
	rm -f $(DESTDIR)$(APPARMORDIR)/omp-sandbox

# The suites that need no Linux kernel feature (macOS, Homebrew): the unit
# tests and the compiler/evaluator suites (golden output, check goldens,
# explain/diff).  Exit 77 (skip) counts as success.
PORTABLE_SUITES := golden checks explain
check-portable: all $(B)/tests/unit
	$(Q)$(B)/tests/unit
	$(Q)for s in $(PORTABLE_SUITES); do f=tests/suite-$$s.sh; [ -e "$$f" ] || continue; \
		B=$(B) bash "$$f"; rc=$$?; [ $$rc = 0 ] || [ $$rc = 77 ] || exit 1; done
