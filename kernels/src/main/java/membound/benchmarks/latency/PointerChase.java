package membound.benchmarks.latency;

import java.util.SplittableRandom;

import membound.vocabulary.BadInputException;

/**
 * A pointer chase for load latency: one slot per cache line, linked into a single random cycle through
 * every line of the working set, so each load depends on the one before and no prefetcher can guess the
 * next address. Time per step is the load-to-use latency of the level the working set lives in (plus TLB
 * misses once it spans more pages than the TLB maps, as on a real random access).
 *
 * <p>The cycle is built with Sattolo's algorithm, which yields one cycle through all lines. The visiting
 * order is kept, so the position after any number of steps is known in closed form: that is how a chase
 * is checked.
 */
public final class PointerChase {

    /** Bytes per cache line; one slot in each. */
    public static final int LINE_BYTES = 64;
    static final int INTS_PER_LINE = LINE_BYTES / Integer.BYTES;

    private final int[] next;
    private final int[] order;

    private PointerChase(int[] next, int[] order) {
        this.next = next;
        this.order = order;
    }

    /**
     * Links {@code workingSetBytes / 64} lines into one random cycle.
     *
     * @param seed fixes the cycle, so runs are repeatable
     */
    public static PointerChase build(long workingSetBytes, long seed) {
        long lines = workingSetBytes / LINE_BYTES;
        if (lines < 2 || lines * INTS_PER_LINE > Integer.MAX_VALUE - 16) {
            throw new BadInputException("workingSetBytes must hold 2 to " + (Integer.MAX_VALUE / INTS_PER_LINE)
                    + " lines of " + LINE_BYTES + " bytes: workingSetBytes=" + workingSetBytes);
        }
        int count = (int) lines;
        int[] order = new int[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        // Sattolo: swapping only with earlier positions leaves a single cycle.
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = count - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        // Visit order: start at line 0, follow the permutation; record it.
        int[] permutation = order;
        int[] visit = new int[count];
        int[] next = new int[count * INTS_PER_LINE];
        int line = 0;
        for (int k = 0; k < count; k++) {
            visit[k] = line;
            int to = permutation[line];
            next[line * INTS_PER_LINE] = to * INTS_PER_LINE;
            line = to;
        }
        return new PointerChase(next, visit);
    }

    /** Lines in the cycle. */
    public int lines() {
        return order.length;
    }

    /** Bytes the chase spans. */
    public long workingSetBytes() {
        return (long) order.length * LINE_BYTES;
    }

    /** The start position (slot of line 0). */
    public int start() {
        return 0;
    }

    /** Follows {@code steps} dependent loads from {@code position}; returns where it ends. */
    public int chase(int position, int steps) {
        int[] links = next;
        int p = position;
        for (int i = 0; i < steps; i++) {
            p = links[p];
        }
        return p;
    }

    /** Where a chase from {@link #start()} stands after {@code steps} steps, in closed form. */
    public int positionAfter(long steps) {
        return order[(int) (steps % order.length)] * INTS_PER_LINE;
    }
}
