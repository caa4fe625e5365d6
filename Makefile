# swift-mdoc: release build and installation of the programs, their manual pages and their bash,
# zsh and fish completions, all generated from the argument parser of each program.
#
#   make                                  release build of the programs
#   make install PREFIX=/usr/local        build, then install (DESTDIR is honoured for packaging)
#   make uninstall PREFIX=/usr/local
#   make docs                             DocC for every library module, failing on any warning
#   make example                          build and run Examples/verify-response
#
# The version every program prints for --version is ToolVersion.current
# (Sources/MdocTerminal/ToolVersion.swift); `make version` shows it.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift

PROGRAMS := mdoc mdoc-holder mdoc-reader mdoc-issuer mdoc-benchmark
VERSION := $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/MdocTerminal/ToolVersion.swift)

bindir := $(DESTDIR)$(PREFIX)/bin
man1dir := $(DESTDIR)$(PREFIX)/share/man/man1
bashdir := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
zshdir := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
fishdir := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
datadir := $(DESTDIR)$(PREFIX)/share/swift-mdoc

# What `make` builds and generates, outside the sources.
release := .build/release
generated := .build/generated
manuals := .build/plugins/GenerateManual/outputs

.PHONY: all build manuals completions install uninstall docs example version clean-generated

all: build

build:
	$(SWIFT) build -c release

# swift-argument-parser's generate-manual plugin: one mdoc(7) page per program, subcommands
# included, from the same release binaries; scripts/manual.awk turns the --help discussions'
# paragraphs and examples into mdoc.
manuals: build
	$(SWIFT) package generate-manual --configuration release
	@mkdir -p $(generated)/man
	@for p in $(PROGRAMS); do \
		test -s $(manuals)/$$p/$$p.1 || { echo "no manual for $$p" >&2; exit 1; }; \
		awk -f scripts/manual.awk $(manuals)/$$p/$$p.1 >$(generated)/man/$$p.1 || exit 1; \
	done

completions: build
	@mkdir -p $(generated)/bash $(generated)/zsh $(generated)/fish
	@for p in $(PROGRAMS); do \
		$(release)/$$p --generate-completion-script bash >$(generated)/bash/$$p && \
		$(release)/$$p --generate-completion-script zsh >$(generated)/zsh/_$$p && \
		$(release)/$$p --generate-completion-script fish >$(generated)/fish/$$p.fish || exit 1; \
	done

install: build manuals completions
	install -d $(bindir) $(man1dir) $(bashdir) $(zshdir) $(fishdir) $(datadir)/Samples
	@for p in $(PROGRAMS); do \
		install -m 0755 $(release)/$$p $(bindir)/$$p && \
		install -m 0644 $(generated)/man/$$p.1 $(man1dir)/$$p.1 && \
		install -m 0644 $(generated)/bash/$$p $(bashdir)/$$p && \
		install -m 0644 $(generated)/zsh/_$$p $(zshdir)/_$$p && \
		install -m 0644 $(generated)/fish/$$p.fish $(fishdir)/$$p.fish || exit 1; \
	done
	install -m 0644 Samples/mdl.json Samples/pid.json Samples/portrait.jpg $(datadir)/Samples/
	@echo "installed swift-mdoc $(VERSION) into $(DESTDIR)$(PREFIX)"

uninstall:
	@for p in $(PROGRAMS); do \
		rm -f $(bindir)/$$p $(man1dir)/$$p.1 $(bashdir)/$$p $(zshdir)/_$$p $(fishdir)/$$p.fish; \
	done
	rm -rf $(datadir)

docs:
	bash scripts/docs.sh

example:
	cd Examples/verify-response && $(SWIFT) build && $(SWIFT) run verify-response

version:
	@echo $(VERSION)

clean-generated:
	rm -rf $(generated) $(manuals)
