package membound.profile;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.Labelled;
import membound.vocabulary.MemoryLevel;

/**
 * The bandwidth the model uses for one access pattern at one memory level, with where it came from. The calibrator
 * chooses it (its ceiling rule); the model reads it as it is, one ceiling per pattern and level.
 *
 * @param level          the memory level
 * @param access         the access pattern
 * @param bytesPerSecond the ceiling
 * @param statistic      which statistic of the source it is: "median", "mean", "best" or "nominal"
 * @param byteCounting   which bytes it counts: absent for STREAM's (what the code reads and writes), {@code hardware}
 *                       for the bytes the memory moved (write-allocate counted): an in-place update's ceiling is
 *                       the copy kernel's rate in those
 * @param bandwidthId    the bandwidth entry of the same device it was taken from; absent for a datasheet figure
 * @param provenance     the provenance of that entry (or the datasheet)
 */
public record LevelCeiling(MemoryLevel level, AccessPattern access, double bytesPerSecond, String statistic,
                           ByteCounting byteCounting, String bandwidthId, Provenance provenance) {

    /** Which bytes a figure counts. STREAM's convention is the default and is not written. */
    public enum ByteCounting implements Labelled {
        /** What the code reads and writes. */
        STREAM("stream"),
        /** What the memory moved: a store to a line not read first also reads it (write-allocate). */
        HARDWARE("hardware");

        private final String label;

        ByteCounting(String label) {
            this.label = label;
        }

        @Override
        public String label() {
            return label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    public LevelCeiling {
        Checks.present("ceiling.level", level);
        Checks.present("ceiling.access", access);
        Checks.positive("ceiling.bytesPerSecond", bytesPerSecond);
        if (!"median".equals(statistic) && !"mean".equals(statistic) && !"best".equals(statistic)
                && !"nominal".equals(statistic)) {
            throw Checks.bad("ceiling.statistic", "one of median, mean, best, nominal", statistic);
        }
        if (byteCounting == ByteCounting.STREAM) {
            byteCounting = null;
        }
        Checks.optionalId("ceiling.bandwidthId", bandwidthId);
        Checks.present("ceiling.provenance", provenance);
    }

    /** A ceiling in STREAM bytes. */
    public LevelCeiling(MemoryLevel level, AccessPattern access, double bytesPerSecond, String statistic,
                        String bandwidthId, Provenance provenance) {
        this(level, access, bytesPerSecond, statistic, null, bandwidthId, provenance);
    }

    /** Whether it counts the bytes the memory moved rather than STREAM's. */
    public boolean inHardwareBytes() {
        return byteCounting == ByteCounting.HARDWARE;
    }

    /** The typical figure of a bandwidth entry (its median, else mean, else best) as the ceiling, in STREAM bytes. */
    public static LevelCeiling of(AccessPattern access, BandwidthEntry entry) {
        return new LevelCeiling(entry.level(), access, entry.streamBytesPerSecond().typical(),
                typicalStatistic(entry.streamBytesPerSecond()), null, entry.id(), entry.provenance());
    }

    /**
     * The in-place update ceiling a copy entry gives: its typical figure in hardware bytes (an update allocates
     * nothing, so it moves at copy's rate counted in the bytes the memory moved); absent where the entry has no
     * hardware-byte figure.
     */
    public static java.util.Optional<LevelCeiling> updateOf(BandwidthEntry copy) {
        Distribution d = copy.hardwareBytesPerSecond();
        if (d == null) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new LevelCeiling(copy.level(), AccessPattern.UPDATE, d.typical(),
                typicalStatistic(copy.streamBytesPerSecond()), ByteCounting.HARDWARE, copy.id(), copy.provenance()));
    }

    /** Which statistic {@link Distribution#typical()} is: its median, else its mean, else its best. */
    private static String typicalStatistic(Distribution d) {
        return d.median() != null ? "median" : d.mean() != null ? "mean" : "best";
    }
}
