package membound.calibrator.ceiling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import membound.profile.ComputeEntry;
import membound.profile.FlopCeiling;
import membound.vocabulary.Precision;

/**
 * Which compute figure is the model's ceiling for each precision: the one rule for compute, as
 * {@link MemoryCeilingRule} is for memory. The profile stores what it chooses; the model reads it one to one.
 *
 * <ul>
 *   <li>The FMA peak of a precision is its best FMA entry (independent fused multiply-adds in registers).</li>
 *   <li>Its attainable GEMM rate is its best square GEMM of any order: a larger order is not always faster (caches,
 *       the team's split), and the best is what a training step's large products can reach.</li>
 *   <li>A precision with an FMA peak and no GEMM (a profile from before calibrate measured one, an import of a
 *       peak-FLOPS tool) gets a GEMM ceiling of {@link #GEMM_FRACTION_OF_FMA_PEAK} times that peak, which says so: no
 *       matrix product reaches the FMA peak.</li>
 *   <li>"Best" is the higher typical figure; then the larger order, the larger team and the smaller id, so the
 *       entries' order never matters. Products at one shape are points below the ceilings, never ceilings.</li>
 * </ul>
 */
public final class ComputeCeilingRule {

    /**
     * Attainable fraction of a CPU's measured FMA peak for a GEMM, where a profile has the FMA peak but no GEMM of its
     * own: 0.514, the median of GEMM / FMA peak (membound's GemmBenchmark n=1024 against its FmaBenchmark, both on all
     * threads, medians) over the 29 fit rows of calibrator/src/test/resources/gemm-vs-fma.csv (the profiles under docs/records/profiles
     * of a 2-vCPU AMD EPYC VM); on its 14 held-out rows the derated peak predicts the measured GEMM with a median
     * |error| of 6.0%, the bare FMA peak with 100%. {@code GemmEfficiencyFitTest} refits it. One kind of CPU so far: a
     * measured GEMM is always better, and the prediction says so.
     */
    public static final double GEMM_FRACTION_OF_FMA_PEAK = 0.514;

    /** Where {@link #GEMM_FRACTION_OF_FMA_PEAK} comes from, as the profile stores it beside the derated ceiling. */
    public static final String GEMM_FRACTION_OF_FMA_SOURCE = "no GEMM measured: " + GEMM_FRACTION_OF_FMA_PEAK
            + " x the measured FMA peak, the median GEMM/FMA ratio of 29 fit rows of membound's own kernels "
            + "(calibrator/src/test/resources/gemm-vs-fma.csv, docs/model.md)";

    private static final Comparator<ComputeEntry> PREFERENCE = Comparator
            .comparingDouble((ComputeEntry e) -> e.flopsPerSecond().typical())
            .thenComparingLong(e -> e.matrixSize() == null ? 0 : e.matrixSize())
            .thenComparingInt(e -> e.threads() == null ? 0 : e.threads())
            .thenComparing(ComputeEntry::id, Comparator.reverseOrder());

    private ComputeCeilingRule() {
    }

    /** The compute ceilings of a device's compute entries, by precision: the FMA peak, then the GEMM. */
    public static List<FlopCeiling> ceilings(List<ComputeEntry> compute) {
        List<FlopCeiling> ceilings = new ArrayList<>();
        for (Precision precision : Precision.values()) {
            Optional<ComputeEntry> fma = best(compute, precision, ComputeEntry.Kind.FMA_PEAK);
            Optional<ComputeEntry> gemm = best(compute, precision, ComputeEntry.Kind.GEMM);
            fma.ifPresent(f -> ceilings.add(FlopCeiling.of(f)));
            if (gemm.isPresent()) {
                ceilings.add(FlopCeiling.of(gemm.get()));
            } else {
                fma.ifPresent(f -> ceilings.add(FlopCeiling.fractionOf(f, ComputeEntry.Kind.GEMM,
                        GEMM_FRACTION_OF_FMA_PEAK, GEMM_FRACTION_OF_FMA_SOURCE)));
            }
        }
        return List.copyOf(ceilings);
    }

    private static Optional<ComputeEntry> best(List<ComputeEntry> compute, Precision precision,
                                               ComputeEntry.Kind kind) {
        return compute.stream().filter(c -> c.precision() == precision && c.kind() == kind).max(PREFERENCE);
    }
}
