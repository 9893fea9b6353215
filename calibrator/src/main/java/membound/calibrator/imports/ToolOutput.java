package membound.calibrator.imports;

import java.nio.file.Path;
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
        return new ToolOutput(what, file, List.of(text.split("\r?\n", -1)));
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

    /** {@code measured} agrees with {@code expected} within {@code tolerance} (relative) plus {@code slack}. */
    void agrees(int line, String what, double measured, double expected, double tolerance, double slack) {
        if (Math.abs(measured - expected) > tolerance * Math.abs(expected) + slack) {
            throw bad(line, "be self-consistent (" + what + ": printed " + format(measured) + ", computed "
                    + format(expected) + ")", lines.get(line).strip());
        }
    }

    static String format(double value) {
        return String.format(Locale.ROOT, "%.6g", value);
    }

    private static String clip(String value) {
        String v = value == null ? "" : value.strip();
        return v.length() > 120 ? v.substring(0, 117) + "..." : v;
    }
}
