# The two commands a newcomer needs: `make run` and `make test`. Everything else is a building block.
.PHONY: run test build release lint format bench clean

# Install what is missing, build the release server and serve on 127.0.0.1:8080 with ./data.
run: release
	.build/release/healthwheel serve

# The whole test suite (what CI runs).
test:
	scripts/test

build:
	scripts/install-deps
	swift build

release:
	scripts/install-deps
	swift build -c release --product healthwheel

lint:
	swift format lint --strict -r Sources Tests bench/scoring-bench bench/store-bench bench/pg-client-bench

format:
	swift format -i -r Sources Tests bench/scoring-bench bench/store-bench bench/pg-client-bench

bench:
	bench/run

clean:
	rm -rf .build .build-*
