# Thin wrapper around CMake (docs/style.md S12). Targets:
#   make               build (build/)
#   make check         install missing packages (as root), build with ASan and
#                      UBSan and -Werror (build-check/), run every test with ctest
#   make format-check  fail if any C file is not clang-formatted
#   make format        reformat the C files in place
#   make fuzz          build the libFuzzer targets with clang, run each FUZZ_SECONDS
#   make memcheck      build without sanitizers (build-memcheck/), run the driver,
#                      model and core unit tests under valgrind memcheck
#   make bench         build and run the micro-benchmarks
#   make demo          (as root) a 2-node emulated segment (drivers at SCHED_FIFO
#                      50, DEMO_RT_PRIO=0 for SCHED_OTHER; DEMO_FQ=on for the
#                      node's fair queue; DEMO_PCAP=off without the capture),
#                      ping and a 10 MB HTTP download
#                      across it, throughput against the limit
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 30
CTEST_ARGS  ?=
C_FILES      = $(shell git ls-files '*.c' '*.h' 2>/dev/null || find include src tests bench tools -name '*.[ch]')

.PHONY: all deps check format-check format fuzz memcheck bench demo clean

all:
	@./scripts/install-deps.sh
	cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build build -j $(JOBS)

deps:
	@./scripts/install-deps.sh

check: deps
	cmake -S . -B build-check -DCMAKE_BUILD_TYPE=Debug -DETHDRV_ASAN=ON \
		-DETHDRV_UBSAN=ON -DETHDRV_WERROR=ON >/dev/null
	cmake --build build-check -j $(JOBS)
	cd build-check && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

format-check:
	@clang-format --dry-run -Werror $(C_FILES) && echo "format-check: $(words $(C_FILES)) files clean"

format:
	clang-format -i $(C_FILES)

fuzz: deps
	CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DETHDRV_FUZZ=ON \
		-DETHDRV_BUILD_BENCH=OFF -DETHDRV_TSAN=OFF -DETHDRV_WERROR=ON >/dev/null
	cmake --build build-fuzz -j $(JOBS)
	./scripts/run-fuzzers.sh build-fuzz/tests $(FUZZ_SECONDS)

memcheck: deps
	cmake -S . -B build-memcheck -DCMAKE_BUILD_TYPE=Debug -DETHDRV_BUILD_BENCH=OFF \
		-DETHDRV_BUILD_TOOLS=OFF -DETHDRV_TSAN=OFF -DETHDRV_WERROR=ON >/dev/null
	cmake --build build-memcheck -j $(JOBS)
	./scripts/run-memcheck.sh build-memcheck

bench: all
	./scripts/run-bench.sh build

demo: all
	./scripts/demo.sh build

clean:
	rm -rf build build-check build-fuzz build-memcheck
