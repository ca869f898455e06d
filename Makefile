# prf — build with `make`; `make test`, `make demo`, `make deps`.
# Sources are found by wildcard per layer folder, so adding a file needs no
# Makefile edit. Objects go to .build/. CI=true turns warnings into errors.
# SANITIZE=address,undefined builds with ASan/UBSan.

CC      ?= gcc
PKG_CONFIG ?= pkg-config
PREFIX  ?= /usr/local
O       ?= .build
BIN     ?= prf

LIBS_PC := libelf libdw libtraceevent libdeflate libunwind libunwind-generic libzstd zlib
# slang, capstone: headers only; loaded when used (ui/tui/slang-dl.h, util/model/disasm.c)
CFLAGS_PC_ONLY := slang capstone

CFLAGS  ?= -O2 -g
CFLAGS  += -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
           -std=gnu11 -D_GNU_SOURCE -MMD -MP -I. \
           -DPRF_DOC_DIR='"$(PREFIX)/share/doc/prf"'
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

SRCS := $(wildcard cmd/*.c builtin/*.c ui/*.c ui/*/*.c \
          util/lib/*.c util/kernel/*.c util/format/*.c util/session/*.c util/model/*.c \
          util/analysis/*.c arch/*/*.c tests/*.c)
OBJS := $(SRCS:%.c=$(O)/%.o)

all: $(BIN)

$(BIN): $(OBJS)
	@echo "  LINK    $@"
	@$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -c -o $@ $<

-include $(OBJS:.o=.d)

deps:
	@bash scripts/install-deps.sh

test: deps
	@$(MAKE) --no-print-directory $(BIN)
	./$(BIN) test

demo: deps
	@$(MAKE) --no-print-directory $(BIN)
	@PRF=$(CURDIR)/$(BIN) bash scripts/demo.sh

clean:
	rm -rf $(O) $(BIN)

.PHONY: all deps test demo clean

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
                -DPRF_DOC_DIR='"$(PREFIX)/share/doc/prf"' -DPRF_FUZZ=1 \
                -Wno-unused-command-line-argument -Wno-unknown-warning-option $(PC_CFLAGS)
FUZZ_LIB_SRCS := $(wildcard ui/*.c ui/*/*.c util/lib/*.c util/kernel/*.c \
                   util/format/*.c util/session/*.c util/model/*.c util/analysis/*.c arch/*/*.c)
FUZZ_LIB_OBJS := $(FUZZ_LIB_SRCS:%.c=$(FUZZ_O)/%.o)

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

-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_NAMES:%=$(FUZZ_O)/tests/fuzz/fuzz-%.d)

.PHONY: fuzz fuzz-corpus
