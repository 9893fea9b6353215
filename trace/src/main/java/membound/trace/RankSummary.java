package membound.trace;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** One rank's steps, and its totals over them. */
public record RankSummary(RankTrace trace, List<StepBreakdown> steps) {

    public RankSummary {
        steps = List.copyOf(steps);
    }

    /** GPU kernels' durations summed over every step. */
    public double kernelSeconds() {
        return steps.stream().mapToDouble(StepBreakdown::kernelSeconds).sum();
    }

    /** Each class's activity time summed over every step. */
    public Map<TraceClass, Double> classSeconds() {
        Map<TraceClass, Double> sum = new EnumMap<>(TraceClass.class);
        for (TraceClass c : TraceClass.values()) {
            sum.put(c, steps.stream().mapToDouble(s -> s.classSeconds().get(c)).sum());
        }
        return sum;
    }

    /**
     * The precision most of the GEMM time with shapes ran in; {@code fallback} where no GEMM recorded one (no
     * shapes, or a trace with no GEMMs).
     */
    public membound.vocabulary.Precision gemmPrecision(membound.vocabulary.Precision fallback) {
        Map<membound.vocabulary.Precision, Double> seconds = new java.util.EnumMap<>(membound.vocabulary.Precision.class);
        for (StepBreakdown s : steps) {
            StepBreakdown.ClassCost c = s.costs().get(TraceClass.GEMM);
            if (c != null && c.precision() != null) {
                seconds.merge(c.precision(), c.seconds(), Double::sum);
            }
        }
        return seconds.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(fallback);
    }

    /** The mean step's wall time; NaN without steps. */
    public double meanStepSeconds() {
        return steps.stream().mapToDouble(StepBreakdown::wallSeconds).average().orElse(Double.NaN);
    }
}
