package membound.report.html;

import static membound.report.html.Html.escape;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import membound.model.roofline.CeilingLine;
import membound.model.StepResult;
import membound.model.TrainerEstimate;
import membound.model.sweep.Sweeps;
import membound.report.AnswerInput;
import membound.report.FigureKind;
import membound.report.chart.Figure;
import membound.vocabulary.text.Numbers;
import membound.vocabulary.units.Units;

/**
 * The one-page answer: a short written answer generated from the figures, then model size, the
 * bandwidth map, precision, sharing and mitigations, each with its chart and its table. Every number
 * in the text is one of the tables' (each table says which prediction and which ceilings gave it).
 */
public final class AnswerPage {

    /** A step within this factor of its compute-only floor is said not to be held back by bandwidth. */
    public static final double BANDWIDTH_STOPS_MATTERING = 1.10;

    private AnswerPage() {
    }

    public static String html(AnswerInput input, List<Figure> figures) {
        Sweeps.Point p = input.profile();
        StringBuilder h = new StringBuilder(96 * 1024);
        String title = "membound answer: " + input.workload() + " on " + p.machineName();
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(escape(title)).append("</title>\n<style>\n").append(IndexPage.CSS)
                .append(".answer { border-left: 5px solid var(--accent); background: #eef5fb; padding: 10px 16px; }\n")
                .append(".answer li { margin: 5px 0; }\n")
                .append("</style>\n</head>\n<body>\n<main>\n");
        h.append("<h1>").append(escape(title)).append("</h1>\n<p class=\"lead\">").append(escape(input.setup()))
                .append(" \u00b7 reproduce the setup as given: <code>").append(escape(input.predictCommand()))
                .append("</code></p>\n");
        answer(h, input);
        machines(h, input);
        for (Figure f : figures) {
            if (f instanceof Figure.Drawn d) {
                IndexPage.figure(h, d);
            } else if (f instanceof Figure.Omitted o) {
                h.append("<section id=\"").append(o.stem()).append("\">\n<h2>").append(escape(o.title()))
                        .append("</h2>\n<p class=\"warn\">Not drawn: ").append(escape(o.reason())).append("</p>\n</section>\n");
            }
            table(h, f.stem(), input);
        }
        h.append("<footer>Made by <code>").append(escape(input.commandLine())).append("</code>. Every figure but the ")
                .append("expected step in the answer is the roofline bound of membound's per-operation roofline (docs/model.md), ")
                .append("the \"roofline bound\" block of each predict command, on the ceilings each table names; ")
                .append("this page: docs/answer.md.</footer>\n</main>\n</body>\n</html>\n");
        return h.toString();
    }

    // ---- the written answer ----

    private static void answer(StringBuilder h, AnswerInput input) {
        Sweeps.Point p = input.profile();
        StepResult run = p.measured();
        List<String> lines = new ArrayList<>();
        if (!p.memory().fits()) {
            // What fits comes first: a time to train for a setup that cannot run is no answer.
            String instead = p.fitsInstead();
            Sweeps.VariantPoint best = bestMitigation(input, p.machineId());
            lines.add(String.format(Locale.ROOT, "On <b>%s</b>, %s <b>does not fit</b> as set up: it needs %s of %s%s. "
                            + "Were it to fit, it would train at %s tokens/s, %s tokens in %s; the step would be %s, %s of "
                            + "it in operations whose memory traffic outlasts their arithmetic.", escape(p.machineName()),
                    escape(input.workload()), Numbers.gib(p.memory().totalBytes()), Numbers.gib(p.memory().capacityBytes()),
                    instead != null ? "; it fits with <code>" + escape(instead) + "</code>"
                            : best != null ? "; it fits with " + escape(best.variant().label()) + ", <code>"
                            + escape(best.variant().command()) + "</code>, in " + duration(best.point().measured().totalSeconds())
                            : "; no mitigation on this page makes it fit",
                    rate(run.tokensPerSecond()), Numbers.roundedCount(input.tokens()), duration(run.totalSeconds()),
                    p.regime().label(), Numbers.percent(run.memoryBoundShare())));
        } else {
            lines.add(String.format(Locale.ROOT, "On <b>%s</b>, %s fits (%s of %s) and trains at <b>%s tokens/s</b>: %s "
                            + "tokens take <b>%s</b>. The step is <b>%s</b>: %s of it is spent in operations whose memory "
                            + "traffic outlasts their arithmetic.", escape(p.machineName()), escape(input.workload()),
                    Numbers.gib(p.memory().totalBytes()), Numbers.gib(p.memory().capacityBytes()),
                    rate(run.tokensPerSecond()), Numbers.roundedCount(input.tokens()),
                    duration(run.totalSeconds()), p.regime().label(), Numbers.percent(run.memoryBoundShare())));
        }
        TrainerEstimate expected = input.expected();
        lines.add(String.format(Locale.ROOT, "These are roofline bounds: every kernel at its ceiling, nothing between "
                        + "them (the \"roofline bound\" block of <code>predict</code>), as is every figure on this page but "
                        + "this one: with the fitted overheads of trainer %s (%s) the step is expected at <b>%s</b>, %s tokens/s, "
                        + "%s for the tokens (predict's first block).", escape(expected.trainer()), escape(expected.trainerName()),
                Numbers.secondsOrMillis(expected.stepSeconds()), rate(expected.tokensPerSecond()),
                duration(expected.totalSeconds())));
        Sweeps.BandwidthMap map = input.map();
        lines.add(String.format(Locale.ROOT, "Its main memory %s <b>%s</b> (%s)%s.",
                FigureKind.of(map.measuredSource()).verb(),
                Units.formatBandwidth(map.measuredBandwidth()), escape(map.measuredSource()),
                Double.isNaN(map.datasheetBandwidth()) ? "; no datasheet bandwidth is known for it, so the gap to the "
                        + "datasheet is unknown"
                        : FigureKind.of(map.measuredSource()) == FigureKind.DATASHEET ? ""
                        : String.format(Locale.ROOT, " against %s on the datasheet: %s %s", Units.formatBandwidth(map.datasheetBandwidth()),
                        Numbers.percent(Math.abs(1 - map.measuredBandwidth() / map.datasheetBandwidth())),
                        map.measuredBandwidth() <= map.datasheetBandwidth() ? "less" : "more")));
        for (Sweeps.BandwidthMap each : input.maps()) {
            mapLine(lines, input, each);
        }
        for (Sweeps.Point other : input.asGiven().subList(1, input.asGiven().size())) {
            if (other.predicted()) {
                double ratio = run.totalSeconds() / other.measured().totalSeconds();
                String pace = String.format(Locale.ROOT, "%s (%s), %s memory-bound", duration(other.measured().totalSeconds()),
                        Math.abs(ratio - 1) < 0.05 ? "about as fast"
                                : ratio >= 1 ? String.format(Locale.ROOT, "%.1f\u00d7 faster", ratio)
                                : String.format(Locale.ROOT, "%.1f\u00d7 slower", 1 / ratio),
                        Numbers.percent(other.measured().memoryBoundShare()));
                if (other.memory().fits()) {
                    lines.add(String.format(Locale.ROOT, "%s trains it in %s.", escape(other.machineName()), pace));
                } else {
                    // As for the page's own machine: what does not fit says so before any time to train.
                    String instead = other.fitsInstead();
                    lines.add(String.format(Locale.ROOT, "On %s it <b>does not fit</b> as set up (%s of %s)%s; were it to "
                                    + "fit, it would train it in %s.", escape(other.machineName()),
                            Numbers.gib(other.memory().totalBytes()), Numbers.gib(other.memory().capacityBytes()),
                            instead == null ? "" : "; it fits with <code>" + escape(instead) + "</code>", pace));
                }
            } else {
                lines.add(escape(other.machineName()) + ": not predicted (" + escape(other.error()) + ").");
            }
        }
        fits(lines, input);
        for (Sweeps.Point base : input.asGiven()) {
            Sweeps.VariantPoint best = bestMitigation(input, base.machineId());
            if (best != null && base.predicted()) {
                double change = best.point().measured().totalSeconds() / base.measured().totalSeconds() - 1;
                lines.add(String.format(Locale.ROOT, "The mitigation that helps most on %s: <b>%s</b>, %s time to train, "
                                + "%s of memory (fits), <code>%s</code>.", escape(base.machineLabel()),
                        escape(best.variant().label()), Numbers.signedPercent(change),
                        Numbers.gib(best.point().memory().totalBytes()),
                        escape(commandOn(best.variant().command(), base, input))));
            }
        }
        sharing(lines, input);
        h.append("<section id=\"answer\">\n<h2>The answer</h2>\n<ul class=\"answer\">\n");
        for (String line : lines) {
            h.append("<li>").append(line).append("</li>\n");
        }
        h.append("</ul>\n<p class=\"files\">Every figure above is one of the tables' below; the sources of each ")
                .append("machine's ceilings are in <a href=\"#machines\">Machines</a>.</p>\n</section>\n");
    }

    private static void mapLine(List<String> lines, AnswerInput input, Sweeps.BandwidthMap map) {
        int row = map.models().indexOf(input.workload());
        if (row < 0) {
            return;
        }
        int enough = -1;
        for (int c = 0; c < map.bandwidths().length; c++) {
            if (map.slowdown(row, c) <= BANDWIDTH_STOPS_MATTERING) {
                enough = c;
                break;
            }
        }
        double step = map.measuredSeconds(row);
        double here = step / map.floorSeconds()[row];
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "On %s, at its %s bandwidth (%s), "
                        + "the step takes %s, <b>%.2f\u00d7</b> what it would with unlimited bandwidth", escape(map.machineName()),
                FigureKind.of(map.measuredSource()).label(), Units.formatBandwidth(map.measuredBandwidth()),
                Numbers.secondsOrMillis(step), here));
        double datasheet = map.datasheetSeconds()[row];
        if (!Double.isNaN(datasheet) && Math.abs(map.datasheetBandwidth() / map.measuredBandwidth() - 1) > 0.01) {
            line.append(String.format(Locale.ROOT, "; with its datasheet's %s (and the same compute) it would take %s: the "
                            + "missing bandwidth costs <b>%s</b> of the step", Units.formatBandwidth(map.datasheetBandwidth()),
                    Numbers.secondsOrMillis(datasheet), Numbers.percent(step / datasheet - 1)));
        }
        line.append("; ").append(enough < 0 ? "no bandwidth on the map brings it within 10% of unlimited"
                : enough == 0 ? "even at the map's lowest bandwidth, " + Units.formatBandwidth(map.bandwidths()[0])
                + ", it is within 10% of unlimited: bandwidth does not hold this step back here"
                : "it comes within 10% of unlimited from about <b>" + Units.formatBandwidth(map.bandwidths()[enough]) + "</b> ("
                + String.format(Locale.ROOT, "%.1f\u00d7", map.bandwidths()[enough] / map.measuredBandwidth())
                + " the " + FigureKind.of(map.measuredSource()).label() + " bandwidth)").append('.');
        lines.add(line.toString());
    }


    private static void fits(List<String> lines, AnswerInput input) {
        Sweeps.Point p = input.profile();
        Sweeps.Point largest = null;
        Sweeps.Point firstMiss = null;
        for (Sweeps.Point s : input.sizes()) {
            if (!s.machineId().equals(p.machineId()) || !s.predicted()) {
                continue;
            }
            if (s.memory().fits()) {
                if (largest == null || s.parameters() > largest.parameters()) {
                    largest = s;
                }
            } else if (firstMiss == null || s.parameters() < firstMiss.parameters()) {
                firstMiss = s;
            }
        }
        if (firstMiss == null) {
            lines.add(String.format(Locale.ROOT, "Every model of the sweep fits on %s as set up.", escape(p.machineName())));
            return;
        }
        String instead = firstMiss.fitsInstead();
        lines.add(String.format(Locale.ROOT, "As set up, %s stops fitting at %s (%s, %s of %s)%s%s.",
                escape(p.machineName()), escape(firstMiss.workload()), Numbers.roundedCount(firstMiss.parameters()),
                Numbers.gib(firstMiss.memory().totalBytes()), Numbers.gib(firstMiss.memory().capacityBytes()),
                largest == null ? "" : "; the largest that fits is " + escape(largest.workload()),
                instead == null ? "" : "; it fits with <code>" + escape(instead) + "</code>"));
    }

    /**
     * A row's command as it predicts on {@code p}'s machine: the page's commands name the first machine (its
     * {@code --profile} or {@code --hardware}); on a compared catalog machine the same command names that machine
     * instead, so that pasting it prints the figure of that machine's cell.
     */
    static String commandOn(String command, Sweeps.Point p, AnswerInput input) {
        if (p.machineId().equals(input.profile().machineId()) || p.machineId().startsWith("profile:")) {
            return command;
        }
        String rest = command.replaceAll("\\s--(profile|hardware|device|compare)(=|\\s)\\S+", "");
        String predict = "predict";
        int at = rest.indexOf(" " + predict);
        return at < 0 ? rest : rest.substring(0, at + 1 + predict.length()) + " --hardware " + p.machineId()
                + rest.substring(at + 1 + predict.length());
    }

    /** The fitting mitigation with the shortest time to train on one machine, or null. */
    private static Sweeps.VariantPoint bestMitigation(AnswerInput input, String machineId) {
        Sweeps.VariantPoint best = null;
        for (Sweeps.VariantPoint v : input.mitigations()) {
            if (!v.point().machineId().equals(machineId) || !v.point().predicted() || !v.point().memory().fits()) {
                continue;
            }
            if (best == null || v.point().measured().totalSeconds() < best.point().measured().totalSeconds()) {
                best = v;
            }
        }
        return best;
    }

    private static void sharing(List<String> lines, AnswerInput input) {
        Sweeps.SharingPoint alone = null;
        Sweeps.SharingPoint most = null;
        for (Sweeps.SharingPoint s : input.sharing()) {
            if (!s.point().machineId().equals(input.profile().machineId()) || !s.point().predicted()) {
                continue;
            }
            if (s.tenants() == 1) {
                alone = s;
            }
            if (most == null || s.tenants() > most.tenants()) {
                most = s;
            }
        }
        if (alone == null || most == null || most.tenants() == 1) {
            return;
        }
        lines.add(String.format(Locale.ROOT, "With %d users training at once on %s, each gets %s tokens/s (%s of one "
                        + "alone) and all together %s (%.2f\u00d7 one user)%s.", most.tenants(),
                escape(input.profile().machineName()), rate(most.perUserTokensPerSecond()),
                Numbers.percent(most.perUserTokensPerSecond() / alone.perUserTokensPerSecond()),
                rate(most.totalTokensPerSecond()),
                most.totalTokensPerSecond() / alone.totalTokensPerSecond(),
                most.measuredCurve() ? ", by the measured tenants curve" : ", splitting bandwidth evenly (no measured tenants curve)"));
    }

    // ---- tables ----

    private static void machines(StringBuilder h, AnswerInput input) {
        h.append("<section id=\"machines\">\n<h2>Machines</h2>\n<table>\n<tr><th>machine</th><th>ceiling</th>")
                .append("<th class=\"num\">value</th><th>source</th></tr>\n");
        for (Sweeps.Point p : input.asGiven()) {
            if (!p.predicted()) {
                h.append("<tr><td>").append(escape(p.machineName())).append("</td><td colspan=\"3\">not predicted: ")
                        .append(escape(p.error())).append("</td></tr>\n");
                continue;
            }
            for (CeilingLine line : p.prediction().measuredCeilings()) {
                if (line.ceiling().contains("read bandwidth") && line.ceiling().startsWith(mainMemory(p))
                        || line.ceiling().contains("GEMM") || line.ceiling().contains("dense peak")) {
                    h.append("<tr><td>").append(escape(p.machineName())).append("</td><td>").append(escape(line.ceiling()))
                            .append("</td><td class=\"num\">").append(escape(value(line))).append("</td><td class=\"src\">")
                            .append(escape(line.source())).append("</td></tr>\n");
                }
            }
        }
        h.append("</table>\n</section>\n");
    }

    /** The name the prediction gives the main-memory tier: the last tier's, as Ceilings.describe lists them. */
    private static String mainMemory(Sweeps.Point p) {
        String last = "";
        for (CeilingLine line : p.prediction().measuredCeilings()) {
            if (line.ceiling().endsWith(" read bandwidth")) {
                last = line.ceiling().substring(0, line.ceiling().length() - " read bandwidth".length());
            }
        }
        return last;
    }

    private static String value(CeilingLine line) {
        return switch (line.unit()) {
            case "B/s" -> Units.formatBandwidth(line.value());
            case "FLOP/s" -> Units.formatFlops(line.value());
            default -> String.format(Locale.ROOT, "%.3g %s", line.value(), line.unit());
        };
    }

    private static void table(StringBuilder h, String stem, AnswerInput input) {
        switch (stem) {
            case "answer-model-size" -> sizes(h, input);
            case "answer-bandwidth-map" -> map(h, input);
            case "answer-precision" -> precisionTable(h, input);
            case "answer-sharing" -> sharingTable(h, input);
            case "answer-mitigations" -> mitigationTable(h, input);
            default -> { }
        }
    }

    /** The machines in the order the points list them (the profile's first). */
    private static List<String> machineLabels(AnswerInput input) {
        List<String> labels = new ArrayList<>();
        for (Sweeps.Point p : input.asGiven()) {
            labels.add(p.machineLabel());
        }
        return labels;
    }

    private static void machineHeader(StringBuilder h, AnswerInput input) {
        for (String label : machineLabels(input)) {
            h.append("<th>").append(escape(label)).append("</th>");
        }
        h.append("</tr>\n");
    }

    /** One machine's cell: time to train, tokens/s, memory-bound share, memory, fit (and what fits instead). */
    private static String cell(Sweeps.Point p) {
        if (p == null) {
            return "<td></td>";
        }
        if (!p.predicted()) {
            return "<td><span class=\"sub\">not predicted: " + escape(p.error()) + "</span></td>";
        }
        String instead = p.fitsInstead();
        return "<td><b>" + duration(p.measured().totalSeconds()) + "</b><br><span class=\"sub\">"
                + rate(p.measured().tokensPerSecond()) + " tok/s \u00b7 " + p.regime().label() + ", "
                + Numbers.percent(p.measured().memoryBoundShare()) + " of the step in memory-bound operations \u00b7 "
                + Numbers.gib(p.memory().totalBytes()) + " of "
                + Numbers.gib(p.memory().capacityBytes()) + "</span><br>"
                + (p.memory().fits() ? "<span class=\"ok\">fits</span>" : "<span class=\"bad\">does not fit</span>"
                + (instead == null ? "" : "; fits with <code>" + escape(instead) + "</code>")) + "</td>";
    }

    private static void sizes(StringBuilder h, AnswerInput input) {
        h.append("<table id=\"model-size-table\">\n<tr><th>model</th><th class=\"num\">parameters</th>");
        machineHeader(h, input);
        List<String> labels = machineLabels(input);
        String current = null;
        Sweeps.Point[] row = new Sweeps.Point[labels.size()];
        for (Sweeps.Point p : input.sizes()) {
            if (!p.workload().equals(current)) {
                if (current != null) {
                    sizeRow(h, current, row);
                }
                current = p.workload();
                row = new Sweeps.Point[labels.size()];
            }
            int at = labels.indexOf(p.machineLabel());
            if (at >= 0) {
                row[at] = p;
            }
        }
        if (current != null) {
            sizeRow(h, current, row);
        }
        h.append("</table>\n");
    }

    private static void sizeRow(StringBuilder h, String model, Sweeps.Point[] row) {
        double parameters = 0;
        for (Sweeps.Point p : row) {
            if (p != null) {
                parameters = p.parameters();
            }
        }
        h.append("<tr><td>").append(escape(model)).append("</td><td class=\"num\">").append(Numbers.roundedCount(parameters)).append("</td>");
        for (Sweeps.Point p : row) {
            h.append(cell(p));
        }
        h.append("</tr>\n");
    }

    private static void map(StringBuilder h, AnswerInput input) {
        Sweeps.BandwidthMap map = input.map();
        h.append("<table id=\"bandwidth-map-table\">\n<tr><th>model</th><th class=\"num\">compute-only floor</th>")
                .append("<th class=\"num\">step at ").append(Units.formatBandwidth(map.measuredBandwidth()))
                .append(" (").append(FigureKind.of(map.measuredSource()).label()).append(")")
                .append("</th><th class=\"num\">slowdown there</th><th class=\"num\">within 10% of the floor from</th></tr>\n");
        for (int m = 0; m < map.models().size(); m++) {
            String from = "beyond the map";
            for (int c = 0; c < map.bandwidths().length; c++) {
                if (map.slowdown(m, c) <= BANDWIDTH_STOPS_MATTERING) {
                    // Within 10% at the map's lowest bandwidth: where it stops being so lies below the map.
                    from = (c == 0 ? "below " : "") + Units.formatBandwidth(map.bandwidths()[c]) + (c == 0 ? " (the map's lowest)" : "");
                    break;
                }
            }
            h.append("<tr><td>").append(escape(map.models().get(m))).append("</td><td class=\"num\">")
                    .append(Numbers.secondsOrMillis(map.floorSeconds()[m])).append("</td><td class=\"num\">")
                    .append(Numbers.secondsOrMillis(map.measuredSeconds(m))).append("</td><td class=\"num\">")
                    .append(String.format(Locale.ROOT, "%.2f\u00d7", map.measuredSeconds(m) / map.floorSeconds()[m]))
                    .append("</td><td class=\"num\">")
                    .append(from).append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    /** Under a table whose rows carry one command: how to predict another column's machine with it. */
    private static void commandNote(StringBuilder h, AnswerInput input, List<String> otherIds) {
        if (otherIds.isEmpty()) {
            return;
        }
        h.append("<p class=\"files\">Each row's command predicts on ").append(escape(input.profile().machineName()))
                .append("; for another column, the same command with <code>--hardware ID</code> in place of its machine, e.g. ")
                .append("<code>").append(escape(otherIds.get(0))).append("</code>: <code>")
                .append(escape(commandOn(input.predictCommand(), input.asGiven().stream()
                        .filter(p -> p.machineId().equals(otherIds.get(0))).findFirst().orElseThrow(), input)))
                .append("</code>.</p>\n");
    }

    private static List<String> otherIds(AnswerInput input, List<Sweeps.Point> bases) {
        List<String> ids = new ArrayList<>();
        for (Sweeps.Point b : bases) {
            if (!b.machineId().equals(input.profile().machineId()) && !b.machineId().startsWith("profile:")) {
                ids.add(b.machineId());
            }
        }
        return ids;
    }

    private static void precisionTable(StringBuilder h, AnswerInput input) {
        h.append("<table id=\"precision-table\">\n<tr><th>setup</th>");
        machineHeader(h, input);
        List<String> labels = machineLabels(input);
        String current = null;
        Sweeps.Point[] row = null;
        String command = null;
        for (Sweeps.VariantPoint v : input.precisions()) {
            if (!v.variant().label().equals(current)) {
                if (current != null) {
                    variantRow(h, current, command, row);
                }
                current = v.variant().label();
                command = v.variant().command();
                row = new Sweeps.Point[labels.size()];
            }
            int at = labels.indexOf(v.point().machineLabel());
            if (at >= 0) {
                row[at] = v.point();
            }
        }
        if (current != null) {
            variantRow(h, current, command, row);
        }
        h.append("</table>\n");
        commandNote(h, input, otherIds(input, input.asGiven()));
    }

    private static void variantRow(StringBuilder h, String label, String command, Sweeps.Point[] row) {
        h.append("<tr><td>").append(escape(label)).append("<br><code class=\"sub\">").append(escape(command))
                .append("</code></td>");
        for (Sweeps.Point p : row) {
            String c = cell(p);
            if (p != null && p.predicted()) {
                for (String note : p.prediction().notes()) {
                    if (note.contains("compute ceiling")) {
                        c = c.substring(0, c.length() - "</td>".length()) + "<br><span class=\"sub\">" + escape(note)
                                + "</span></td>";
                    }
                }
            }
            h.append(c);
        }
        h.append("</tr>\n");
    }

    private static void mitigationTable(StringBuilder h, AnswerInput input) {
        List<Sweeps.Point> bases = new ArrayList<>();
        for (Sweeps.Point p : input.asGiven()) {
            if (input.mitigations().stream().anyMatch(v -> v.point().machineId().equals(p.machineId()))) {
                bases.add(p);
            }
        }
        h.append("<table id=\"mitigation-table\">\n<tr><th>mitigation</th>");
        for (Sweeps.Point b : bases) {
            h.append("<th>").append(escape(b.machineLabel())).append("</th>");
        }
        h.append("</tr>\n<tr><td>the setup as given<br><code class=\"sub\">").append(escape(input.predictCommand()))
                .append("</code></td>");
        for (Sweeps.Point b : bases) {
            h.append(cell(b));
        }
        h.append("</tr>\n");
        String current = null;
        for (Sweeps.VariantPoint v : input.mitigations()) {
            if (!v.variant().label().equals(current)) {
                if (current != null) {
                    h.append("</tr>\n");
                }
                current = v.variant().label();
                h.append("<tr><td>").append(escape(current)).append("<br><code class=\"sub\">")
                        .append(escape(v.variant().command())).append("</code></td>");
            }
            Sweeps.Point base = null;
            for (Sweeps.Point b : bases) {
                if (b.machineId().equals(v.point().machineId())) {
                    base = b;
                }
            }
            h.append(change(v.point(), base));
        }
        if (current != null) {
            h.append("</tr>\n");
        }
        h.append("</table>\n");
        commandNote(h, input, otherIds(input, bases));
    }

    /** A mitigation's cell: its change in time to train, memory and memory-bound share against the setup as given. */
    private static String change(Sweeps.Point p, Sweeps.Point base) {
        if (!p.predicted()) {
            return "<td><span class=\"sub\">not predicted: " + escape(p.error()) + "</span></td>";
        }
        StringBuilder c = new StringBuilder("<td>");
        if (base != null && base.predicted()) {
            c.append("<b>").append(Numbers.signedPercent(p.measured().totalSeconds() / base.measured().totalSeconds() - 1))
                    .append("</b> time \u00b7 ").append(Numbers.signedPercent(p.memory().totalBytes()
                            / base.memory().totalBytes() - 1)).append(" memory \u00b7 ")
                    .append(String.format(Locale.ROOT, "%+.0f pp", 100 * (p.measured().memoryBoundShare()
                            - base.measured().memoryBoundShare()))).append(" memory-bound<br>");
        }
        c.append("<span class=\"sub\">").append(duration(p.measured().totalSeconds())).append(", ")
                .append(Numbers.gib(p.memory().totalBytes())).append("</span> ")
                .append(p.memory().fits() ? "<span class=\"ok\">fits</span>" : "<span class=\"bad\">does not fit</span>");
        for (String note : p.prediction().notes()) {
            if (note.contains("unified memory") || note.contains("2:4") || note.contains("compute ceiling")) {
                c.append("<br><span class=\"sub\">").append(escape(note)).append("</span>");
            }
        }
        return c.append("</td>").toString();
    }

    private static void sharingTable(StringBuilder h, AnswerInput input) {
        h.append("<table id=\"sharing-table\">\n<tr><th class=\"num\">users</th>");
        machineHeader(h, input);
        List<String> labels = machineLabels(input);
        int most = 0;
        for (Sweeps.SharingPoint s : input.sharing()) {
            most = Math.max(most, s.tenants());
        }
        for (int k = 1; k <= most; k++) {
            h.append("<tr><td class=\"num\">").append(k).append("</td>");
            for (String label : labels) {
                Sweeps.SharingPoint found = null;
                for (Sweeps.SharingPoint s : input.sharing()) {
                    if (s.tenants() == k && s.point().machineLabel().equals(label)) {
                        found = s;
                    }
                }
                if (found == null || !found.point().predicted()) {
                    h.append("<td></td>");
                    continue;
                }
                h.append("<td>").append(rate(found.perUserTokensPerSecond())).append(" tok/s each, <b>")
                        .append(rate(found.totalTokensPerSecond())).append("</b> together<br><span class=\"sub\">")
                        .append(found.measuredCurve() ? "measured tenants curve" : "even split (no measured curve)")
                        .append("</span></td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
    }

    /** Tokens per second with three significant digits: 0.551, 12.3, 4,210. */
    static String rate(double perSecond) {
        if (Double.isNaN(perSecond)) {
            return Numbers.UNKNOWN;
        }
        if (perSecond >= 100) {
            return String.format(Locale.ROOT, "%,.0f", perSecond);
        }
        return String.format(Locale.ROOT, perSecond >= 10 ? "%.1f" : perSecond >= 1 ? "%.2f" : "%.3g", perSecond);
    }

    /** A time to train: as membound prints durations, in years beyond a year. */
    static String duration(double seconds) {
        double years = seconds / (365.25 * 86400);
        return years >= 1 ? String.format(Locale.ROOT, years >= 100 ? "%,.0f years" : "%.1f years", years)
                : Numbers.roundedDuration(seconds);
    }
}
