# htmm: the front door. `make help` lists the targets.

KERNEL_SRC ?= /usr/src/linux-source-6.12.tar.xz
BUILD      ?= $(CURDIR)/build
TREE       := $(BUILD)/linux
# The object directory is a direct subdirectory of the tree, so kbuild
# uses the relative srctree "..", and ccache hits across clones.
KOUT       := $(TREE)/out-guest
FRAGMENTS  ?= configs/guest.config configs/htmm.config configs/kunit.config
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
SELFTESTS_OUT = $(BUILD)/selftests
CHECK_LOG  = $(BUILD)/check.log
# KUnit suites that must report in `make check`
KUNIT_SUITES = htmm
export HTMM_KERNEL    = $(BZIMAGE)
export HTMM_INITRAMFS = $(INITRAMFS)

BIN        = $(BUILD)/bin
TOOLS      = $(BIN)/htmmctl $(BIN)/hotcold
TOOLS_CFLAGS = -O2 -Wall -Wextra -static -Itools/include

.PHONY: help deps tree refresh config kernel selftests tools initramfs vm demo docs-check check-series export check clean distclean

help:
	@echo "htmm targets:"
	@echo "  deps       install the Debian packages everything below needs"
	@echo "  tree       unpack KERNEL_SRC into $(TREE) and apply 'series' (git am)"
	@echo "  refresh    regenerate patches/ and series from the tree's commits"
	@echo "  config     merge configs/*.config onto tinyconfig and verify them"
	@echo "  kernel     build the guest bzImage (ccache in CCACHE_DIR)"
	@echo "  selftests  build the kselftests in selftests/ (static, for the guest)"
	@echo "  tools      build htmmctl and the hotcold workload (static)"
	@echo "  initramfs  build the base guest initramfs (busybox)"
	@echo "  vm         boot the guest with a shell on this terminal"
	@echo "  demo       the main job: run hotcold under 'htmmctl run' in the guest"
	@echo "  check-series  checkpatch, each patch builds, sparse, kernel-doc, docs"
	@echo "  export     the series for review in build/export (b4/git send-email)"
	@echo "  check      everything: check-series, KUnit and kselftests in the guest"
	@echo "  clean      remove the kernel objects; distclean removes build/"
	@echo "variables: KERNEL_SRC=<6.12 tarball or tree> ACCEL=tcg|kvm JOBS=N"
	@echo "run your own program on the patched kernel:"
	@echo "  tools/vm-run --file ./prog -- prog args"

deps:
	@tools/deps

tree: deps
	@tools/mktree $(KERNEL_SRC) $(TREE)
	@grep -qx '/out-\*/' $(TREE)/.git/info/exclude || echo '/out-*/' >>$(TREE)/.git/info/exclude

refresh:
	@tools/refresh-series $(TREE)

$(KOUT)/.config: $(FRAGMENTS) $(STAMP)
	mkdir -p $(KOUT)
	$(KMAKE) -s tinyconfig
	cd $(TREE) && scripts/kconfig/merge_config.sh -m -O $(KOUT) $(KOUT)/.config \
		$(addprefix $(CURDIR)/,$(FRAGMENTS)) >/dev/null
	$(KMAKE) -s olddefconfig
	tools/check-config $@ $(FRAGMENTS)

config: tree
	@$(MAKE) --no-print-directory $(KOUT)/.config

kernel: config
	$(KMAKE) -s bzImage
	$(KMAKE) -s headers_install
	@ccache -s 2>/dev/null | grep -iE 'hits|misses' | head -3 || true

# Built outside the kernel tree, against its kselftest framework and the
# uapi headers the series installs.
selftests: kernel
	@rm -rf $(KSFT) $(SELFTESTS_OUT)
	@mkdir -p $(KSFT) $(SELFTESTS_OUT)
	@cp $(addprefix $(TREE)/tools/testing/selftests/,lib.mk kselftest.h kselftest_harness.h) $(KSFT)/
	@cp -r selftests/htmm $(KSFT)/htmm
	$(MAKE) -C $(KSFT)/htmm OUTPUT=$(SELFTESTS_OUT) LDFLAGS=-static \
		KHDR_INCLUDES="-isystem $(KOUT)/usr/include"

tools: deps
	@$(MAKE) --no-print-directory $(TOOLS)

$(BIN)/htmmctl: tools/htmmctl/htmmctl.c tools/include/htmm.h
	@mkdir -p $(BIN)
	$(CC) $(TOOLS_CFLAGS) -o $@ $<

$(BIN)/hotcold: tools/hotcold/hotcold.c
	@mkdir -p $(BIN)
	$(CC) $(TOOLS_CFLAGS) -o $@ $<

$(INITRAMFS): tools/mkinitramfs
	@mkdir -p $(BUILD)
	tools/mkinitramfs $@

initramfs: deps
	@$(MAKE) --no-print-directory $(INITRAMFS)

vm: kernel initramfs tools
	tools/vm-run $(addprefix --file ,$(TOOLS))

# The main job: a workload with a hot and a cold set on the two nodes,
# sampled by htmm from before it execs, with live counters.
DEMO_ARGS ?= --seconds 5
demo: kernel initramfs tools
	tools/vm-run --log $(BUILD)/demo.log $(addprefix --file ,$(TOOLS)) -- \
		htmmctl run --node 0 -i 1 -- hotcold $(DEMO_ARGS)

# Review gate: checkpatch, each patch builds (W=1), sparse, kernel-doc, docs.
check-series: kernel
	tools/check-series $(TREE) $(KOUT)

# The series for review: cover letter, patches, kselftests as the last.
export: tree
	tools/export-series $(TREE) $(BUILD)/export

# The documentation the series carries must be the one kept here.
DOCS = Documentation/admin-guide/mm/htmm.rst Documentation/ABI/testing/sysfs-kernel-mm-htmm
docs-check: tree
	@for f in $(DOCS); do \
		cmp -s $$f $(TREE)/$$f || { echo "docs-check: $$f differs from the series' copy"; exit 1; }; \
	done; echo "docs-check: the series carries Documentation/ as is"

# KUnit runs at boot; the kselftests run after it in the same guest.
check: docs-check check-series kernel selftests initramfs
	@progs="$(notdir $(wildcard $(SELFTESTS_OUT)/*))"; \
	files="--file tools/guest-selftests"; cmd=true; \
	for p in $$progs; do files="$$files --file $(SELFTESTS_OUT)/$$p"; done; \
	[ -z "$$progs" ] || cmd="guest-selftests $$(printf '/bin/%s ' $$progs)"; \
	rc=0; tools/vm-run --timeout 1500 --log $(CHECK_LOG) $$files -- $$cmd || rc=$$?; \
	echo "check: guest exit status $$rc (console log: $(CHECK_LOG))"; \
	tools/ktap-summary $(CHECK_LOG) $(KUNIT_SUITES) $$progs || rc=1; \
	exit $$rc

clean:
	rm -rf $(KOUT) $(INITRAMFS)

distclean:
	rm -rf $(BUILD)
