package membound.profile;

import membound.vocabulary.MemoryLevel;

/**
 * The bandwidth the model should use for one access pattern at one memory level, in STREAM-convention
 * bytes (what the code reads and writes), with where it came from.
 *
 * @param level          the memory level
 * @param access         the access pattern
 * @param bytesPerSecond the ceiling
 * @param statistic      which statistic of the source it is: "median", "mean", "best" or "nominal"
 * @param bandwidthId    the bandwidth entry of the same device it was taken from; absent for a datasheet figure
 * @param provenance     the provenance of that entry (or the datasheet)
 */
public record LevelCeiling(MemoryLevel level, Access access, double bytesPerSecond, String statistic,
                           String bandwidthId, Provenance provenance) {

    public LevelCeiling {
        Checks.present("ceiling.level", level);
        Checks.present("ceiling.access", access);
        Checks.positive("ceiling.bytesPerSecond", bytesPerSecond);
        if (!"median".equals(statistic) && !"mean".equals(statistic) && !"best".equals(statistic)
                && !"nominal".equals(statistic)) {
            throw Checks.bad("ceiling.statistic", "one of median, mean, best, nominal", statistic);
        }
        Checks.optionalId("ceiling.bandwidthId", bandwidthId);
        Checks.present("ceiling.provenance", provenance);
    }

    /** The typical figure of a bandwidth entry (its median, else mean, else best) as the ceiling. */
    public static LevelCeiling of(Access access, BandwidthEntry entry) {
        Distribution d = entry.streamBytesPerSecond();
        String statistic = d.median() != null ? "median" : d.mean() != null ? "mean" : "best";
        return new LevelCeiling(entry.level(), access, d.typical(), statistic, entry.id(), entry.provenance());
    }
}
