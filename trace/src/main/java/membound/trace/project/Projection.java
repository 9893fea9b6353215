package membound.trace.project;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import membound.model.machine.Basis;
import membound.model.machine.Ceiling;
import membound.model.machine.ComputeCeiling;
import membound.model.machine.Link;
import membound.model.machine.Machine;
import membound.trace.RankSummary;
import membound.trace.StepBreakdown;
import membound.trace.TraceClass;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.Precision;
import membound.vocabulary.units.Units;

/**
 * The measured job on another machine: each class's time scaled by the ratio of what bounds it on the machine the
 * trace ran on to the same figure on the target (on the measured basis: the profile's figures, or the catalog's
 * third-party measurements, datasheet where neither has one) — GEMMs and attention by the attainable GEMM rate in
 * their precision, norms, elementwise work, the optimizer and unclassified kernels by the main memory's copy
 * bandwidth, copies by the host link, communication by the peer link (else the network). The time nothing ran
 * (idle, launch gaps) is kept as measured; the busy time becomes the projected busy time, its overlap across streams
 * kept in proportion. Projected onto the machine it came from, every ratio is exactly 1 and the step is the measured
 * one.
 */
public final class Projection {

    /** One class's ratio: measured seconds on the source become {@code ratio} times as many on the target. */
    public record Ratio(TraceClass traceClass, double ratio, String basis) {
    }

    /** One step projected. */
    public record ProjectedStep(String name, double measuredSeconds, double projectedSeconds,
                                Map<TraceClass, Double> classSeconds) {
    }

    /** The job (one rank's steps) on one target machine: the ratios with their basis, each step, and the mean. */
    public record Result(String rank, String source, String target, List<Ratio> ratios, List<ProjectedStep> steps,
                         double meanMeasuredSeconds, double meanProjectedSeconds, List<String> notes) {
    }

    private Projection() {
    }

    /** @param precision what GEMMs and attention ran in where the shapes do not say (BF16 on a GPU, FP32 on a CPU) */
    public static Result project(RankSummary rank, Machine source, Machine target, Precision precision) {
        List<String> notes = new ArrayList<>();
        Map<TraceClass, Ratio> ratios = new EnumMap<>(TraceClass.class);
        for (TraceClass c : TraceClass.values()) {
            ratios.put(c, ratio(c, source, target, precision, notes));
        }
        List<ProjectedStep> steps = new ArrayList<>();
        double measured = 0;
        double projected = 0;
        for (StepBreakdown s : rank.steps()) {
            ProjectedStep p = step(s, ratios);
            steps.add(p);
            measured += p.measuredSeconds();
            projected += p.projectedSeconds();
        }
        int n = Math.max(1, steps.size());
        return new Result(rank.trace().label(), source.id(), target.id(), List.copyOf(ratios.values()), steps, measured / n, projected / n,
                notes);
    }

    /**
     * One step: idle kept, busy time scaled by the activities' projected sum over their measured sum. With every
     * ratio 1 the scale is exactly 1 and the step exactly the measured wall.
     */
    static ProjectedStep step(StepBreakdown s, Map<TraceClass, Ratio> ratios) {
        double measuredSum = 0;
        double projectedSum = 0;
        Map<TraceClass, Double> classes = new EnumMap<>(TraceClass.class);
        for (TraceClass c : TraceClass.values()) {
            double seconds = s.classSeconds().get(c);
            double p = seconds * ratios.get(c).ratio();
            classes.put(c, p);
            measuredSum += seconds;
            projectedSum += p;
        }
        // wall - busy + busy * scale, written as wall + busy * (scale - 1) so that a scale of exactly 1 gives the
        // measured wall to the bit.
        double scale = measuredSum == 0 ? 1 : projectedSum / measuredSum;
        return new ProjectedStep(s.name(), s.wallSeconds(), s.wallSeconds() + s.busySeconds() * (scale - 1), classes);
    }

    static Ratio ratio(TraceClass c, Machine source, Machine target, Precision precision, List<String> notes) {
        switch (c) {
            case GEMM, ATTENTION -> {
                ComputeCeiling from = source.device().computeFor(precision);
                ComputeCeiling to = target.device().computeFor(precision);
                if (from == null || to == null) {
                    return kept(c, "no " + precision.label() + " GEMM ceiling on " + (from == null ? source : target).id());
                }
                return of(c, from.attainableGemm(), to.attainableGemm(), from.precision().label() + " GEMM",
                        source, target, Units::formatFlops);
            }
            case COMMUNICATION -> {
                Link from = link(source);
                Link to = link(target);
                if (from == null || to == null) {
                    return kept(c, "no peer or network link on " + (from == null ? source : target).id());
                }
                return of(c, from.bandwidth(), to.bandwidth(), "link " + from.name() + " -> " + to.name(), source,
                        target, Units::formatBandwidth);
            }
            case MEMCPY -> {
                Link from = source.link(Link.Kind.HOST);
                Link to = target.link(Link.Kind.HOST);
                if (from == null || to == null) {
                    return memory(c, source, target, "copy bandwidth (no host link on "
                            + (from == null ? source : target).id() + ")");
                }
                return of(c, from.bandwidth(), to.bandwidth(), "host link " + from.name() + " -> " + to.name(),
                        source, target, Units::formatBandwidth);
            }
            default -> {
                return memory(c, source, target, "copy bandwidth");
            }
        }
    }

    private static Ratio memory(TraceClass c, Machine source, Machine target, String what) {
        return of(c, source.device().mainMemory().ceiling(AccessPattern.COPY),
                target.device().mainMemory().ceiling(AccessPattern.COPY), what, source, target, Units::formatBandwidth);
    }

    private static Link link(Machine m) {
        Link peer = m.link(Link.Kind.PEER);
        return peer != null ? peer : m.link(Link.Kind.NETWORK);
    }

    /** Time on the target is time on the source times source rate over target rate. */
    private static Ratio of(TraceClass c, Ceiling from, Ceiling to, String what, Machine source, Machine target,
                            java.util.function.DoubleFunction<String> format) {
        double a = from.value(Basis.MEASURED);
        double b = to.value(Basis.MEASURED);
        String basis = String.format(Locale.ROOT, "%s: %s on %s (%s) / %s on %s (%s)", what, format.apply(a),
                source.id(), from.source(Basis.MEASURED), format.apply(b), target.id(), to.source(Basis.MEASURED));
        return new Ratio(c, a / b, basis);
    }

    private static Ratio kept(TraceClass c, String why) {
        return new Ratio(c, 1.0, "kept as measured: " + why);
    }
}
