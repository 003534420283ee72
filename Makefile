# Aliases for the README's two commands (which do not need make).
.PHONY: demo test build deps clean
demo:
	./scripts/demo
test:
	./scripts/test
deps:
	./scripts/install-deps
build: deps
	swift build -c release
clean:
	rm -rf .build renders/*-curves.txt
