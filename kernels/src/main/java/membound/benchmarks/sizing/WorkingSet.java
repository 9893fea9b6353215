package membound.benchmarks.sizing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import membound.vocabulary.BadInputException;
import membound.vocabulary.units.Units;

/**
 * The working set of a STREAM measurement, given as a cache level or a size, and the bytes of each array
 * it resolves to (over all threads).
 *
 * <ul>
 *   <li>{@code L1}, {@code L2}, {@code L3}: each thread's three arrays fill half of its share of that level,
 *       so the data stays there without spilling (a kernel with fewer arrays uses less).</li>
 *   <li>{@code DRAM}: every array is at least 4× the total last-level cache, STREAM's rule.</li>
 *   <li>{@code 64MiB}, {@code 2GB}: the bytes of each array, as STREAM's {@code STREAM_ARRAY_SIZE} and
 *       BabelStream's {@code --arraysize} count it (times the element size).</li>
 *   <li>{@code DRAM:2131706432}: a level already resolved, as the suite passes it to JMH so that every
 *       result names its own size.</li>
 * </ul>
 *
 * @param label what the user asked for: a level, or the size as typed
 * @param arrayBytes the bytes of one array, over all threads
 */
public record WorkingSet(String label, long arrayBytes) {

    /** Most arrays a kernel touches: cache-level sizes leave room for all of them. */
    static final int MAX_ARRAYS = 3;
    /** Fraction of a level's share the arrays fill, so that they are not evicted by everything else. */
    static final double CACHE_FILL = 0.5;
    /** STREAM's rule for DRAM figures: each array at least this many times the last-level cache. */
    public static final int DRAM_MULTIPLE = 4;
    /** Between the label and the bytes of a resolved working set. */
    static final char SEPARATOR = ':';

    public WorkingSet {
        if (arrayBytes <= 0) {
            throw new BadInputException("arrayBytes must be positive: arrayBytes=" + arrayBytes);
        }
    }

    /**
     * The JMH parameter value that names this working set exactly: {@code DRAM:2131706432} (not '=', which
     * JMH's {@code -p name=value} would split on).
     */
    public String parameter() {
        return label + SEPARATOR + arrayBytes;
    }

    /** True for a DRAM working set, by level or by size against STREAM's rule. */
    public boolean isDram(CacheSizes caches) {
        return label.equals("DRAM") || arrayBytes >= DRAM_MULTIPLE * caches.lastLevelTotalBytes();
    }

    /**
     * Resolves a working-set parameter for {@code threads} threads; {@code caches} is asked only for a level.
     *
     * @throws BadInputException for an unknown level, a malformed size, or a level the host lacks
     */
    public static WorkingSet resolve(String spec, int threads, Supplier<CacheSizes> caches) {
        return resolve(spec, threads, MAX_ARRAYS, caches);
    }

    /** Resolves the working set of one array used by one thread, as a pointer chase uses it. */
    public static WorkingSet resolveSingle(String spec, Supplier<CacheSizes> caches) {
        return resolve(spec, 1, 1, caches);
    }

    private static WorkingSet resolve(String spec, int threads, int arrays, Supplier<CacheSizes> caches) {
        String text = spec.trim();
        int separator = text.indexOf(SEPARATOR);
        if (separator > 0) {
            return new WorkingSet(text.substring(0, separator),
                    Units.parseBytes("workingSet", text.substring(separator + 1)));
        }
        String upper = text.toUpperCase(Locale.ROOT);
        if (upper.equals("DRAM")) {
            return new WorkingSet("DRAM", DRAM_MULTIPLE * caches.get().lastLevelTotalBytes());
        }
        if (upper.matches("L[1-9]")) {
            int level = upper.charAt(1) - '0';
            CacheSizes known = caches.get();
            long share = known.perCore(level).orElseThrow(() -> new BadInputException(
                    "workingSet must be a cache level this host has (" + levels(known) + ") or a size: workingSet="
                            + spec));
            long perArrayPerThread = (long) (share * CACHE_FILL / arrays);
            return new WorkingSet(upper, perArrayPerThread * threads);
        }
        if (!text.isEmpty() && Character.isDigit(text.charAt(0))) {
            return new WorkingSet(text, Units.parseBytes("workingSet", text));
        }
        throw new BadInputException("workingSet must be L1, L2, L3, DRAM, sweep or a size such as 64MiB: workingSet="
                + spec);
    }

    /**
     * The sizes of a bandwidth-against-working-set sweep: per-array sizes doubling from a footprint of
     * 8 KiB per thread up to the DRAM size, so every cache level shows as a plateau.
     */
    public static List<WorkingSet> sweep(int threads, CacheSizes caches) {
        List<WorkingSet> sizes = new ArrayList<>();
        long dram = DRAM_MULTIPLE * caches.lastLevelTotalBytes();
        for (long footprintPerThread = 8 * 1024; ; footprintPerThread *= 2) {
            long arrayBytes = footprintPerThread / MAX_ARRAYS * threads;
            if (arrayBytes >= dram) {
                break;
            }
            sizes.add(new WorkingSet(Units.formatBytes(arrayBytes).replace(" ", ""), arrayBytes));
        }
        sizes.add(new WorkingSet("DRAM", dram));
        return sizes;
    }

    /** Chase sizes for a latency sweep: doubling from 4 KiB up to the DRAM size. */
    public static List<WorkingSet> sweepSingle(CacheSizes caches) {
        List<WorkingSet> sizes = new ArrayList<>();
        long dram = DRAM_MULTIPLE * caches.lastLevelTotalBytes();
        for (long bytes = 4 * 1024; bytes < dram; bytes *= 2) {
            sizes.add(new WorkingSet(Units.formatBytes(bytes).replace(" ", ""), bytes));
        }
        sizes.add(new WorkingSet("DRAM", dram));
        return sizes;
    }

    private static String levels(CacheSizes caches) {
        StringBuilder known = new StringBuilder();
        for (int level : caches.perCoreBytes().keySet()) {
            known.append('L').append(level).append(", ");
        }
        return known.append("DRAM").toString();
    }
}
