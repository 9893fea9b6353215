package membound.cli.options;

import java.util.Locale;

import membound.vocabulary.BadInputException;

/** Counts as a person types them on the command line: {@code --tokens 2B}, {@code --steps 500}. */
public final class Counts {

    private Counts() {
    }

    /** {@code 2B}, {@code 500M}, {@code 1.5e9}, {@code 300000}: a positive whole count. K = 10^3, M = 10^6, B/G = 10^9, T = 10^12. */
    public static long parse(String what, String text) {
        String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace("_", "").replace(",", "");
        double multiplier = 1;
        if (!t.isEmpty()) {
            char last = t.charAt(t.length() - 1);
            switch (last) {
                case 'K' -> multiplier = 1e3;
                case 'M' -> multiplier = 1e6;
                case 'B', 'G' -> multiplier = 1e9;
                case 'T' -> multiplier = 1e12;
                default -> { }
            }
            if (multiplier != 1) {
                t = t.substring(0, t.length() - 1);
            }
        }
        double value;
        try {
            value = Double.parseDouble(t) * multiplier;
        } catch (NumberFormatException e) {
            throw new BadInputException(what + " must be a positive count such as 2B, 500M or 1e9: " + what + "=" + text);
        }
        if (!(value >= 1) || value > Long.MAX_VALUE || value != Math.rint(value)) {
            throw new BadInputException(what + " must be a positive whole count: " + what + "=" + text);
        }
        return (long) value;
    }
}
