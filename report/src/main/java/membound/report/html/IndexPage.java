package membound.report.html;

import static membound.report.html.Html.escape;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;

import membound.model.OperationRow;
import membound.model.StepResult;
import membound.model.TrainerEstimate;
import membound.model.roofline.CeilingLine;
import membound.profile.BandwidthEntry;
import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.Distribution;
import membound.profile.Efficiency;
import membound.profile.LatencyEntry;
import membound.profile.LevelCeiling;
import membound.profile.Nominal;
import membound.profile.Profile;
import membound.profile.Quality;
import membound.report.MachineOutcome;
import membound.report.Provenances;
import membound.report.ReportInput;
import membound.report.ReportRenderer;
import membound.report.SensitivityCurve;
import membound.report.TrainingRun;
import membound.report.chart.ChartStyle;
import membound.report.chart.Figure;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.text.Numbers;
import membound.vocabulary.units.Units;

/**
 * {@code index.html}: the key figures in a table, every chart with what it shows and where its numbers
 * come from, the machines side by side, the slowest operations, and the charts left out with the reason.
 * One self-contained file: inline CSS, charts by relative path, nothing fetched from a network.
 */
public final class IndexPage {

    private static final List<AccessPattern> DRAM_ACCESSES = List.of(AccessPattern.READ, AccessPattern.COPY, AccessPattern.TRIAD);

    static final String CSS = """
            :root { --ink: #222; --muted: #666; --rule: #ddd; --accent: #0072b2; --warn: #d55e00; }
            * { box-sizing: border-box; }
            body { margin: 0; background: #f6f7f9; color: var(--ink);
                   font: 15px/1.5 "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; }
            main { max-width: 1060px; margin: 0 auto; padding: 28px 32px 40px; background: #fff; }
            h1 { font-size: 26px; margin: 0 0 4px; }
            h2 { font-size: 19px; margin: 30px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--rule); }
            .lead { color: var(--muted); margin: 0 0 14px; }
            code { font: 13px "DejaVu Sans Mono", Consolas, monospace; background: #f1f1f1; padding: 1px 4px;
                   border-radius: 3px; }
            table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; font-size: 14px; }
            th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid var(--rule); }
            th { background: #f1f4f8; font-weight: 600; }
            td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
            td.num { white-space: nowrap; }
            td.value { font-weight: 600; }
            td.src { color: var(--muted); font-size: 12.5px; }
            tr.group th { background: #e6edf5; }
            table.key col.figure { width: 24%; }
            table.key col.value { width: 32%; }
            table.machines td:first-child { width: 30%; }
            span.sub { color: var(--muted); font-size: 12.5px; }
            .warn { border-left: 5px solid var(--warn); background: #fff4ec; padding: 8px 14px; margin: 12px 0; }
            .warn ul { margin: 4px 0; padding-left: 20px; }
            nav ol { columns: 2; margin: 4px 0; }
            figure { margin: 18px 0 28px; }
            figure img { display: block; width: 100%; height: auto; border: 1px solid var(--rule); }
            figcaption { margin-top: 6px; }
            .files { color: var(--muted); font-size: 13px; margin: 2px 0; }
            details { font-size: 13px; color: var(--muted); }
            details li { margin: 2px 0; }
            .bad { color: var(--warn); font-weight: 600; }
            .ok { color: #00795a; font-weight: 600; }
            .omitted li { margin: 4px 0; }
            footer { margin-top: 36px; color: var(--muted); font-size: 13px; border-top: 1px solid var(--rule);
                     padding-top: 10px; }
            """;

    private IndexPage() {
    }

    public static String html(ReportInput input, List<Figure> figures) {
        Profile profile = input.profile();
        TrainingRun run = input.primary();
        StringBuilder h = new StringBuilder(64 * 1024);
        String title = "membound report: " + (profile != null ? profile.host().hostname() : run.machineName())
                + (run != null ? " \u00b7 " + run.workload() : "");
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(escape(title)).append("</title>\n<style>\n").append(CSS).append("</style>\n")
                .append("</head>\n<body>\n<main>\n");
        header(h, input);
        if (profile != null) {
            warnings(h, profile);
        }
        keyFigures(h, input);
        if (run != null) {
            machines(h, input);
        }
        contents(h, figures, input.hasProfile());
        for (Figure f : figures) {
            if (f instanceof Figure.Drawn d) {
                figure(h, d);
            }
        }
        if (run != null) {
            operations(h, run, input.operationsShown());
            ceilings(h, run);
        }
        omitted(h, figures, input.hasProfile());
        if (run != null && !run.notes().isEmpty()) {
            h.append("<section id=\"notes\">\n<h2>Notes from the model</h2>\n<ul>\n");
            for (String note : run.notes()) {
                h.append("<li>").append(escape(note)).append("</li>\n");
            }
            h.append("</ul>\n</section>\n");
        }
        footer(h, input);
        h.append("</main>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void header(StringBuilder h, ReportInput input) {
        Profile p = input.profile();
        TrainingRun run = input.primary();
        List<String> facts = new ArrayList<>();
        if (p == null) {
            h.append("<header>\n<h1>Memory bandwidth report: ").append(escape(run.machineName())).append("</h1>\n");
            facts.add("no profile: the catalog's datasheet figures, with the third-party measurements the model knows "
                    + "as its measured basis");
            facts.add("workload <b>" + escape(run.workload()) + "</b> (" + Numbers.roundedCount(run.parameters())
                    + " parameters): " + escape(setup(run)));
            h.append("<p class=\"lead\">").append(String.join(" \u00b7 ", facts)).append("</p>\n</header>\n");
            return;
        }
        h.append("<header>\n<h1>Memory bandwidth report: ").append(escape(p.host().hostname())).append("</h1>\n");
        if (p.host().platform() != null) {
            facts.add(escape(p.host().platform().name()));
        } else if (p.nominal().platformName() != null) {
            facts.add(escape(p.nominal().platformName()));
        }
        facts.add("profile <code>" + escape(input.profileFile()) + "</code>, made " + escape(p.provenance().createdUtc())
                + " by membound " + escape(p.provenance().memboundVersion()));
        if (run != null) {
            facts.add("workload <b>" + escape(run.workload()) + "</b> (" + Numbers.roundedCount(run.parameters())
                    + " parameters): " + escape(setup(run)));
        }
        h.append("<p class=\"lead\">").append(String.join(" \u00b7 ", facts)).append("</p>\n</header>\n");
    }

    static String setup(TrainingRun run) {
        TrainingRun.Setup s = run.setup();
        if (s == null) {
            return "setup not given";
        }
        String tuning = s.fineTuning() == null ? "full" : s.fineTuning().mode().toLowerCase(Locale.ROOT)
                + (s.fineTuning().rank() > 0 ? " rank " + s.fineTuning().rank() : "");
        return String.format(Locale.ROOT, "%s fine-tuning, %s, weights %s, activations %s, optimizer states %s, "
                        + "sequence %,d \u00d7 micro-batch %d \u00d7 accumulation %d, checkpointing %s, %s tokens",
                tuning, lower(s.optimizer()), lower(s.weightPrecision()), lower(s.activationPrecision()),
                lower(s.optimizerStatePrecision()), s.sequenceLength(), s.microBatchSize(), s.gradientAccumulation(),
                lower(s.checkpointing()), Numbers.roundedCount(s.tokens()));
    }

    private static String lower(String text) {
        return text == null ? "?" : text.toLowerCase(Locale.ROOT);
    }

    private static void warnings(StringBuilder h, Profile p) {
        if (p.quality().flags().isEmpty()) {
            return;
        }
        h.append("<div class=\"warn\"><strong>Read before trusting these figures</strong> (the profile's quality flags):\n<ul>\n");
        for (Quality.Flag f : p.quality().flags()) {
            h.append("<li><b>").append(escape(f.code())).append("</b>")
                    .append(f.deviceId() != null ? " (" + escape(f.deviceId()) + (f.subject() != null ? ", " + escape(f.subject()) : "") + ")" : "")
                    .append(": ").append(escape(f.message())).append("</li>\n");
        }
        h.append("</ul></div>\n");
    }

    // ---- key figures ----

    /** One figure of a datasheet step as the page prints it; "unknown" where the machine has no datasheet. */
    private static String datasheet(StepResult step, ToDoubleFunction<StepResult> figure, DoubleFunction<String> format) {
        return step == null ? Numbers.UNKNOWN : format.apply(figure.applyAsDouble(step));
    }

    private static void keyFigures(StringBuilder h, ReportInput input) {
        Profile p = input.profile();
        h.append("<section id=\"key-figures\">\n<h2>Key figures</h2>\n<table class=\"key\">\n")
                .append("<colgroup><col class=\"figure\"><col class=\"value\"><col></colgroup>\n")
                .append("<thead><tr><th>Figure</th><th>Value</th><th>Where it comes from</th></tr></thead>\n<tbody>\n");
        TrainingRun run = input.primary();
        String basis = basis(input);
        String whose = input.hasProfile() ? "the profile's" : "the catalog entry's";
        if (run != null) {
            group(h, "Prediction: " + run.workload() + " on " + run.machineName());
            StepResult m = run.measured();
            StepResult d = run.datasheet();
            row(h, "Predicted step time (roofline bound), " + basis + " ceilings", Numbers.roundedDuration(m.stepSeconds()),
                    "membound predict's \"roofline bound\": per-operation roofline on " + whose + " "
                            + basisFigures(input) + " (docs/model.md)");
            if (run.expected() != null) {
                TrainerEstimate e = run.expected();
                row(h, "Expected step with trainer " + e.trainer() + "'s overheads", Numbers.roundedDuration(e.stepSeconds())
                                + String.format(Locale.ROOT, " (%,.0f tokens/s, %s in all)", e.tokensPerSecond(),
                                Numbers.roundedDuration(e.totalSeconds())),
                        "membound predict's first block (\"expected with trainer " + e.trainer() + "\"): the roofline "
                                + "bound plus the trainer's fitted terms (docs/model.md); every other figure on this page "
                                + "is the roofline bound");
                if (!e.added().isEmpty()) {
                    row(h, "What trainer " + e.trainer() + "'s terms add to the step", String.join(", ",
                            e.added().stream().map(a -> a.term() + " " + (a.seconds() < 0 ? "-" : "+")
                                    + Numbers.roundedDuration(Math.abs(a.seconds()))).toList()),
                            "membound predict's \"what the terms add\", measured basis: " + String.join("; ",
                                    e.added().stream().map(a -> a.term() + " on " + a.scaled()).toList()));
                }
            }
            row(h, "Predicted step time (roofline bound), datasheet ceilings", run.datasheetKnown()
                            ? Numbers.roundedDuration(d.stepSeconds()) + " (" + Numbers.signedPercent(run.datasheetDifference())
                            + " against " + basis + ")" : Numbers.UNKNOWN,
                    run.datasheetKnown() ? "the same operations on " + whose + " nominal figures (datasheet; docs/model.md)"
                            : "no datasheet main-memory bandwidth or compute peak is known for this machine");
            row(h, "Total training time", Numbers.roundedDuration(m.totalSeconds()) + " " + basis + ", "
                    + datasheet(d, StepResult::totalSeconds, Numbers::roundedDuration) + " datasheet",
                    String.format(Locale.ROOT, "%s tokens / %,.0f tokens per step = %,.0f steps, times the step time",
                    Numbers.roundedCount(m.tokensPerStep() * m.steps()), m.tokensPerStep(), m.steps()));
            row(h, "Tokens per second", String.format(Locale.ROOT, "%,.0f %s, %s datasheet", m.tokensPerSecond(), basis,
                    datasheet(d, StepResult::tokensPerSecond, t -> String.format(Locale.ROOT, "%,.0f", t))),
                    "tokens per step / step time");
            row(h, "Model FLOPs utilization (MFU)", Numbers.percent(m.mfu()) + " of " + Units.formatFlops(m.peakFlopsPerSecond()),
                    "model FLOPs per step / step time / dense peak (PaLM, Chowdhery et al. 2022, appendix B); peak: "
                            + ceilingSource(run.measuredCeilings(), "dense peak"));
            row(h, "Memory-bound share of the step", Numbers.percent(m.memoryBoundShare()) + " " + basis + ", "
                    + datasheet(d, StepResult::memoryBoundShare, Numbers::percent) + " datasheet",
                    "time in operations whose bytes take longer than their FLOPs on the roofline");
            row(h, "Bandwidth sensitivity", String.format(Locale.ROOT, "elasticity %.2f; %s at 0.5\u00d7, %s at 2\u00d7 bandwidth",
                    run.sensitivity().elasticity(), Numbers.roundedDuration(run.sensitivity().halfBandwidthStepSeconds()),
                    Numbers.roundedDuration(run.sensitivity().doubleBandwidthStepSeconds())),
                    "d ln T / d ln BW by central difference at \u00b11% of memory bandwidth, links unchanged (membound predict)");
            SensitivityCurve curve = input.sensitivity();
            if (curve != null && curve.nominalStepSeconds() != null) {
                row(h, "Step time at the nominal bandwidth, compute unchanged",
                        Numbers.roundedDuration(curve.nominalStepSeconds()) + " ("
                                + Numbers.signedPercent(curve.nominalStepSeconds() / curve.measuredStepSeconds() - 1)
                                + " against " + basis + ")",
                        "membound predict --memory-bandwidth " + Units.formatBandwidth(curve.nominalBytesPerSecond())
                                + ": what the bandwidth the datasheet promises and the memory does not deliver costs");
            }
            if (run.memory() != null) {
                TrainingRun.Memory mem = run.memory();
                h.append("<tr><td>Memory footprint per device</td><td class=\"value\">")
                        .append(escape(bytes(mem.totalBytes()) + " of " + bytes(mem.capacityBytes())))
                        .append(mem.fits() ? " <span class=\"ok\">fits</span>" : " <span class=\"bad\">does not fit</span>")
                        .append("</td><td class=\"src\">weights, gradients, optimizer states, activations, workspace "
                                + "(docs/model.md); capacity: ").append(escape(mem.capacitySource())).append("</td></tr>\n");
            }
        }
        List<Device> devices = p == null ? new ArrayList<>() : new ArrayList<>(p.devices());
        devices.sort(Comparator.comparing(dev -> !dev.id().equals(input.trainingDeviceId())));
        for (Device device : devices) {
            group(h, ("example".equals(basis) ? "Example figures (made up, not measured): " : "Measured: ")
                    + device.name() + " (" + device.id() + ")");
            for (AccessPattern access : DRAM_ACCESSES) {
                device.ceiling(MemoryLevel.DRAM, access).ifPresent(c -> row(h,
                        "DRAM " + access + " bandwidth, " + statistic(c),
                        Units.formatBandwidth(c.bytesPerSecond()) + spread(device, c) + share(p, device, access),
                        ceilingSource(device, c)));
            }
            for (membound.vocabulary.Precision precision : membound.vocabulary.Precision.values()) {
                for (ComputeEntry.Kind kind : ComputeEntry.Kind.CEILINGS) {
                    device.measuredComputeCeiling(precision, kind).ifPresent(e -> row(h,
                            precision + " " + (kind == ComputeEntry.Kind.GEMM ? "GEMM" : "FMA peak") + ", "
                                    + statistic(e.flopsPerSecond()),
                            Units.formatFlops(e.flopsPerSecond().typical()),
                            "compute entry " + e.id() + (e.matrixSize() != null ? " (n=" + e.matrixSize() + ")" : "")
                                    + (e.threads() != null ? ", " + e.threads() + " threads" : "") + "; "
                                    + Provenances.describe(e.provenance())));
                }
            }
            device.latency().stream().filter(l -> l.level() == MemoryLevel.DRAM)
                    .max(Comparator.comparingLong(LatencyEntry::workingSetBytes))
                    .ifPresent(l -> row(h, "DRAM load latency, p50",
                            String.format(Locale.ROOT, "%.0f ns (p99 %.0f ns)", l.nanosPerLoad().p50(), l.nanosPerLoad().p99()),
                            "latency entry " + l.id() + ", " + l.pattern() + " chase over "
                                    + bytes(l.workingSetBytes()) + "; " + Provenances.describe(l.provenance())));
        }
        if (p == null) {
            h.append("</tbody>\n</table>\n</section>\n");
            return;
        }
        group(h, "Nominal (datasheet)");
        for (Nominal.MemoryBandwidth n : p.nominal().memoryBandwidth()) {
            String who = "Nominal memory bandwidth (" + String.join(", ", n.deviceIds()) + ")";
            if (n.state() == Nominal.State.KNOWN) {
                row(h, who, Units.formatBandwidth(n.bytesPerSecond()), Provenances.describe(n.provenance()));
            } else {
                row(h, who, "unknown", n.reason());
            }
        }
        for (Nominal.Compute c : p.nominal().compute()) {
            String who = "Nominal " + c.precision() + (c.sparse() ? " 2:4 sparse" : " dense") + " peak (" + c.deviceId() + ")";
            if (c.state() == Nominal.State.KNOWN) {
                row(h, who, Units.formatFlops(c.flopsPerSecond()), Provenances.describe(c.provenance()));
            } else if (mfuPeakStandsIn(run, input.trainingDeviceId(), c)) {
                // One peak per quantity on the page: the one the MFU above divides by, and why it is not the profile's.
                row(h, who, "not in the profile; " + Units.formatFlops(run.measured().peakFlopsPerSecond())
                                + " stands in (the MFU above)",
                        c.reason() + "; the prediction's peak: " + ceilingSource(run.measuredCeilings(), "dense peak"));
            } else {
                row(h, who, "unknown", c.reason());
            }
        }
        h.append("</tbody>\n</table>\n</section>\n");
    }

    /** True when the MFU of the run divides by a dense peak of the device and precision the profile has none for. */
    private static boolean mfuPeakStandsIn(TrainingRun run, String deviceId, Nominal.Compute c) {
        return run != null && !c.sparse() && c.deviceId().equals(deviceId) && run.setup() != null
                && (c.precision().label().equalsIgnoreCase(run.setup().activationPrecision())
                || c.precision().name().equalsIgnoreCase(run.setup().activationPrecision()))
                && run.measured().peakFlopsPerSecond() > 0;
    }

    private static String statistic(LevelCeiling c) {
        return c.statistic().label();
    }

    private static String statistic(Distribution d) {
        return d.typicalStatistic().label();
    }

    private static String spread(Device device, LevelCeiling c) {
        if (c.bandwidthId() == null) {
            return "";
        }
        Optional<BandwidthEntry> entry = device.bandwidthEntry(c.bandwidthId());
        if (entry.isEmpty()) {
            return "";
        }
        Distribution d = entry.get().streamBytesPerSecond();
        if (d.p5() != null && d.p95() != null) {
            return String.format(Locale.ROOT, " (p5\u2013p95 %.1f\u2013%.1f GB/s)", d.p5() / 1e9, d.p95() / 1e9);
        }
        if (d.worst() != null) {
            return String.format(Locale.ROOT, " (worst of %d runs %.1f GB/s)", d.samples(), d.worst() / 1e9);
        }
        return "";
    }

    private static String share(Profile p, Device device, AccessPattern access) {
        for (Efficiency.BandwidthRatio r : p.efficiency().bandwidth()) {
            if (r.deviceId().equals(device.id()) && r.access() == access) {
                return ", " + String.format(Locale.ROOT, "%.0f%%", 100 * r.ratio()) + " of nominal";
            }
        }
        return "";
    }

    private static String ceilingSource(Device device, LevelCeiling c) {
        StringBuilder s = new StringBuilder();
        if (c.bandwidthId() != null) {
            s.append("bandwidth entry ").append(c.bandwidthId());
            device.bandwidthEntry(c.bandwidthId()).ifPresent(b -> s.append(" (").append(b.kernel()).append(", ")
                    .append(b.elementType()).append(b.threads() != null ? ", " + b.threads() + " threads" : "")
                    .append(b.workingSetBytes() != null ? ", " + bytes(b.workingSetBytes()) : "").append(")"));
            s.append("; ");
        }
        return s.append(Provenances.describe(c.provenance())).toString();
    }

    private static String ceilingSource(List<CeilingLine> lines, String contains) {
        for (CeilingLine l : lines) {
            if (l.ceiling().contains(contains)) {
                return l.source();
            }
        }
        return "not listed by the model";
    }

    private static void group(StringBuilder h, String title) {
        h.append("<tr class=\"group\"><th colspan=\"3\">").append(escape(title)).append("</th></tr>\n");
    }

    private static void row(StringBuilder h, String figure, String value, String source) {
        h.append("<tr><td>").append(escape(figure)).append("</td><td class=\"value\">").append(escape(value))
                .append("</td><td class=\"src\">").append(escape(source)).append("</td></tr>\n");
    }

    // ---- machines, operations, ceilings ----

    private static void machines(StringBuilder h, ReportInput input) {
        h.append("<section id=\"machines\">\n<h2>Machines side by side</h2>\n<table class=\"machines\">\n<thead><tr><th>Machine</th>")
                .append("<th class=\"num\">Step, measured basis</th><th class=\"num\">Step, datasheet</th>")
                .append("<th class=\"num\">Total time, measured basis</th><th class=\"num\">Tokens/s, measured basis</th>")
                .append("<th class=\"num\">MFU</th><th class=\"num\">Memory-bound</th><th>Fits</th></tr></thead>\n<tbody>\n");
        boolean first = true;
        for (MachineOutcome o : input.machines()) {
            String label = first ? ReportRenderer.profileLabel(input) : o.machine();
            first = false;
            if (o.run() == null) {
                h.append("<tr><td>").append(escape(label)).append("</td><td colspan=\"7\" class=\"src\">no prediction: ")
                        .append(escape(o.error())).append("</td></tr>\n");
                continue;
            }
            TrainingRun r = o.run();
            h.append("<tr><td title=\"").append(escape(r.machineSource())).append("\">").append(escape(label))
                    .append("<br><span class=\"sub\">").append(escape(r.machineName())).append("</span></td>")
                    .append(num(Numbers.roundedDuration(r.measured().stepSeconds())))
                    .append(num(datasheet(r.datasheet(), StepResult::stepSeconds, Numbers::roundedDuration)))
                    .append(num(Numbers.roundedDuration(r.measured().totalSeconds())))
                    .append(num(String.format(Locale.ROOT, "%,.0f", r.measured().tokensPerSecond())))
                    .append(num(Numbers.percent(r.measured().mfu())))
                    .append(num(Numbers.percent(r.measured().memoryBoundShare())))
                    .append("<td>").append(r.memory() == null ? "?" : r.memory().fits() ? "<span class=\"ok\">yes</span>"
                            : "<span class=\"bad\">no</span>").append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n<p class=\"files\">Every machine gets the same workload and setup, every figure the "
                + "roofline bound. The measured basis is a profile's own figures").append("example".equals(basis(input))
                        ? " (the example profile's are made up, not measurements)" : "")
                .append(" and, for a catalog entry, published third-party measurements where the model knows them, else "
                + "its datasheet (docs/model.md).</p>\n</section>\n");
    }

    /**
     * What the page calls the prediction's measured basis, by what its figures are: a profile's measurements, an
     * example profile's made-up figures, or a catalog entry's published ones ("measured" is said of measurements only).
     */
    static String basis(ReportInput input) {
        if (!input.hasProfile()) {
            return "published";
        }
        return input.profile().quality().flags().stream().anyMatch(f -> f.code().equals("example")) ? "example" : "measured";
    }

    /** The figures the measured basis is made of, in words. */
    private static String basisFigures(ReportInput input) {
        return switch (basis(input)) {
            case "published" -> "published third-party measurements, its datasheet where none is known";
            case "example" -> "example figures (made up, not measurements)";
            default -> "measured ceilings";
        };
    }

    private static String num(String text) {
        return "<td class=\"num\">" + escape(text) + "</td>";
    }

    private static void operations(StringBuilder h, TrainingRun run, int shown) {
        List<OperationRow> rows = new ArrayList<>(run.operations());
        rows.sort(Comparator.comparingDouble(OperationRow::seconds).reversed());
        int n = shown == 0 ? rows.size() : Math.min(shown, rows.size());
        h.append("<section id=\"operations\">\n<h2>Slowest operations (").append(n).append(" of ").append(rows.size())
                .append(", measured-basis ceilings)</h2>\n<table>\n<thead><tr><th>Operation</th><th>Class</th><th>Bound</th>")
                .append("<th class=\"num\">Time per step</th><th class=\"num\">Share</th>")
                .append("<th class=\"num\">FLOP/byte</th><th class=\"num\">GB moved</th></tr></thead>\n<tbody>\n");
        for (OperationRow op : rows.subList(0, n)) {
            h.append("<tr><td>").append(escape(op.name())).append("</td><td>").append(escape(op.operationClass()))
                    .append("</td><td>").append(op.bound().equals("memory") ? "<span class=\"bad\">memory</span>" : escape(op.bound()))
                    .append("</td>").append(num(Numbers.roundedDuration(op.seconds()))).append(num(Numbers.percent(op.share())))
                    .append(num(intensity(op.arithmeticIntensity())))
                    .append(num(String.format(Locale.ROOT, "%.2f", op.bytes() / 1e9))).append("</tr>\n");
        }
        h.append("</tbody>\n</table>\n<p class=\"files\">Per step, all repetitions of an operation together; "
                + "<code>--operations N</code> lists more (0 for all).</p>\n</section>\n");
    }

    private static void ceilings(StringBuilder h, TrainingRun run) {
        h.append("<section id=\"ceilings\">\n<h2>Ceilings the prediction used</h2>\n<table>\n<thead><tr><th>Ceiling</th>")
                .append("<th class=\"num\">Measured basis</th><th class=\"num\">Datasheet basis</th><th>Where they come from</th>")
                .append("</tr></thead>\n<tbody>\n");
        for (CeilingLine m : run.measuredCeilings()) {
            CeilingLine d = run.datasheetCeilings().stream().filter(l -> l.ceiling().equals(m.ceiling())).findFirst().orElse(null);
            h.append("<tr><td>").append(escape(m.ceiling())).append("</td>").append(num(value(m)))
                    .append(num(d == null ? "\u2013" : value(d))).append("<td class=\"src\">measured basis: ").append(escape(m.source()));
            if (d != null && !d.source().equals(m.source())) {
                h.append("<br>datasheet basis: ").append(escape(d.source()));
            }
            h.append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n</section>\n");
    }

    private static String value(CeilingLine l) {
        return switch (l.unit()) {
            case "B/s" -> Units.formatBandwidth(l.value());
            case "FLOP/s" -> Units.formatFlops(l.value());
            default -> String.format(Locale.ROOT, "%.3g %s", l.value(), l.unit());
        };
    }

    // ---- charts ----

    private static void contents(StringBuilder h, List<Figure> figures, boolean hasProfile) {
        h.append("<nav id=\"charts\">\n<h2>Charts</h2>\n<ol>\n");
        long omitted = 0;
        for (Figure f : figures) {
            if (f instanceof Figure.Drawn d) {
                h.append("<li><a href=\"#").append(d.stem()).append("\">").append(escape(d.title())).append("</a></li>\n");
            } else {
                omitted++;
            }
        }
        h.append("</ol>\n");
        if (omitted > 0) {
            h.append("<p class=\"files\">").append(omitted).append(omitted == 1 ? " chart is" : " charts are")
                    .append(hasProfile ? " not drawn because the profile lacks their data"
                            : omitted == 1 ? " not drawn: it needs a profile" : " not drawn: they need a profile")
                    .append(": <a href=\"#not-drawn\">see why</a>.</p>\n");
        }
        h.append("</nav>\n");
    }

    static void figure(StringBuilder h, Figure.Drawn d) {
        h.append("<figure id=\"").append(d.stem()).append("\">\n<h2>").append(escape(d.title())).append("</h2>\n")
                .append("<img src=\"").append(d.stem()).append(".svg\" width=\"").append(ChartStyle.WIDTH_PIXELS)
                .append("\" height=\"").append(ChartStyle.HEIGHT_PIXELS).append("\" alt=\"").append(escape(d.title()))
                .append("\">\n<figcaption>").append(escape(d.caption())).append("</figcaption>\n")
                .append("<p class=\"files\">Files: <a href=\"").append(d.stem()).append(".png\">").append(d.stem())
                .append(".png</a> \u00b7 <a href=\"").append(d.stem()).append(".svg\">").append(d.stem()).append(".svg</a></p>\n")
                .append("<details><summary>Where these numbers come from</summary>\n<ul>\n");
        for (String s : d.sources()) {
            h.append("<li>").append(escape(s)).append("</li>\n");
        }
        h.append("</ul>\n</details>\n</figure>\n");
    }

    private static void omitted(StringBuilder h, List<Figure> figures, boolean hasProfile) {
        List<Figure.Omitted> left = figures.stream().filter(f -> f instanceof Figure.Omitted).map(f -> (Figure.Omitted) f).toList();
        if (left.isEmpty()) {
            return;
        }
        h.append("<section id=\"not-drawn\">\n<h2>Charts not drawn</h2>\n<p>").append(hasProfile
                ? "A chart is drawn only from figures the profile holds; these have none to draw"
                : "A chart is drawn only from figures a profile holds; with none (--hardware), a profile's charts are not "
                + "drawn").append(", and no figure is made up in their place.</p>\n<ul class=\"omitted\">\n");
        for (Figure.Omitted o : left) {
            h.append("<li id=\"").append(o.stem()).append("\"><b>").append(escape(o.title())).append("</b>: ")
                    .append(escape(o.reason())).append("</li>\n");
        }
        h.append("</ul>\n</section>\n");
    }

    private static void footer(StringBuilder h, ReportInput input) {
        String version = IndexPage.class.getPackage().getImplementationVersion();
        h.append("<footer>Made by <code>").append(escape(input.commandLine())).append("</code> (membound ")
                .append(escape(version != null ? version : "dev")).append("). Charts drawn with JFreeChart, SVG with JFreeSVG. ")
                .append("Formulas and their sources: docs/model.md; profile fields: docs/profile-schema.md; this page: docs/report.md.")
                .append("</footer>\n");
    }

    private static String bytes(double bytes) {
        return Units.formatBytes((long) bytes);
    }

    /** FLOP per byte: whole above 10, else two decimals; an en dash where an operation has none. */
    private static String intensity(Double flopsPerByte) {
        return flopsPerByte == null ? "\u2013" : String.format(Locale.ROOT, flopsPerByte >= 10 ? "%.0f" : "%.2f", flopsPerByte);
    }
}
