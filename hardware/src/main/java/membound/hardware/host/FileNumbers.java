package membound.hardware.host;

import java.util.Locale;
import java.util.Optional;

/**
 * Numbers as {@code /proc}, sysfs and getconf write them. Empty rather than an exception where the text is
 * not one, so that the reader can say which file and value it skipped.
 */
final class FileNumbers {

    private FileNumbers() {
    }

    static Optional<Integer> parseInt(String text) {
        try {
            return Optional.of(Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    static Optional<Long> parseLong(String text) {
        try {
            return Optional.of(Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** sysfs and cpuinfo write {@code 2048K}, {@code 1024 KB}: binary multiples, whatever the letters. */
    static Optional<Long> scaled(String digits, String unit) {
        Optional<Long> value = parseLong(digits);
        int shift = switch (unit.toUpperCase(Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            default -> 0;
        };
        return value.filter(v -> v < (1L << (62 - shift))).map(v -> v << shift);
    }
}
