package membound.calibrator.imports;

import membound.calibrator.ceiling.MemoryCeilingRule;
import membound.profile.CeilingRules;
import membound.profile.Distribution;
import membound.profile.Provenance;
import membound.vocabulary.AccessPattern;

/**
 * One bandwidth figure read from a tool's output, in STREAM-convention bytes.
 *
 * @param kernel          the STREAM name of the kernel (copy, scale, add, triad, dot, nstream, load, ...)
 * @param elementType     "double", "float", ...
 * @param threads         threads, if the tool said
 * @param workingSetBytes all arrays the kernel touched, if the tool said
 * @param streamBytesPerSecond the rates
 * @param provenance      the tool, its version, the kernel as the tool names it, the file and settings
 */
public record ImportedBandwidth(String kernel, String elementType, Integer threads,
                                Long workingSetBytes, Distribution streamBytesPerSecond, Provenance provenance) {

    /** The access pattern the figure stands for, by the kernel table (the calibrator's one rule); null for none. */
    public AccessPattern access() {
        return MemoryCeilingRule.patternOf(kernel).map(CeilingRules.KernelPattern::pattern).orElse(null);
    }

    /** Whether the kernel only stands in for its pattern (Scale for Copy) rather than defining it. */
    public boolean standsIn() {
        return MemoryCeilingRule.patternOf(kernel).map(CeilingRules.KernelPattern::standsIn).orElse(false);
    }

    static String elementType(int bytes) {
        return switch (bytes) {
            case 8 -> "double";
            case 4 -> "float";
            case 2 -> "half";
            default -> bytes + "-byte";
        };
    }
}
