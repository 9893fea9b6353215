package membound.profile;

import com.fasterxml.jackson.annotation.JsonInclude;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.Labelled;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Statistic;

/**
 * The bandwidth the model uses for one access pattern at one memory level, with where it came from. The calibrator
 * chooses it (its memory ceiling rule), including the patterns nothing measured, which take another pattern's figure
 * ({@code takenFrom}); the model reads it as it is, one ceiling per pattern and level.
 *
 * @param level          the memory level
 * @param access         the access pattern
 * @param bytesPerSecond the ceiling
 * @param statistic      which statistic of the source it is
 * @param byteCounting   which bytes it counts: absent for STREAM's (what the code reads and writes), {@code hardware}
 *                       for the bytes the memory moved (write-allocate counted): an in-place update's ceiling is
 *                       the copy kernel's rate in those
 * @param takenFrom      where no kernel measured this pattern at this level: the pattern of the same level whose
 *                       ceiling stands in for it, figure and source as they are; absent for a measured ceiling
 * @param bandwidthId    the bandwidth entry of the same device it was taken from; absent for a datasheet figure
 * @param provenance     the provenance of that entry (or the datasheet)
 */
public record LevelCeiling(MemoryLevel level, AccessPattern access, double bytesPerSecond, Statistic statistic,
                           ByteCounting byteCounting,
                           @JsonInclude(JsonInclude.Include.NON_NULL) AccessPattern takenFrom,
                           String bandwidthId, Provenance provenance) {

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
        Checks.present("ceiling.statistic", statistic);
        if (byteCounting == ByteCounting.STREAM) {
            byteCounting = null;
        }
        if (takenFrom == access) {
            throw Checks.bad("ceiling.takenFrom", "another pattern than the ceiling's own (" + access + ")", takenFrom);
        }
        Checks.optionalId("ceiling.bandwidthId", bandwidthId);
        Checks.present("ceiling.provenance", provenance);
    }

    /** A measured ceiling in STREAM bytes. */
    public LevelCeiling(MemoryLevel level, AccessPattern access, double bytesPerSecond, Statistic statistic,
                        String bandwidthId, Provenance provenance) {
        this(level, access, bytesPerSecond, statistic, null, null, bandwidthId, provenance);
    }

    /** Whether it counts the bytes the memory moved rather than STREAM's. */
    public boolean inHardwareBytes() {
        return byteCounting == ByteCounting.HARDWARE;
    }

    /** Whether another pattern's ceiling stands in for this one (nothing measured this pattern at this level). */
    public boolean standsIn() {
        return takenFrom != null;
    }

    /** This ceiling standing in for {@code pattern}: the same figure, counting and source, taken from this pattern. */
    public LevelCeiling standingInFor(AccessPattern pattern) {
        return new LevelCeiling(level, pattern, bytesPerSecond, statistic, byteCounting, access, bandwidthId, provenance);
    }

    /** The typical figure of a bandwidth entry (its median, else mean, else best) as the ceiling, in STREAM bytes. */
    public static LevelCeiling of(AccessPattern access, BandwidthEntry entry) {
        Distribution d = entry.streamBytesPerSecond();
        return new LevelCeiling(entry.level(), access, d.typical(), d.typicalStatistic(), entry.id(),
                entry.provenance());
    }

    /**
     * The in-place update ceiling a copy entry gives: its typical figure in hardware bytes (an update allocates
     * nothing, so it moves at copy's rate counted in the bytes the memory moved), labelled with that distribution's
     * statistic; absent where the entry has no hardware-byte figure.
     */
    public static java.util.Optional<LevelCeiling> updateOf(BandwidthEntry copy) {
        Distribution d = copy.hardwareBytesPerSecond();
        if (d == null) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new LevelCeiling(copy.level(), AccessPattern.UPDATE, d.typical(),
                d.typicalStatistic(), ByteCounting.HARDWARE, null, copy.id(), copy.provenance()));
    }
}
