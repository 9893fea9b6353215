package membound.cli.text;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import membound.model.OperationRow;
import membound.model.Prediction;
import membound.model.StepResult;
import membound.model.TrainerEstimate;
import membound.model.decode.DecodePrediction;
import membound.model.decode.DecodeSetup;
import membound.model.memory.MemoryFootprint;
import membound.model.roofline.CeilingLine;
import membound.model.training.FineTuning;
import membound.model.training.Parallelism;
import membound.model.training.TrainingSetup;
import membound.model.workload.Transformer;
import membound.model.workload.Workload;
import membound.vocabulary.text.Numbers;
import membound.vocabulary.units.Units;

/** The text reports of {@code membound predict}: for people; {@code --format json} has every number. */
public final class PredictionReport {

    private PredictionReport() {
    }

    public static void training(PrintWriter out, Prediction p, int operationsShown) {
        out.printf(Locale.ROOT, "%s: %s parameters%s (%s)%n", p.workload(), Numbers.count(p.parameters()),
                p.activeParameters() != p.parameters() ? ", " + Numbers.count(p.activeParameters()) + " active per token" : "",
                p.workloadSource());
        out.printf(Locale.ROOT, "on %s: %s (%s)%n", p.machine(), p.machineName(), p.machineSource());
        out.println("setup: " + describe(p.setup(), p.trainableParameters()));
        if (p.parallelLink() != null) {
            out.println("devices talk over: " + p.parallelLink());
            linkLine(p.measuredCeilings()).ifPresent(l -> out.printf(Locale.ROOT, "  measured %s per direction: %s%n",
                    Units.formatBandwidth(l.value()), l.source()));
            linkLine(p.datasheetCeilings()).ifPresent(l -> out.printf(Locale.ROOT, "  datasheet %s per direction: %s%n",
                    Units.formatBandwidth(l.value()), l.source()));
        }
        out.println();
        StepResult m = p.measured();
        StepResult d = p.datasheet();
        TrainerEstimate e = p.expected();
        if (e != null) {
            out.printf(Locale.ROOT, "expected with trainer %s (%s%s):%n", e.trainer(), e.trainerName(),
                    e.named() ? "" : "; the default: no --trainer given");
            out.printf(Locale.ROOT, "%-22s %16s %16s%n", "", "measured", "datasheet");
            out.printf(Locale.ROOT, "%-22s %16s %16s   (+%s over the roofline bound)%n", "step time",
                    Numbers.duration(e.stepSeconds()), Numbers.duration(e.datasheetStepSeconds()),
                    Numbers.duration(e.addedSeconds()));
            out.printf(Locale.ROOT, "%-22s %16s %16s%n", "tokens per second", Numbers.count(e.tokensPerSecond()),
                    Numbers.count(e.datasheetTokensPerSecond()));
            out.printf(Locale.ROOT, "%-22s %16s %16s%n", "total time", Numbers.duration(e.totalSeconds()),
                    Numbers.duration(e.datasheetTotalSeconds()));
            out.printf(Locale.ROOT, "%-22s %16s %16s%n", "MFU", Numbers.percent(e.mfu()), Numbers.percent(e.datasheetMfu()));
            for (String line : e.terms()) {
                out.println("  " + line);
            }
            if (!e.added().isEmpty()) {
                out.println("  what the terms add (measured basis):");
                for (TrainerEstimate.Added a : e.added()) {
                    out.printf(Locale.ROOT, "    %-26s %10s   (%s)%n", a.term(), (a.seconds() < 0 ? "-" : "+")
                            + Numbers.duration(Math.abs(a.seconds())), a.scaled());
                }
            }
            out.println();
            out.println("roofline bound (no trainer terms: every kernel at its ceiling, nothing between them):");
        }
        out.printf(Locale.ROOT, "%-22s %16s %16s%n", "", "measured", "datasheet");
        out.printf(Locale.ROOT, "%-22s %16s %16s   (datasheet %s)%n", "step time", Numbers.duration(m.stepSeconds()),
                Numbers.duration(of(d, StepResult::stepSeconds)), Numbers.signedPercent(p.datasheetDifference()));
        out.printf(Locale.ROOT, "%-22s %16s %16s%n", "tokens per second", Numbers.count(m.tokensPerSecond()),
                Numbers.count(of(d, StepResult::tokensPerSecond)));
        out.printf(Locale.ROOT, "%-22s %16s %16s   (%s tokens, %s steps)%n", "total time", Numbers.duration(m.totalSeconds()),
                Numbers.duration(of(d, StepResult::totalSeconds)), Numbers.count(p.setup().tokens()), Numbers.count(m.steps()));
        out.printf(Locale.ROOT, "%-22s %16s %16s   (model FLOPs / step / dense peak %s)%n", "MFU", Numbers.percent(m.mfu()),
                Numbers.percent(of(d, StepResult::mfu)), Units.formatFlops(m.peakFlopsPerSecond()));
        out.printf(Locale.ROOT, "%-22s %16s %16s%n", "memory-bound share", Numbers.percent(m.memoryBoundShare()),
                Numbers.percent(of(d, StepResult::memoryBoundShare)));
        out.println();
        out.printf(Locale.ROOT, "step by operation class (measured)   %10s %7s %14s%n", "time", "share", "memory-bound");
        for (StepResult.ClassTime c : m.breakdown()) {
            out.printf(Locale.ROOT, "  %-34s %10s %7s %14s%n", c.operationClass(), Numbers.duration(c.seconds()),
                    Numbers.percent(c.share()), c.seconds() == 0 ? "-" : Numbers.percent(c.memoryBoundSeconds() / c.seconds()));
        }
        out.println();
        var s = p.sensitivity();
        out.printf(Locale.ROOT, "bandwidth sensitivity: step %s; at 0.5x bandwidth %s (%s); at 2x %s (%s); "
                        + "elasticity d ln T / d ln BW = %.2f%n", Numbers.duration(s.stepSeconds()),
                Numbers.duration(s.halfBandwidthStepSeconds()),
                Numbers.signedPercent(s.halfBandwidthStepSeconds() / s.stepSeconds() - 1),
                Numbers.duration(s.doubleBandwidthStepSeconds()),
                Numbers.signedPercent(s.doubleBandwidthStepSeconds() / s.stepSeconds() - 1), s.elasticity());
        out.println();
        memory(out, p.memory());
        out.println();
        operations(out, p.operations(), operationsShown);
        out.println();
        ceilings(out, p.measuredCeilings());
        if (!p.notes().isEmpty()) {
            out.println("notes:");
            for (String note : p.notes()) {
                out.println("  - " + note);
            }
        }
    }

    public static void decode(PrintWriter out, DecodePrediction p) {
        DecodeSetup s = p.setup();
        // A checkpoint stored per tensor kind has no one figure of bits per weight: its formats are in its name.
        String bits = s.weights().isUniform() ? trim(s.weights().bitsPerWeight()) + " bits per weight: " : "";
        out.printf(Locale.ROOT, "%s decode on %s: weights %s (%s%s), KV cache %s, context %d, batch %d%n",
                p.workload(), p.machine(), s.weights().name(), bits, p.weightsSource(),
                s.kvCache().label(), s.contextTokens(), s.batch());
        out.println();
        out.printf(Locale.ROOT, "%-26s %14s %14s%n", "", "measured", "datasheet");
        out.printf(Locale.ROOT, "%-26s %14s %14s   (datasheet %s)%n", "tokens per second", Numbers.count(p.tokensPerSecond()),
                Numbers.count(p.datasheetTokensPerSecond()), Numbers.signedPercent(-p.datasheetDifference() / (1 + p.datasheetDifference())));
        out.printf(Locale.ROOT, "%-26s %14s %14s%n", "decode step", Numbers.duration(p.stepSeconds()),
                Numbers.duration(p.datasheetStepSeconds()));
        out.printf(Locale.ROOT, "%-26s %14s %14s   (prompt %d tokens)%n", "time to first token", Numbers.duration(p.prefillSeconds()),
                Numbers.duration(p.datasheetPrefillSeconds()), s.promptTokens());
        out.printf(Locale.ROOT, "bytes per step: weights %s + KV cache %s; per generated token %s%n",
                Numbers.decimalBytes(p.weightBytesPerStep()), Numbers.decimalBytes(p.kvCacheBytesPerStep()),
                Numbers.decimalBytes(p.bytesPerToken()));
        out.printf(Locale.ROOT, "%s: %s of a step in memory-bound operations%n",
                p.bandwidthBound() ? "bandwidth-bound" : "compute-bound", Numbers.percent(p.memoryBoundShare()));
        out.printf(Locale.ROOT, "bandwidth sensitivity: %s tokens/s at 0.5x bandwidth, %s at 2x%n",
                Numbers.count(p.halfBandwidthTokensPerSecond()), Numbers.count(p.doubleBandwidthTokensPerSecond()));
        out.println();
        memory(out, p.memory());
        out.println();
        operations(out, p.operations(), 8);
        out.println();
        ceilings(out, p.measuredCeilings());
        out.println("notes:");
        for (String note : p.notes()) {
            out.println("  - " + note);
        }
    }

    public static void compareTraining(PrintWriter out, Workload w, TrainingSetup setup,
                                List<MachineResult<Prediction>> results) {
        out.printf(Locale.ROOT, "%s, %s%n%n", w.name(), describe(setup, Double.NaN));
        out.printf(Locale.ROOT, "%-28s %11s %11s %12s %7s %9s %11s %12s %7s%n", "machine", "step", "datasheet",
                "tokens/s", "MFU", "mem-bound", "total", "memory", "fits");
        for (MachineResult<Prediction> r : results) {
            if (r.value() == null) {
                out.printf(Locale.ROOT, "%-28s %s%n", r.machine(), r.error());
                continue;
            }
            Prediction p = r.value();
            out.printf(Locale.ROOT, "%-28s %11s %11s %12s %7s %9s %11s %12s %7s%n", p.machine(),
                    Numbers.duration(p.measured().stepSeconds()), Numbers.duration(of(p.datasheet(), StepResult::stepSeconds)),
                    Numbers.count(p.measured().tokensPerSecond()), Numbers.percent(p.measured().mfu()),
                    Numbers.percent(p.measured().memoryBoundShare()), Numbers.duration(p.measured().totalSeconds()),
                    Numbers.gib(p.memory().totalBytes()), p.memory().fits() ? "yes" : "NO");
        }
        out.println();
        out.println("step and total on measured ceilings where known (datasheet otherwise); see one machine alone for sources.");
    }

    public static void compareDecode(PrintWriter out, Transformer tf, DecodeSetup s,
                              List<MachineResult<DecodePrediction>> results) {
        out.printf(Locale.ROOT, "%s decode, weights %s, context %d, batch %d%n%n", tf.name(), s.weights().name(),
                s.contextTokens(), s.batch());
        out.printf(Locale.ROOT, "%-28s %12s %12s %12s %10s %12s %7s%n", "machine", "tokens/s", "datasheet", "first token",
                "mem-bound", "memory", "fits");
        for (MachineResult<DecodePrediction> r : results) {
            if (r.value() == null) {
                out.printf(Locale.ROOT, "%-28s %s%n", r.machine(), r.error());
                continue;
            }
            DecodePrediction p = r.value();
            out.printf(Locale.ROOT, "%-28s %12s %12s %12s %10s %12s %7s%n", p.machine(), Numbers.count(p.tokensPerSecond()),
                    Numbers.count(p.datasheetTokensPerSecond()), Numbers.duration(p.prefillSeconds()),
                    Numbers.percent(p.memoryBoundShare()), Numbers.gib(p.memory().totalBytes()),
                    p.memory().fits() ? "yes" : "NO");
        }
    }

    /** One figure of the datasheet step, NaN (printed "unknown") where the machine has no datasheet. */
    private static double of(StepResult datasheet, ToDoubleFunction<StepResult> figure) {
        return datasheet == null ? Double.NaN : figure.applyAsDouble(datasheet);
    }

    /** The bandwidth of the link the devices talk over, as a basis used it. */
    private static Optional<CeilingLine> linkLine(List<CeilingLine> lines) {
        return lines.stream().filter(l -> l.ceiling().startsWith("link ")).findFirst();
    }

    private static void ceilings(PrintWriter out, List<CeilingLine> lines) {
        out.println("ceilings (measured basis):");
        for (CeilingLine line : lines) {
            String value = switch (line.unit()) {
                case "B/s" -> Units.formatBandwidth(line.value());
                case "FLOP/s" -> Units.formatFlops(line.value());
                default -> String.format(Locale.ROOT, "%.3f %s", line.value(), line.unit());
            };
            out.println("  " + line.ceiling() + ": " + value + " (" + line.source() + ")");
        }
    }

    private static void memory(PrintWriter out, MemoryFootprint m) {
        out.printf(Locale.ROOT, "memory per device (capacity %s: %s)%n", Numbers.gib(m.capacityBytes()), m.capacitySource());
        row(out, "weights", m.weightsBytes(), m);
        row(out, "gradients", m.gradientsBytes(), m);
        row(out, "optimizer states", m.optimizerStatesBytes(), m);
        row(out, "activations", m.activationsBytes(), m);
        row(out, "KV cache", m.kvCacheBytes(), m);
        row(out, "workspace", m.workspaceBytes(), m);
        out.printf(Locale.ROOT, "  %-20s %12s  %s%n", "total", Numbers.gib(m.totalBytes()),
                m.fits() ? "fits (" + Numbers.percent(m.totalBytes() / m.capacityBytes()) + " of capacity)"
                        : "DOES NOT FIT (" + Numbers.percent(m.totalBytes() / m.capacityBytes()) + " of capacity)");
        if (m.hostBytes() > 0) {
            out.printf(Locale.ROOT, "  %-20s %12s%n", "in host memory", Numbers.gib(m.hostBytes()));
        }
        if (!m.fits()) {
            if (m.advice().isEmpty()) {
                out.println("  nothing tried fits (checkpointing, micro-batch 1, 8-bit Adam, LoRA, QLoRA, offloading, "
                        + "up to 64 devices with ZeRO-3): a device with more memory is needed");
            } else {
                out.println("  would fit with:");
                for (MemoryFootprint.FitAdvice a : m.advice()) {
                    out.printf(Locale.ROOT, "    %s: %s of %s%n", a.flags(), Numbers.gib(a.totalBytes()),
                            Numbers.gib(m.capacityBytes()));
                }
            }
        }
    }

    private static void row(PrintWriter out, String name, double bytes, MemoryFootprint m) {
        out.printf(Locale.ROOT, "  %-20s %12s  %6s%n", name, Numbers.gib(bytes), Numbers.percent(bytes / m.totalBytes()));
    }

    private static void operations(PrintWriter out, List<OperationRow> rows, int shown) {
        List<OperationRow> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingDouble(OperationRow::seconds).reversed());
        int n = shown <= 0 ? sorted.size() : Math.min(shown, sorted.size());
        out.printf(Locale.ROOT, "slowest operations (measured, of %d)      %-10s %-8s %10s %7s %10s %10s%n", sorted.size(),
                "class", "bound", "time", "share", "FLOP/B", "GB moved");
        for (int i = 0; i < n; i++) {
            OperationRow r = sorted.get(i);
            out.printf(Locale.ROOT, "  %-40s %-10s %-8s %10s %7s %10s %10s%n", abbreviate(r.name(), 40), r.operationClass(),
                    r.bound(), Numbers.duration(r.seconds()), Numbers.percent(r.share()),
                    r.arithmeticIntensity() == null ? "-" : String.format(Locale.ROOT, "%.1f", r.arithmeticIntensity()),
                    String.format(Locale.ROOT, "%.2f", (r.bytes() + r.linkBytes()) / 1e9));
        }
    }

    static String describe(TrainingSetup s, double trainable) {
        FineTuning ft = s.fineTuning();
        String tuning = switch (ft.mode()) {
            case FULL -> "full fine-tuning";
            case LORA, QLORA -> ft.mode().label() + " rank " + ft.rank() + " on " + targets(ft)
                    + (Double.isNaN(trainable) ? "" : " (" + Numbers.count(trainable) + " trainable)");
        };
        Parallelism par = s.parallelism();
        return String.format(Locale.ROOT, "%s, %s; weights %s, activations %s, gradients %s, optimizer states %s%s; "
                        + "sequence %d x micro-batch %d x accumulation %d x %d replica(s) = %s tokens per step; "
                        + "checkpointing %s; FlashAttention %s%s%s%s%s%s",
                tuning, s.optimizer().label(), s.weightPrecision().label(), s.activationPrecision().label(),
                s.gradientPrecision().label(), s.optimizerStatePrecision().label(),
                s.keepsMasterWeights() ? " + fp32 master weights" : "", s.sequenceLength(), s.microBatchSize(),
                s.gradientAccumulation(), par.dataParallel(), Numbers.count(s.tokensPerStep()), s.checkpointing().label(),
                s.flashAttention() ? "on" : "off",
                par.devices() > 1 ? String.format(Locale.ROOT, "; %d devices (data %d x tensor %d x pipeline %d, ZeRO %d)",
                        par.devices(), par.dataParallel(), par.tensorParallel(), par.pipelineParallel(), par.zeroStage()) : "",
                s.pruning().kind() != membound.model.training.Pruning.Kind.NONE ? "; pruning " + s.pruning().kind().name().toLowerCase(Locale.ROOT) : "",
                s.offload().any() ? "; offload " + s.offload().label() : "",
                s.tenants() > 1 ? "; " + s.tenants() + " tenants" : "",
                "");
    }

    private static String targets(FineTuning ft) {
        List<String> names = new ArrayList<>();
        ft.targets().forEach(t -> names.add(t.label()));
        return String.join(",", names);
    }

    private static String abbreviate(String text, int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "~";
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }
}
