package membound.validate;

import java.util.Locale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import membound.vocabulary.text.Numbers;
import membound.vocabulary.units.Units;

/** A validation report as a table for people and as JSON for programs (and the recorded run). */
public final class ReportFormat {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportFormat() {
    }

    public static String text(ValidationReport report) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%nmeasured: JMH, median step [p5 - p95]; predicted: the model on the "
                + "profile's measured ceilings; error = (predicted - measured) / measured%n"));
        s.append(String.format(Locale.ROOT, "%-26s %-30s %11s %8s %9s %8s  %s%n", "workload", "measured", "predicted",
                "error", "vs probe", "mem-bound", "datasheet-based"));
        for (ValidationReport.Row row : report.rows()) {
            ValidationReport.Measured m = row.measured();
            String measured = Numbers.secondsOrMillis(m.medianSeconds()) + " [" + Numbers.secondsOrMillis(m.p5Seconds()) + " - "
                    + Numbers.secondsOrMillis(m.p95Seconds()) + "]";
            String datasheet = row.datasheetSeconds() == null ? "unknown"
                    : Numbers.secondsOrMillis(row.datasheetSeconds()) + " (" + Numbers.signedPercent(row.datasheetError()) + ")";
            s.append(String.format(Locale.ROOT, "%-26s %-30s %11s %8s %9s %7.0f%%  %s%n", row.workload().label(), measured,
                    Numbers.secondsOrMillis(row.predictedSeconds()), Numbers.signedPercent(row.error()),
                    row.probedError() == null ? "-" : Numbers.signedPercent(row.probedError()), 100 * row.memoryBoundShare(),
                    datasheet));
        }
        s.append(String.format(Locale.ROOT, "mean |error| %.1f%%, largest %.1f%%%n", 100 * report.meanAbsoluteError(),
                100 * report.maxAbsoluteError()));
        if (report.drift() != null) {
            s.append("vs probe: the error of the prediction on the profile rescaled to the drift probe's rates; ")
                    .append(report.drift().describe()).append('\n');
        }
        s.append("\nworkloads:\n");
        for (ValidationReport.Row row : report.rows()) {
            s.append("  ").append(row.workload().label()).append(": ").append(row.sizes());
            if (!row.tenantMedianSeconds().isEmpty()) {
                s.append("; each tenant's own median step:");
                for (int t = 0; t < row.tenantMedianSeconds().size(); t++) {
                    s.append(' ').append(Numbers.secondsOrMillis(row.tenantMedianSeconds().get(t)));
                }
            }
            s.append('\n');
        }
        s.append("datasheet-based: ").append(report.datasheetBandwidth() == null ? report.datasheetSource()
                : Units.formatBandwidth(report.datasheetBandwidth()) + " (" + report.datasheetSource() + ")")
                .append('\n');
        for (ValidationReport.Row row : report.rows()) {
            if (row.operations().stream().anyMatch(o -> o.measuredSeconds() != null)) {
                s.append(String.format(Locale.ROOT, "%n%s, per operation (timed alone in this JVM):%n%-48s %-8s %11s "
                        + "%11s %8s%n", row.workload().label(), "operation", "bound", "predicted", "measured", "error"));
                for (ValidationReport.OperationRow op : row.operations()) {
                    s.append(String.format(Locale.ROOT, "%-48s %-8s %11s %11s %8s%n", op.name(), op.bound(),
                            Numbers.secondsOrMillis(op.predictedSeconds()),
                            op.measuredSeconds() == null ? "-" : Numbers.secondsOrMillis(op.measuredSeconds()),
                            op.measuredSeconds() == null ? "" : Numbers.signedPercent(
                                    (op.predictedSeconds() - op.measuredSeconds()) / op.measuredSeconds())));
                }
            }
        }
        for (String note : report.notes()) {
            s.append("note: ").append(note).append('\n');
        }
        s.append(String.format(Locale.ROOT, "profile: %s (calibrated %s)%n", report.profileFile(),
                report.profileCreatedUtc()));
        if (report.loadAverageBefore() != null) {
            s.append(String.format(Locale.ROOT, "load average: %.2f at the start, %.2f at the end%n",
                    report.loadAverageBefore(), report.loadAverageAfter()));
        }
        if (report.otherCpus() != null) {
            s.append(String.format(Locale.ROOT, "other processes: %.2f of %d cpus on average while the workloads ran "
                    + "(/proc/stat)%n", report.otherCpus(), report.cpus()));
        }
        return s.toString();
    }

    public static ObjectNode tree(ValidationReport report) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        root.put("schema", "membound-validation");
        root.put("schemaVersion", 1);
        root.put("hostname", report.hostname());
        root.put("cpu", report.cpu());
        root.put("logicalCpus", report.cpus());
        root.put("createdUtc", report.createdUtc());
        root.put("profileFile", report.profileFile());
        root.put("profileCreatedUtc", report.profileCreatedUtc());
        if (report.datasheetBandwidth() != null) {
            root.put("datasheetBytesPerSecond", report.datasheetBandwidth());
        }
        root.put("datasheetSource", report.datasheetSource());
        ArrayNode rows = root.putArray("workloads");
        for (ValidationReport.Row row : report.rows()) {
            ObjectNode r = rows.addObject();
            r.put("id", row.workload().id());
            r.put("label", row.workload().label());
            r.put("sizes", row.sizes());
            ObjectNode measured = r.putObject("measuredStepSeconds");
            measured.put("median", row.measured().medianSeconds());
            measured.put("p5", row.measured().p5Seconds());
            measured.put("p95", row.measured().p95Seconds());
            measured.put("samples", row.measured().samples());
            r.put("predictedStepSeconds", row.predictedSeconds());
            r.put("error", row.error());
            r.put("predictedMemoryBoundShare", row.memoryBoundShare());
            if (row.probedSeconds() != null) {
                r.put("probedStepSeconds", row.probedSeconds());
                r.put("probedError", row.probedError());
            }
            if (row.datasheetSeconds() != null) {
                r.put("datasheetStepSeconds", row.datasheetSeconds());
                r.put("datasheetError", row.datasheetError());
            } else {
                r.putNull("datasheetStepSeconds");
            }
            if (!row.tenantMedianSeconds().isEmpty()) {
                ArrayNode tenants = r.putArray("tenantMedianStepSeconds");
                row.tenantMedianSeconds().forEach(tenants::add);
            }
            ArrayNode operations = r.putArray("operations");
            for (ValidationReport.OperationRow op : row.operations()) {
                ObjectNode o = operations.addObject();
                o.put("name", op.name());
                o.put("bound", op.bound());
                o.put("predictedSeconds", op.predictedSeconds());
                if (op.measuredSeconds() != null) {
                    o.put("measuredSeconds", op.measuredSeconds());
                }
            }
        }
        if (report.drift() != null) {
            ObjectNode drift = root.putObject("driftProbe");
            drift.set("profile", JSON.valueToTree(report.drift().profile()));
            drift.set("before", JSON.valueToTree(report.drift().before()));
            drift.set("after", JSON.valueToTree(report.drift().after()));
            drift.put("bandwidthFactor", report.drift().bandwidthFactor());
            drift.put("computeFactor", report.drift().computeFactor());
            drift.put("drifted", report.drift().drifted());
        }
        root.put("meanAbsoluteError", report.meanAbsoluteError());
        root.put("maxAbsoluteError", report.maxAbsoluteError());
        if (report.loadAverageBefore() != null) {
            root.put("loadAverageBefore", report.loadAverageBefore());
            root.put("loadAverageAfter", report.loadAverageAfter());
        }
        if (report.otherCpus() != null) {
            root.put("otherCpus", report.otherCpus());
        }
        root.put("settings", report.settings());
        root.put("commandLine", report.commandLine());
        ArrayNode notes = root.putArray("notes");
        report.notes().forEach(notes::add);
        return root;
    }

    public static String json(ValidationReport report) {
        return json(tree(report));
    }

    /** Any tree as validate prints JSON: indented, with a final newline. */
    public static String json(com.fasterxml.jackson.databind.JsonNode tree) {
        try {
            return JSON.writeValueAsString(tree) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a validation report must serialize: " + e.getMessage(), e);
        }
    }
}
