package membound.profile;

import java.util.Arrays;

import membound.vocabulary.MemoryLevel;

/**
 * Load-to-use latency over a working set (a dependent pointer chase: each load's address comes from
 * the previous load).
 *
 * @param id              unique within the device
 * @param workingSetBytes size of the chased buffer
 * @param level           the memory level it lives in
 * @param pattern         "random" (defeats the prefetchers) or "sequential"
 * @param nanosPerLoad    percentiles of nanoseconds per load
 * @param provenance      how it was measured
 */
public record LatencyEntry(String id, long workingSetBytes, MemoryLevel level, String pattern,
                           Nanos nanosPerLoad, Provenance provenance) {

    public LatencyEntry {
        Checks.id("latency.id", id);
        Checks.positive("latency.workingSetBytes", workingSetBytes);
        Checks.present("latency.level", level);
        Checks.id("latency.pattern", pattern);
        Checks.present("latency.nanosPerLoad", nanosPerLoad);
        Checks.present("latency.provenance", provenance);
    }

    /**
     * Lower is better. Percentiles are nearest-rank over {@code samples} timed passes.
     *
     * @param p50     median
     * @param p90     90th percentile
     * @param p99     99th percentile
     * @param mean    arithmetic mean
     * @param samples timed passes
     */
    public record Nanos(double p50, double p90, double p99, double mean, long samples) {
        public Nanos {
            Checks.positive("nanosPerLoad.p50", p50);
            Checks.positive("nanosPerLoad.p90", p90);
            Checks.positive("nanosPerLoad.p99", p99);
            Checks.positive("nanosPerLoad.mean", mean);
            Checks.positive("nanosPerLoad.samples", samples);
            Checks.ordered("p50", p50, "p90", p90);
            Checks.ordered("p90", p90, "p99", p99);
        }

        /** Exact statistics of the given nanoseconds per load, one per pass. */
        public static Nanos ofSamples(double... nanos) {
            if (nanos == null || nanos.length == 0) {
                throw Checks.bad("samples", "at least one value", 0);
            }
            double[] sorted = nanos.clone();
            Arrays.sort(sorted);
            double sum = 0;
            for (double v : sorted) {
                sum += Checks.positive("nanosPerLoad", v);
            }
            return new Nanos(rank(sorted, 50), rank(sorted, 90), rank(sorted, 99), sum / sorted.length,
                    sorted.length);
        }

        private static double rank(double[] sorted, double percentile) {
            int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
            return sorted[Math.max(0, rank - 1)];
        }
    }
}
