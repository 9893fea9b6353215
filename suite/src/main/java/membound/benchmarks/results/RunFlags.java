package membound.benchmarks.results;

import java.util.Locale;

import membound.hardware.host.LoadMonitor;
import membound.vocabulary.units.RateStatistics;

/**
 * The two flags a measurement gets wherever it is printed, {@code calibrate} (in the profile) and
 * {@code mvn -pl benchmarks jmh:run} (in the table) alike, with one threshold and one wording each: {@code noisy}, its
 * rates over the passes vary by more than {@link #NOISY_COEFFICIENT_OF_VARIATION}; {@code load-seen}, other processes
 * used more than {@link LoadMonitor#OTHER_CPUS_THRESHOLD} cpus while it ran.
 */
public final class RunFlags {

    /** A figure whose rates vary more than this (standard deviation over mean) is flagged noisy. */
    public static final double NOISY_COEFFICIENT_OF_VARIATION = 0.10;

    private RunFlags() {
    }

    /** Whether rates with this coefficient of variation (null: one sample, no spread) are noisy. */
    public static boolean noisy(Double coefficientOfVariation) {
        return coefficientOfVariation != null && coefficientOfVariation > NOISY_COEFFICIENT_OF_VARIATION;
    }

    /** The noisy flag's message. */
    public static String noisyMessage(double coefficientOfVariation, long samples) {
        return String.format(Locale.ROOT, "its rate varies by %.1f%% (std/mean over %d passes), above the %.0f%% "
                + "threshold: rerun on a quieter machine", 100 * coefficientOfVariation, samples,
                100 * NOISY_COEFFICIENT_OF_VARIATION);
    }

    /** Whether other processes' cpus during a measurement flag it. */
    public static boolean loadSeen(double otherCpus) {
        return otherCpus > LoadMonitor.OTHER_CPUS_THRESHOLD;
    }

    /** The load-seen flag's message for one measurement. */
    public static String loadSeenMessage(double otherCpus) {
        return String.format(Locale.ROOT, "other processes used %.2f cpus while it ran (more than %.2f): the figure is "
                + "a share of the machine, not its ceiling; rerun when it is quiet", otherCpus,
                LoadMonitor.OTHER_CPUS_THRESHOLD);
    }

    /** The flags column of a result table: "noisy", "load-seen", both, or "-". */
    static String column(RateStatistics rates, Double otherCpus) {
        boolean noisy = noisy(rates.coefficientOfVariation());
        boolean loaded = otherCpus != null && loadSeen(otherCpus);
        return noisy && loaded ? "noisy,load-seen" : noisy ? "noisy" : loaded ? "load-seen" : "-";
    }
}
