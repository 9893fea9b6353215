package membound.benchmarks.sizing;

import membound.vocabulary.BadInputException;

/** A parameter that counts something (parameters, samples in a batch), as a user types it. */
public final class Counts {

    private Counts() {
    }

    /**
     * {@code value} as a whole number of at least 1.
     *
     * @throws BadInputException naming {@code name} and the value
     */
    public static long positive(String name, String value) {
        try {
            long count = Long.parseLong(value.trim());
            if (count >= 1) {
                return count;
            }
        } catch (NumberFormatException e) {
            // falls through to the one-line error
        }
        throw new BadInputException(name + " must be a positive whole number: " + name + "=" + value);
    }

    /** As {@link #positive}, for a parameter JMH reads as an {@code int}: beyond one is not a whole number to it. */
    public static int positiveInt(String name, String value) {
        long count = positive(name, value);
        if (count > Integer.MAX_VALUE) {
            throw new BadInputException(name + " must be a positive whole number up to " + Integer.MAX_VALUE + ": "
                    + name + "=" + value);
        }
        return (int) count;
    }
}
