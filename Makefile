# Thin wrapper over CMake. `make` builds, `make test` builds and runs the tests, `make bench` runs the
# whole benchmark on the GPU. CLIMB_CUDA_ARCH=80 (say) builds for another GPU.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
ifneq ($(CLIMB_CUDA_ARCH),)
CMAKE_ARGS += -DCLIMB_CUDA_ARCH=$(CLIMB_CUDA_ARCH)
endif

.PHONY: all configure test bench check install clean

all: configure
	cmake --build $(BUILD) -j $(JOBS)

configure:
	@if [ ! -f $(BUILD)/CMakeCache.txt ] || [ -n "$(CMAKE_ARGS)" ]; then cmake -S . -B $(BUILD) $(CMAKE_ARGS); fi

test: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: all
	$(BUILD)/climb bench all

check: all
	$(BUILD)/climb check all

install: all
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX),)

clean:
	rm -rf $(BUILD)
