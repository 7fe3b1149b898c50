# htmm: the front door. `make help` lists the targets.

KERNEL_SRC ?= /usr/src/linux-source-6.12.tar.xz
BUILD      ?= $(CURDIR)/build
TREE       := $(BUILD)/linux
# Guest kernels: FLAVOR=guest (plain) or debug (KASAN, kmemleak, lockdep,
# ...). Each has its own object directory, a direct subdirectory of the
# tree, so kbuild uses the relative srctree ".." and ccache hits across
# clones.
FLAVOR     ?= guest
KOUT        = $(TREE)/out-$(FLAVOR)
FRAGMENTS_guest = configs/guest.config configs/htmm.config configs/kunit.config
FRAGMENTS_debug = $(FRAGMENTS_guest) configs/debug.config
FRAGMENTS  ?= $(FRAGMENTS_$(FLAVOR))
APPEND_debug = page_poison=1
FLAVORS     = guest debug
JOBS       ?= $(shell nproc)
ACCEL      ?= tcg
export ACCEL

export CCACHE_DIR     ?= $(HOME)/.cache/htmm/ccache
export CCACHE_BASEDIR := $(BUILD)
export CCACHE_NOHASHDIR := 1
export CCACHE_DEPEND  := 1
export CCACHE_MAXSIZE ?= 5G

KMAKE      = $(MAKE) -C $(TREE) O=$(KOUT) ARCH=x86_64 CC="ccache gcc" -j$(JOBS)
BZIMAGE    = $(KOUT)/arch/x86/boot/bzImage
INITRAMFS  = $(BUILD)/initramfs.cpio
STAMP      = $(TREE)/.git/htmm-series
KSFT       = $(BUILD)/ksft/tools/testing/selftests
# kselftest's install of the htmm target: run_kselftest.sh, kselftest/
# (runner.sh), htmm/ (the programs, settings) and kselftest-list.txt.
KSFT_INSTALL = $(BUILD)/kselftest
CHECK_LOG  = $(BUILD)/check-$(FLAVOR).log
# KUnit suites that must report in `make check`
KUNIT_SUITES = htmm htmm_source htmm_hotness htmm_tier htmm_bandwidth
export HTMM_KERNEL    = $(BZIMAGE)
export HTMM_INITRAMFS = $(INITRAMFS)

BIN        = $(BUILD)/bin
TOOLS      = $(BIN)/htmmctl $(BIN)/hotcold $(BIN)/htmm-hwcheck
VERSION    ?= $(shell git describe --always --dirty 2>/dev/null || echo unknown)
TOOLS_CFLAGS = -O2 -Wall -Wextra -static -Itools/include -DHTMMCTL_VERSION=\"$(VERSION)\"

.PHONY: help deps tree refresh config kernel selftests tools install uninstall initramfs vm demo docs-check check-series export same-tree deb deb-tools bench bench-profile tier-bench results hwcheck tools-check check-guest guest-run check clean distclean

help:
	@echo "htmm targets:"
	@echo "  deps       install the Debian packages everything below needs"
	@echo "  tree       unpack KERNEL_SRC into $(TREE) and apply 'series' (git am)"
	@echo "  refresh    regenerate patches/ and series from the tree's commits"
	@echo "  config     merge configs/*.config onto tinyconfig and verify them"
	@echo "  kernel     build the guest bzImage (ccache in CCACHE_DIR)"
	@echo "  selftests  build the kselftests in selftests/ (static, for the guest) and"
	@echo "             install them with kselftest's runner in build/kselftest"
	@echo "  tools      build htmmctl, htmm-hwcheck and the hotcold workload (static;"
	@echo "             needs only cc and make)"
	@echo "  install    htmmctl, htmm-hwcheck, htmm-plot, htmm.h and the man pages into PREFIX"
	@echo "             (/usr/local; DESTDIR= stages); needs only cc and make"
	@echo "  uninstall  remove what install put there"
	@echo "  initramfs  build the base guest initramfs (busybox)"
	@echo "  vm         boot the guest with a shell on this terminal"
	@echo "  demo       the main job: hotcold under 'htmmctl run --tier' in the guest, and its heatmap"
	@echo "  check-series  checkpatch, each patch builds, sparse, kernel-doc, docs"
	@echo "  bench      htmm vs perf record on a page-fault workload (table, build/bench.json)"
	@echo "  bench-profile  where ksamplingd's CPU goes per sample, by kernel function"
	@echo "             (perf in the guest; build/bench-profile.txt)"
	@echo "  tier-bench htmm tiering vs NUMA balancing vs DAMON, fresh guest each, on"
	@echo "             9 workloads and 4 tenant mixes (table, build/tier-bench.json, a"
	@echo "             plot each in build/tier-bench/; TIER_SECONDS=60;"
	@echo "             TIER_VARIANTS=\"zipf-0.99 gups-hotset\" runs some of: stable"
	@echo "             moving zipf-0.8 zipf-0.99 zipf-1.2 zipf-phase gups-hotset"
	@echo "             gups-scattered thp tenant-noisy tenant-late tenant-equal"
	@echo "             tenant-guard;"
	@echo "             TIER_ARGS=\"--size 2 --seed 9\" more htmm-tierbench options;"
	@echo "             TIER_NODE_MIB=512:1536 memory of guest nodes 0:1, default 512)"
	@echo "  results    the results page build/results/index.md from build/tier-bench.json"
	@echo "             and build/bench.json (tier-bench and bench make it too)"
	@echo "  hwcheck    on a real machine running the patched kernel, as root: which"
	@echo "             source auto picks, and a short sampling self-check"
	@echo "  deb        Debian packages of the patched kernel (defconfig + htmm),"
	@echo "             and deb-tools"
	@echo "  deb-tools  the htmm-tools package (install, for /usr) in build/deb"
	@echo "  export     the series as mails of its next version (b4) in build/export"
	@echo "  same-tree  REV=<commit>: the series ends in the same kernel tree as at REV"
	@echo "  docs-check Documentation/ here and in the series say the same"
	@echo "  tools-check  host tests of htmmctl, hwcheck, ktap-summary, tier-report (seconds)"
	@echo "  check-guest  KUnit and kselftests in one guest (FLAVOR=guest|debug)"
	@echo "  guest-run  the same on what is already built (no rebuild)"
	@echo "  check      everything: tools-check, docs-check, check-series, then"
	@echo "             check-guest on both flavors"
	@echo "  clean      remove the kernel objects; distclean removes build/"
	@echo "variables: KERNEL_SRC=<6.12 tarball or tree> FLAVOR=guest|debug ACCEL=tcg|kvm JOBS=N"
	@echo "run your own program on the patched kernel:"
	@echo "  tools/vm-run --file ./prog -- prog args"

deps:
	@BUILD=$(BUILD) tools/deps

tree: deps
	@tools/mktree $(KERNEL_SRC) $(TREE)
	@grep -qx '/out-\*/' $(TREE)/.git/info/exclude || echo '/out-*/' >>$(TREE)/.git/info/exclude

refresh:
	@tools/refresh-series $(TREE)

$(KOUT)/.config: $(FRAGMENTS) $(STAMP)
	@echo "config: $(FLAVOR) kernel: tinyconfig + $(notdir $(FRAGMENTS)) (seconds)"
	@mkdir -p $(KOUT)
	@$(KMAKE) -s tinyconfig
	@cd $(TREE) && scripts/kconfig/merge_config.sh -m -O $(KOUT) $(KOUT)/.config \
		$(addprefix $(CURDIR)/,$(FRAGMENTS)) >/dev/null
	@$(KMAKE) -s olddefconfig
	@tools/check-config $@ $(FRAGMENTS)

config: tree
	@$(MAKE) --no-print-directory $(KOUT)/.config

# The boot image's piggy.S takes the compressed kernel in with .incbin,
# which ccache's depend mode does not see: once (2026-11-26) a piggy.o
# of an earlier build whose compressed kernel had the same size came
# back from the cache, and the guest booted that kernel. So ccache is
# off for the boot image, piggy.o is always made again (a stale one
# from before this rule would look up to date), and the image is
# checked to carry the vmlinux just built (its banner: version, build
# number, time).
BANNER = grep -a -m1 -o 'Linux version [[:print:]]* \#[0-9][[:print:]]* UTC [0-9]*'
kernel: config
	@echo "kernel: building the $(FLAVOR) kernel in $(KOUT)"
	@echo "kernel:   (from scratch on 2 cores: 4 min 40 s for the plain guest, measured; longer for debug; a minute or less with a warm ccache)"
	@start=$$(date +%s); $(KMAKE) -s vmlinux && \
		rm -f $(KOUT)/arch/x86/boot/compressed/piggy.o && \
		CCACHE_DISABLE=1 $(KMAKE) -s bzImage && $(KMAKE) -s headers_install && \
		want=$$($(BANNER) $(KOUT)/vmlinux) && \
		got=$$($(TREE)/scripts/extract-vmlinux $(BZIMAGE) | $(BANNER)) && \
		if [ "$$want" != "$$got" ]; then \
			echo "kernel: $(BZIMAGE) carries '$$got', not '$$want'" >&2; exit 1; fi && \
		echo "kernel: $(FLAVOR) guest kernel ready in $$(( $$(date +%s) - start )) s"

# Built and installed as kselftest does it for a target (make -C
# tools/testing/selftests TARGETS=htmm install), in a copy of the
# kernel's tools/testing/selftests with htmm/ added (where the series'
# last patch puts it), static, against the uapi headers the series
# installs.
selftests: kernel
	@rm -rf $(BUILD)/ksft $(KSFT_INSTALL)
	@mkdir -p $(KSFT) $(BUILD)/ksft/scripts
	@cp $(TREE)/scripts/subarch.include $(BUILD)/ksft/scripts/
	@cp -r $(addprefix $(TREE)/tools/testing/selftests/,Makefile lib.mk kselftest.h \
		kselftest_harness.h kselftest run_kselftest.sh) $(KSFT)/
	@cp -r selftests/htmm $(KSFT)/htmm
	@$(MAKE) -s --no-print-directory -C $(KSFT) TARGETS=htmm install \
		INSTALL_PATH=$(KSFT_INSTALL) LDFLAGS=-static \
		KHDR_INCLUDES="-isystem $(KOUT)/usr/include"
	@echo "selftests: kselftest install in $(KSFT_INSTALL) ($$(wc -l <$(KSFT_INSTALL)/kselftest-list.txt) programs)"

# The users' tools need only cc and make: no deps (no apt-get).
tools: $(TOOLS) $(BIN)/htmm-plot

HTMMCTL_SRC = $(sort $(wildcard tools/htmmctl/*.c))
$(BIN)/htmmctl: $(HTMMCTL_SRC) $(wildcard tools/htmmctl/*.h) tools/include/htmm.h
	@mkdir -p $(BIN)
	@echo "  CC      $@"
	@$(CC) $(TOOLS_CFLAGS) -o $@ $(HTMMCTL_SRC) -lm

# Beside htmmctl, which runs it for "report heatmap -o FILE.png".
$(BIN)/htmm-plot: tools/htmm-plot
	@mkdir -p $(BIN)
	@cp $< $@

$(BIN)/hotcold: tools/hotcold/hotcold.c
	@mkdir -p $(BIN)
	@echo "  CC      $@"
	@$(CC) $(TOOLS_CFLAGS) -o $@ $<

$(BIN)/nobody: tools/htmmctl-test/nobody.c
	@mkdir -p $(BIN)
	@echo "  CC      $@"
	@$(CC) $(TOOLS_CFLAGS) -o $@ $<

$(BIN)/htmm-hwcheck: tools/hwcheck/htmm-hwcheck.c selftests/htmm/htmm_util.h
	@mkdir -p $(BIN)
	@echo "  CC      $@"
	@$(CC) $(TOOLS_CFLAGS) -o $@ $<

# The users' tools on a real machine, built here with nothing but cc
# and make (no deps: no apt, no QEMU, no kernel tree). DESTDIR stages
# them for a package (deb-tools).
PREFIX  ?= /usr/local
DESTDIR ?=
INSTALLED = $(DESTDIR)$(PREFIX)/sbin/htmmctl $(DESTDIR)$(PREFIX)/sbin/htmm-hwcheck \
	$(DESTDIR)$(PREFIX)/bin/htmm-plot $(DESTDIR)$(PREFIX)/include/htmm.h \
	$(DESTDIR)$(PREFIX)/share/man/man2/htmm_start.2 \
	$(DESTDIR)$(PREFIX)/share/man/man2/htmm_end.2 \
	$(DESTDIR)$(PREFIX)/share/man/man8/htmmctl.8
install: $(BIN)/htmmctl $(BIN)/htmm-hwcheck
	install -D -m 0755 $(BIN)/htmmctl $(DESTDIR)$(PREFIX)/sbin/htmmctl
	install -D -m 0755 $(BIN)/htmm-hwcheck $(DESTDIR)$(PREFIX)/sbin/htmm-hwcheck
	install -D -m 0755 tools/htmm-plot $(DESTDIR)$(PREFIX)/bin/htmm-plot
	install -D -m 0644 tools/include/htmm.h $(DESTDIR)$(PREFIX)/include/htmm.h
	install -D -m 0644 -t $(DESTDIR)$(PREFIX)/share/man/man2 Documentation/man2/htmm_start.2 \
		Documentation/man2/htmm_end.2
	install -D -m 0644 -t $(DESTDIR)$(PREFIX)/share/man/man8 Documentation/man8/htmmctl.8

uninstall:
	rm -f $(INSTALLED)

# On a real machine booted into the patched kernel, as root.
hwcheck: $(BIN)/htmm-hwcheck
	$(BIN)/htmm-hwcheck

$(INITRAMFS): tools/mkinitramfs
	@mkdir -p $(BUILD)
	@tools/mkinitramfs $@

initramfs: deps
	@$(MAKE) --no-print-directory $(INITRAMFS)

vm: kernel initramfs tools
	tools/vm-run $(addprefix --file ,$(TOOLS))

# The main job: a workload whose hot set starts on the slow node 1 and
# whose cold set fills more of node 0 than it may keep there, sampled by
# htmm (abit, as there is no PMU) from before it execs, with tiering on:
# live counters and placement, a record of its per-page hotness
# (build/demo.rec), reported as the heatmap of its accesses, also left in
# build/demo-heatmap.{tsv,png}, and the hot set's placement over
# time in build/demo-placement.{tsv,png}. The terminal shows the
# programs' output; the guest's whole console goes to build/demo.log.
DEMO_ARGS ?= --hot 8 --hot-node 1 --cold 32 --cold-node 0 --seconds 10
demo: kernel initramfs tools
	@echo "demo: hotcold under 'htmmctl run --tier' in a fresh guest, about 15 s (console: $(BUILD)/demo.log)"
	@tools/vm-run --cmd-output --log $(BUILD)/demo.log $(addprefix --file ,$(TOOLS)) \
		--out /tmp/demo.rec:$(BUILD)/demo.rec -- \
		htmmctl run --node 0 --tier --fast-mib 24 -i 1 \
		--record /tmp/demo.rec -- hotcold $(DEMO_ARGS)
	@$(BIN)/htmmctl report $(BUILD)/demo.rec heatmap -o $(BUILD)/demo-heatmap.tsv
	@tools/htmm-plot $(BUILD)/demo-heatmap.tsv $(BUILD)/demo-heatmap.png
	@tools/placement-plot $(BUILD)/demo.log $(BUILD)/demo-placement.png

# Review gate: checkpatch, each patch builds (W=1), sparse, kernel-doc, docs.
check-series: kernel
	tools/check-series $(TREE) $(KOUT)

# Debian packages of the patched kernel for real machines: defconfig, or
# DEB_BASE_CONFIG (a distribution config), plus htmm. Packages: build/deb/.
DEB_OUT        = $(TREE)/out-deb
DEB_BASE_CONFIG ?=
DKMAKE         = $(MAKE) -C $(TREE) O=$(DEB_OUT) ARCH=x86_64 CC="ccache gcc" -j$(JOBS)
deb: tree deb-tools
	mkdir -p $(DEB_OUT) $(BUILD)/deb
	if [ -n "$(DEB_BASE_CONFIG)" ]; then \
		cp $(DEB_BASE_CONFIG) $(DEB_OUT)/.config && \
		$(TREE)/scripts/config --file $(DEB_OUT)/.config \
			--set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS ""; \
	else $(DKMAKE) -s defconfig; fi
	cd $(TREE) && scripts/kconfig/merge_config.sh -m -O $(DEB_OUT) $(DEB_OUT)/.config \
		$(CURDIR)/configs/htmm.config $(CURDIR)/configs/deb.config >/dev/null
	$(DKMAKE) -s olddefconfig
	tools/check-config $(DEB_OUT)/.config configs/htmm.config configs/deb.config
	$(DKMAKE) -s vmlinux modules LOCALVERSION=-htmm
	CCACHE_DISABLE=1 $(DKMAKE) -s bindeb-pkg LOCALVERSION=-htmm
	mv $(TREE)/*.deb $(TREE)/*.buildinfo $(TREE)/*.changes $(BUILD)/deb/
	@ls -l $(BUILD)/deb/*.deb

# htmm-tools, the package of `make install` for /usr: static binaries,
# so no Depends. Its version sorts by the number of commits, e.g.
# 0~245+d09d93e (.dirty with uncommitted edits).
DEB_VERSION = 0~$(shell git rev-list --count HEAD 2>/dev/null || echo 0)+$(subst -,.,$(VERSION))
DEB_ARCH    = $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB_MAINTAINER ?= $(shell git log -1 --format='%an <%ae>' 2>/dev/null)
DEB_TOOLS  = $(BUILD)/deb-tools
deb-tools:
	rm -rf $(DEB_TOOLS)
	$(MAKE) --no-print-directory install DESTDIR=$(DEB_TOOLS) PREFIX=/usr
	gzip -9n $(DEB_TOOLS)/usr/share/man/man*/*
	mkdir -p $(DEB_TOOLS)/DEBIAN $(BUILD)/deb
	printf '%s\n' 'Package: htmm-tools' 'Version: $(DEB_VERSION)' \
		'Architecture: $(DEB_ARCH)' 'Maintainer: $(DEB_MAINTAINER)' \
		"Installed-Size: $$(du -sk $(DEB_TOOLS)/usr | cut -f1)" \
		'Section: admin' 'Priority: optional' 'Suggests: gnuplot-nox' \
		'Description: htmm user tools: htmmctl, htmm-hwcheck, htmm-plot, htmm.h' \
		' htmmctl(8) starts, stops, watches and records the memory access' \
		' sampling sessions of a kernel with the htmm patch series' \
		' (make deb); htmm-hwcheck checks its sample sources and its' \
		' bandwidth counting on this machine; htmm-plot draws a heatmap' \
		' (with gnuplot); htmm.h and htmm_start(2)' \
		' are for programs that make the system calls themselves.' \
		>$(DEB_TOOLS)/DEBIAN/control
	dpkg-deb --build --root-owner-group $(DEB_TOOLS) \
		$(BUILD)/deb/htmm-tools_$(DEB_VERSION)_$(DEB_ARCH).deb

# htmm against perf record on the same workload, in one guest run.
# perf comes from Debian's linux-perf, copied in with its libraries.
PERF_FILES = /usr/bin/perf $(shell ldd /usr/bin/perf 2>/dev/null | grep -o '/[^ ]*')
bench: kernel initramfs $(BIN)/htmm-bench
	tools/vm-run --timeout 3600 --node-mib 1536 --log $(BUILD)/bench.log --file $(BIN)/htmm-bench \
		$(foreach f,$(PERF_FILES),--file $(f):$(f)) \
		--out /tmp/bench.json:$(BUILD)/bench.json -- \
		htmm-bench -r 5 -o /tmp/bench.json
	@echo "bench: JSON in $(BUILD)/bench.json"
	@tools/results-page $(BUILD)

# The sample path of make bench, profiled: ksamplingd's perf samples by
# function of the guest kernel.
bench-profile: kernel initramfs $(BIN)/htmm-bench
	tools/bench/profile --map $(KOUT)/System.map $(BUILD)/bench-profile.txt

# htmm's tiering against NUMA balancing's tiering mode and DAMON, on the
# field's workloads (tools/tier-bench), each system in a fresh guest: a
# table, build/tier-bench.json, build/tier-bench/VARIANT.png and all the
# plots in build/tier-bench.png. TIER_VARIANTS (empty: all) picks some;
# TIER_ARGS adds htmm-tierbench options (--size, --skew, --seed) to every
# run, TIER_NODE_MIB (N or N0:N1) sizes the guest's nodes.
TIER_SECONDS ?= 60
TIER_VARIANTS ?=
TIER_ARGS ?=
TIER_NODE_MIB ?= 512
tier-bench: kernel initramfs $(BIN)/htmm-tierbench
	TIER_VARIANTS="$(TIER_VARIANTS)" TIER_ARGS="$(TIER_ARGS)" \
	TIER_NODE_MIB="$(TIER_NODE_MIB)" tools/tier-bench $(TIER_SECONDS)
	@tools/results-page $(BUILD)

# The results page, generated from what tier-bench and bench left:
# commit, date, machine, the tables and links to the plots.
results:
	@tools/results-page $(BUILD)

$(BIN)/htmm-tierbench: tools/tierbench/htmm-tierbench.c selftests/htmm/htmm_util.h
	@mkdir -p $(BIN)
	$(CC) $(TOOLS_CFLAGS) -o $@ $< -lpthread

$(BIN)/htmm-bench: tools/bench/htmm-bench.c selftests/htmm/htmm_util.h
	@mkdir -p $(BIN)
	$(CC) $(TOOLS_CFLAGS) -o $@ $<

# The series for review: cover letter, patches, kselftests as the last.
export: tree
	tools/export-series $(TREE) $(BUILD)/export

# A restructured series must end in the tree an earlier one ended in.
same-tree: tree
	@[ -n "$(REV)" ] || { echo "usage: make same-tree REV=<commit of this repository>"; exit 2; }
	tools/same-tree $(TREE) $(REV)

# The documentation the series carries must be the one kept here.
DOCS = Documentation/mm/htmm.rst Documentation/admin-guide/mm/htmm.rst \
	Documentation/ABI/testing/sysfs-kernel-mm-htmm
docs-check: tree
	@for f in $(DOCS); do \
		cmp -s $$f $(TREE)/$$f || { echo "docs-check: $$f differs from the series' copy"; exit 1; }; \
	done; echo "docs-check: the series carries Documentation/ as is"

# One guest: KUnit runs at boot, the kselftests after it, then (debug
# guest) a kmemleak scan; the log is judged by tools/ktap-summary.
# guest-run boots what is built; check-guest builds it first.
check-guest: kernel selftests initramfs $(BIN)/htmm-hwcheck $(BIN)/htmmctl $(BIN)/nobody \
		$(BIN)/hotcold
	@$(MAKE) --no-print-directory guest-run FLAVOR=$(FLAVOR)

# The kselftests run under kselftest's own runner (run_kselftest.sh in
# the install, copied to /kselftest), the other programs after them.
guest-run:
	@[ -x $(KSFT_INSTALL)/run_kselftest.sh ] || { echo "guest-run: no kselftest install in $(KSFT_INSTALL) (make selftests)" >&2; exit 2; }; \
	ksft=$$(sed -n 's/^htmm://p' $(KSFT_INSTALL)/kselftest-list.txt); \
	other="hwcheck-guest htmmctl-guest abi-guest"; progs="$$ksft $$other"; \
	files="--file tools/guest-selftests --file tools/hwcheck/hwcheck-guest --file $(BIN)/htmm-hwcheck"; \
	files="$$files --file tools/htmmctl-test/htmmctl-guest --file $(BIN)/htmmctl --file $(BIN)/nobody"; \
	files="$$files --file $(BIN)/hotcold --file tools/abi-guest"; \
	files="$$files --file Documentation/ABI/testing/sysfs-kernel-mm-htmm:/usr/share/htmm/sysfs-kernel-mm-htmm"; \
	for f in $$(cd $(KSFT_INSTALL) && find . -type f); do \
		files="$$files --file $(KSFT_INSTALL)/$${f#./}:/kselftest/$${f#./}"; done; \
	rc=0; tools/vm-run $(GUEST_QUIET) --timeout 2400 --log $(CHECK_LOG) --append "$(APPEND_$(FLAVOR))" \
		$$files -- guest-selftests -k /kselftest $$(printf '/bin/%s ' $$other) || rc=$$?; \
	echo "check: $(FLAVOR): guest exit status $$rc (console log: $(CHECK_LOG))"; \
	tools/ktap-summary --kunit-py $(TREE)/tools/testing/kunit/kunit.py \
		$(CHECK_LOG) $(KUNIT_SUITES) $$progs >$(CHECK_LOG).summary || rc=1; \
	sed 's/^/check: $(FLAVOR): /' $(CHECK_LOG).summary; \
	exit $$rc

# htmmctl, htmm-hwcheck and tools/ktap-summary on this machine, against
# fake sysfs/debugfs trees (HTMM_ROOT): seconds, no kernel, no guest.
tools-check: $(BIN)/htmmctl $(BIN)/htmm-hwcheck $(BIN)/htmm-plot
	@tools/tests/run $(BIN)

# Everything, on the plain and the debug guest; the last line sums both.
# tools-check first, even under make -j.
docs-check check-series: $(if $(filter check,$(MAKECMDGOALS)),tools-check)
check: tools-check docs-check check-series
	@rc=0; for f in $(FLAVORS); do \
		$(MAKE) --no-print-directory check-guest FLAVOR=$$f || rc=1; \
	done; \
	cat $(foreach f,$(FLAVORS),$(BUILD)/check-$(f).log.summary) | awk \
		'/ passed, / { p += $$1; f += $$3; s += $$5 } \
		 END { printf "%d passed, %d failed, %d skipped\n", p, f, s }'; \
	exit $$rc

clean:
	rm -rf $(foreach f,$(FLAVORS),$(TREE)/out-$(f)) $(INITRAMFS)

distclean:
	rm -rf $(BUILD)
