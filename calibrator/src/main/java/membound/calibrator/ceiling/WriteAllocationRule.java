package membound.calibrator.ceiling;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import membound.profile.BandwidthEntry;
import membound.profile.Distribution;
import membound.profile.WriteAllocation;
import membound.profile.WriteAllocation.Answer;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.units.Units;

/**
 * Whether a CPU's stores allocate, decided from one calibration's own figures: the write-only kernel (Fill) against
 * the read-only one (Sum) at DRAM with the same team, in STREAM bytes, and the memory controller's counters where the
 * host let the calibrator read them. The answer says what the profile's hardware-byte figures count, and with them
 * the in-place update's ceiling ({@link MemoryCeilingRule}).
 *
 * <p>Where every store also reads its line, Fill moves twice the bytes it writes, half of them reads, so with memory
 * saturated it reaches at most half of Sum's rate (less: a mix of reads and writes runs below a read-only stream);
 * where stores stream full lines without reading them, Fill moves what it writes, near a read stream's rate. Hence,
 * for Sum over Fill:
 * <ul>
 *   <li>{@value #ALLOCATES_AT_LEAST} or more: <b>yes</b>. Nothing but the extra read halves a write stream that way;
 *       a write-only stream of a memory whose writes are slower than its reads stays well above half (DDR's write
 *       bandwidth is 0.6-0.9 of its read bandwidth).</li>
 *   <li>{@value #STREAMS_AT_MOST} or less: <b>no</b>, only where the team saturated memory, which Sum with half the
 *       team says: the full team's Sum is at most {@value #SATURATED_GAIN_AT_MOST}x the half team's (more exactly,
 *       adding the rest of the team added at most a quarter of what linear scaling would), and not below
 *       {@value #SATURATED_GAIN_AT_LEAST}x (a team that reads slower than its half lost cpus to other processes). Where a team does not
 *       saturate memory, each core is held back by how many lines it can have in flight; a store that allocates waits
 *       for its line as a load does, so Fill then runs near Sum whatever the stores do, and the ratio tells nothing.
 *       Without Sum at half the team, whether memory was saturated is unknown and so is the answer.</li>
 *   <li>Between, or where either figure is noisy (its coefficient of variation above {@value #NOISY_CV}, the
 *       profile's own {@code noisy} threshold): <b>undetermined</b>, and write-allocate is assumed.</li>
 * </ul>
 * Counters, where read, decide instead: the controller read at least {@value #COUNTERS_ALLOCATE_AT_LEAST} of the
 * bytes it wrote while Fill ran, <b>yes</b>; at most {@value #COUNTERS_STREAM_AT_MOST}, <b>no</b>; between,
 * undetermined. A calibration without Fill and Sum at DRAM with one team (and no counters) leaves the answer
 * <b>assumed</b>, saying why.
 */
public final class WriteAllocationRule {

    /** Sum over Fill at or above which stores allocate. */
    public static final double ALLOCATES_AT_LEAST = 1.7;
    /** Sum over Fill at or below which stores stream, where the team saturated memory. */
    public static final double STREAMS_AT_MOST = 1.3;
    /** The full team's Sum over half the team's at or below which the full team saturated memory. */
    public static final double SATURATED_GAIN_AT_MOST = 1.25;
    /**
     * ... and below which the full team lost cpus to something else: a saturated memory gives a larger team about
     * the same rate, not much less (on the shared development VM, 0.43-0.81 while other processes took 1.4-1.7 of
     * its 2 cpus).
     */
    public static final double SATURATED_GAIN_AT_LEAST = 0.9;
    /** A figure whose coefficient of variation is above this cannot decide (the profile's noisy threshold). */
    public static final double NOISY_CV = 0.10;
    /** Bytes read over bytes written by the memory controller during Fill at or above which stores allocate. */
    public static final double COUNTERS_ALLOCATE_AT_LEAST = 0.7;
    /** ... at or below which they stream. */
    public static final double COUNTERS_STREAM_AT_MOST = 0.3;

    private WriteAllocationRule() {
    }

    /**
     * The answer for one CPU device's bandwidth entries (STREAM bytes are all it reads of them).
     *
     * @param counters     what the memory controller counted during Fill, or null where nothing was read
     * @param countersNote why no counters were read (or what limits them), or null
     */
    public static WriteAllocation decide(List<BandwidthEntry> bandwidth, WriteAllocation.MemoryCounters counters,
                                         String countersNote) {
        Optional<Pair> pair = pair(bandwidth);
        if (pair.isEmpty() && counters == null) {
            return new WriteAllocation(Answer.ASSUMED, "not measured: this calibration has no write-only (Fill) and "
                    + "read-only (Sum) run at DRAM with one team of every cpu, so write-allocate is assumed", null,
                    null, null, null, null, null, countersNote);
        }
        String read = pair.map(Pair::read).map(BandwidthEntry::id).orElse(null);
        String write = pair.map(Pair::write).map(BandwidthEntry::id).orElse(null);
        Double ratio = pair.map(Pair::ratio).orElse(null);
        Optional<BandwidthEntry> half = pair.flatMap(p -> halfTeam(bandwidth, p.read()));
        Double gain = half.map(h -> pair.get().read().streamBytesPerSecond().typical()
                / h.streamBytesPerSecond().typical()).orElse(null);
        String halfId = half.map(BandwidthEntry::id).orElse(null);
        String rates = pair.map(p -> rates(p, half)).orElse("");
        if (counters != null) {
            double c = counters.readOverWrite();
            Answer answer = c >= COUNTERS_ALLOCATE_AT_LEAST ? Answer.YES : c <= COUNTERS_STREAM_AT_MOST ? Answer.NO
                    : Answer.UNDETERMINED;
            String why = String.format(Locale.ROOT, "the memory controller read %s and wrote %s while Fill ran (%s), "
                    + "read/written %.2f: %s", Units.formatBytes((long) counters.readBytes()),
                    Units.formatBytes((long) counters.writeBytes()), counters.tool(), c, switch (answer) {
                        case YES -> String.format(Locale.ROOT, ">= %.2f, each store also read its line",
                                COUNTERS_ALLOCATE_AT_LEAST);
                        case NO -> String.format(Locale.ROOT, "<= %.2f, the stores read nothing", COUNTERS_STREAM_AT_MOST);
                        default -> String.format(Locale.ROOT, "between %.2f and %.2f, neither",
                                COUNTERS_STREAM_AT_MOST, COUNTERS_ALLOCATE_AT_LEAST);
                    });
            return new WriteAllocation(answer, why + (rates.isEmpty() ? "" : "; the rates: " + rates), read, write,
                    ratio, halfId, gain, counters, countersNote);
        }
        Pair p = pair.get();
        Answer answer;
        String why;
        String noisy = noisy(p.read(), "Sum") + noisy(p.write(), "Fill");
        if (!noisy.isEmpty()) {
            answer = Answer.UNDETERMINED;
            why = noisy.substring(2) + String.format(Locale.ROOT, " above %.0f%%: too noisy to tell", 100 * NOISY_CV);
        } else if (p.ratio() >= ALLOCATES_AT_LEAST) {
            answer = Answer.YES;
            why = String.format(Locale.ROOT, ">= %.2f: a write-only stream reaches about half a read-only one, "
                    + "as it does where each store also reads its line", ALLOCATES_AT_LEAST);
        } else if (p.ratio() > STREAMS_AT_MOST) {
            answer = Answer.UNDETERMINED;
            why = String.format(Locale.ROOT, "between %.2f and %.2f: neither", STREAMS_AT_MOST, ALLOCATES_AT_LEAST);
        } else if (gain == null) {
            answer = Answer.UNDETERMINED;
            why = String.format(Locale.ROOT, "<= %.2f, but whether the team saturated memory is unknown (no Sum with "
                    + "half the team): a core limited by its own line fills runs Fill near Sum whether or not its "
                    + "stores allocate", STREAMS_AT_MOST);
        } else if (gain < SATURATED_GAIN_AT_LEAST) {
            answer = Answer.UNDETERMINED;
            why = String.format(Locale.ROOT, "<= %.2f, but the full team read slower than half of it (%.2fx, below "
                    + "%.2fx): it lost cpus to other processes, so whether it saturated memory is unknown",
                    STREAMS_AT_MOST, gain, SATURATED_GAIN_AT_LEAST);
        } else if (gain > saturatedGain(p.read(), half.get())) {
            answer = Answer.UNDETERMINED;
            why = String.format(Locale.ROOT, "<= %.2f, but the team did not saturate memory (%.2fx the half team's "
                    + "Sum, above %.2fx): a core limited by its own line fills runs Fill near Sum whether or not its "
                    + "stores allocate", STREAMS_AT_MOST, gain, saturatedGain(p.read(), half.get()));
        } else {
            answer = Answer.NO;
            why = String.format(Locale.ROOT, "<= %.2f with memory saturated (%.2fx the half team's Sum, at most "
                    + "%.2fx): a write-only stream moves as much as a read-only one, so its stores read nothing",
                    STREAMS_AT_MOST, gain, saturatedGain(p.read(), half.get()));
        }
        return new WriteAllocation(answer, rates + ": " + why, read, write, ratio, halfId, gain, null, countersNote);
    }

    /** Fill and Sum at DRAM with the largest team that ran both: each the training configuration's (every cpu). */
    private record Pair(BandwidthEntry read, BandwidthEntry write) {
        double ratio() {
            return read.streamBytesPerSecond().typical() / write.streamBytesPerSecond().typical();
        }
    }

    /** Among entries of one kind and team: the larger working set, then the smaller id (a total order). */
    private static final Comparator<BandwidthEntry> PREFERENCE = Comparator
            .comparingLong((BandwidthEntry e) -> e.workingSetBytes() == null ? 0 : e.workingSetBytes())
            .thenComparing(BandwidthEntry::id, Comparator.reverseOrder());

    private static Optional<Pair> pair(List<BandwidthEntry> bandwidth) {
        List<BandwidthEntry> reads = candidates(bandwidth, AccessPattern.READ);
        List<BandwidthEntry> writes = candidates(bandwidth, AccessPattern.WRITE);
        Optional<Integer> team = writes.stream().map(BandwidthEntry::threads)
                .filter(t -> reads.stream().anyMatch(r -> r.threads().equals(t))).max(Integer::compare);
        return team.map(t -> new Pair(best(reads, t), best(writes, t)));
    }

    private static BandwidthEntry best(List<BandwidthEntry> entries, int threads) {
        return entries.stream().filter(e -> e.threads() == threads).max(PREFERENCE).orElseThrow();
    }

    /** The read entry with the largest team up to half of {@code full}'s. */
    private static Optional<BandwidthEntry> halfTeam(List<BandwidthEntry> bandwidth, BandwidthEntry full) {
        return candidates(bandwidth, AccessPattern.READ).stream()
                .filter(e -> e.threads() <= full.threads() / 2)
                .max(Comparator.comparingInt(BandwidthEntry::threads).thenComparing(PREFERENCE));
    }

    /**
     * The gain at or below which the full team saturated memory: adding the rest of the team added at most a quarter
     * of what linear scaling would ({@value #SATURATED_GAIN_AT_MOST}x from half the team).
     */
    private static double saturatedGain(BandwidthEntry full, BandwidthEntry half) {
        double linear = (double) full.threads() / half.threads();
        return 1 + (SATURATED_GAIN_AT_MOST - 1) * (linear - 1);
    }

    /** The kernel that defines {@code pattern} (Sum, Fill) at DRAM, membound's own, on doubles, on every cpu. */
    private static List<BandwidthEntry> candidates(List<BandwidthEntry> bandwidth, AccessPattern pattern) {
        return bandwidth.stream().filter(e -> e.pattern() == pattern && e.definesPattern()
                && e.level() == MemoryLevel.DRAM && e.threads() != null
                && MemoryCeilingRule.isTrainingConfiguration(e)).toList();
    }

    private static String rates(Pair p, Optional<BandwidthEntry> half) {
        Distribution read = p.read().streamBytesPerSecond();
        Distribution write = p.write().streamBytesPerSecond();
        return String.format(Locale.ROOT, "Sum %s, Fill %s (%ss, STREAM bytes, %d threads, DRAM)%s: Sum/Fill %.2f",
                Units.formatBandwidth(read.typical()), Units.formatBandwidth(write.typical()),
                read.typicalStatistic(), p.read().threads(), half.map(h -> String.format(Locale.ROOT, "; Sum with %d "
                        + "thread%s %s", h.threads(), h.threads() == 1 ? "" : "s",
                        Units.formatBandwidth(h.streamBytesPerSecond().typical()))).orElse(""), p.ratio());
    }

    private static String noisy(BandwidthEntry entry, String kernel) {
        Double cv = entry.streamBytesPerSecond().coefficientOfVariation();
        return cv != null && cv > NOISY_CV ? String.format(Locale.ROOT, ", %s's CV %.1f%%", kernel, 100 * cv) : "";
    }
}
