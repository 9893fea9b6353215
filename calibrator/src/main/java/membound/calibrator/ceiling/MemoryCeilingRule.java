package membound.calibrator.ceiling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import membound.benchmarks.placement.Placement;
import membound.benchmarks.stream.StreamKernel;
import membound.profile.BandwidthEntry;
import membound.profile.CeilingRules;
import membound.profile.LevelCeiling;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;

/**
 * Which bandwidth is the model's ceiling for each access pattern and memory level: the one rule, for figures membound
 * measured and figures imported from other tools alike. The model reads the ceilings it writes one to one.
 *
 * <ul>
 *   <li>A kernel's pattern comes from the kernel table ({@link StreamKernel#pattern()}); another tool's kernel is
 *       looked up by the name that tool prints ({@link StreamKernel#ofToolName}). The entry keeps both as typed fields
 *       ({@link BandwidthEntry#pattern()}, {@link BandwidthEntry#standsIn()}); the rule reads nothing else of it.</li>
 *   <li>Only the configuration a training step runs in may be a ceiling: membound's Vector API kernel (the CPU) or PTX
 *       kernel on device memory (a GPU), on doubles, on every cpu. A core type's or cluster's figure describes part of
 *       the machine, a scalar twin the JIT, a GPU's pass over host memory what it reaches of the host's.</li>
 *   <li>Among those, for one level and pattern: the kernel that defines the pattern (Copy, Triad, Sum, Fill) before
 *       one that stands in for it (Scale, Add, Dot); then the larger team; then the larger working set (a DRAM figure
 *       nearer the plateau: a {@code --full} sweep's points between the last-level cache and 4x it are DRAM by their
 *       footprint, and lose to the run sized for DRAM); then the smaller entry id. The order is total, so the entries'
 *       order never matters.</li>
 *   <li>An in-place update (an optimizer step) moves at the copy ceiling's rate in hardware bytes: it stores only
 *       lines it has just loaded, so it pays no write-allocate. Its ceiling is written beside the copy ceiling it
 *       comes from, where that entry has a hardware-byte figure: copy's rate times 1.5 where the CPU's stores
 *       allocate, copy's own where they were measured not to ({@link WriteAllocationRule}, which the hardware
 *       bytes already count).</li>
 *   <li>What nothing measured is completed ({@link #complete}): at every level with a copy ceiling and no update
 *       ceiling, the update takes the copy's figure as it is; in main memory, every pattern without a ceiling takes
 *       its nearest measured one ({@link AccessPattern#fallbacks()}), and so does every pattern of a cache level. Each
 *       such ceiling says whose figure it took.</li>
 * </ul>
 */
public final class MemoryCeilingRule {

    private MemoryCeilingRule() {
    }

    /** The pattern a kernel's figure stands for, by its name in a bandwidth entry or in another tool's output. */
    public static Optional<CeilingRules.KernelPattern> patternOf(String kernel) {
        return StreamKernel.ofToolName(kernel).flatMap(k -> k.pattern()
                .map(p -> new CeilingRules.KernelPattern(p, !k.measuresPattern())));
    }

    /** The ceilings of membound's own bandwidth entries: the chosen ones, completed. */
    public static List<LevelCeiling> ceilings(List<BandwidthEntry> bandwidth) {
        return complete(chosen(bandwidth));
    }

    /** One measured ceiling per (level, pattern) a training-configuration entry measured, and the update beside each copy. */
    public static List<LevelCeiling> chosen(List<BandwidthEntry> bandwidth) {
        Map<MemoryLevel, Map<AccessPattern, BandwidthEntry>> chosen = new EnumMap<>(MemoryLevel.class);
        for (BandwidthEntry entry : bandwidth) {
            if (entry.pattern() == null || !isTrainingConfiguration(entry)) {
                continue;
            }
            chosen.computeIfAbsent(entry.level(), l -> new EnumMap<>(AccessPattern.class))
                    .merge(entry.pattern(), entry, (current, candidate) -> better(candidate, current) ? candidate : current);
        }
        List<LevelCeiling> ceilings = new ArrayList<>();
        for (Map<AccessPattern, BandwidthEntry> level : chosen.values()) {
            for (Map.Entry<AccessPattern, BandwidthEntry> e : level.entrySet()) {
                ceilings.add(LevelCeiling.of(e.getKey(), e.getValue()));
                if (e.getKey() == AccessPattern.COPY) {
                    LevelCeiling.updateOf(e.getValue()).ifPresent(ceilings::add);
                }
            }
        }
        return List.copyOf(ceilings);
    }

    /**
     * The measured ceilings with every pattern nothing measured taken from another: per level, an update from the copy
     * figure as it is where the level has a copy and no update; in main memory, each pattern without a ceiling from its
     * nearest one, in {@link AccessPattern}'s order (a pattern completed earlier can stand in for a later one); in a
     * cache level, each from its nearest one the level measured (or the update just taken from its copy). Ceilings
     * already taken from another pattern are dropped first, so completing a completed list changes nothing.
     */
    public static List<LevelCeiling> complete(List<LevelCeiling> levels) {
        List<LevelCeiling> measured = levels.stream().filter(c -> !c.standsIn()).toList();
        List<LevelCeiling> completed = new ArrayList<>(measured);
        for (MemoryLevel level : MemoryLevel.values()) {
            Map<AccessPattern, LevelCeiling> patterns = new EnumMap<>(AccessPattern.class);
            for (LevelCeiling c : measured) {
                if (c.level() == level) {
                    patterns.put(c.access(), c);
                }
            }
            if (patterns.isEmpty()) {
                continue;
            }
            if (!patterns.containsKey(AccessPattern.UPDATE) && patterns.containsKey(AccessPattern.COPY)) {
                LevelCeiling update = patterns.get(AccessPattern.COPY).standingInFor(AccessPattern.UPDATE);
                patterns.put(AccessPattern.UPDATE, update);
                completed.add(update);
            }
            if (level != MemoryLevel.DRAM) {
                // A cache level: each pattern it lacks takes its nearest one the level has of its own (no chain).
                Map<AccessPattern, LevelCeiling> own = new EnumMap<>(patterns);
                for (AccessPattern pattern : AccessPattern.values()) {
                    if (own.containsKey(pattern)) {
                        continue;
                    }
                    for (AccessPattern near : pattern.fallbacks()) {
                        if (own.containsKey(near)) {
                            completed.add(own.get(near).standingInFor(pattern));
                            break;
                        }
                    }
                }
                continue;
            }
            for (AccessPattern pattern : AccessPattern.values()) {
                if (patterns.containsKey(pattern)) {
                    continue;
                }
                for (AccessPattern near : pattern.fallbacks()) {
                    LevelCeiling c = patterns.get(near);
                    if (c != null) {
                        LevelCeiling standIn = c.standingInFor(pattern);
                        patterns.put(pattern, standIn);
                        completed.add(standIn);
                        break;
                    }
                }
            }
        }
        return List.copyOf(completed);
    }

    /** The order of {@link #better}: defining kernel, larger team, larger working set, smaller id. */
    private static final Comparator<BandwidthEntry> PREFERENCE = Comparator
            .comparing(BandwidthEntry::definesPattern)
            .thenComparingInt(MemoryCeilingRule::threads)
            .thenComparingLong(e -> e.workingSetBytes() == null ? 0 : e.workingSetBytes())
            .thenComparing(BandwidthEntry::id, Comparator.reverseOrder());

    /**
     * Whether {@code candidate} is the better ceiling of its pattern than {@code current}: the kernel that defines the
     * pattern first, then the larger team, then the larger working set, then the smaller id.
     */
    public static boolean better(BandwidthEntry candidate, BandwidthEntry current) {
        return PREFERENCE.compare(candidate, current) > 0;
    }

    /**
     * Membound's own kernel on doubles, on every cpu: what the model's ceilings are measured in. On the CPU that is
     * the Vector API kernel (not its scalar twin); on a GPU the suite's PTX kernel on device memory.
     */
    public static boolean isTrainingConfiguration(BandwidthEntry entry) {
        return isAllCpus(entry.placement()) && "double".equals(entry.elementType())
                && entry.implementation().isTrainingConfiguration();
    }

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
