/// What a terminal would show after receiving some output: enough of ECMA-48 to see whether
/// output rewrites itself, which is what a hostile peer's text tries to make it do.
///
/// Line feed (as a terminal with `onlcr` shows it: a new line from column 0), carriage return,
/// backspace and tab move the cursor; CSI sequences (ESC `[` or the C1 CSI) move it (`A`, `B`,
/// `C`, `D`, `H`, `f`) and erase (`J`, `K`); every other control, escape and OSC sequence is
/// consumed without effect. Lines do not wrap.
struct TerminalScreen {
    private var rows: [[Unicode.Scalar]] = [[]]
    private var row = 0
    private var column = 0

    /// The screen after `output`.
    init(_ output: String) {
        var scalars = Array(output.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\n":
                moveTo(row: row + 1, column: 0)
            case "\r":
                column = 0
            case "\u{08}":
                column = max(0, column - 1)
            case "\t":
                column = (column / 8 + 1) * 8
            case "\u{1B}":
                guard let next = scalars.popFirst() else { break }
                if next == "[" {
                    controlSequence(&scalars)
                } else if next == "]" {
                    operatingSystemCommand(&scalars)
                }
            case "\u{9B}":
                controlSequence(&scalars)
            case "\u{9D}":
                operatingSystemCommand(&scalars)
            case _ where scalar.properties.generalCategory == .control:
                break
            default:
                put(scalar)
            }
        }
    }

    /// Every line of the screen, top to bottom, without trailing spaces.
    var lines: [String] {
        rows.map { row in
            var text = String(String.UnicodeScalarView(row))
            while text.last == " " { text.removeLast() }
            return text
        }
    }

    private mutating func put(_ scalar: Unicode.Scalar) {
        while rows[row].count < column { rows[row].append(" ") }
        if column < rows[row].count {
            rows[row][column] = scalar
        } else {
            rows[row].append(scalar)
        }
        column += 1
    }

    private mutating func moveTo(row newRow: Int, column newColumn: Int) {
        row = max(0, newRow)
        column = max(0, newColumn)
        while rows.count <= row { rows.append([]) }
    }

    /// Parameters, intermediates and the final byte of a CSI sequence (ECMA-48 5.4).
    private mutating func controlSequence(_ scalars: inout ArraySlice<Unicode.Scalar>) {
        var parameters = ""
        while let scalar = scalars.popFirst() {
            guard (0x40...0x7E).contains(scalar.value) else {
                parameters.unicodeScalars.append(scalar)
                continue
            }
            let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
            let first = numbers.first.flatMap { $0 } ?? 0
            let count = max(1, first)
            switch scalar {
            case "A": moveTo(row: row - count, column: column)
            case "B": moveTo(row: row + count, column: column)
            case "C": column += count
            case "D": column = max(0, column - count)
            case "H", "f":
                let line = max(1, first)
                let position = numbers.count > 1 ? max(1, numbers[1] ?? 1) : 1
                moveTo(row: line - 1, column: position - 1)
            case "J":
                if first == 0 {
                    rows[row] = Array(rows[row].prefix(column))
                    rows.removeSubrange((row + 1)...)
                } else {
                    rows = Array(repeating: [], count: rows.count)
                }
            case "K":
                switch first {
                case 0: rows[row] = Array(rows[row].prefix(column))
                case 1: rows[row] = Array(repeating: " ", count: min(column + 1, rows[row].count)) + rows[row].dropFirst(column + 1)
                default: rows[row] = []
                }
            default:
                break
            }
            return
        }
    }

    /// An OSC string, up to BEL or ST (ESC `\`).
    private mutating func operatingSystemCommand(_ scalars: inout ArraySlice<Unicode.Scalar>) {
        while let scalar = scalars.popFirst() {
            if scalar == "\u{07}" || scalar == "\u{9C}" { return }
            if scalar == "\u{1B}", scalars.first == "\\" {
                scalars.removeFirst()
                return
            }
        }
    }
}
