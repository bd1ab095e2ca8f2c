# calltrace — GNU make build.  `make help` lists the targets.

PREFIX ?= /usr/local
O ?= build
CC ?= gcc
ARCH ?= $(shell uname -m)
WERROR ?= -Werror
SAN ?=

ifeq ($(origin CC),default)
CC := gcc
endif

# perf's extra warnings, clean in both halves under -Werror
WARNINGS := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	-Wold-style-definition -Wundef -Wformat=2 -Winit-self -Wredundant-decls \
	-Wnested-externs -Wpointer-arith
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O2 $(WARNINGS) $(WERROR) \
	-I. -Iinclude -Iarch/$(ARCH)
CFLAGS ?=
# lib/ by job, in layers (doc/architecture.md): each folder's files see
# the headers of the folders below it and no others, so that the reading
# side (core .. view) cannot include what only record needs (record/), and
# no folder includes one above it.  The commands, tests and fuzzer see all.
LIB_SEES_core := core
LIB_SEES_symbols := core symbols
LIB_SEES_args := core args
LIB_SEES_read := core symbols args read
LIB_SEES_view := core symbols args read view
LIB_SEES_record := core symbols args read record
LIB_DIRS := core symbols args read view record
LIB_INC := $(LIB_DIRS:%=-Ilib/%)
ALL_CFLAGS := $(BASE_CFLAGS) $(LIB_INC) $(SAN) $(CFLAGS)

# the runtime: libc only, hidden by default, never instrumented
# aarch64: the hooks' atomic reservation inline (an ldxr/stxr pair, or
# ldadd where -march allows), not a call of libgcc's outline helper that
# picks one at run time (doc/runtime.md, "AArch64")
RT_ARCH_CFLAGS_aarch64 := -mno-outline-atomics
RT_ARCH_CFLAGS := $(RT_ARCH_CFLAGS_$(ARCH))
RT_CFLAGS := $(BASE_CFLAGS) -fPIC -fvisibility=hidden \
	-ftls-model=initial-exec -fno-stack-protector $(RT_ARCH_CFLAGS) $(CFLAGS)
RT_SRCS := $(wildcard runtime/*.c)
RT_ASM := $(wildcard arch/$(ARCH)/*.S)
RT_OBJS := $(RT_SRCS:%.c=$(O)/%.o) $(RT_ASM:%.S=$(O)/%.o)

LIB_SRCS := $(foreach d,$(LIB_DIRS),$(wildcard lib/$(d)/*.c))
# the reading side: what libcalltrace-reader.so is built from
READ_SRCS := $(foreach d,core symbols args read,$(wildcard lib/$(d)/*.c))
CMD_SRCS := calltrace.c $(wildcard builtin/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
CMD_OBJS := $(CMD_SRCS:%.c=$(O)/%.o)
LIBS := -ldw -lelf -lstdc++ -lm
# the commands alone (tui): ncurses, from pkg-config (Debian's libncurses-dev)
CURSES_LIBS := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)

# the example plugins (doc/plugins.md): one shared object each
PLUGIN_SRCS := $(wildcard plugins/*.c)
PLUGINS := $(PLUGIN_SRCS:plugins/%.c=$(O)/plugins/%.so)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/%)

.PHONY: all clean check test unit demo bench install man completion deps asan fuzz fuzz-build coverage help format \
	format-check \
	compile_commands.json FORCE

all: $(O)/calltrace $(O)/libcalltrace.so $(O)/libcalltrace-throw.so $(PLUGINS)
all: $(O)/libcalltrace-reader.so

help:
	@echo "make            build $(O)/calltrace and $(O)/libcalltrace.so"
	@echo "make deps       install missing Debian packages (as root)"
	@echo "make demo       deps + build + record and show the demo program"
	@echo "make check      deps + build + unit and end-to-end tests"
	@echo "make aarch64    the aarch64 runtime, build-aarch64/libcalltrace.so (cross compiler),"
	@echo "                and build-aarch64/calltrace when the arm64 libraries are there (make deps)"
	@echo "make aarch64-cli  build-aarch64/calltrace alone (the views and record, for aarch64)"
	@echo "make check-aarch64  the end-to-end cases that apply to aarch64, under qemu-user"
	@echo "make bench      benchmark against the untraced program and uftrace"
	@echo "make asan       analysis side and unit tests under ASan/UBSan"
	@echo "make coverage   line coverage of the analysis side by the suite (gcov)"
	@echo "make fuzz       fuzz the reader for FUZZ_TIME seconds (default 90; doc/testing.md)"
	@echo "make format     format the C sources with clang-format (.clang-format)"
	@echo "make format-check  list the C sources make format would change"
	@echo "make install PREFIX=/usr/local  (with the man pages and bash completion)"
	@echo "make install-reader PREFIX=...  the reading library alone (doc/reader.md)"
	@echo "make man        the man pages, from doc/*.md (go-md2man), into $(O)/man"
	@echo "make completion the bash completion, from each command's --help"
	@echo "make compile_commands.json"

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

define lib_layer
$$(O)/lib/$(1)/%.o: lib/$(1)/%.c
	@mkdir -p $$(dir $$@)
	$$(CC) $$(BASE_CFLAGS) $$(LIB_SEES_$(1):%=-Ilib/%) $$(SAN) $$(CFLAGS) -MMD -MP -c -o $$@ $$<
$$(O)/pic/lib/$(1)/%.o: lib/$(1)/%.c
	@mkdir -p $$(dir $$@)
	$$(CC) $$(BASE_CFLAGS) $$(LIB_SEES_$(1):%=-Ilib/%) $$(SAN) $$(CFLAGS) -fPIC \
		-fvisibility=hidden -MMD -MP -c -o $$@ $$<
endef
$(foreach d,$(LIB_DIRS),$(eval $(call lib_layer,$(d))))

$(O)/runtime/%.o: runtime/%.c
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/arch/%.o: arch/%.S
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/libcalltrace.so: $(RT_OBJS)
	$(CC) -shared -fPIC -Wl,-z,now -Wl,--no-undefined -o $@ $^ -lc

# the reading library (doc/reader.md): the reading side of lib/ (core,
# symbols, args, read) compiled again, position-independent and hidden but
# for include/calltrace/reader.h's ct_reader_*
READER_SONAME := libcalltrace-reader.so.0
READER_OBJS := $(READ_SRCS:%.c=$(O)/pic/%.o)

$(O)/$(READER_SONAME): $(READER_OBJS)
	$(CC) $(SAN) -shared -Wl,-soname,$(READER_SONAME) -Wl,-z,now -Wl,--no-undefined \
		-o $@ $^ $(LIBS)

$(O)/libcalltrace-reader.so: $(O)/$(READER_SONAME)
	ln -sf $(READER_SONAME) $@

# its pkg-config file, for the prefix installed to
$(O)/calltrace-reader.pc: FORCE
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
		'Name: calltrace-reader' 'Description: read calltrace recordings (doc/reader.md)' \
		'Version: $(shell sed -n 's/^#define CT_VERSION "\(.*\)"/\1/p' calltrace.c)' \
		'Libs: -L$${libdir} -lcalltrace-reader' 'Cflags: -I$${includedir}' >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
# record --inject's throw=: the runtime's C++ half, dlopened only then
$(O)/libcalltrace-throw.so: runtime/cxx/throw.cc
	@mkdir -p $(dir $@)
	$(CXX) -std=c++11 -g -O2 -Wall -Wextra $(WERROR) -fPIC -shared -o $@ $<

$(O)/plugins/%.so: plugins/%.c include/calltrace/plugin.h
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -fPIC -shared -o $@ $<

# the HTML report's files (export --format=html), embedded in calltrace at
# build time: web/report.{js,css} and, when "npm ci" has filled
# web/node_modules (make deps does), d3 and d3-flame-graph.  The stamp
# changes when those appear, go or change, so that they are embedded again.
HTML_LIBS := web/node_modules/d3/dist/d3.min.js \
	web/node_modules/d3-flame-graph/dist/d3-flamegraph.umd.min.js \
	web/node_modules/d3-flame-graph/dist/d3-flamegraph.css
HTML_STAMP := $(shell cat $(wildcard $(HTML_LIBS)) web/package-lock.json 2>/dev/null | cksum)

$(O)/gen/html_libs.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(HTML_STAMP)' | cmp -s - $@ || echo '$(HTML_STAMP)' >$@

$(O)/gen/html_assets.c: tools/embed-html.sh web/report.js web/report.css $(O)/gen/html_libs.stamp
	sh tools/embed-html.sh $@ web

$(O)/gen/html_assets.o: $(O)/gen/html_assets.c builtin/html_assets.h
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/calltrace: $(CMD_OBJS) $(LIB_OBJS) $(O)/gen/html_assets.o
	$(CC) $(SAN) -o $@ $^ $(LIBS) $(CURSES_LIBS)

$(O)/tests/%: tests/unit/%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(LIB_OBJS) $(LIBS)

# unit tests of the runtime's pure functions link its own objects
$(O)/tests/test_rtlog: tests/unit/test_rtlog.c $(O)/runtime/log.o
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(O)/runtime/log.o
$(O)/tests/test_calfig: tests/unit/test_calfig.c $(O)/runtime/calfig.o
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Iruntime -MMD -MP -o $@ $< $(O)/runtime/calfig.o
$(O)/tests/test_mapfind: tests/unit/test_mapfind.c $(O)/runtime/mapfind.o
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Iruntime -MMD -MP -o $@ $< $(O)/runtime/mapfind.o
$(O)/tests/test_unwind: tests/unit/test_unwind.c $(O)/runtime/unwind.o $(O)/runtime/cfi.o
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Iruntime -MMD -MP -o $@ $< $(O)/runtime/unwind.o $(O)/runtime/cfi.o

unit: $(UNIT_BINS)

# the runtime for aarch64 (doc/runtime.md), by the cross compiler, into
# build-aarch64; record runs an aarch64 program under qemu-aarch64 with it
AARCH64_O := build-aarch64
AARCH64_CC ?= aarch64-linux-gnu-gcc
# (and record --inject's throw= thrower, when the cross C++ compiler is there)
AARCH64_CXX ?= aarch64-linux-gnu-g++
.PHONY: aarch64 aarch64-cli check-aarch64
aarch64:
	@command -v $(AARCH64_CC) >/dev/null || { echo "make aarch64: no $(AARCH64_CC) (make deps, doc/testing.md)" >&2; exit 2; }
	$(MAKE) O=$(AARCH64_O) ARCH=aarch64 CC=$(AARCH64_CC) $(AARCH64_O)/libcalltrace.so
	if command -v $(AARCH64_CXX) >/dev/null; then $(MAKE) O=$(AARCH64_O) ARCH=aarch64 \
		CXX=$(AARCH64_CXX) $(AARCH64_O)/libcalltrace-throw.so; fi
	if [ -f $(AARCH64_LIBDIR)/libdw.so ]; then $(MAKE) aarch64-cli; else \
		echo "make aarch64: calltrace itself not built for aarch64: no $(AARCH64_LIBDIR)/libdw.so (make deps)"; fi

# the calltrace program for aarch64 (the views, record's driver), beside
# its runtime in build-aarch64: linked with Debian's arm64 libdw, libelf
# and ncursesw, which make deps unpacks into AARCH64_LIBROOT rather than
# installing them as arm64 packages: those bring the multiarch libc6:arm64,
# which qemu-aarch64 -L /usr/aarch64-linux-gnu then pairs with the cross
# libc's ld.so, and emulated programs hang in fork.  The headers are the
# x86-64 -dev packages' (the same files); the run path finds the libraries
# under qemu-aarch64 -L (doc/testing.md, a64_views)
AARCH64_LIBROOT ?= /opt/calltrace-arm64
AARCH64_LIBDIR := $(AARCH64_LIBROOT)/usr/lib/aarch64-linux-gnu
AARCH64_LIBDIRS := $(AARCH64_LIBDIR) $(AARCH64_LIBROOT)/lib/aarch64-linux-gnu
AARCH64_LIBPATH := $(AARCH64_LIBDIR):$(AARCH64_LIBROOT)/lib/aarch64-linux-gnu
aarch64-cli:
	@command -v $(AARCH64_CC) >/dev/null || { echo "make aarch64-cli: no $(AARCH64_CC) (make deps, doc/testing.md)" >&2; exit 2; }
	@[ -f $(AARCH64_LIBDIR)/libdw.so ] || { echo "make aarch64-cli: no arm64 libdw in $(AARCH64_LIBROOT) (make deps, doc/testing.md)" >&2; exit 2; }
	$(MAKE) O=$(AARCH64_O) ARCH=aarch64 CC=$(AARCH64_CC) \
		LIBS="$(AARCH64_LIBDIRS:%=-L%) -Wl,--disable-new-dtags,-rpath,$(AARCH64_LIBPATH) -Wl,-rpath-link,$(AARCH64_LIBPATH) $(LIBS)" \
		CURSES_LIBS="-l:libncursesw.so.6 -l:libtinfo.so.6" $(AARCH64_O)/calltrace

# the end-to-end cases that apply to aarch64, under qemu-user (those
# marked "# aarch64: yes" or "check"; make check runs the "check" ones)
check-aarch64: all aarch64
	CT_AARCH64=1 sh tests/run.sh -j 2 aarch64 '*/a64-*'

deps:
	@sh tools/install-deps.sh

# the format check first, so that the runner's "N passed, N failed" is
# the last line
check: deps
	$(MAKE) format-check
	$(MAKE) all unit
	if command -v $(AARCH64_CC) >/dev/null 2>&1; then $(MAKE) aarch64; fi
	$(MAKE) asan
	$(MAKE) fuzz-build
	sh tests/run.sh

test: all unit
	sh tests/run.sh

demo: deps
	$(MAKE) all
	sh demo/run.sh

bench: all
	sh bench/run.sh

asan:
	$(MAKE) O=build-asan SAN="-fsanitize=address,undefined -fno-omit-frame-pointer" \
		build-asan/calltrace $(UNIT_BINS:$(O)/%=build-asan/%)

# the reader's libFuzzer target (tests/fuzz/, doc/testing.md): the analysis
# side built by clang with libFuzzer, ASan and UBSan (every UBSan report
# stops the run), seeded with recordings made here
FUZZ_TIME ?= 90
FUZZ_O := build-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_FLAGS ?= -rss_limit_mb=2048 -timeout=10 -max_len=65536 -dict=tests/fuzz/reader.dict
FUZZ_OBJS := $(filter-out $(O)/calltrace.o,$(CMD_OBJS)) $(LIB_OBJS) $(O)/gen/html_assets.o

$(O)/fuzz_reader: tests/fuzz/fuzz_reader.c $(FUZZ_OBJS)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(LIBS) $(CURSES_LIBS)

fuzz-build:
	$(MAKE) O=$(FUZZ_O) CC=clang SAN="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
		$(FUZZ_O)/fuzz_reader

# FUZZ_CORPUS: where the corpus grows (kept between runs)
FUZZ_CORPUS ?= $(FUZZ_O)/corpus
fuzz: all fuzz-build
	@mkdir -p $(FUZZ_CORPUS) $(FUZZ_O)/seeds $(FUZZ_O)/crashes
	@[ -n "$$(ls $(FUZZ_O)/seeds)" ] || sh tests/fuzz/seeds.sh $(CURDIR)/$(O)/calltrace $(FUZZ_O)/seeds
	ASAN_OPTIONS=detect_leaks=1 $(FUZZ_O)/fuzz_reader $(FUZZ_FLAGS) \
		-max_total_time=$(FUZZ_TIME) -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_O)/crashes/ $(FUZZ_CORPUS) $(FUZZ_O)/seeds tests/fuzz/corpus

# line coverage of the analysis side (calltrace and lib/) by the whole
# suite: a --coverage build in build-cov, the suite run on it, gcov's
# figures summed by tools/coverage.sh (COVERAGE_TESTS: a subset)
COV_O := build-cov
COVERAGE_TESTS ?=
coverage:
	$(MAKE) O=$(COV_O) SAN=--coverage all unit
	find $(COV_O) -name '*.gcda' -delete
	-CT_BUILD=$(COV_O) sh tests/run.sh $(COVERAGE_TESTS)
	sh tools/coverage.sh $(COV_O)

# the man pages: calltrace(1) from doc/calltrace.md, calltrace-CMD(1) from
# doc/CMD.md, by tools/man.sh with go-md2man (make deps installs it)
MAN_CMDS := record replay report callers graph coverage info live top export tui
MANS := $(O)/man/calltrace.1 $(MAN_CMDS:%=$(O)/man/calltrace-%.1)

man: $(MANS)

$(O)/man/calltrace.1: doc/calltrace.md tools/man.sh $(O)/calltrace
	@mkdir -p $(dir $@)
	sh tools/man.sh $(O)/calltrace $< $@

$(O)/man/calltrace-%.1: doc/%.md tools/man.sh $(O)/calltrace
	@mkdir -p $(dir $@)
	sh tools/man.sh $(O)/calltrace $< $@

# the bash completion: the options of each command from its --help
completion: $(O)/calltrace.bash

$(O)/calltrace.bash: tools/gen-completion.sh completion/calltrace.bash $(O)/calltrace
	sh tools/gen-completion.sh $(O)/calltrace $@

install: all man completion
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/calltrace \
		$(DESTDIR)$(PREFIX)/share/doc/calltrace $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 $(O)/calltrace $(DESTDIR)$(PREFIX)/bin/calltrace
	install -m 644 $(O)/libcalltrace.so $(DESTDIR)$(PREFIX)/lib/calltrace/libcalltrace.so
	install -m 644 $(O)/libcalltrace-throw.so \
		$(DESTDIR)$(PREFIX)/lib/calltrace/libcalltrace-throw.so
	if [ -f $(AARCH64_O)/libcalltrace.so ]; then \
		install -d $(DESTDIR)$(PREFIX)/lib/calltrace/aarch64 && \
		install -m 644 $(AARCH64_O)/libcalltrace.so \
			$(DESTDIR)$(PREFIX)/lib/calltrace/aarch64/libcalltrace.so; fi
	if [ -f $(AARCH64_O)/libcalltrace-throw.so ]; then \
		install -m 644 $(AARCH64_O)/libcalltrace-throw.so \
			$(DESTDIR)$(PREFIX)/lib/calltrace/aarch64/libcalltrace-throw.so; fi
	install -m 644 README.md doc/*.md $(DESTDIR)$(PREFIX)/share/doc/calltrace/
	install -d $(DESTDIR)$(PREFIX)/include/calltrace
	install -m 644 include/calltrace/calltrace.h $(DESTDIR)$(PREFIX)/include/calltrace/calltrace.h
	install -m 644 include/calltrace/plugin.h $(DESTDIR)$(PREFIX)/include/calltrace/plugin.h
	install -d $(DESTDIR)$(PREFIX)/lib/calltrace/plugins
	install -m 755 $(PLUGINS) $(DESTDIR)$(PREFIX)/lib/calltrace/plugins/
	install -m 644 $(MANS) $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(O)/calltrace.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/calltrace

# the reading library, its header, pkg-config file and Python module
.PHONY: install-reader
install: install-reader
PYDIR ?= $(PREFIX)/lib/python3/dist-packages
install-reader: $(O)/libcalltrace-reader.so $(O)/calltrace-reader.pc
	install -d $(DESTDIR)$(PREFIX)/include/calltrace $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PYDIR)
	install -m 644 include/calltrace/reader.h $(DESTDIR)$(PREFIX)/include/calltrace/reader.h
	install -m 755 $(O)/$(READER_SONAME) $(DESTDIR)$(PREFIX)/lib/$(READER_SONAME)
	ln -sf $(READER_SONAME) $(DESTDIR)$(PREFIX)/lib/libcalltrace-reader.so
	install -m 644 $(O)/calltrace-reader.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/calltrace-reader.pc
	install -m 644 python/calltrace.py $(DESTDIR)$(PYDIR)/calltrace.py

compile_commands.json:
	$(MAKE) clean
	bear -- $(MAKE) all unit

# clang-format over every tracked *.c and *.h but tests/e2e's programs
format:
	sh tools/format-check.sh --fix

format-check:
	sh tools/format-check.sh

clean:
	rm -rf $(O) build-asan build-fuzz build-cov $(FUZZ_O) $(AARCH64_O)

-include $(shell find $(O) -name '*.d' 2>/dev/null)
