# ssdtorture: GNU make, dependencies through pkg-config.

PREFIX		?= /usr/local
SBINDIR		?= $(PREFIX)/sbin
BINDIR		?= $(PREFIX)/bin
MANDIR		?= $(PREFIX)/share/man
SYSCONFDIR	?= /etc
UNITDIR		?= /lib/systemd/system
SYSUSERSDIR	?= /usr/lib/sysusers.d
COMPLETIONDIR	?= $(PREFIX)/share/bash-completion/completions
# the alerting rules and the Grafana dashboard, for a lab's own servers
DATADIR		?= $(PREFIX)/share/ssdtorture

PKGS		= libsystemd liburing inih blkid libxxhash json-c libnvme librrd
CC		?= cc
OPT		?= -O2 -g
WARN		= -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes
PKG_CFLAGS	:= $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS	:= $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# ssdctl links only what it uses: the journal (log.c), xxhash (block
# headers of the error map), json-c, librrd (graphs)
CTL_PKGS	= libsystemd libxxhash json-c librrd
CTL_LIBS	:= $(shell pkg-config --libs $(CTL_PKGS) 2>/dev/null) -lm -pthread
DAEMON_DIRS	= daemon daemon/core daemon/features daemon/engine daemon/schedule \
		  daemon/smart daemon/records daemon/target daemon/control
CPPFLAGS	+= -D_GNU_SOURCE -Icommon $(DAEMON_DIRS:%=-I%) -Ictl
CFLAGS		+= -std=c11 $(OPT) $(WARN) $(PKG_CFLAGS) -pthread
LDLIBS		+= $(PKG_LIBS) -pthread -lm

# SANITIZE=1: AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer,
# any UB report fatal. Objects and binaries go under $(SAN_DIR), so the
# normal build beside the sources stays as it is; O is the prefix of every
# object and binary this make builds.
SAN_DIR		= build/san/
SAN_FLAGS	= -fsanitize=address,undefined -fno-omit-frame-pointer \
		  -fno-sanitize-recover=undefined
ifeq ($(SANITIZE),1)
O		:= $(SAN_DIR)
# clang unless told otherwise: gcc 12's UBSan, linked with ASan, writes its
# reports to stderr whatever log_path says, and the tests keep a daemon's
# stderr only in files they delete
ifeq ($(origin CC),default)
CC		= clang
endif
OPT		= -O1 -g
CFLAGS		+= $(SAN_FLAGS)
LDFLAGS		+= $(SAN_FLAGS)
else
O		:=
endif

COMMON_SRC	= common/units.c common/log.c common/proto.c common/lathist.c \
		  common/timeline.c common/slc.c common/steady.c common/degrade.c
# leaves: no threads, no sd-event; unit-tested on their own
CORE_SRC	= daemon/engine/block.c daemon/engine/perm.c daemon/engine/layout.c daemon/records/state.c \
		  daemon/config.c daemon/conf_keys.c daemon/smart/smart_nvme.c daemon/smart/smart_ata.c \
		  daemon/smart/smart_json.c daemon/smart/smart_nvmejson.c daemon/cmdline.c \
		  daemon/smart/wear_units.c daemon/smart/smart_rules.c daemon/smart/smart_run.c \
		  daemon/target/dioalign.c daemon/target/purge.c daemon/target/purge_ata.c \
		  daemon/target/sysblk.c daemon/cpushare.c \
		  daemon/records/statedir.c daemon/records/errmap.c daemon/records/syncq.c \
		  daemon/records/errmap_again.c \
		  daemon/schedule/schedule.c daemon/engine/probes.c daemon/engine/probegen.c \
		  daemon/records/ckpt_read.c daemon/records/tl_read.c daemon/records/series_read.c \
		  $(wildcard daemon/schedule/phase_*.c)
DAEMON_SRC	= daemon/main.c daemon/loop.c daemon/manager.c daemon/core/drive.c daemon/engine/engine.c \
		  daemon/engine/engine_ring.c daemon/engine/engine_probe.c \
		  daemon/target/safety.c daemon/target/discard.c daemon/records/events.c daemon/schedule/plan.c daemon/control/control.c \
		  daemon/control/methods.c daemon/control/varlink.c daemon/smart/smart.c \
		  daemon/features/drive_smart.c daemon/features/drive_errors.c daemon/features/records.c \
		  daemon/core/records_space.c daemon/features/findings.c daemon/core/rates.c daemon/core/drive_cmd.c \
		  daemon/core/drive_archive.c daemon/core/drive_open.c daemon/core/drive_job.c \
		  daemon/features/drive_ckpt.c daemon/features/drive_timeline.c daemon/features/ckpt_long.c \
		  daemon/features/ckpt_seen.c daemon/features/ckpt_line.c daemon/core/drive_core.c \
		  daemon/features/drive_power.c daemon/features/drive_cut.c daemon/features/cutproc.c \
		  daemon/core/drive_run.c daemon/core/drive_features.c daemon/core/tl_estimate.c \
		  daemon/records/archive.c daemon/engine/mapguard.c \
		  daemon/target/reserve.c daemon/control/view.c daemon/control/publish.c daemon/core/checkpoint.c \
		  $(wildcard daemon/control/metrics.c)
COMMON_OBJ	= $(COMMON_SRC:%.c=$(O)%.o)
CORE_OBJ	= $(CORE_SRC:%.c=$(O)%.o)
DAEMON_OBJ	= $(DAEMON_SRC:%.c=$(O)%.o)

CTL_SRC		= ctl/ssdctl.c ctl/client.c ctl/output.c ctl/graph.c \
		  $(wildcard ctl/graph_*.c) \
		  ctl/errgraph.c ctl/ckpt.c ctl/ckptgraph.c ctl/gnuplot.c \
		  ctl/tlgraph.c ctl/dggraph.c ctl/report.c ctl/report_dir.c ctl/report_hosts.c \
		  ctl/report_model.c ctl/report_html.c ctl/report_tables.c \
		  ctl/report_fig.c ctl/report_gp.c
# the error map reader and the block classes, for graph --what errormap;
# the checkpoint results reader and the probe table, for checkpoints,
# probes and graph --what checkpoints
CTL_CORE_SRC	= daemon/records/errmap.c daemon/records/statedir.c daemon/engine/block.c \
		  daemon/records/ckpt_read.c daemon/records/tl_read.c daemon/records/series_read.c \
		  daemon/engine/probes.c
CTL_OBJ		= $(CTL_SRC:%.c=$(O)%.o)
CTL_CORE_OBJ	= $(CTL_CORE_SRC:%.c=$(O)%.o)
DAEMON_BIN	= $(O)daemon/ssdtortured
CTL_BIN		= $(O)ctl/ssdctl

SAN_CANARY	= $(O)tests/sanitize/canary

UNIT_TESTS	= $(patsubst %.c,$(O)%,$(wildcard tests/unit/test_*.c))
BENCH_BINS	= $(O)bench/genbench $(O)bench/probebench
# libFuzzer targets: tests/fuzz/fuzz_NAME.c, seeds in tests/fuzz/corpus/NAME/,
# linked with FUZZ_SRC_NAME (the code under test and what it calls).
FUZZ_TARGETS	= control conn config state smart_ata smart_nvme smart_json
FUZZ_SRC_control = daemon/control/varlink.c daemon/control/methods.c common/proto.c
FUZZ_SRC_conn	= daemon/control/control.c daemon/control/varlink.c daemon/control/methods.c \
		  daemon/records/statedir.c common/proto.c common/log.c
FUZZ_SRC_config	= daemon/config.c daemon/conf_keys.c daemon/engine/probes.c common/units.c \
		  daemon/cmdline.c
FUZZ_SRC_state	= daemon/records/state.c daemon/records/statedir.c daemon/engine/layout.c \
		  daemon/engine/perm.c daemon/engine/block.c common/proto.c
FUZZ_SRC_smart_ata = daemon/smart/smart_ata.c daemon/smart/smart_json.c daemon/smart/wear_units.c
FUZZ_SRC_smart_nvme = daemon/smart/smart_nvme.c
FUZZ_SRC_smart_json = daemon/smart/smart_nvmejson.c daemon/smart/smart_json.c \
		  daemon/smart/smart_ata.c daemon/smart/wear_units.c
FUZZ_BINS	= $(FUZZ_TARGETS:%=tests/fuzz/fuzz_%)
FUZZ_PKGS	= json-c inih libnvme libxxhash libsystemd
FUZZ_SMOKE_TIME	?= 10
FUZZ_TIME	?= 300

.PHONY: all deps check check-fast check-build unit integration demo bench \
	bench-scale bench-ckptfio \
	fuzz fuzz-smoke control known vm man install-test deb package-test stress sanitize \
	sanitize-run sanitize-build \
	clean install uninstall

# ssdsim: the simulated drive as a file (FUSE low-level API): its
# front-end (ssdsim.c, fe_*.c; libfuse3, json-c) linked with the model's
# objects (SIM_MODEL_OBJ, below).
SSDSIM_PKGS	= fuse3 json-c
SSDSIM_CFLAGS	:= $(shell pkg-config --cflags $(SSDSIM_PKGS) 2>/dev/null)
SSDSIM_LIBS	:= $(shell pkg-config --libs $(SSDSIM_PKGS) 2>/dev/null) -pthread
SSDSIM_FE_SRC	= sim/ssdsim.c $(wildcard sim/fe_*.c)
SSDSIM_FE_OBJ	= $(SSDSIM_FE_SRC:%.c=$(O)%.o)
SSDSIM_BIN	= $(O)sim/ssdsim
$(SSDSIM_FE_OBJ): CFLAGS += $(SSDSIM_CFLAGS)

all: $(DAEMON_BIN) $(CTL_BIN) $(SSDSIM_BIN)

$(DAEMON_BIN): $(DAEMON_OBJ) $(CORE_OBJ) $(COMMON_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(CTL_BIN): $(CTL_OBJ) $(CTL_CORE_OBJ) $(COMMON_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(CTL_LIBS)

# Each object lists the headers it includes in its .d file; an object
# without one (never built, or built by hand) is rebuilt to make it. The
# object is touched last: clang writes the .d after it, which would make
# every object out of date at the next make.
$(O)%.o: %.c $(O)%.d
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<
	@touch $@

DEPS		= $(patsubst %.o,%.d,$(COMMON_OBJ) $(CORE_OBJ) $(DAEMON_OBJ) $(CTL_OBJ) \
		  $(SSDSIM_FE_OBJ))
$(DEPS):
-include $(wildcard $(DEPS))
.SUFFIXES:

$(O)tests/unit/test_%: tests/unit/test_%.c $(CORE_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# The event log is built into its test with UBSan (a NULL handed to memcpy
# aborts it) and with the test's own ftruncate() to make a cut fail.
UBSAN		= -fsanitize=undefined -fno-sanitize-recover=undefined
$(O)tests/unit/test_events: tests/unit/test_events.c daemon/records/events.c \
    $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(UBSAN) -o $@ $^ $(LDLIBS) -lcmocka

# The write-cache estimate, SNIA's steady state and the degradation run's
# figures: the long tests' figures.
$(O)tests/unit/test_slc: tests/unit/test_slc.c common/slc.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ -lm -lcmocka
$(O)tests/unit/test_steady: tests/unit/test_steady.c common/steady.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ -lm -lcmocka
$(O)tests/unit/test_degrade: tests/unit/test_degrade.c common/degrade.c \
    common/steady.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ -lm -lcmocka

# The graphs' and reports' colours under simulated colour-vision
# deficiencies (palette.h only).
$(O)tests/unit/test_palette: tests/unit/test_palette.c ctl/palette.h
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< -lm -lcmocka

# The engine runs on a real file with failures injected into liburing's
# submit calls and the completions they return (--wrap); rates.c turns
# its latencies, seen through its clock_gettime, into the per-tick p99.
ENGINE_WRAP	= -Wl,--wrap=io_uring_submit,--wrap=io_uring_submit_and_wait \
		  -Wl,--wrap=clock_gettime
$(O)tests/unit/test_engine: tests/unit/test_engine.c $(O)daemon/engine/engine.o \
    $(O)daemon/engine/engine_ring.o $(O)daemon/engine/engine_probe.o $(O)daemon/core/rates.o $(CORE_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(ENGINE_WRAP) $(LDLIBS) -lcmocka

# The probe jobs on a real file, through the engine (no wrapping).
$(O)tests/unit/test_engine_probe: tests/unit/test_engine_probe.c \
    $(O)daemon/engine/engine.o $(O)daemon/engine/engine_ring.o $(O)daemon/engine/engine_probe.o \
    $(CORE_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# The SIGBUS guard on a mapping whose file was cut short.
$(O)tests/unit/test_mapguard: tests/unit/test_mapguard.c \
    $(O)daemon/engine/mapguard.o $(CORE_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# The drive core's calls of its features' hooks (drive_features.c), the
# features the test's own.
$(O)tests/unit/test_features: tests/unit/test_features.c \
    $(O)daemon/core/drive_features.o
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# A checkpoint asked for on the loop (checkpoint.c), the queue, logs,
# state file and features the test's own.
$(O)tests/unit/test_checkpoint: tests/unit/test_checkpoint.c \
    $(O)daemon/core/checkpoint.o
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# ssdctl's views of the checkpoint results, and its status output.
$(O)tests/unit/test_ckpt_views: tests/unit/test_ckpt_views.c \
    $(O)ctl/ckpt.o $(O)ctl/output.o $(CORE_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS) -lcmocka

# --- the simulated drive's model (sim/): pure, no I/O; ssdsim links
# SIM_MODEL_OBJ with SIM_MODEL_LIBS. Its unit test runs it on its own.
SIM_MODEL_SRC	= sim/model.c sim/model_ftl.c sim/model_slc.c \
		  sim/model_thermal.c sim/model_wear.c sim/model_power.c \
		  sim/model_window.c sim/model_truth.c sim/model_bits.c \
		  sim/profile.c
SIM_MODEL_OBJ	= $(SIM_MODEL_SRC:%.c=$(O)%.o)
SIM_MODEL_LIBS	= $(shell pkg-config --libs inih 2>/dev/null) -lm
$(SIM_MODEL_OBJ:%.o=%.d):
-include $(wildcard $(SIM_MODEL_OBJ:%.o=%.d))
$(O)tests/unit/test_sim_model: tests/unit/test_sim_model.c $(SIM_MODEL_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Isim -DSIM_PROFILE_DIR='"$(CURDIR)/sim/profiles"' \
	    $(CFLAGS) -o $@ $^ $(SIM_MODEL_LIBS) -lcmocka
.PHONY: sim-model-clean
clean: sim-model-clean
sim-model-clean:
	rm -f sim/*.o sim/*.d
# --- end of the simulated drive's model

$(SSDSIM_BIN): $(SSDSIM_FE_OBJ) $(SIM_MODEL_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(SSDSIM_LIBS) $(SIM_MODEL_LIBS)

$(O)bench/genbench: bench/genbench.c $(O)daemon/engine/block.o
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(O)bench/probebench: bench/probebench.c $(O)daemon/engine/engine.o \
    $(O)daemon/engine/engine_ring.o $(O)daemon/engine/engine_probe.o $(CORE_OBJ) $(COMMON_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS)

define FUZZ_RULE
tests/fuzz/fuzz_$(1): tests/fuzz/fuzz_$(1).c $$(FUZZ_SRC_$(1)) \
    $$(wildcard common/*.h $(DAEMON_DIRS:%=%/*.h) tests/fuzz/*.h)
	clang $$(CPPFLAGS) -std=c11 -g -O1 $$(WARN) \
	    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	    $$(shell pkg-config --cflags $$(FUZZ_PKGS)) -o $$@ $$< \
	    $$(FUZZ_SRC_$(1)) $$(shell pkg-config --libs $$(FUZZ_PKGS))
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call FUZZ_RULE,$(t))))

fuzz-smoke: $(FUZZ_BINS)
	@tests/fuzz/run.sh $(FUZZ_SMOKE_TIME) $(FUZZ_TARGETS)

fuzz: deps
	@$(MAKE) --no-print-directory $(FUZZ_BINS)
	@tests/fuzz/run.sh $(FUZZ_TIME) $(FUZZ_TARGETS)

# Install missing Debian packages (as root), then build and test in a
# fresh make so pkg-config sees them.
deps:
	@tests/deps.sh

# the builds of make check, a compiler per core
CHECK_MAKE	= $(MAKE) --no-print-directory -j$(shell nproc)

check: deps
	@$(CHECK_MAKE) check-build
	@$(CHECK_MAKE) SANITIZE=1 sanitize-build
	@tests/check.sh

check-fast: deps
	@$(CHECK_MAKE) check-build
	@$(MAKE) --no-print-directory unit

check-build: all $(UNIT_TESTS) $(BENCH_BINS) $(FUZZ_BINS)

unit: $(UNIT_TESTS)
	@tests/run-unit.sh $(UNIT_TESTS)

integration: all
	@tests/integration/run.sh

# The engine matrix many times over: an intermittent hang shows here.
STRESS_REPEAT	?= 10
stress: all
	@MATRIX_REPEAT=$(STRESS_REPEAT) IT_TIMEOUT=$$(($(STRESS_REPEAT) * 300)) \
	    tests/integration/run.sh t_engine_matrix

control: all
	@tests/control/run.sh

# ssdtortured on simulated drives (sim/ssdsim) against the model's truth
known: all
	@tests/known/run.sh

# The unit, integration and control suites once more, on binaries built
# with SANITIZE=1; any sanitizer report fails the test that caused it.
sanitize: deps
	@$(CHECK_MAKE) SANITIZE=1 sanitize-build
	@$(MAKE) --no-print-directory SANITIZE=1 sanitize-run

sanitize-build: all $(UNIT_TESTS) $(SAN_CANARY)

sanitize-run: sanitize-build
	@SSDTORTURED=$(abspath $(DAEMON_BIN)) SSDCTL=$(abspath $(CTL_BIN)) \
	    SAN_CANARY=$(SAN_CANARY) tests/sanitize.sh $(UNIT_TESTS)

# bugs on purpose: the stage first checks that each one is reported
$(SAN_CANARY): tests/sanitize/canary.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $<

# the guest's t_package installs build/deb's package, built from this tree
# (a failed build leaves none: t_package says so); make check's
# package-test has just built it (PKG_BUILT=1)
vm: all
	@[ "$${PKG_BUILT:-0}" = 1 ] || tests/package/build.sh >/dev/null || true
	@tests/vm/run.sh

man: all
	@tests/man/check.sh

install-test: all
	@tests/install/check.sh

# The Debian package (debian/), built in a copy of the tree under
# build/deb/, and looked at: lintian, its files, conffiles, maintainer
# scripts (tests/vm/guest/t_package.sh installs, upgrades and purges it)
deb: deps
	@tests/package/build.sh

package-test: deps
	@tests/package/check.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@tests/demo.sh

bench: deps
	@$(MAKE) --no-print-directory all $(BENCH_BINS)
	@bench/bench.sh
	@bench/scale.sh

bench-scale: deps
	@$(MAKE) --no-print-directory all
	@bench/scale.sh

bench-ckptfio: deps
	@$(MAKE) --no-print-directory all
	@bench/ckptfio.sh

install: all
	install -D -m 0755 $(DAEMON_BIN) $(DESTDIR)$(SBINDIR)/ssdtortured
	install -D -m 0755 $(CTL_BIN) $(DESTDIR)$(SBINDIR)/ssdctl
	install -D -m 0644 man/ssdtortured.8 $(DESTDIR)$(MANDIR)/man8/ssdtortured.8
	install -D -m 0644 man/ssdctl.8 $(DESTDIR)$(MANDIR)/man8/ssdctl.8
	install -D -m 0755 $(SSDSIM_BIN) $(DESTDIR)$(BINDIR)/ssdsim
	install -D -m 0644 man/ssdsim.1 $(DESTDIR)$(MANDIR)/man1/ssdsim.1
	install -D -m 0644 man/ssdtortured.conf.5 \
	    $(DESTDIR)$(MANDIR)/man5/ssdtortured.conf.5
	sed 's|/usr/local/sbin|$(SBINDIR)|; s|/etc/ssdtorture|$(SYSCONFDIR)/ssdtorture|' \
	    systemd/ssdtortured.service > systemd/ssdtortured.service.out
	install -D -m 0644 systemd/ssdtortured.service.out \
	    $(DESTDIR)$(UNITDIR)/ssdtortured.service
	rm -f systemd/ssdtortured.service.out
	install -D -m 0644 systemd/ssdtortured.socket \
	    $(DESTDIR)$(UNITDIR)/ssdtortured.socket
	install -D -m 0644 systemd/ssdtorture.sysusers \
	    $(DESTDIR)$(SYSUSERSDIR)/ssdtorture.conf
	install -D -m 0644 ctl/ssdctl.bash \
	    $(DESTDIR)$(COMPLETIONDIR)/ssdctl
	install -D -m 0644 -t $(DESTDIR)$(DATADIR)/prometheus \
	    prometheus/ssdtorture.rules.yml prometheus/ssdtorture.rules.test.yml
	install -D -m 0644 -t $(DESTDIR)$(DATADIR)/grafana \
	    grafana/ssdtorture.json grafana/provisioning.yaml
	# an existing configuration is never overwritten
	test -e $(DESTDIR)$(SYSCONFDIR)/ssdtorture/ssdtortured.conf || \
	    install -D -m 0644 conf/ssdtortured.conf \
	    $(DESTDIR)$(SYSCONFDIR)/ssdtorture/ssdtortured.conf

# uninstall leaves the configuration (it may hold the operator's edits)
uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/ssdtortured $(DESTDIR)$(SBINDIR)/ssdctl \
	    $(DESTDIR)$(BINDIR)/ssdsim $(DESTDIR)$(MANDIR)/man1/ssdsim.1 \
	    $(DESTDIR)$(MANDIR)/man8/ssdtortured.8 \
	    $(DESTDIR)$(MANDIR)/man8/ssdctl.8 \
	    $(DESTDIR)$(MANDIR)/man5/ssdtortured.conf.5 \
	    $(DESTDIR)$(UNITDIR)/ssdtortured.service \
	    $(DESTDIR)$(UNITDIR)/ssdtortured.socket \
	    $(DESTDIR)$(SYSUSERSDIR)/ssdtorture.conf \
	    $(DESTDIR)$(COMPLETIONDIR)/ssdctl \
	    $(DESTDIR)$(DATADIR)/prometheus/ssdtorture.rules.yml \
	    $(DESTDIR)$(DATADIR)/prometheus/ssdtorture.rules.test.yml \
	    $(DESTDIR)$(DATADIR)/grafana/ssdtorture.json \
	    $(DESTDIR)$(DATADIR)/grafana/provisioning.yaml
	-rmdir $(DESTDIR)$(DATADIR)/prometheus $(DESTDIR)$(DATADIR)/grafana \
	    $(DESTDIR)$(DATADIR) 2>/dev/null

clean:
	rm -rf $(SAN_DIR)
	rm -f common/*.o $(DAEMON_DIRS:%=%/*.o) ctl/*.o common/*.d $(DAEMON_DIRS:%=%/*.d) ctl/*.d \
	    $(DAEMON_BIN) $(CTL_BIN) $(SSDSIM_BIN) \
	    $(UNIT_TESTS) $(FUZZ_BINS) \
	    $(BENCH_BINS)
