package membound.trace.compare;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import membound.model.machine.Ceiling;
import membound.model.machine.ComputeCeiling;
import membound.model.machine.Machine;
import membound.trace.RankSummary;
import membound.trace.StepBreakdown;
import membound.trace.StepBreakdown.ClassCost;
import membound.trace.TraceClass;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.Precision;

/**
 * The trace against the machine: for each class whose operators' shapes gave FLOPs and bytes, the rate its kernels
 * achieved (FLOP/s for GEMMs and attention, GB/s for norms, elementwise work and the optimizer), as a share of the
 * machine's measured ceiling for that work and of the datasheet's. GEMMs and attention are held against the
 * attainable GEMM rate in their precision (the datasheet's dense peak beside it); the memory-bound classes against
 * the main memory's copy bandwidth, as each reads its tensors once and writes its result once.
 */
public final class CeilingShares {

    /**
     * One class against its ceiling.
     *
     * @param seconds the time of the class's activities whose shapes gave a cost (the rate's denominator)
     * @param classSeconds all of the class's time (what the share of {@code seconds} is of)
     * @param achieved FLOP/s or bytes/s, as {@code unit} says
     * @param measuredShare achieved over the measured ceiling; NaN where the machine has none
     * @param datasheetShare achieved over the datasheet's figure; NaN where the datasheet gives none
     */
    public record Share(TraceClass traceClass, double seconds, double classSeconds, double flops, double bytes,
                        String unit, double achieved, String ceiling, double measuredCeiling, String measuredSource,
                        double measuredShare, double datasheetCeiling, String datasheetSource, double datasheetShare) {
    }

    private CeilingShares() {
    }

    /** The classes with costs, over every step of every rank; empty where no rank recorded shapes. */
    public static List<Share> of(List<RankSummary> ranks, Machine machine) {
        Map<TraceClass, double[]> sums = new EnumMap<>(TraceClass.class);
        Map<TraceClass, Map<Precision, Double>> precisions = new EnumMap<>(TraceClass.class);
        for (RankSummary r : ranks) {
            for (StepBreakdown s : r.steps()) {
                for (TraceClass c : TraceClass.values()) {
                    double[] k = sums.computeIfAbsent(c, x -> new double[4]);
                    k[3] += s.classSeconds().get(c);
                    ClassCost cost = s.costs().get(c);
                    if (cost != null) {
                        k[0] += cost.flops();
                        k[1] += cost.bytes();
                        k[2] += cost.seconds();
                        if (cost.precision() != null) {
                            precisions.computeIfAbsent(c, x -> new EnumMap<>(Precision.class))
                                    .merge(cost.precision(), cost.seconds(), Double::sum);
                        }
                    }
                }
            }
        }
        List<Share> shares = new ArrayList<>();
        for (TraceClass c : List.of(TraceClass.GEMM, TraceClass.ATTENTION, TraceClass.NORM, TraceClass.ELEMENTWISE,
                TraceClass.OPTIMIZER)) {
            double[] k = sums.get(c);
            if (k == null || k[2] <= 0) {
                continue;
            }
            boolean compute = c == TraceClass.GEMM || c == TraceClass.ATTENTION;
            if (compute) {
                Precision p = main(precisions.get(c));
                ComputeCeiling cc = machine.device().computeFor(p);
                if (cc == null) {
                    continue;
                }
                double achieved = k[0] / k[2];
                Ceiling gemm = cc.attainableGemm();
                Ceiling peak = cc.peakDense();
                shares.add(new Share(c, k[2], k[3], k[0], k[1], "FLOP/s", achieved,
                        cc.precision().label() + " GEMM", gemm.hasMeasured() ? gemm.measured() : Double.NaN,
                        gemm.hasMeasured() ? gemm.measuredSource() : null,
                        gemm.hasMeasured() ? achieved / gemm.measured() : Double.NaN,
                        peak.hasDatasheet() ? peak.datasheet() : Double.NaN,
                        peak.hasDatasheet() ? peak.datasheetSource() + " (dense peak)" : null,
                        peak.hasDatasheet() ? achieved / peak.datasheet() : Double.NaN));
            } else {
                Ceiling copy = machine.device().mainMemory().ceiling(AccessPattern.COPY);
                double achieved = k[1] / k[2];
                shares.add(new Share(c, k[2], k[3], k[0], k[1], "B/s", achieved,
                        machine.device().mainMemory().name() + " copy bandwidth",
                        copy.hasMeasured() ? copy.measured() : Double.NaN, copy.hasMeasured() ? copy.measuredSource() : null,
                        copy.hasMeasured() ? achieved / copy.measured() : Double.NaN,
                        copy.hasDatasheet() ? copy.datasheet() : Double.NaN,
                        copy.hasDatasheet() ? copy.datasheetSource() : null,
                        copy.hasDatasheet() ? achieved / copy.datasheet() : Double.NaN));
            }
        }
        return shares;
    }

    /** The precision most of the time ran in; FP32 where none was recorded (the profiler's float). */
    static Precision main(Map<Precision, Double> seconds) {
        if (seconds == null || seconds.isEmpty()) {
            return Precision.FP32;
        }
        return seconds.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse(Precision.FP32);
    }

}
