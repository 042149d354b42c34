# Thin wrapper over CMake. `make` builds, `make test` builds and runs the tests, `make bench` runs the
# whole benchmark on the GPU, `make sanitize` runs the CPU tests under ASan and UBSan. The build is for the GPUs in the
# machine (or, with none, a list from A100 to H100 with PTX for newer); CLIMB_CUDA_ARCH=80 (say) builds for another.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
ifneq ($(CLIMB_CUDA_ARCH),)
CMAKE_ARGS += -DCLIMB_CUDA_ARCH=$(CLIMB_CUDA_ARCH)
endif

.PHONY: all configure test sanitize bench bench-full check install uninstall clean

all: configure
	cmake --build $(BUILD) -j $(JOBS)

configure:
	@if [ ! -f $(BUILD)/CMakeCache.txt ] || [ -n "$(CMAKE_ARGS)" ]; then cmake -S . -B $(BUILD) $(CMAKE_ARGS); fi

test: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The host C code under AddressSanitizer and UndefinedBehaviorSanitizer, in a folder of its own, and the CPU tests
# on it (not the install and configure tests, which build the project again). Any sanitizer report fails a test.
SANITIZE_BUILD ?= build-asan
# Its device code is built for one architecture (sm_90, or CLIMB_CUDA_ARCH): the sanitizers look at the host code.
sanitize:
	cmake -S . -B $(SANITIZE_BUILD) -DCLIMB_SANITIZE=ON $(if $(CLIMB_CUDA_ARCH),,-DCLIMB_CUDA_ARCH=90) $(CMAKE_ARGS)
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && \
	  ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0:strict_string_checks=1:detect_stack_use_after_return=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  ctest --output-on-failure -j $(JOBS) -L cpu -E '^test_(install|rdc_install|configure_without_cudnn)$$'

# The main command: every workload's ladder, a quick run (each workload's main sizes, 5 to 20 samples a rung; rungs
# too slow to sample in it are said so in their row; the README gives its time on an H100). It keeps its reports,
# bench.json and bench.md, and a results page of the run beside the committed results of the nearest GPU, in
# climb-bench/<gpu>-<UTC time>/, and ends with a line a workload. bench-full: every workload's full bench, as
# `climb bench W` does for one workload.
bench: all
	$(BUILD)/climb bench all

bench-full: all
	$(BUILD)/climb bench all --full

check: all
	$(BUILD)/climb check all

install: all
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX),)

# What the last `make install` wrote, file by file, from the build's install_manifest.txt.
uninstall:
	cmake --build $(BUILD) --target uninstall

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD)
