package membound.trace.compare;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import membound.model.OperationRow;
import membound.model.Prediction;
import membound.trace.RankSummary;
import membound.trace.StepBreakdown;
import membound.trace.TraceClass;

/**
 * The trace against membound's prediction for the same setup: the mean measured step beside the predicted one, class
 * by class, with the error of each ((predicted - measured) / measured) — the user's own {@code validate}. The
 * prediction's operations are put in the trace's classes by their kernel (GEMM, attention, elementwise work; a
 * norm by its name) and their operation class (the optimizer, communication, offload transfers as copies).
 */
public final class PredictionComparison {

    /** One class: measured (mean per step over ranks and steps) and predicted seconds per step. */
    public record Row(String what, double measuredSeconds, double predictedSeconds, double error) {
    }

    /** The rows, the step first; {@code unattributed} is the predicted step not in any operation (fixed terms). */
    public record Comparison(String machine, String workload, List<Row> rows, double unattributedSeconds,
                             List<String> notes) {
    }

    private PredictionComparison() {
    }

    public static Comparison of(List<RankSummary> ranks, Prediction prediction) {
        double steps = 0;
        double wall = 0;
        Map<TraceClass, Double> measured = new EnumMap<>(TraceClass.class);
        for (RankSummary r : ranks) {
            for (StepBreakdown s : r.steps()) {
                steps++;
                wall += s.wallSeconds();
                s.classSeconds().forEach((c, v) -> measured.merge(c, v, Double::sum));
            }
        }
        Map<TraceClass, Double> predicted = new EnumMap<>(TraceClass.class);
        double attributed = 0;
        for (OperationRow row : prediction.operations()) {
            TraceClass c = classOf(row);
            if (c != null) {
                predicted.merge(c, row.seconds(), Double::sum);
            }
            attributed += row.seconds();
        }
        double step = prediction.measured().stepSeconds();
        List<Row> rows = new ArrayList<>();
        double measuredStep = wall / steps;
        rows.add(new Row("step", measuredStep, step, (step - measuredStep) / measuredStep));
        for (TraceClass c : TraceClass.values()) {
            double m = measured.getOrDefault(c, 0.0) / steps;
            double p = predicted.getOrDefault(c, 0.0);
            if (m == 0 && p == 0) {
                continue;
            }
            rows.add(new Row(c.label(), m, p, m == 0 ? Double.NaN : (p - m) / m));
        }
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "measured: the mean of %d step(s) over %d rank file(s); predicted: membound "
                + "predict on %s (%s), measured basis", (int) steps, ranks.size(), prediction.machine(),
                prediction.machineSource()));
        return new Comparison(prediction.machine(), prediction.workload(), rows, Math.max(0, step - attributed), notes);
    }

    /** The trace class a predicted operation's time falls in; null for a pipeline bubble (idle, not a class). */
    static TraceClass classOf(OperationRow row) {
        String cls = row.operationClass();
        String name = row.name().toLowerCase(Locale.ROOT);
        if (cls.equals("optimizer")) {
            return TraceClass.OPTIMIZER;
        }
        if (cls.equals("communication")) {
            return TraceClass.COMMUNICATION;
        }
        if (cls.equals("offload")) {
            return TraceClass.MEMCPY;
        }
        if (cls.equals("pipeline bubble")) {
            return null;
        }
        return switch (row.kernel()) {
            case "gemm", "sparse gemm" -> TraceClass.GEMM;
            case "attention" -> TraceClass.ATTENTION;
            case "transfer" -> TraceClass.MEMCPY;
            default -> name.contains("norm") ? TraceClass.NORM : TraceClass.ELEMENTWISE;
        };
    }
}
