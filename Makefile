# prf — build with `make`; `make test`, `make demo`, `make deps`.
# Sources are found by wildcard per layer folder, so adding a file needs no
# Makefile edit. Objects go to .build/. CI=true turns warnings into errors.
# SANITIZE=address,undefined builds with ASan/UBSan.

CC      ?= gcc
PKG_CONFIG ?= pkg-config
PREFIX  ?= /usr/local
O       ?= .build
BIN     ?= prf

LIBS_PC := libelf libdw libtraceevent slang zlib libunwind libunwind-generic libzstd

CFLAGS  ?= -O2 -g
CFLAGS  += -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
           -std=gnu11 -D_GNU_SOURCE -MMD -MP -I. \
           -DPRF_DOC_DIR='"$(PREFIX)/share/doc/prf"'
ifeq ($(CI),true)
CFLAGS  += -Werror
endif
ifneq ($(SANITIZE),)
CFLAGS  += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
endif

PC_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(LIBS_PC) 2>/dev/null)
PC_LIBS   := $(shell $(PKG_CONFIG) --libs $(LIBS_PC) 2>/dev/null)
CFLAGS  += $(PC_CFLAGS)
LDLIBS  += $(PC_LIBS) -liberty -lpthread -lm

SRCS := $(wildcard cmd/*.c builtin/*.c ui/*.c ui/*/*.c \
          util/lib/*.c util/kernel/*.c util/format/*.c util/model/*.c \
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
	@bash scripts/demo.sh

clean:
	rm -rf $(O) $(BIN)

.PHONY: all deps test demo clean
