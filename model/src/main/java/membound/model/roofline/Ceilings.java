package membound.model.roofline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import membound.model.Defaults;
import membound.model.machine.Basis;
import membound.model.machine.Ceiling;
import membound.model.machine.ComputeCeiling;
import membound.model.machine.Device;
import membound.model.machine.Link;
import membound.model.machine.Machine;
import membound.model.machine.MemoryTier;
import membound.model.machine.OperationRate;
import membound.model.machine.ProductCeiling;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * A machine's ceilings resolved for one basis (measured or datasheet) and one tenancy, flattened
 * into arrays so that evaluating an operation is a few loads and a division: the model is built
 * for sweeps of hundreds of thousands of predictions.
 */
public final class Ceilings {

    private static final int PRECISIONS = Precision.values().length;
    private static final int PATTERNS = AccessPattern.values().length;

    private final Basis basis;
    private final double[] gemmFlopsPerSecond = new double[PRECISIONS];
    private final double[] sparseFlopsPerSecond = new double[PRECISIONS];
    private final double[] peakFlopsPerSecond = new double[PRECISIONS];
    private final boolean[] hasSparse = new boolean[PRECISIONS];
    /** Per precision, the measured product ceilings a shaped GEMM is timed at (empty: the square rate). */
    private final List<List<ProductCeiling>> products = new ArrayList<>(Collections.nCopies(PRECISIONS, List.of()));
    /** The measured elementwise operation rates (FP32) a tagged operation is timed at (empty: its FLOPs). */
    private final List<OperationRate> operations;
    private final double computeShare;
    private final double vectorFlopsPerSecond;
    private final double attentionFractionOfGemm;
    private final long[] tierCapacityBytes;
    private final double[][] tierBytesPerSecond;
    private final double[] hostBytesPerSecond = new double[PATTERNS];
    private final double hostFlopsPerSecond;
    private final double parallelLinkBytesPerSecond;
    private final double parallelLinkLatencySeconds;
    private final double hostLinkBytesPerSecond;
    private final double hostLinkLatencySeconds;
    private final double bandwidthScale;
    private final double kernelLaunchSeconds;

    private Ceilings(Basis basis, Device device, Device host, Link parallelLink, Link hostLink,
                     double bandwidthShare, double computeShare, double bandwidthScale) {
        this.basis = basis;
        this.bandwidthScale = bandwidthScale;
        this.computeShare = computeShare;
        for (Precision p : Precision.TRAINING) {
            ComputeCeiling ceiling = device.computeFor(p);
            products.set(p.ordinal(), ceiling.usesProducts(basis) ? ceiling.products() : List.of());
            double gemm = ceiling.attainableGemm().value(basis) * computeShare;
            gemmFlopsPerSecond[p.ordinal()] = gemm;
            peakFlopsPerSecond[p.ordinal()] = ceiling.peakDense().value(basis);
            if (ceiling.hasSparse()) {
                // The sparse units reach the same fraction of their peak as the dense ones do of theirs.
                double fraction = ceiling.attainableGemm().value(basis) / ceiling.peakDense().value(basis);
                sparseFlopsPerSecond[p.ordinal()] = ceiling.peakSparse().value(basis) * fraction * computeShare;
                hasSparse[p.ordinal()] = true;
            } else {
                sparseFlopsPerSecond[p.ordinal()] = gemm;
            }
        }
        ComputeCeiling fp32 = device.computeFor(Precision.FP32);
        operations = fp32 != null && fp32.usesOperations(basis) ? fp32.operations() : List.of();
        Ceiling vector = device.vectorFlops();
        vectorFlopsPerSecond = vector == null ? gemmFlopsPerSecond[Precision.FP32.ordinal()]
                : vector.value(basis) * computeShare;
        attentionFractionOfGemm = Defaults.FUSED_ATTENTION_FRACTION_OF_GEMM;
        List<MemoryTier> tiers = device.tiers();
        tierCapacityBytes = new long[tiers.size()];
        tierBytesPerSecond = new double[tiers.size()][PATTERNS];
        for (int t = 0; t < tiers.size(); t++) {
            tierCapacityBytes[t] = tiers.get(t).capacityBytes();
            for (AccessPattern pattern : AccessPattern.values()) {
                tierBytesPerSecond[t][pattern.ordinal()] =
                        tiers.get(t).ceiling(pattern).value(basis) * bandwidthShare * bandwidthScale;
            }
        }
        Device hostDevice = host != null ? host : device;
        for (AccessPattern pattern : AccessPattern.values()) {
            hostBytesPerSecond[pattern.ordinal()] = hostDevice.mainMemory().ceiling(pattern).value(basis) * bandwidthScale;
        }
        // A host without a compute figure (most catalog CPUs) times its offloaded update by bandwidth alone.
        Ceiling hostVector = hostDevice.vectorFlops();
        hostFlopsPerSecond = hostVector == null ? Double.POSITIVE_INFINITY : hostVector.value(basis);
        parallelLinkBytesPerSecond = parallelLink == null ? Double.NaN : parallelLink.bandwidth().value(basis);
        parallelLinkLatencySeconds = parallelLink == null ? 0 : parallelLink.latencySeconds();
        hostLinkBytesPerSecond = hostLink == null ? Double.NaN : hostLink.bandwidth().value(basis);
        hostLinkLatencySeconds = hostLink == null ? 0 : hostLink.latencySeconds();
        kernelLaunchSeconds = device.kernelLaunchSeconds() == null ? 0 : device.kernelLaunchSeconds().value(basis);
    }

    /** The least time one repetition of an operation on the device takes (a kernel launch), 0 where unknown. */
    public double kernelLaunchSeconds() {
        return kernelLaunchSeconds;
    }

    /**
     * @param tenants processes sharing the device: each gets the tenants curve's share of the
     *        bandwidth (an even split without a curve) and an even share of the compute
     * @param parallelLink the link parallel devices talk over, or null for one device
     */
    public static Ceilings of(Machine machine, Basis basis, int tenants, Link parallelLink) {
        double bandwidthShare = bandwidthShare(machine, tenants);
        return new Ceilings(basis, machine.device(), machine.host(), parallelLink, machine.link(Link.Kind.HOST),
                bandwidthShare, 1.0 / tenants, 1.0);
    }

    /** The same ceilings with every memory bandwidth (device and host, not links) multiplied by {@code factor}. */
    public Ceilings withBandwidthScale(Machine machine, int tenants, Link parallelLink, double factor) {
        return new Ceilings(basis, machine.device(), machine.host(), parallelLink, machine.link(Link.Kind.HOST),
                bandwidthShare(machine, tenants), 1.0 / tenants, factor);
    }

    public static double bandwidthShare(Machine machine, int tenants) {
        if (tenants <= 1) {
            return 1.0;
        }
        return machine.tenants() != null ? machine.tenants().share(tenants) : 1.0 / tenants;
    }

    public Basis basis() {
        return basis;
    }

    public double bandwidthScale() {
        return bandwidthScale;
    }

    public double peakFlopsPerSecond(Precision precision) {
        return peakFlopsPerSecond[precision.ordinal()];
    }

    public boolean hasSparse(Precision precision) {
        return hasSparse[precision.ordinal()];
    }

    public double flopsPerSecond(Kernel kernel, Precision precision, Placement placement) {
        if (placement == Placement.HOST) {
            return hostFlopsPerSecond;
        }
        return switch (kernel) {
            case GEMM -> gemmFlopsPerSecond[precision.ordinal()];
            case SPARSE_GEMM -> sparseFlopsPerSecond[precision.ordinal()];
            case ATTENTION -> gemmFlopsPerSecond[precision.ordinal()] * attentionFractionOfGemm;
            case ELEMENTWISE -> vectorFlopsPerSecond;
            case TRANSFER -> Double.POSITIVE_INFINITY;
        };
    }

    /**
     * Seconds of compute of all {@code op.count()} repetitions: FLOPs over the kernel's ceiling; a GEMM with
     * product shapes on a device that measured its products runs each shape's share of the FLOPs at the rate
     * of the nearest measured shape.
     */
    public double computeSeconds(Operation op) {
        if (op.kernel() == Kernel.ELEMENTWISE && op.rowWork() != null && op.placement() == Placement.DEVICE
                && !operations.isEmpty()) {
            Operation.RowWork work = op.rowWork();
            OperationRate rate = OperationRate.nearest(operations, work.operation(), work.rowLength());
            if (rate != null) {
                return op.count() * work.elements() / (rate.elementsPerSecond() * computeShare);
            }
        }
        if (op.flops() == 0) {
            return 0;
        }
        List<ProductCeiling> measured = products.get(op.precision().ordinal());
        if (op.kernel() != Kernel.GEMM || op.placement() != Placement.DEVICE || op.shapes().isEmpty()
                || measured.isEmpty()) {
            return op.count() * op.flops() / flopsPerSecond(op.kernel(), op.precision(), op.placement());
        }
        double volume = 0;
        for (OperationShape shape : op.shapes()) {
            volume += shape.volume();
        }
        double seconds = 0;
        for (OperationShape shape : op.shapes()) {
            ProductCeiling nearest = ProductCeiling.nearest(measured, shape);
            seconds += op.flops() * (shape.volume() / volume) / (nearest.flopsPerSecond() * computeShare);
        }
        return op.count() * seconds;
    }

    /** Bandwidth of the smallest tier the working set fits in (main memory if none). */
    public double bytesPerSecond(AccessPattern pattern, double workingSetBytes, Placement placement) {
        if (placement == Placement.HOST) {
            return hostBytesPerSecond[pattern.ordinal()];
        }
        int last = tierCapacityBytes.length - 1;
        for (int t = 0; t < last; t++) {
            if (workingSetBytes <= tierCapacityBytes[t]) {
                return tierBytesPerSecond[t][pattern.ordinal()];
            }
        }
        return tierBytesPerSecond[last][pattern.ordinal()];
    }

    public double linkBytesPerSecond(Placement placement) {
        double value = placement == Placement.HOST_LINK ? hostLinkBytesPerSecond : parallelLinkBytesPerSecond;
        if (Double.isNaN(value)) {
            throw new BadInputException("the machine must have a " + (placement == Placement.HOST_LINK ? "host" : "peer or network")
                    + " link for this setup: link=<none>");
        }
        return value;
    }

    public double linkLatencySeconds(Placement placement) {
        return placement == Placement.HOST_LINK ? hostLinkLatencySeconds : parallelLinkLatencySeconds;
    }

    /** Every ceiling of the machine on this basis that a prediction in {@code compute} precision uses, with its source. */
    public static List<CeilingLine> describe(Machine machine, Basis basis, Precision compute, Link parallelLink, int tenants) {
        List<CeilingLine> lines = new ArrayList<>(16);
        Device device = machine.device();
        for (MemoryTier tier : device.tiers()) {
            for (AccessPattern pattern : AccessPattern.values()) {
                Ceiling c = tier.ceiling(pattern);
                lines.add(new CeilingLine(tier.name() + " " + pattern.label() + " bandwidth", c.value(basis), "B/s",
                        c.source(basis)));
            }
        }
        ComputeCeiling cc = device.computeFor(compute);
        String p = cc.precision().label();
        lines.add(new CeilingLine(p + " GEMM", cc.attainableGemm().value(basis), "FLOP/s", cc.attainableGemm().source(basis)));
        lines.add(new CeilingLine(p + " dense peak (MFU denominator)", cc.peakDense().value(basis), "FLOP/s",
                cc.peakDense().source(basis)));
        if (cc.hasSparse()) {
            lines.add(new CeilingLine(p + " 2:4 sparse peak", cc.peakSparse().value(basis), "FLOP/s",
                    cc.peakSparse().source(basis)));
        }
        if (cc.usesProducts(basis)) {
            for (ProductCeiling product : cc.products()) {
                lines.add(new CeilingLine(p + " product " + product.shape(), product.flopsPerSecond(), "FLOP/s",
                        product.source()));
            }
        }
        ComputeCeiling fp32 = device.computeFor(Precision.FP32);
        if (fp32 != null && fp32.usesOperations(basis)) {
            for (OperationRate rate : fp32.operations()) {
                lines.add(new CeilingLine(rate.operation().label() + " on rows of " + Math.round(rate.rowLength()),
                        rate.elementsPerSecond(), "elements/s", rate.source()));
            }
        }
        lines.add(new CeilingLine("fused attention", Defaults.FUSED_ATTENTION_FRACTION_OF_GEMM, "x GEMM",
                Defaults.FUSED_ATTENTION_SOURCE));
        Ceiling vector = device.vectorFlops();
        if (vector != null) {
            lines.add(new CeilingLine("vector (elementwise)", vector.value(basis), "FLOP/s", vector.source(basis)));
        }
        if (device.kernelLaunchSeconds() != null) {
            lines.add(new CeilingLine("kernel launch (least time of each kernel)",
                    device.kernelLaunchSeconds().value(basis) * 1e6, "us", device.kernelLaunchSeconds().source(basis)));
        }
        if (parallelLink != null) {
            lines.add(new CeilingLine("link " + parallelLink.name() + " per direction", parallelLink.bandwidth().value(basis),
                    "B/s", parallelLink.bandwidth().source(basis)));
        }
        if (tenants > 1) {
            lines.add(new CeilingLine("bandwidth share of each of " + tenants + " tenants", bandwidthShare(machine, tenants),
                    "x", machine.tenants() != null ? "measured tenants curve: " + machine.tenants().source()
                    : "even split: the machine has no measured tenants curve"));
        }
        return lines;
    }
}
