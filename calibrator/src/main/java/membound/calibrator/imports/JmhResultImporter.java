package membound.calibrator.imports;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import org.HdrHistogram.Histogram;

import membound.benchmarks.stream.ElementType;
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
            StreamKernel kernel = parameter(params, "kernel", file, at, StreamKernel::of);
            ElementType type = parameter(params, "elementType", file, at, ElementType::of);
            int threads = parameter(params, "threads", file, at, Integer::parseInt);
            String workingSet = text(params, "workingSet", file, at + ".params");
            int separator = workingSet.indexOf(':');
            if (separator < 0) {
                throw bad(file, at + ".params.workingSet", "resolved, as LABEL:BYTES (the suite writes it so)", workingSet);
            }
            long arrayBytes = parameter(params, "workingSet", file, at,
                    text -> Long.parseLong(text.substring(text.indexOf(':') + 1)));
            String implementation = params.has("implementation") ? params.get("implementation").asText() : "vector";
            StreamWorkload workload;
            try {
                workload = StreamWorkload.of(kernel, type, arrayBytes, threads);
            } catch (IllegalArgumentException e) {
                throw bad(file, at + ".params", "a workload the suite can run (" + e.getMessage() + ")", params);
            }
            JsonNode primary = field(result, "primaryMetric", file, at);
            double nanosPerUnit = nanosPerUnit(text(primary, "scoreUnit", file, at + ".primaryMetric"), file, at);
            Histogram passTimeNanos = passTimes(field(primary, "rawDataHistogram", file, at + ".primaryMetric"),
                    nanosPerUnit, file, at + ".primaryMetric.rawDataHistogram");
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
            bandwidth.add(new ImportedBandwidth(kernelName, ImportedBandwidth.accessOf(kernelName), type.javaName(),
                    threads, workload.footprintBytes(),
                    Distribution.ofDurationHistogram(workload.streamBytesPerPass(), passTimeNanos),
                    Provenance.imported(TOOL, jmhVersion, "StreamBenchmark " + kernel.label() + " (" + implementation
                            + "), " + workingSet, file, figureSettings)));
        }
        if (bandwidth.isEmpty()) {
            throw bad(file, "$", "at least one StreamBenchmark result", root.size() + " results, none of them bandwidth");
        }
        return new ImportedFigures(TOOL, jmhVersion, new TreeMap<>(settings), null, bandwidth, List.of(), null, null,
                List.of(), skipped);
    }

    private static Histogram passTimes(JsonNode forks, double nanosPerUnit, String file, String at) {
        Histogram histogram = new Histogram(3);
        if (!forks.isArray()) {
            throw bad(file, at, "an array of forks", forks.getNodeType());
        }
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
                    histogram.recordValueWithCount(nanos, count);
                }
            }
        }
        if (histogram.getTotalCount() == 0) {
            throw bad(file, at, "at least one sample", "none");
        }
        return histogram;
    }

    private static double nanosPerUnit(String unit, String file, String at) {
        return switch (unit) {
            case "ns/op" -> 1;
            case "us/op" -> 1e3;
            case "ms/op" -> 1e6;
            case "s/op" -> 1e9;
            default -> throw bad(file, at + ".primaryMetric.scoreUnit", "a time per operation (ns/op, us/op, ms/op, s/op)",
                    unit);
        };
    }

    private interface Parse<T> {
        T apply(String text);
    }

    private static <T> T parameter(JsonNode params, String name, String file, String at, Parse<T> parse) {
        String text = text(params, name, file, at + ".params");
        try {
            return parse.apply(text);
        } catch (RuntimeException e) {
            throw bad(file, at + ".params." + name, "a value the suite writes", text);
        }
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
