package membound.calibrator.imports;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import membound.vocabulary.BadInputException;
import membound.vocabulary.files.InputFiles;

/**
 * The text another tool printed, line by line, with errors that name the tool, the file and the line.
 */
final class ToolOutput {

    private static final Pattern MPI_TAG = Pattern.compile("^\\s*\\[\\d+,\\d+\\]<std(?:out|err)>:");

    final String what;
    final String file;
    final List<String> lines;

    private ToolOutput(String what, String file, List<String> lines) {
        this.what = what;
        this.file = file;
        this.lines = lines;
    }

    static ToolOutput read(Path path, String what) {
        return of(InputFiles.readBytes(path, what, InputFiles.Kind.TOOL_OUTPUT), path.toString(), what);
    }

    static ToolOutput of(byte[] bytes, String file, String what) {
        String text = InputFiles.decode(bytes, file, what);
        if (text.isBlank()) {
            throw new BadInputException(what + " must not be empty: file=" + file);
        }
        if (text.indexOf('\0') >= 0) {
            throw new BadInputException(what + " must be text: file=" + file + ", problem=contains NUL bytes");
        }
        return new ToolOutput(what, file, lines(text));
    }

    /**
     * The text's lines as the tool printed them: line ends of any platform, the {@code [1,0]<stdout>:} tags of
     * {@code mpirun --tag-output} and the indentation of a pasted code block taken off.
     */
    static List<String> lines(String text) {
        return Arrays.stream(text.split("\r\n|\r|\n", -1))
                .map(line -> MPI_TAG.matcher(line).replaceFirst("").stripLeading())
                .toList();
    }

    BadInputException bad(String rule) {
        return new BadInputException(what + " must " + rule + ": file=" + file);
    }

    BadInputException bad(int line, String rule, String value) {
        return new BadInputException(what + " must " + rule + ": file=" + file + ", line=" + (line + 1)
                + ", value=" + clip(value));
    }

    /** The first line matching {@code pattern} from {@code from}, or -1. */
    int find(Pattern pattern, int from) {
        for (int i = Math.max(0, from); i < lines.size(); i++) {
            if (pattern.matcher(lines.get(i)).find()) {
                return i;
            }
        }
        return -1;
    }

    /** The first match of {@code pattern}, or null. */
    Matcher match(Pattern pattern) {
        for (String line : lines) {
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                return m;
            }
        }
        return null;
    }

    /** The first match of {@code pattern}; its absence is an error that says what was expected. */
    Matcher require(Pattern pattern, String rule) {
        Matcher m = match(pattern);
        if (m == null) {
            throw bad(rule);
        }
        return m;
    }

    /** The first line matching {@code pattern}; its absence is an error that says what was expected. */
    int requireLine(Pattern pattern, String rule) {
        int line = find(pattern, 0);
        if (line < 0) {
            throw bad(rule);
        }
        return line;
    }

    /** The match of {@code pattern} on {@code line}, a line found by that pattern. */
    Matcher matchOn(int line, Pattern pattern) {
        Matcher m = pattern.matcher(lines.get(line));
        if (!m.find()) {
            throw new IllegalArgumentException("line " + (line + 1) + " does not match " + pattern);
        }
        return m;
    }

    /** A positive, finite number printed on {@code line}. */
    double positive(int line, String field, String text) {
        double value = number(line, field, text);
        if (!(value > 0)) {
            throw bad(line, "have a positive " + field, text);
        }
        return value;
    }

    double number(int line, String field, String text) {
        try {
            double value = Double.parseDouble(text.trim());
            if (Double.isNaN(value) || Double.isInfinite(value)) {
                throw bad(line, "have a finite " + field, text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw bad(line, "have a number for " + field, text);
        }
    }

    /** A positive number printed on {@code line}, with the rounding of its printed digits. */
    PrintedNumber printed(int line, String field, String text) {
        double value = positive(line, field, text);
        try {
            PrintedNumber printed = PrintedNumber.parse(text);
            return printed.value() == value ? printed : new PrintedNumber(value, 0);
        } catch (NumberFormatException e) {
            return new PrintedNumber(value, 0); // a form Java reads and BigDecimal does not (0x1p3): no rounding known
        }
    }

    /** A whole number of at least 0 (a size of 0 bytes, as {@code all_reduce_perf -b 1} prints first). */
    long positiveOrZero(int line, String field, String text) {
        return "0".equals(text.strip()) ? 0 : positiveLong(line, field, text);
    }

    long positiveLong(int line, String field, String text) {
        try {
            long value = Long.parseLong(text.trim());
            if (value <= 0) {
                throw bad(line, "have a positive " + field, text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw bad(line, "have a whole number for " + field, text);
        }
    }

    /**
     * {@code printed} agrees with {@code computed}, a figure computed from other printed numbers whose roundings
     * make up {@code computedRelativeRounding}: the two may differ by the rounding of each and no more.
     */
    void agrees(int line, String what, PrintedNumber printed, double computed, double computedRelativeRounding) {
        double measured = printed.value();
        double expected = computed;
        double allowed = printed.rounding() + Math.abs(computed) * (computedRelativeRounding + FLOATING_POINT);
        if (Math.abs(measured - expected) > allowed) {
            throw bad(line, "be self-consistent (" + what + ": printed " + format(measured) + ", computed "
                    + format(expected) + ")", lines.get(line).strip());
        }
    }

    /** What double arithmetic on printed numbers may add to their rounding. */
    private static final double FLOATING_POINT = 1e-9;

    static String format(double value) {
        return String.format(Locale.ROOT, "%.6g", value);
    }

    private static String clip(String value) {
        String v = value == null ? "" : value.strip();
        return v.length() > 120 ? v.substring(0, 117) + "..." : v;
    }
}
