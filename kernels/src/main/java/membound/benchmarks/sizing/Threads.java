package membound.benchmarks.sizing;

import membound.vocabulary.BadInputException;

/** The {@code threads} parameter: a count, or {@code all} for every cpu this JVM may run on. */
public final class Threads {

    private Threads() {
    }

    public static int resolve(String spec) {
        String text = spec.trim();
        if (text.equalsIgnoreCase("all")) {
            return Runtime.getRuntime().availableProcessors();
        }
        try {
            int threads = Integer.parseInt(text);
            if (threads >= 1 && threads <= 4096) {
                return threads;
            }
        } catch (NumberFormatException e) {
            // falls through to the one-line error
        }
        throw new BadInputException("threads must be a whole number from 1 to 4096 or all: threads=" + spec);
    }
}
