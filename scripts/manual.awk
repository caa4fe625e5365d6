# Turns the plain-text discussions that swift-argument-parser's generate-manual copies into its
# mdoc(7) pages into mdoc: a blank line becomes a paragraph break (.Pp), and lines indented by
# two spaces or more (the examples and lists of the --help texts) become a literal display, so
# that man keeps their line breaks and prints no "empty input line" warnings.
function close_display() {
    if (in_display) { print ".Ed"; in_display = 0 }
}
/^$/ {
    close_display()
    print ".Pp"
    next
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
