package membound.calibrator.imports;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;

import membound.benchmarks.results.PassTimes;
import membound.benchmarks.results.StreamResult;
import membound.benchmarks.stream.StreamBenchmark;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.stream.StreamWorkload;
import membound.profile.Distribution;
import membound.profile.Provenance;
import membound.vocabulary.BadInputException;

/**
 * Reads the JMH result JSON of membound's own suite ({@code mvn -pl benchmarks jmh:run}, {@code java -jar
 * benchmarks.jar}, or the raw file kept beside a profile): each {@link StreamBenchmark} result becomes a
 * bandwidth figure, its distribution rebuilt from JMH's {@code rawDataHistogram} (every pass time) and the bytes
 * per pass the kernel table gives for its parameters. The suite writes every working set resolved
 * ({@code DRAM:2130706432}) and every team size as a number, so a file read on another machine means what it
 * meant where it was measured; a file with symbolic sizes is refused. Latency and compute results are listed
 * as not imported (a profile takes them from {@code calibrate}). JMH's {@code "NaN"} strings are accepted where
 * JMH writes them (errors and confidence of a single sample), which this importer does not use.
 */
final class JmhResultImporter {

    static final String TOOL = "JMH (membound benchmarks)";
    /** No pass of the suite lasts an hour: a longer time is a corrupt file, not a measurement. */
    static final long MAX_PASS_NANOS = 3_600_000_000_000L;

    private JmhResultImporter() {
    }

    static ImportedFigures parse(JsonNode root, String file) {
        if (root == null || !root.isArray() || root.isEmpty()) {
            throw bad(file, "$", "a non-empty JSON array of JMH results", root == null ? "nothing" : root.getNodeType());
        }
        List<ImportedBandwidth> bandwidth = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        String jmhVersion = null;
        Map<String, String> settings = new TreeMap<>();
        for (int i = 0; i < root.size(); i++) {
            JsonNode result = root.get(i);
            String at = "$[" + i + "]";
            String benchmark = text(result, "benchmark", file, at);
            jmhVersion = text(result, "jmhVersion", file, at);
            if (!benchmark.startsWith(StreamBenchmark.class.getName() + ".")) {
                skipped.add(benchmark + ": only bandwidth (StreamBenchmark) results are imported; latency and compute "
                        + "come from membound calibrate");
                continue;
            }
            String mode = text(result, "mode", file, at);
            if (!mode.equals("sample")) {
                throw bad(file, at + ".mode", "sample (the suite's SampleTime mode, which keeps every pass)", mode);
            }
            JsonNode params = field(result, "params", file, at);
            String workingSet = text(params, "workingSet", file, at + ".params");
            if (workingSet.indexOf(':') < 0) {
                throw bad(file, at + ".params.workingSet", "resolved, as LABEL:BYTES (the suite writes it so)", workingSet);
            }
            // Resolved on the host that ran it: a level or "all" would be resolved again on this one.
            String threads = text(params, "threads", file, at + ".params");
            if (!threads.matches("[0-9]+")) {
                throw bad(file, at + ".params.threads", "a team size (the suite writes it resolved)", threads);
            }
            JsonNode primary = field(result, "primaryMetric", file, at);
            PassTimes passTimes = passTimes(text(primary, "scoreUnit", file, at + ".primaryMetric"),
                    field(primary, "rawDataHistogram", file, at + ".primaryMetric"), file, at + ".primaryMetric");
            // The same reading of the parameters as a result in memory gets (StreamResult.of).
            StreamResult stream;
            try {
                stream = StreamResult.of(name -> params.hasNonNull(name) ? params.get(name).asText() : null, passTimes,
                        null);
            } catch (BadInputException e) {
                throw bad(file, at + ".params", "a workload the suite can run (" + e.getMessage() + ")", params);
            }
            StreamWorkload workload = stream.workload();
            StreamKernel kernel = workload.kernel();
            String implementation = stream.implementation().name().toLowerCase(Locale.ROOT);
            Map<String, String> figureSettings = new TreeMap<>();
            params.fieldNames().forEachRemaining(name -> figureSettings.put("param." + name, params.get(name).asText()));
            figureSettings.put("jmh.forks", result.path("forks").asText());
            figureSettings.put("jmh.measurementIterations", result.path("measurementIterations").asText());
            figureSettings.put("jmh.measurementTime", result.path("measurementTime").asText());
            figureSettings.put("jmh.warmupIterations", result.path("warmupIterations").asText());
            settings.putAll(Map.of("jmh.forks", result.path("forks").asText(),
                    "jmh.measurementIterations", result.path("measurementIterations").asText(),
                    "jmh.measurementTime", result.path("measurementTime").asText()));
            String kernelName = kernel.name().toLowerCase(Locale.ROOT);
            bandwidth.add(new ImportedBandwidth(kernelName, workload.elementType().javaName(), workload.threads(),
                    workload.footprintBytes(),
                    Distribution.ofDurationHistogram(workload.streamBytesPerPass(), passTimes.histogram()),
                    Provenance.imported(TOOL, jmhVersion, "StreamBenchmark " + kernel.label() + " (" + implementation
                            + "), " + workingSet, file, figureSettings)));
        }
        if (bandwidth.isEmpty()) {
            throw bad(file, "$", "at least one StreamBenchmark result", root.size() + " results, none of them bandwidth");
        }
        return new ImportedFigures(TOOL, jmhVersion, new TreeMap<>(settings), null, bandwidth, List.of(), null, null,
                List.of(), skipped, List.of());
    }

    /** JMH's {@code rawDataHistogram} (forks of iterations of [time, count] pairs), checked pair by pair. */
    private static PassTimes passTimes(String scoreUnit, JsonNode forks, String file, String at) {
        double nanosPerUnit;
        try {
            nanosPerUnit = PassTimes.nanosPerUnit(scoreUnit);
        } catch (BadInputException | StringIndexOutOfBoundsException e) {
            throw bad(file, at + ".scoreUnit", "a time per operation (ns/op, us/op, ms/op, s/op)", scoreUnit);
        }
        at = at + ".rawDataHistogram";
        if (!forks.isArray()) {
            throw bad(file, at, "an array of forks", forks.getNodeType());
        }
        List<double[]> samples = new ArrayList<>();
        for (JsonNode iterations : forks) {
            for (JsonNode iteration : iterations) {
                for (JsonNode pair : iteration) {
                    if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isNumber() || !pair.get(1).isIntegralNumber()) {
                        throw bad(file, at, "[time, count] pairs", pair);
                    }
                    double time = pair.get(0).asDouble();
                    long count = pair.get(1).asLong();
                    if (!(time > 0) || Double.isInfinite(time) || count <= 0) {
                        throw bad(file, at, "positive times and counts", pair);
                    }
                    long nanos = Math.round(time * nanosPerUnit);
                    if (nanos <= 0 || nanos > MAX_PASS_NANOS) {
                        throw bad(file, at, "pass times from 1 ns to an hour", pair);
                    }
                    samples.add(new double[] {time, count});
                }
            }
        }
        if (samples.isEmpty()) {
            throw bad(file, at, "at least one sample", "none");
        }
        return PassTimes.ofSamples(scoreUnit, samples);
    }

    private static JsonNode field(JsonNode node, String name, String file, String at) {
        JsonNode value = node == null ? null : node.get(name);
        if (value == null || value.isNull()) {
            throw bad(file, at + "." + name, "present", "missing");
        }
        return value;
    }

    private static String text(JsonNode node, String name, String file, String at) {
        JsonNode value = field(node, name, file, at);
        if (!value.isTextual() || value.asText().isBlank()) {
            throw bad(file, at + "." + name, "text", value);
        }
        return value.asText();
    }

    private static BadInputException bad(String file, String at, String rule, Object value) {
        String shown = String.valueOf(value);
        if (shown.length() > 60) {
            shown = shown.substring(0, 57) + "...";
        }
        return new BadInputException("JMH result " + at.replaceFirst("^\\$\\.?", "") + " must be " + rule + ": file="
                + file + ", at=" + at + ", value=" + shown.replace('\n', ' '));
    }

}
