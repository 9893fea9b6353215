package membound.profile;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

import membound.vocabulary.BadInputException;

/**
 * The checks every profile record runs when it is built. Messages follow STYLE.md
 * ({@code "name must be rule: name=value"}); {@link ProfileJson} adds the file and JSON path.
 */
final class Checks {

    /** Ids and codes: lower-case words joined by '-', '.', '_' or ':', as they appear in figure keys. */
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._:-]*");

    /** Relative tolerance for order checks between statistics derived through floating point. */
    static final double ORDER_TOLERANCE = 1e-9;

    private Checks() {
    }

    static BadInputException bad(String name, String rule, Object value) {
        return new BadInputException(name + " must be " + rule + ": " + name + "=" + value);
    }

    static <T> T present(String name, T value) {
        if (value == null) {
            throw bad(name, "present", "null");
        }
        return value;
    }

    static String text(String name, String value) {
        if (value == null || value.isBlank()) {
            throw bad(name, "a non-blank string", value == null ? "null" : "\"" + value + "\"");
        }
        if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
            throw bad(name, "one line", "\"" + value.replace("\n", "\\n").replace("\r", "\\r") + "\"");
        }
        return value;
    }

    static String optionalText(String name, String value) {
        return value == null ? null : text(name, value);
    }

    static String id(String name, String value) {
        text(name, value);
        if (!ID.matcher(value).matches()) {
            throw bad(name, "lower-case letters, digits and . _ : - (starting with a letter or digit)", value);
        }
        return value;
    }

    static String optionalId(String name, String value) {
        return value == null ? null : id(name, value);
    }

    static double positive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw bad(name, "a positive finite number", value);
        }
        return value;
    }

    static Double optionalPositive(String name, Double value) {
        return value == null ? null : positive(name, value);
    }

    static double nonNegative(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw bad(name, "a finite number >= 0", value);
        }
        return value;
    }

    static Double optionalNonNegative(String name, Double value) {
        return value == null ? null : nonNegative(name, value);
    }

    static long positive(String name, long value) {
        if (value <= 0) {
            throw bad(name, "positive", value);
        }
        return value;
    }

    static Long optionalPositive(String name, Long value) {
        return value == null ? null : positive(name, value.longValue());
    }

    static int positive(String name, int value) {
        if (value <= 0) {
            throw bad(name, "positive", value);
        }
        return value;
    }

    static Integer optionalPositive(String name, Integer value) {
        return value == null ? null : positive(name, value.intValue());
    }

    /** An immutable copy; a missing list reads as empty, a missing element is an error. */
    static <T> List<T> list(String name, List<T> values) {
        if (values == null) {
            return List.of();
        }
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null) {
                throw bad(name + "[" + i + "]", "present", "null");
            }
        }
        return List.copyOf(values);
    }

    /** An immutable copy sorted by key, so that maps are written in one order. */
    static SortedMap<String, String> map(String name, Map<String, String> values) {
        if (values == null) {
            return Collections.emptySortedMap();
        }
        TreeMap<String, String> copy = new TreeMap<>();
        for (Map.Entry<String, String> entry : values.entrySet()) {
            text(name + " key", entry.getKey());
            String value = entry.getValue();
            if (value == null) {
                throw bad(name + "." + entry.getKey(), "present", "null");
            }
            copy.put(entry.getKey(), value);
        }
        return Collections.unmodifiableSortedMap(copy);
    }

    static <T> void unique(String name, Collection<T> values, Function<T, Object> key) {
        Set<Object> seen = new HashSet<>();
        for (T value : values) {
            Object k = key.apply(value);
            if (!seen.add(k)) {
                throw bad(name, "unique", k);
            }
        }
    }

    /** {@code low <= high} allowing for rounding in values derived through floating point. */
    static void ordered(String lowName, Double low, String highName, Double high) {
        if (low == null || high == null) {
            return;
        }
        if (low > high * (1 + ORDER_TOLERANCE)) {
            throw new BadInputException(lowName + " must be <= " + highName + ": "
                    + lowName + "=" + low + ", " + highName + "=" + high);
        }
    }

    static List<String> ids(String name, List<String> values) {
        List<String> copy = new ArrayList<>(list(name, values));
        for (int i = 0; i < copy.size(); i++) {
            id(name + "[" + i + "]", copy.get(i));
        }
        unique(name, copy, v -> v);
        return List.copyOf(copy);
    }
}
