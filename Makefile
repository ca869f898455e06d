# prf — build with `make`; `make test`, `make demo`, `make deps`.
# Sources are found by wildcard per layer folder, so adding a file needs no
# Makefile edit. Objects go to .build/. CI=true turns warnings into errors.
# SANITIZE=address,undefined builds with ASan/UBSan.

CC      ?= gcc
PKG_CONFIG ?= pkg-config
# installation directories (GNU conventions); build and install with the
# same PREFIX: the binary finds its text pages in docdir (its man pages
# are found beside it, BINDIR/../share/man)
PREFIX  ?= /usr/local
DESTDIR ?=
bindir  ?= $(PREFIX)/bin
mandir  ?= $(PREFIX)/share/man
docdir  ?= $(PREFIX)/share/doc/prf
htmldir ?= $(docdir)/html
bashcompdir ?= $(PREFIX)/share/bash-completion/completions
zshcompdir  ?= $(PREFIX)/share/zsh/vendor-completions
prflibdir   ?= $(PREFIX)/lib/prf
O       ?= .build
BIN     ?= prf

LIBS_PC := libelf libdw libtraceevent libdeflate libunwind libunwind-generic libzstd zlib libprotobuf-c
LIBS_PC += libseccomp	# syscall names and numbers for prf trace
# slang, capstone: headers only; loaded when used (ui/tui/slang-dl.h, util/model/disasm.c)
CFLAGS_PC_ONLY := slang capstone

CFLAGS  ?= -O2 -g
CFLAGS  += -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
           -std=gnu11 -D_GNU_SOURCE -MMD -MP -I. \
           -DPRF_DOC_DIR='"$(docdir)"' -DPRF_LIB_DIR='"$(prflibdir)"'
ifeq ($(CI),true)
CFLAGS  += -Werror
endif
ifneq ($(SANITIZE),)
# gcc's flow-based warnings (stringop-overflow, array-bounds, ...) give false
# positives on sanitizer-instrumented code, so they stay warnings here; the
# plain CI=true build keeps -Werror for them.
CFLAGS  += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all -Wno-error
LDFLAGS += -fsanitize=$(SANITIZE)
endif

PC_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(LIBS_PC) $(CFLAGS_PC_ONLY) 2>/dev/null)
PC_LIBS   := $(shell $(PKG_CONFIG) --libs $(LIBS_PC) 2>/dev/null)
CFLAGS  += $(PC_CFLAGS)
LDLIBS  += $(PC_LIBS) -liberty -lpthread -lm

SRCS := $(wildcard cmd/*.c builtin/*.c bench/*.c ui/*.c ui/*/*.c \
          util/lib/*.c util/kernel/*.c util/format/*.c util/session/*.c util/model/*.c \
          util/analysis/*.c arch/*/*.c tests/*.c)
# Generated: the pprof encoder's protobuf-c code (util/analysis/export-pprof.proto
# compiled by protoc-c into $(O)/gen/, included by export-pprof.c).
PROTOC_C ?= protoc-c
PROTO_GEN := $(O)/gen/export-pprof.pb-c
OBJS := $(SRCS:%.c=$(O)/%.o) $(PROTO_GEN).o

# Python scripting (`script -s`): a plugin next to the binary, loaded with
# dlopen() only when a script runs, so prf itself does not link libpython
# (util/analysis/scripting-abi.h). Skipped when python3-embed is missing.
# Building $(BIN) builds it too (`make prf` gives a prf whose -s works).
PY_CFLAGS := $(shell $(PKG_CONFIG) --cflags python3-embed 2>/dev/null)
PY_LIBS   := $(shell $(PKG_CONFIG) --libs python3-embed 2>/dev/null)
PY_PLUGIN := $(if $(PY_LIBS),$(BIN)-python.so)
PY_SRCS   := $(wildcard scripting/python/*.c)
PY_OBJS   := $(PY_SRCS:%.c=$(O)/%.pic.o)

all: $(BIN) $(PY_PLUGIN)

$(BIN): $(OBJS) | $(PY_PLUGIN)
	@echo "  LINK    $@"
	@$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(O)/scripting/%.pic.o: scripting/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) $(PY_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(BIN)-python.so: $(PY_OBJS)
	@echo "  LINK    $@"
	@$(CC) $(LDFLAGS) -shared -o $@ $(PY_OBJS) $(PY_LIBS)

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -c -o $@ $<

$(PROTO_GEN).c: util/analysis/export-pprof.proto
	@mkdir -p $(dir $@)
	@echo "  PROTOC  $<"
	@$(PROTOC_C) --c_out=$(dir $@) --proto_path=util/analysis $<
$(PROTO_GEN).h: $(PROTO_GEN).c ;

# generated code: compiled without the warnings (-Werror) of our own
$(PROTO_GEN).o: $(PROTO_GEN).c
	@echo "  CC      $<"
	@$(CC) $(filter-out -Werror -Wextra,$(CFLAGS)) -c -o $@ $<

$(O)/util/analysis/export-pprof.o: CFLAGS += -I$(O)/gen
$(O)/util/analysis/export-pprof.o: $(PROTO_GEN).h

-include $(OBJS:.o=.d) $(PY_OBJS:.o=.d)

deps:
	@bash scripts/install-deps.sh

test: deps
	@$(MAKE) --no-print-directory $(BIN)
	./$(BIN) test --rerun-failed

demo: deps
	@$(MAKE) --no-print-directory $(BIN)
	@PRF=$(CURDIR)/$(BIN) bash scripts/demo.sh

# ---- manual pages and installation ---------------------------------------
# Documentation/NAME.txt (AsciiDoc) -> $(O)/man/NAME.SECTION (the section
# from its title line, "prf-report(1)") and $(O)/html/NAME.html, with
# asciidoctor (scripts/install-deps.sh).
DOC_TXT  := $(wildcard Documentation/prf*.txt)
DOC_NAMES := $(DOC_TXT:Documentation/%.txt=%)
man_section = $(shell sed -n '1s/.*(\([0-9]\)).*/\1/p' Documentation/$(1).txt)
MAN_PAGES := $(foreach n,$(DOC_NAMES),$(O)/man/$(n).$(call man_section,$(n)))
HTML_PAGES := $(DOC_NAMES:%=$(O)/html/%.html)
ASCIIDOCTOR ?= asciidoctor
ADOC_ATTRS := -a mansource=prf -a manmanual="prf Manual"

doc: $(MAN_PAGES) $(HTML_PAGES)

$(O)/man/%.1 $(O)/man/%.7: Documentation/%.txt
	@mkdir -p $(dir $@)
	@echo "  MAN     $@"
	@$(ASCIIDOCTOR) -b manpage -d manpage $(ADOC_ATTRS) --failure-level WARN -o $@ $<

$(O)/html/%.html: Documentation/%.txt
	@mkdir -p $(dir $@)
	@echo "  HTML    $@"
	@$(ASCIIDOCTOR) -b html5 -d manpage $(ADOC_ATTRS) --failure-level WARN -o $@ $<

# `make install` puts exactly: the binary, the man pages, the HTML and
# text pages (`prf help` shows the text where man cannot), the bash and
# zsh completion files, for `script -s` the Python plugin and prf's
# helper modules (prflibdir), and the shell tests with their helpers
# (prflibdir/tests/shell: the installed `prf test` runs them).
# DESTDIR stages it elsewhere.
PY_MODULES := $(wildcard scripting/exec/scripts/python/Perf-Trace-Util/lib/Perf/Trace/*.py)
SHELL_TESTS := $(wildcard tests/shell/*.sh)
SHELL_TEST_LIB := $(wildcard $(addprefix tests/shell/lib/*.,sh c h py))
SHELL_TEST_WX := $(wildcard tests/shell/lib/wx-stub/*.py)
install: $(BIN) $(PY_PLUGIN) doc
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(docdir) $(DESTDIR)$(htmldir) \
		$(DESTDIR)$(bashcompdir) $(DESTDIR)$(zshcompdir)
	install -m 755 $(BIN) $(DESTDIR)$(bindir)/prf
	for p in $(MAN_PAGES); do \
		s=$${p##*.}; install -d $(DESTDIR)$(mandir)/man$$s; \
		install -m 644 $$p $(DESTDIR)$(mandir)/man$$s/; done
	install -m 644 $(HTML_PAGES) $(DESTDIR)$(htmldir)/
	install -m 644 $(DOC_TXT) $(DESTDIR)$(docdir)/
	install -m 644 completion/prf.bash $(DESTDIR)$(bashcompdir)/prf
	install -m 644 completion/_prf $(DESTDIR)$(zshcompdir)/_prf
	install -d $(DESTDIR)$(prflibdir)/tests/shell/lib
	install -m 644 $(SHELL_TESTS) $(DESTDIR)$(prflibdir)/tests/shell/
	install -m 644 $(SHELL_TEST_LIB) $(DESTDIR)$(prflibdir)/tests/shell/lib/
	install -d $(DESTDIR)$(prflibdir)/tests/shell/lib/wx-stub
	install -m 644 $(SHELL_TEST_WX) $(DESTDIR)$(prflibdir)/tests/shell/lib/wx-stub/
ifneq ($(PY_PLUGIN),)
	install -d $(DESTDIR)$(prflibdir)/exec/scripts/python/Perf-Trace-Util/lib/Perf/Trace
	install -m 755 $(PY_PLUGIN) $(DESTDIR)$(prflibdir)/prf-python.so
	install -m 644 $(PY_MODULES) $(DESTDIR)$(prflibdir)/exec/scripts/python/Perf-Trace-Util/lib/Perf/Trace/
endif

uninstall:
	rm -f $(DESTDIR)$(bindir)/prf $(DESTDIR)$(bashcompdir)/prf $(DESTDIR)$(zshcompdir)/_prf
	for p in $(notdir $(MAN_PAGES)); do rm -f $(DESTDIR)$(mandir)/man$${p##*.}/$$p; done
	rm -f $(HTML_PAGES:$(O)/html/%=$(DESTDIR)$(htmldir)/%) $(DOC_TXT:Documentation/%=$(DESTDIR)$(docdir)/%)
	rmdir $(DESTDIR)$(htmldir) $(DESTDIR)$(docdir) 2>/dev/null || true
	rm -rf $(DESTDIR)$(prflibdir)

clean:
	rm -rf $(O) $(BIN) $(BIN)-python.so

.PHONY: all deps test demo clean doc install uninstall

# ---- fuzzing (tests/fuzz/) ----------------------------------------------
# `make fuzz` builds one libFuzzer binary per harness, tests/fuzz/fuzz-NAME.c
# -> $(FUZZ_O)/fuzz-NAME, with clang, ASan and UBSan, linking the library
# layers (util/, ui/, arch/) compiled once with the same flags, and writes
# the seed corpora ($(FUZZ_O)/corpus/NAME/) from real files: perf.data
# written by Linux perf and by prf, and ELF files compiled on the spot.
# Run one with `scripts/fuzz.sh NAME SECONDS`. Needs clang and
# libclang-rt-14-dev (scripts/install-deps.sh).
# FUZZ_SAN picks the sanitizers (default address,undefined, as CI runs the
# smoke); `make fuzz FUZZ_SAN=undefined` is the throughput build for long
# runs (no ASan: several times more executions per second), in its own
# directory .build-fuzz-undefined unless FUZZ_O is given. FUZZ_OPT sets
# the optimization level (-O1).
FUZZ_CC      ?= clang
FUZZ_SAN_CI  := address,undefined
FUZZ_SAN     ?= $(FUZZ_SAN_CI)
FUZZ_COMMA   := ,
ifeq ($(FUZZ_SAN),$(FUZZ_SAN_CI))
FUZZ_O       ?= .build-fuzz
else
FUZZ_O       ?= .build-fuzz-$(subst $(FUZZ_COMMA),-,$(FUZZ_SAN))
endif
FUZZ_OPT     ?= -O1
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_O)/fuzz-%)
FUZZ_CFLAGS  := $(FUZZ_OPT) -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,$(FUZZ_SAN) \
                -fno-sanitize-recover=all -std=gnu11 -D_GNU_SOURCE -I. \
                -DPRF_DOC_DIR='"$(docdir)"' -DPRF_FUZZ=1 \
                -Wno-unused-command-line-argument -Wno-unknown-warning-option $(PC_CFLAGS)
FUZZ_LIB_SRCS := $(wildcard ui/*.c ui/*/*.c util/lib/*.c util/kernel/*.c \
                   util/format/*.c util/session/*.c util/model/*.c util/analysis/*.c arch/*/*.c)
FUZZ_LIB_OBJS := $(FUZZ_LIB_SRCS:%.c=$(FUZZ_O)/%.o) $(FUZZ_O)/gen/export-pprof.pb-c.o

fuzz: $(FUZZ_BINS) fuzz-corpus

$(FUZZ_O)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $<"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

.SECONDARY: $(FUZZ_LIB_OBJS) $(FUZZ_NAMES:%=$(FUZZ_O)/tests/fuzz/fuzz-%.o)

$(FUZZ_O)/fuzz-%: $(FUZZ_O)/tests/fuzz/fuzz-%.o $(FUZZ_LIB_OBJS)
	@echo "  FUZZLD  $@"
	@$(FUZZ_CC) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $^ $(LDLIBS)

fuzz-corpus: $(BIN)
	@bash tests/fuzz/make-seeds.sh $(FUZZ_O)/corpus ./$(BIN)

$(FUZZ_O)/gen/export-pprof.pb-c.c: util/analysis/export-pprof.proto
	@mkdir -p $(dir $@)
	@$(PROTOC_C) --c_out=$(dir $@) --proto_path=util/analysis $<

$(FUZZ_O)/gen/export-pprof.pb-c.o: $(FUZZ_O)/gen/export-pprof.pb-c.c
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_O)/util/analysis/export-pprof.o: FUZZ_CFLAGS += -I$(FUZZ_O)/gen
$(FUZZ_O)/util/analysis/export-pprof.o: $(FUZZ_O)/gen/export-pprof.pb-c.c

-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_NAMES:%=$(FUZZ_O)/tests/fuzz/fuzz-%.d)

.PHONY: fuzz fuzz-corpus
