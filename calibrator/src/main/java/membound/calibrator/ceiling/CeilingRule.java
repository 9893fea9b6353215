package membound.calibrator.ceiling;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import membound.benchmarks.placement.Placement;
import membound.benchmarks.stream.StreamKernel;
import membound.profile.BandwidthEntry;
import membound.profile.LevelCeiling;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;

/**
 * Which measured bandwidth is the model's ceiling for each access pattern and memory level: the one rule, for
 * figures membound measured and figures imported from other tools alike. The model reads the ceilings it writes
 * one to one.
 *
 * <ul>
 *   <li>A kernel's pattern comes from the kernel table ({@link StreamKernel#pattern()}); another tool's kernel is
 *       looked up by the name that tool prints ({@link StreamKernel#ofToolName}).</li>
 *   <li>The kernel that defines a pattern (Copy, Triad, Sum, Fill) is preferred to one that stands in for it
 *       (Scale, Add, Dot); then, among membound's own figures, the largest team on every cpu, with the Vector API
 *       kernels on doubles: the configuration a training step's CPU-side work runs in. A core type's or cluster's
 *       figure describes part of the machine and is never a ceiling.</li>
 *   <li>An in-place update (an optimizer step) moves at the copy ceiling's rate in hardware bytes: it stores only
 *       lines it has just loaded, so it pays no write-allocate. Its ceiling is written beside the copy ceiling it
 *       comes from, where that entry has a hardware-byte figure.</li>
 * </ul>
 */
public final class CeilingRule {

    private CeilingRule() {
    }

    /** The pattern a kernel's figure stands for, by its name in a bandwidth entry or in another tool's output. */
    public static Optional<AccessPattern> patternOf(String kernel) {
        return StreamKernel.ofToolName(kernel).flatMap(StreamKernel::pattern);
    }

    /** Whether the kernel defines its pattern (Copy, Triad, Sum, Fill) rather than standing in for it. */
    public static boolean definesPattern(String kernel) {
        return StreamKernel.ofToolName(kernel).map(StreamKernel::measuresPattern).orElse(false);
    }

    /** The ceilings of membound's own bandwidth entries: one per (level, pattern), and the update beside each copy. */
    public static List<LevelCeiling> ceilings(List<BandwidthEntry> bandwidth) {
        Map<String, BandwidthEntry> chosen = new LinkedHashMap<>();
        for (BandwidthEntry entry : bandwidth) {
            Optional<AccessPattern> pattern = patternOf(entry.kernel());
            if (pattern.isEmpty() || !isTrainingConfiguration(entry)) {
                continue;
            }
            String key = entry.level() + "/" + pattern.get();
            BandwidthEntry current = chosen.get(key);
            if (current == null || better(entry, current)) {
                chosen.put(key, entry);
            }
        }
        List<LevelCeiling> ceilings = new ArrayList<>();
        for (BandwidthEntry entry : chosen.values()) {
            AccessPattern pattern = patternOf(entry.kernel()).orElseThrow();
            ceilings.add(LevelCeiling.of(pattern, entry));
            if (pattern == AccessPattern.COPY) {
                LevelCeiling.updateOf(entry).ifPresent(ceilings::add);
            }
        }
        return List.copyOf(ceilings);
    }

    /**
     * Whether {@code candidate} is the better ceiling of its pattern than {@code current}: the kernel that defines the
     * pattern first, then the larger team.
     */
    public static boolean better(BandwidthEntry candidate, BandwidthEntry current) {
        boolean defines = definesPattern(candidate.kernel());
        if (defines != definesPattern(current.kernel())) {
            return defines;
        }
        return threads(candidate) > threads(current);
    }

    /**
     * Membound's own kernel on doubles, on every cpu: what the model's ceilings are measured in. On the CPU that is
     * the Vector API kernel ({@code vector}, not its scalar twin); on a GPU the suite's PTX kernel ({@code ptx}).
     */
    public static boolean isTrainingConfiguration(BandwidthEntry entry) {
        return isAllCpus(entry.placement()) && "double".equals(entry.elementType())
                && TRAINING_IMPLEMENTATIONS.contains(entry.provenance().settings().get(IMPLEMENTATION_SETTING));
    }

    private static final java.util.Set<String> TRAINING_IMPLEMENTATIONS = java.util.Set.of("vector", "ptx");

    /** The setting that records which implementation of a kernel ran ({@code vector} or {@code scalar}). */
    public static final String IMPLEMENTATION_SETTING = "param.implementation";

    /** True for a figure measured on every cpu (or imported without a placement). */
    public static boolean isAllCpus(String placement) {
        return placement == null || placement.equals(Placement.ALL);
    }

    /** Whether a DRAM Triad entry of membound's on doubles belongs to the thread-scaling curve. */
    public static boolean isScalingPoint(BandwidthEntry entry) {
        return entry.kernel().equals("triad") && entry.level() == MemoryLevel.DRAM && isTrainingConfiguration(entry);
    }

    private static int threads(BandwidthEntry entry) {
        return entry.threads() == null ? 0 : entry.threads();
    }
}
