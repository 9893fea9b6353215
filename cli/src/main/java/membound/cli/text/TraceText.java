package membound.cli.text;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import membound.model.machine.Machine;
import membound.trace.RankSummary;
import membound.trace.StepBreakdown;
import membound.trace.TraceAnalysis;
import membound.trace.TraceClass;
import membound.trace.compare.CeilingShares;
import membound.trace.compare.PredictionComparison;
import membound.trace.project.Projection;
import membound.vocabulary.units.Units;

/** The text and the JSON shape of {@code membound trace}. */
public final class TraceText {

    /** Kernel names are C++ signatures: cut for a table, whole in JSON. */
    private static final int NAME_WIDTH = 72;

    private TraceText() {
    }

    /** The top-level {@code ranks} list: per rank file its steps, kernel seconds and class seconds. */
    public static List<Map<String, Object>> ranksJson(List<RankSummary> ranks) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (RankSummary r : ranks) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("file", r.trace().file());
            m.put("format", r.trace().format());
            m.put("rank", r.trace().rank() >= 0 ? r.trace().rank() : null);
            m.put("worldSize", r.trace().worldSize() > 0 ? r.trace().worldSize() : null);
            m.put("devices", r.trace().devices().stream().distinct().toList());
            m.put("gpu", r.trace().gpu());
            m.put("shapes", r.trace().shapes());
            List<Map<String, Object>> steps = new ArrayList<>();
            for (StepBreakdown s : r.steps()) {
                Map<String, Object> step = new LinkedHashMap<>();
                step.put("name", s.name());
                step.put("seconds", s.wallSeconds());
                step.put("markedSeconds", s.markedSeconds());
                step.put("busySeconds", s.busySeconds());
                step.put("idleSeconds", s.idleSeconds());
                step.put("kernelSeconds", s.kernelSeconds());
                step.put("classSeconds", labelled(s.classSeconds()));
                step.put("classUnionSeconds", labelled(s.classUnionSeconds()));
                Map<String, Double> streams = new LinkedHashMap<>();
                s.streamSeconds().forEach((id, seconds) -> streams.put(String.valueOf(id), seconds));
                step.put(r.trace().gpu() ? "streamSeconds" : "threadSeconds", streams);
                step.put("communicationOverlappedSeconds", s.communicationOverlappedSeconds());
                List<Map<String, Object>> top = new ArrayList<>();
                for (StepBreakdown.TopActivity t : s.top()) {
                    Map<String, Object> k = new LinkedHashMap<>();
                    k.put("name", t.name());
                    k.put("operator", t.operator());
                    k.put("class", t.traceClass().label());
                    k.put("count", t.count());
                    k.put("seconds", t.seconds());
                    top.add(k);
                }
                step.put("top", top);
                steps.add(step);
            }
            m.put("steps", steps);
            m.put("gpuKernelSeconds", r.kernelSeconds());
            m.put("classSeconds", labelled(r.classSeconds()));
            m.put("notes", r.trace().notes());
            list.add(m);
        }
        return list;
    }

    private static Map<String, Double> labelled(Map<TraceClass, Double> seconds) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (TraceClass c : TraceClass.values()) {
            m.put(c.label(), seconds.getOrDefault(c, 0.0));
        }
        return m;
    }

    public static void print(PrintWriter out, List<RankSummary> ranks, TraceAnalysis.Straggler straggler,
                             Machine machine, Map<String, Object> result) {
        for (RankSummary r : ranks) {
            var t = r.trace();
            out.printf(Locale.ROOT, "%s: %s (%s%s%s), %d step(s), %s%n", t.rank() >= 0 ? t.label() : "trace", t.file(), t.format(),
                    t.worldSize() > 0 ? ", world size " + t.worldSize() : "",
                    t.devices().isEmpty() ? "" : ", " + String.join(", ", t.devices().stream().distinct().toList()),
                    r.steps().size(), t.gpu() ? "GPU kernels" : "CPU operators (no GPU events)");
            out.printf(Locale.ROOT, "  %-18s %9s %9s %9s", "step", "wall ms", "busy ms", "idle ms");
            for (TraceClass c : TraceClass.values()) {
                out.printf(Locale.ROOT, " %9s", shortLabel(c));
            }
            out.printf(Locale.ROOT, " %9s%n", "comm-ovl");
            for (StepBreakdown s : r.steps()) {
                out.printf(Locale.ROOT, "  %-18s %9.2f %9.2f %9.2f", s.name(), ms(s.wallSeconds()), ms(s.busySeconds()),
                        ms(s.idleSeconds()));
                for (TraceClass c : TraceClass.values()) {
                    out.printf(Locale.ROOT, " %9.2f", ms(s.classSeconds().get(c)));
                }
                out.printf(Locale.ROOT, " %9.2f%n", ms(s.communicationOverlappedSeconds()));
            }
            out.printf(Locale.ROOT, "  class columns: ms of activity summed over %s; busy is their union; comm-ovl is "
                    + "communication under other work%n", t.gpu() ? "streams" : "threads");
            if (!r.steps().isEmpty()) {
                StepBreakdown last = r.steps().get(r.steps().size() - 1);
                out.printf(Locale.ROOT, "  top in %s:%n", last.name());
                for (StepBreakdown.TopActivity a : last.top()) {
                    out.printf(Locale.ROOT, "    %9.3f ms  %-13s x%-5d %s%n", ms(a.seconds()), a.traceClass().label(),
                            a.count(), cut(a.name()));
                }
            }
            for (String note : t.notes()) {
                out.println("  note: " + note);
            }
        }
        if (straggler != null) {
            out.printf(Locale.ROOT, "straggler: %s (%s), mean step %.2f ms, %.1f%% slower than the median rank's %.2f ms%n",
                    straggler.rank(), straggler.file(), ms(straggler.meanStepSeconds()),
                    100 * straggler.slowerThanMedian(), ms(straggler.medianStepSeconds()));
        }
        if (machine != null) {
            @SuppressWarnings("unchecked")
            Map<String, Object> against = (Map<String, Object>) result.get("againstMachine");
            @SuppressWarnings("unchecked")
            List<CeilingShares.Share> shares = (List<CeilingShares.Share>) against.get("classes");
            out.printf(Locale.ROOT, "%nagainst %s (%s):%n", machine.id(), machine.source());
            List<String> devices = ranks.stream().flatMap(r -> r.trace().devices().stream()).distinct().toList();
            if (!devices.isEmpty()) {
                out.printf(Locale.ROOT, "  the trace ran on %s; these ceilings are %s's (%s)%n", String.join(", ", devices),
                        machine.id(), machine.device().name());
            }
            if (shares.isEmpty()) {
                out.println("  " + against.get("note"));
            }
            for (CeilingShares.Share s : shares) {
                String rate = s.unit().equals("B/s") ? Units.formatBandwidth(s.achieved()) : Units.formatFlops(s.achieved());
                String measured = Double.isNaN(s.measuredShare()) ? "no measured " + s.ceiling()
                        : String.format(Locale.ROOT, "%.0f%% of the measured %s %s (%s)", 100 * s.measuredShare(),
                        s.ceiling(), format(s.unit(), s.measuredCeiling()), s.measuredSource());
                String datasheet = Double.isNaN(s.datasheetShare()) ? "no datasheet figure"
                        : String.format(Locale.ROOT, "%.0f%% of the datasheet's %s (%s)", 100 * s.datasheetShare(),
                        format(s.unit(), s.datasheetCeiling()), s.datasheetSource());
                out.printf(Locale.ROOT, "  %-11s run at %s: %s; %s  [%.1f of %.1f ms have shapes]%n",
                        s.traceClass().label(), rate, measured, datasheet, ms(s.seconds()), ms(s.classSeconds()));
                if (s.measuredShare() > 1 || s.datasheetShare() > 1) {
                    out.printf(Locale.ROOT, "  %-11s above its ceiling: the trace ran on another machine than these "
                            + "ceilings', or faster than the shapes' types allow (float GEMMs on TF32 tensor cores), "
                            + "or the shapes overcount%n", "");
                }
            }
        }
        Object comparison = result.get("againstPrediction");
        if (comparison instanceof PredictionComparison.Comparison c) {
            out.printf(Locale.ROOT, "%nagainst the prediction (%s on %s), per step:%n", c.workload(), c.machine());
            out.printf(Locale.ROOT, "  %-14s %12s %12s %9s%n", "", "measured ms", "predicted ms", "error");
            for (PredictionComparison.Row row : c.rows()) {
                out.printf(Locale.ROOT, "  %-14s %12.2f %12.2f %9s%n", row.what(), ms(row.measuredSeconds()),
                        ms(row.predictedSeconds()), Double.isNaN(row.error()) ? "-"
                                : String.format(Locale.ROOT, "%+.0f%%", 100 * row.error()));
            }
            if (c.unattributedSeconds() > 0) {
                out.printf(Locale.ROOT, "  (%.2f ms of the predicted step is in no operation: fixed terms)%n",
                        ms(c.unattributedSeconds()));
            }
            c.notes().forEach(n -> out.println("  note: " + n));
        }
        Object projections = result.get("projections");
        if (projections instanceof List<?> list) {
            for (Object o : list) {
                Projection.Result p = (Projection.Result) o;
                out.printf(Locale.ROOT, "%non %s: mean step %.2f ms (%s measured %.2f ms on %s, x %.2f)%n", p.target(),
                        ms(p.meanProjectedSeconds()), p.rank(), ms(p.meanMeasuredSeconds()), p.source(),
                        p.meanProjectedSeconds() / p.meanMeasuredSeconds());
                for (Projection.Ratio r : p.ratios()) {
                    out.printf(Locale.ROOT, "  %-13s x %.3f  %s%n", r.traceClass().label(), r.ratio(), r.basis());
                }
                out.println("  idle and launch gaps kept as measured");
            }
        }
    }

    private static String format(String unit, double value) {
        return unit.equals("B/s") ? Units.formatBandwidth(value) : Units.formatFlops(value);
    }

    private static String shortLabel(TraceClass c) {
        return switch (c) {
            case ELEMENTWISE -> "elemwise";
            case COMMUNICATION -> "comm";
            case ATTENTION -> "attention";
            case OPTIMIZER -> "optimizer";
            default -> c.label();
        };
    }

    private static double ms(double seconds) {
        return seconds * 1e3;
    }

    private static String cut(String name) {
        return name.length() <= NAME_WIDTH ? name : name.substring(0, NAME_WIDTH - 3) + "...";
    }
}
