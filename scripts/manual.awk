# Turns the plain-text discussions that swift-argument-parser's generate-manual copies into its
# mdoc(7) pages into mdoc: a blank line becomes a paragraph break (.Pp), and lines indented by
# two spaces or more (the examples and lists of the --help texts) become a literal display, so
# that man keeps their line breaks and prints no "empty input line" warnings.
#
# A program's own discussion (`mdoc-holder --help`) ends with the blocks ENVIRONMENT, FILES and
# EXIT STATUS, a heading line and then entries "  TAG  text": they become those sections of the
# page, in that order, in place of the generic EXIT STATUS (.Ex -std) that generate-manual
# writes, each entry a tagged list item.
function close_display() {
    if (in_display) { print ".Ed"; in_display = 0 }
}
function close_section() {
    if (in_section) { held = held ".El\n"; in_section = 0 }
}
# A heading of the program's sections starts one: its entries are held until the page's own
# EXIT STATUS.
/^(ENVIRONMENT|FILES|EXIT STATUS)$/ {
    close_display()
    close_section()
    pending_paragraph = 0
    held = held ".Sh \"" $0 "\"\n.Bl -tag -width Ds\n"
    in_section = 1
    next
}
in_section && /^$/ { next }
in_section && /^  / {
    entry = substr($0, 3)
    split_at = index(entry, "  ")
    if (split_at == 0) { held = held entry "\n"; next }
    held = held ".It \"" substr(entry, 1, split_at - 1) "\"\n"
    text = substr(entry, split_at)
    sub(/^ +/, "", text)
    held = held text "\n"
    next
}
in_section && !/^\./ {
    held = held $0 "\n"
    next
}
in_section { close_section() }
/^\.Sh "EXIT STATUS"$/ && held != "" {
    close_display()
    printf "%s", held
    skip_standard_exit = 1
    next
}
skip_standard_exit && /^\.Ex / { skip_standard_exit = 0; next }
/^$/ {
    close_display()
    pending_paragraph = 1
    next
}
{
    if (pending_paragraph) { print ".Pp"; pending_paragraph = 0 }
}
/^  / && !/^\./ {
    if (!in_display) { print ".Bd -literal -offset indent"; in_display = 1 }
    sub(/^  /, "")
    print
    next
}
{
    close_display()
    print
}
END { close_display() }
