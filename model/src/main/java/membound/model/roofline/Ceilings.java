package membound.model.roofline;

import java.util.ArrayList;
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
import membound.vocabulary.ProductShape;

/**
 * A machine's ceilings resolved for one basis (measured or datasheet) and one tenancy, flattened
 * into arrays so that evaluating an operation is a few loads and a division: the model is built
 * for sweeps of hundreds of thousands of predictions.
 */
public final class Ceilings {

    private static final int PRECISIONS = Precision.values().length;
    private static final int PATTERNS = AccessPattern.values().length;

    private final Basis basis;
    private final double[] gemmFlopsPerSecond;
    private final double[] sparseFlopsPerSecond;
    private final double[] peakFlopsPerSecond;
    private final boolean[] hasSparse;
    private static final Kernel[] KERNELS = Kernel.values();
    private static final int ELEMENTWISE = Kernel.ELEMENTWISE.ordinal();
    private static final int GEMM = Kernel.GEMM.ordinal();
    private static final int DEVICE = Placement.DEVICE.ordinal();
    private static final int HOST = Placement.HOST.ordinal();
    private static final Precision[] PRECISION_VALUES = Precision.values();
    private static final Placement[] PLACEMENTS = Placement.values();
    private static final double[] NO_RATES = new double[0];
    private static final byte[] NO_LAYOUTS = new byte[0];

    /**
     * Per precision, the measured product ceilings a shaped GEMM is timed at (none: the square rate), as
     * flat arrays: four logarithms per product (batch, m, n, k: {@link OperationShape#distance} is a sum
     * of their differences), its layout and its rate.
     */
    private final double[][] productLogs;
    private final byte[][] productLayouts;
    private final double[][] productRates;
    /** The measured elementwise operation rates (FP32) a tagged operation is timed at (none: its FLOPs). */
    private final byte[] rateOperations;
    private final double[] rateLogRowLengths;
    private final double[] rateElementsPerSecond;
    private final double computeShare;
    private final double vectorFlopsPerSecond;
    private final double attentionFractionOfGemm;
    private final double[] hostBytesPerSecond = new double[PATTERNS];
    private final double hostFlopsPerSecond;
    private final double parallelLinkBytesPerSecond;
    private final double parallelLinkLatencySeconds;
    private final double nodeLinkBytesPerSecond;
    private final double nodeLinkLatencySeconds;
    private final double networkLinkBytesPerSecond;
    private final double networkLinkLatencySeconds;
    private final double hostLinkBytesPerSecond;
    private final double hostLinkLatencySeconds;
    private final double bandwidthScale;
    /**
     * 1 / {@link #flopsPerSecond} by an operation's kind (kernel, precision, placement: {@link
     * OperationList#kindIndex}): what a row's FLOPs are multiplied by.
     */
    private final double[] secondsPerFlopByKind;
    /**
     * Per kind: the device measured something finer than FLOPs for it (products of its precision for a GEMM, operation
     * rates for an elementwise operation), so that a row of that kind with shapes or row work may be timed by them.
     */
    private final boolean[] detailedByKind;
    /** 1 / {@link #tierRate}. */
    private double[] tierSecondsPerByte;
    private final double[] hostSecondsPerByte = new double[PATTERNS];
    /** The tiers' capacities and their rates per pattern, flat: what every operation's memory time reads. */
    private final double[] tierCapacity;
    private final double[] tierRate;
    private final double kernelLaunchSeconds;

    private Ceilings(Basis basis, Device device, Device host, Links links, Link hostLink,
                     double bandwidthShare, double computeShare, double bandwidthScale,
                     membound.model.training.AttentionKernel attentionKernel) {
        Link parallelLink = links.parallel();
        this.basis = basis;
        this.bandwidthScale = bandwidthScale;
        this.computeShare = computeShare;
        gemmFlopsPerSecond = new double[PRECISIONS];
        sparseFlopsPerSecond = new double[PRECISIONS];
        peakFlopsPerSecond = new double[PRECISIONS];
        hasSparse = new boolean[PRECISIONS];
        productLogs = new double[PRECISIONS][];
        productLayouts = new byte[PRECISIONS][];
        productRates = new double[PRECISIONS][];
        secondsPerFlopByKind = new double[OperationList.KINDS];
        for (int p = 0; p < PRECISIONS; p++) {
            productLogs[p] = NO_RATES;
            productLayouts[p] = NO_LAYOUTS;
            productRates[p] = NO_RATES;
        }
        for (Precision p : Precision.TRAINING) {
            ComputeCeiling ceiling = device.computeFor(p);
            if (ceiling.usesProducts(basis)) {
                flattenProducts(p.ordinal(), ceiling.products());
            }
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
        List<OperationRate> rates = fp32 != null && fp32.usesOperations(basis) ? fp32.operations() : List.of();
        rateOperations = new byte[rates.size()];
        rateLogRowLengths = new double[rates.size()];
        rateElementsPerSecond = new double[rates.size()];
        for (int r = 0; r < rates.size(); r++) {
            rateOperations[r] = (byte) rates.get(r).operation().ordinal();
            rateLogRowLengths[r] = Math.log(rates.get(r).rowLength());
            rateElementsPerSecond[r] = rates.get(r).elementsPerSecond();
        }
        Ceiling vector = device.vectorFlops();
        vectorFlopsPerSecond = vector == null ? gemmFlopsPerSecond[Precision.FP32.ordinal()]
                : vector.value(basis) * computeShare;
        attentionFractionOfGemm = Defaults.fusedAttentionFractionOfGemm(device.name(), attentionKernel);
        List<MemoryTier> tiers = device.tiers();
        tierCapacity = new double[tiers.size()];
        tierRate = new double[tiers.size() * PATTERNS];
        for (int t = 0; t < tiers.size(); t++) {
            tierCapacity[t] = tiers.get(t).capacityBytes();
            for (AccessPattern pattern : AccessPattern.values()) {
                tierRate[t * PATTERNS + pattern.ordinal()] =
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
        nodeLinkBytesPerSecond = links.node() == null ? Double.NaN : links.node().bandwidth().value(basis);
        nodeLinkLatencySeconds = links.node() == null ? 0 : links.node().latencySeconds();
        networkLinkBytesPerSecond = links.network() == null ? Double.NaN : links.network().bandwidth().value(basis);
        networkLinkLatencySeconds = links.network() == null ? 0 : links.network().latencySeconds();
        hostLinkBytesPerSecond = hostLink == null ? Double.NaN : hostLink.bandwidth().value(basis);
        hostLinkLatencySeconds = hostLink == null ? 0 : hostLink.latencySeconds();
        for (Kernel kernel : Kernel.values()) {
            for (Precision precision : Precision.values()) {
                for (Placement placement : Placement.values()) {
                    secondsPerFlopByKind[OperationList.kindIndex(kernel.ordinal(), precision.ordinal(),
                            placement.ordinal())] = 1 / flopsPerSecond(kernel, precision, placement);
                }
            }
        }
        detailedByKind = new boolean[OperationList.KINDS];
        for (Precision precision : Precision.values()) {
            detailedByKind[OperationList.kindIndex(GEMM, precision.ordinal(), DEVICE)] =
                    productRates[precision.ordinal()].length > 0;
            detailedByKind[OperationList.kindIndex(ELEMENTWISE, precision.ordinal(), DEVICE)] = rateOperations.length > 0;
        }
        reciprocals();
        kernelLaunchSeconds = device.kernelLaunchSeconds() == null ? 0 : device.kernelLaunchSeconds().value(basis);
    }

    /** The least time one repetition of an operation on the device takes (a kernel launch), 0 where unknown. */
    public double kernelLaunchSeconds() {
        return kernelLaunchSeconds;
    }

    /** The memory rates' reciprocals, what a row's bytes are multiplied by. */
    private void reciprocals() {
        tierSecondsPerByte = new double[tierRate.length];
        for (int k = 0; k < tierRate.length; k++) {
            tierSecondsPerByte[k] = 1 / tierRate[k];
        }
        for (int p = 0; p < PATTERNS; p++) {
            hostSecondsPerByte[p] = 1 / hostBytesPerSecond[p];
        }
    }

    private void flattenProducts(int precision, List<ProductCeiling> measured) {
        int n = measured.size();
        double[] logs = new double[4 * n];
        byte[] layouts = new byte[n];
        double[] rates = new double[n];
        for (int c = 0; c < n; c++) {
            ProductShape shape = measured.get(c).shape();
            logs[4 * c] = Math.log(shape.batch());
            logs[4 * c + 1] = Math.log(shape.m());
            logs[4 * c + 2] = Math.log(shape.n());
            logs[4 * c + 3] = Math.log(shape.k());
            layouts[c] = (byte) shape.layout().ordinal();
            rates[c] = measured.get(c).flopsPerSecond();
        }
        productLogs[precision] = logs;
        productLayouts[precision] = layouts;
        productRates[precision] = rates;
    }

    /**
     * @param tenants processes sharing the device: each gets the tenants curve's share of the
     *        bandwidth (an even split without a curve) and an even share of the compute
     * @param parallelLink the link parallel devices talk over, or null for one device
     */
    public static Ceilings of(Machine machine, Basis basis, int tenants, Link parallelLink) {
        return withLinks(machine, basis, tenants, Links.of(machine, parallelLink));
    }

    /** The same with every link a layout's groups talk over ({@link membound.model.Estimator#links}). */
    public static Ceilings withLinks(Machine machine, Basis basis, int tenants, Links links) {
        return withLinks(machine, basis, tenants, links, membound.model.training.AttentionKernel.FA2);
    }

    /** The same for a trainer whose fused attention is {@code kernel} (it changes the attention rate on Hopper). */
    public static Ceilings withLinks(Machine machine, Basis basis, int tenants, Links links,
                                     membound.model.training.AttentionKernel kernel) {
        double bandwidthShare = bandwidthShare(machine, tenants);
        return new Ceilings(basis, machine.device(), machine.host(), links, machine.link(Link.Kind.HOST),
                bandwidthShare, 1.0 / tenants, 1.0, kernel);
    }

    /**
     * The links parallel devices talk over: the data-parallel group's ({@link Placement#PARALLEL_LINK}: the peer link
     * inside a node, a hierarchical one over several), the peer link inside a node ({@link Placement#NODE_LINK}) and
     * one device's own network link ({@link Placement#NETWORK_LINK}); null where a layout needs none.
     */
    public record Links(Link parallel, Link node, Link network) {

        public static final Links NONE = new Links(null, null, null);

        /** One box: the node link is the machine's peer link (else its network link), the network its network link. */
        public static Links of(Machine machine, Link parallel) {
            if (parallel == null) {
                return NONE;
            }
            Link peer = machine.link(Link.Kind.PEER);
            Link network = machine.link(Link.Kind.NETWORK);
            return new Links(parallel, peer != null ? peer : network != null ? network : parallel,
                    network != null ? network : parallel);
        }
    }

    /**
     * The same ceilings with every memory bandwidth (device and host, not links) multiplied by {@code factor}
     * (relative to the machine's: a scaled copy of a scaled copy does not compound). Copies two small arrays:
     * a bandwidth sweep makes one per point.
     */
    public Ceilings withBandwidthScale(double factor) {
        return new Ceilings(this, factor);
    }

    private Ceilings(Ceilings base, double factor) {
        basis = base.basis;
        bandwidthScale = factor;
        computeShare = base.computeShare;
        // What does not depend on bandwidth is shared, never copied: these arrays are not written after construction.
        productLogs = base.productLogs;
        productLayouts = base.productLayouts;
        productRates = base.productRates;
        gemmFlopsPerSecond = base.gemmFlopsPerSecond;
        sparseFlopsPerSecond = base.sparseFlopsPerSecond;
        peakFlopsPerSecond = base.peakFlopsPerSecond;
        hasSparse = base.hasSparse;
        secondsPerFlopByKind = base.secondsPerFlopByKind;
        detailedByKind = base.detailedByKind;
        rateOperations = base.rateOperations;
        rateLogRowLengths = base.rateLogRowLengths;
        rateElementsPerSecond = base.rateElementsPerSecond;
        vectorFlopsPerSecond = base.vectorFlopsPerSecond;
        attentionFractionOfGemm = base.attentionFractionOfGemm;
        tierCapacity = base.tierCapacity;
        tierRate = new double[base.tierRate.length];
        for (int k = 0; k < tierRate.length; k++) {
            tierRate[k] = base.tierRate[k] / base.bandwidthScale * factor;
        }
        for (int p = 0; p < PATTERNS; p++) {
            hostBytesPerSecond[p] = base.hostBytesPerSecond[p] / base.bandwidthScale * factor;
        }
        hostFlopsPerSecond = base.hostFlopsPerSecond;
        parallelLinkBytesPerSecond = base.parallelLinkBytesPerSecond;
        parallelLinkLatencySeconds = base.parallelLinkLatencySeconds;
        nodeLinkBytesPerSecond = base.nodeLinkBytesPerSecond;
        nodeLinkLatencySeconds = base.nodeLinkLatencySeconds;
        networkLinkBytesPerSecond = base.networkLinkBytesPerSecond;
        networkLinkLatencySeconds = base.networkLinkLatencySeconds;
        hostLinkBytesPerSecond = base.hostLinkBytesPerSecond;
        hostLinkLatencySeconds = base.hostLinkLatencySeconds;
        kernelLaunchSeconds = base.kernelLaunchSeconds;
        reciprocals();
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
     * of the nearest measured shape ({@link ProductCeiling#nearest}); an elementwise operation of a measured
     * kind runs its elements at the rate measured nearest its row length ({@link OperationRate#nearest}).
     */
    public double computeSeconds(Operation op) {
        if (op.count() == 0) {
            return 0;
        }
        OperationList one = new OperationList(1);
        one.add(op);
        return computeSeconds(one, 0);
    }

    /** {@link #computeSeconds(Operation)} of row {@code i}, read from its columns. */
    double computeSeconds(OperationList ops, int i) {
        int code = ops.codes[i];
        // Only a row with product shapes or row work can be timed otherwise than by its FLOPs: the rest (most
        // rows, on a machine without measured products or operations all of them) take the short way.
        if ((code & DETAIL_BITS) != 0 && detailed(code)) {
            return detailedSeconds(ops, i, code);
        }
        int at = i * OperationList.NUMBERS;
        double flops = ops.numbers[at + OperationList.FLOPS];
        // Times a reciprocal, not over a rate: a division costs several multiplications, and a step has one per row.
        return flops == 0 ? 0 : ops.numbers[at + OperationList.COUNT] * flops
                * secondsPerFlopByKind[OperationList.kindIndex(code)];
    }

    /** The bits of a row's code that say it has product shapes or row work. */
    private static final int DETAIL_BITS = 0x7 << 16 | 0x1F << 19;

    /**
     * Timed by measured products (a shaped GEMM) or a measured operation rate (row work): the device measured them
     * for the row's kind ({@link #detailedByKind}) and the row has what they are looked up by.
     */
    private boolean detailed(int code) {
        if (!detailedByKind[OperationList.kindIndex(code)]) {
            return false;
        }
        return OperationList.kernelOf(code) == ELEMENTWISE ? OperationList.rowOperationOf(code) >= 0
                : OperationList.shapesOf(code) > 0;
    }

    private double detailedSeconds(OperationList ops, int i, int code) {
        double[] n = ops.numbers;
        int at = i * OperationList.NUMBERS;
        double count = n[at + OperationList.COUNT];
        if (OperationList.kernelOf(code) == ELEMENTWISE) {
            int rate = nearestRate(OperationList.rowOperationOf(code), n[at + OperationList.ROW_LENGTH]);
            if (rate >= 0) {
                return count * n[at + OperationList.ROW_ELEMENTS] / (rateElementsPerSecond[rate] * computeShare);
            }
            double flops = n[at + OperationList.FLOPS];
            return flops == 0 ? 0 : count * flops * secondsPerFlopByKind[OperationList.kindIndex(code)];
        }
        return shapedGemmSeconds(ops, i, code, count, n[at + OperationList.FLOPS]);
    }

    /** A GEMM's products, each shape's share of the FLOPs at the rate of the nearest measured product. */
    private double shapedGemmSeconds(OperationList ops, int i, int code, double count, double flops) {
        if (flops == 0) {
            return 0;
        }
        int precision = OperationList.precisionOf(code);
        double[] rates = productRates[precision];
        int shapes = OperationList.shapesOf(code);
        double[] s = ops.shapes;
        int first = i * OperationList.MAX_SHAPES * OperationList.SHAPE_FIELDS;
        double volume = 0;
        for (int k = 0, f = first; k < shapes; k++, f += OperationList.SHAPE_FIELDS) {
            volume += s[f] * s[f + 1] * s[f + 2] * s[f + 3];
        }
        double seconds = 0;
        for (int k = 0, f = first; k < shapes; k++, f += OperationList.SHAPE_FIELDS) {
            double shapeVolume = s[f] * s[f + 1] * s[f + 2] * s[f + 3];
            int nearest = nearestProduct(precision, Math.log(s[f]), Math.log(s[f + 1]), Math.log(s[f + 2]),
                    Math.log(s[f + 3]), (int) s[f + 4]);
            seconds += flops * (shapeVolume / volume) / (rates[nearest] * computeShare);
        }
        return count * seconds;
    }

    /** The measured product nearest a shape given by its logarithms: of its layout if one was measured, else any. */
    private int nearestProduct(int precision, double batch, double m, double n, double k, int layout) {
        int best = nearestProduct(precision, batch, m, n, k, layout, true);
        return best >= 0 ? best : nearestProduct(precision, batch, m, n, k, layout, false);
    }

    private int nearestProduct(int precision, double batch, double m, double n, double k, int layout,
                               boolean sameLayout) {
        double[] logs = productLogs[precision];
        byte[] layouts = productLayouts[precision];
        int best = -1;
        double bestDistance = Double.POSITIVE_INFINITY;
        for (int c = 0; c < layouts.length; c++) {
            if (sameLayout && layouts[c] != layout) {
                continue;
            }
            double d = Math.abs(batch - logs[4 * c]) + Math.abs(m - logs[4 * c + 1]) + Math.abs(n - logs[4 * c + 2])
                    + Math.abs(k - logs[4 * c + 3]);
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        return best;
    }

    private int nearestRate(int operation, double rowLength) {
        double log = Math.log(rowLength);
        int best = -1;
        double bestDistance = Double.POSITIVE_INFINITY;
        for (int r = 0; r < rateOperations.length; r++) {
            if (rateOperations[r] != operation) {
                continue;
            }
            double d = Math.abs(rateLogRowLengths[r] - log);
            if (d < bestDistance) {
                best = r;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Bandwidth of the smallest tier the working set fits in (main memory if none). */
    public double bytesPerSecond(AccessPattern pattern, double workingSetBytes, Placement placement) {
        return bytesPerSecond(pattern.ordinal(), workingSetBytes, placement.ordinal());
    }

    /** 1 / {@link #bytesPerSecond(AccessPattern, double, Placement)}, by ordinals: what a row's bytes take. */
    double secondsPerByte(int pattern, double workingSetBytes, int placement) {
        return placement == HOST ? hostSecondsPerByte[pattern]
                : tierSecondsPerByte[tier(workingSetBytes) * PATTERNS + pattern];
    }

    private double bytesPerSecond(int pattern, double workingSetBytes, int placement) {
        return placement == HOST ? hostBytesPerSecond[pattern] : tierRate[tier(workingSetBytes) * PATTERNS + pattern];
    }

    /** The smallest device tier the working set fits in, main memory (the last) if none. */
    private int tier(double workingSetBytes) {
        double[] capacity = tierCapacity;
        int last = capacity.length - 1;
        int t = 0;
        while (t < last && workingSetBytes > capacity[t]) {
            t++;
        }
        return t;
    }

    public double linkBytesPerSecond(Placement placement) {
        double value = switch (placement) {
            case HOST_LINK -> hostLinkBytesPerSecond;
            case NODE_LINK -> nodeLinkBytesPerSecond;
            case NETWORK_LINK -> networkLinkBytesPerSecond;
            default -> parallelLinkBytesPerSecond;
        };
        if (Double.isNaN(value)) {
            throw new BadInputException("the machine must have a " + (placement == Placement.HOST_LINK ? "host" : "peer or network")
                    + " link for this setup: link=<none>");
        }
        return value;
    }

    public double linkLatencySeconds(Placement placement) {
        return switch (placement) {
            case HOST_LINK -> hostLinkLatencySeconds;
            case NODE_LINK -> nodeLinkLatencySeconds;
            case NETWORK_LINK -> networkLinkLatencySeconds;
            default -> parallelLinkLatencySeconds;
        };
    }

    /** Every ceiling of the machine on this basis that a prediction in {@code compute} precision uses, with its source. */
    public static List<CeilingLine> describe(Machine machine, Basis basis, Precision compute, Link parallelLink, int tenants) {
        return describe(machine, basis, compute, parallelLink, tenants, membound.model.training.AttentionKernel.FA2);
    }

    /** The same with a trainer's attention kernel. */
    public static List<CeilingLine> describe(Machine machine, Basis basis, Precision compute, Link parallelLink,
                                             int tenants, membound.model.training.AttentionKernel kernel) {
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
        lines.add(new CeilingLine("fused attention", Defaults.fusedAttentionFractionOfGemm(device.name(), kernel), "x GEMM",
                Defaults.fusedAttentionSource(device.name(), kernel)));
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
