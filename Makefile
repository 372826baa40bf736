# gpuest: convenience wrapper around CMake/ctest.  The two commands of the
# README quick start are `make run` and `make test`.
#
#   make run    install missing Debian packages, build, run the default
#               estimate (with power) on a built-in workload and GPU config
#   make test   install missing packages, then build and run the whole test
#               suite: Release build + ctest, ASan/UBSan build + ctest, and a
#               bounded libFuzzer run of every parser (clang)
#   make bench  build and run the benchmarks whose figures the README quotes

JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan

.PHONY: all deps build run test test-release test-asan fuzz bench clean

all: build

deps:
	@sh scripts/deps.sh

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DGPUEST_WERROR=ON >/dev/null
	@cmake --build $(BUILD) -j$(JOBS)

run: build
	./$(BUILD)/gpuest estimate

test-release: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DGPUEST_SANITIZE=ON -DGPUEST_WERROR=ON >/dev/null
	@cmake --build $(ASAN_BUILD) -j$(JOBS)
	cd $(ASAN_BUILD) && UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j$(JOBS)

fuzz: deps
	sh scripts/run-fuzz.sh

test: test-release test-asan fuzz

bench: build
	sh scripts/run-bench.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
