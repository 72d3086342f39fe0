# The build of Makefile with a stamp file: make -f stamp.mk
#
# The generator runs only when a schema is newer than the stamp, so an edit that changes
# no header (a comment) runs it once, not on every later build.

SAREK   ?= sarek-layout
SCHEMAS := schemas/base.toml schemas/scene.toml schemas/particles.ml
BUILD   := build
GEN     := $(BUILD)/generated
HEADERS := $(foreach s,$(SCHEMAS),$(GEN)/$(basename $(notdir $(s))).h)

all: $(BUILD)/shapes_demo
.PHONY: all

$(GEN)/.stamp: $(SCHEMAS)
	$(SAREK) generate $(SCHEMAS) -o $(GEN) -t c
	@touch $@
# The stamp's recipe writes the headers. A header's own recipe does nothing unless the
# header was deleted since: then it is generated again (an empty recipe, `;`, would leave
# the compiler a missing file). A recipe it must have: after running one, make reads the
# header's time again, so what includes a rewritten header is recompiled.
$(HEADERS): $(GEN)/.stamp
	@test -f $@ || $(SAREK) generate $(SCHEMAS) -o $(GEN) -t c

# Preprocessor flags in CPPFLAGS: `make CFLAGS="-O2 -g"` on the command line replaces CFLAGS.
CPPFLAGS += -I$(GEN) -MMD
SOURCES := src/uses_base.c src/uses_scene.c src/uses_particles.c src/main.c
OBJECTS := $(patsubst src/%.c,$(BUILD)/%.o,$(SOURCES))

$(BUILD)/shapes_demo: $(OBJECTS)
	$(CC) -o $@ $^

$(BUILD)/%.o: src/%.c | $(HEADERS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
-include $(OBJECTS:.o=.d)
