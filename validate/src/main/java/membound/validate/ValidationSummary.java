package membound.validate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import membound.vocabulary.BadInputException;
import membound.vocabulary.files.InputFiles;
import membound.vocabulary.text.Numbers;

/**
 * Several recorded validations summarized per workload by their medians: on a shared machine one run swings
 * by more than the model's error, so the figures worth quoting are the medians over repeated
 * calibrate-then-validate rounds, with the load each ran under.
 */
public final class ValidationSummary {

    /** One recorded run, as far as a summary needs it. */
    public record Run(String file, String createdUtc, String profileFile, Double loadAverageBefore,
            Double otherCpus, Map<String, double[]> workloads) {
    }

    /**
     * Per workload: medians over the runs of the measured step, the prediction and the error (and of the
     * datasheet-based prediction's error where every run had one).
     */
    public record Line(String id, String label, int runs, double measuredSeconds, double predictedSeconds,
            double error, double absoluteError, Double datasheetError) {
    }

    private final List<Run> runs;
    private final List<Line> lines;

    private ValidationSummary(List<Run> runs, List<Line> lines) {
        this.runs = List.copyOf(runs);
        this.lines = List.copyOf(lines);
    }

    public List<Run> runs() {
        return runs;
    }

    public List<Line> lines() {
        return lines;
    }

    /** Mean over the workloads of their median |error|. */
    public double meanAbsoluteError() {
        return lines.stream().mapToDouble(Line::absoluteError).average().orElse(Double.NaN);
    }

    /**
     * Reads recorded validations ({@code results/validate/*.json}).
     *
     * @throws BadInputException naming a file that is not a recorded validation
     */
    public static ValidationSummary of(List<Path> files) {
        ObjectMapper mapper = membound.profile.ProfileJson.strictMapper();
        List<Run> runs = new ArrayList<>();
        Map<String, String> labels = new LinkedHashMap<>();
        for (Path file : files) {
            JsonNode root;
            try {
                root = mapper.readTree(InputFiles.readBytes(file, "summary file", InputFiles.Kind.TOOL_OUTPUT));
            } catch (IOException e) {
                throw new BadInputException("summary file must be a readable recorded validation: file=" + file
                        + ", problem=" + e.getMessage(), e);
            }
            if (root == null || !"membound-validation".equals(root.path("schema").asText())) {
                throw new BadInputException("summary file must be a recorded validation (schema membound-validation): "
                        + "file=" + file);
            }
            Map<String, double[]> workloads = new LinkedHashMap<>();
            for (JsonNode w : root.path("workloads")) {
                String id = w.path("id").asText();
                labels.putIfAbsent(id, w.path("label").asText());
                JsonNode datasheet = w.path("datasheetError");
                workloads.put(id, new double[] {w.path("measuredStepSeconds").path("median").asDouble(),
                        w.path("predictedStepSeconds").asDouble(), w.path("error").asDouble(),
                        datasheet.isNumber() ? datasheet.asDouble() : Double.NaN});
            }
            runs.add(new Run(file.toString(), root.path("createdUtc").asText(), root.path("profileFile").asText(),
                    root.path("loadAverageBefore").isNumber() ? root.path("loadAverageBefore").asDouble() : null,
                    root.path("otherCpus").isNumber() ? root.path("otherCpus").asDouble() : null, workloads));
        }
        List<Line> lines = new ArrayList<>();
        for (Map.Entry<String, String> workload : labels.entrySet()) {
            List<double[]> values = runs.stream().map(r -> r.workloads().get(workload.getKey()))
                    .filter(v -> v != null).toList();
            double[] datasheet = values.stream().mapToDouble(v -> v[3]).toArray();
            boolean everyDatasheet = Arrays.stream(datasheet).noneMatch(Double::isNaN);
            lines.add(new Line(workload.getKey(), workload.getValue(), values.size(),
                    median(values.stream().mapToDouble(v -> v[0]).toArray()),
                    median(values.stream().mapToDouble(v -> v[1]).toArray()),
                    median(values.stream().mapToDouble(v -> v[2]).toArray()),
                    median(values.stream().mapToDouble(v -> Math.abs(v[2])).toArray()),
                    everyDatasheet ? median(datasheet) : null));
        }
        return new ValidationSummary(runs, lines);
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    public String text() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%d recorded validations; medians over the runs%n", runs.size()));
        s.append(String.format(Locale.ROOT, "%-26s %5s %12s %12s %8s %8s  %s%n", "workload", "runs", "measured",
                "predicted", "error", "|error|", "datasheet-based error"));
        for (Line line : lines) {
            s.append(String.format(Locale.ROOT, "%-26s %5d %12s %12s %8s %7.1f%%  %s%n", line.label(), line.runs(),
                    Numbers.secondsOrMillis(line.measuredSeconds()), Numbers.secondsOrMillis(line.predictedSeconds()),
                    Numbers.signedPercent(line.error()), 100 * line.absoluteError(),
                    line.datasheetError() == null ? "unknown" : Numbers.signedPercent(line.datasheetError())));
        }
        s.append(String.format(Locale.ROOT, "mean of the median |error|: %.1f%%%n", 100 * meanAbsoluteError()));
        s.append("runs (load average at the start; cpus other processes used while it ran):\n");
        for (Run run : runs) {
            s.append(String.format(Locale.ROOT, "  %s  %s  load %s  others %s  profile %s%n", run.createdUtc(),
                    Path.of(run.file()).getFileName(), run.loadAverageBefore() == null ? "?"
                            : String.format(Locale.ROOT, "%.2f", run.loadAverageBefore()),
                    run.otherCpus() == null ? "?" : String.format(Locale.ROOT, "%.2f", run.otherCpus()),
                    Path.of(run.profileFile()).getFileName()));
        }
        return s.toString();
    }

    public ObjectNode tree() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("runs", runs.size());
        ArrayNode workloads = root.putArray("workloads");
        for (Line line : lines) {
            ObjectNode w = workloads.addObject();
            w.put("id", line.id());
            w.put("label", line.label());
            w.put("runs", line.runs());
            w.put("medianMeasuredStepSeconds", line.measuredSeconds());
            w.put("medianPredictedStepSeconds", line.predictedSeconds());
            w.put("medianError", line.error());
            w.put("medianAbsoluteError", line.absoluteError());
            if (line.datasheetError() != null) {
                w.put("medianDatasheetError", line.datasheetError());
            }
        }
        root.put("meanOfMedianAbsoluteErrors", meanAbsoluteError());
        ArrayNode files = root.putArray("files");
        for (Run run : runs) {
            ObjectNode r = files.addObject();
            r.put("file", run.file());
            r.put("createdUtc", run.createdUtc());
            if (run.loadAverageBefore() != null) {
                r.put("loadAverageBefore", run.loadAverageBefore());
            }
            if (run.otherCpus() != null) {
                r.put("otherCpus", run.otherCpus());
            }
        }
        return root;
    }
}
