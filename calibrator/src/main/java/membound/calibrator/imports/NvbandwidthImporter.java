package membound.calibrator.imports;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import membound.profile.Distribution;
import membound.profile.Link;
import membound.profile.ProfileJson;
import membound.profile.Provenance;
import membound.vocabulary.BadInputException;

/**
 * nvbandwidth's output, as {@code -j} JSON ({@code {"nvbandwidth": {"version", "testcases": [{"name", "status",
 * "bandwidth_description", "bandwidth_matrix": [["12.3", "N/A"], ...], "sum"}]}}}) or as its text
 * ({@code Running NAME.}, the description, a matrix of GB/s with column and row indices, {@code SUM NAME X}), both
 * as {@code output.cpp} and {@code json_output.cpp} print them. GB/s are 10^9 bytes. Each figure is the median
 * (or, with {@code -m}, the mean) of the tool's test samples: one figure, no spread.
 *
 * <ul>
 *   <li>{@code device_local_copy} (a copy inside GPU memory) becomes a bandwidth figure of the device,
 *       kernel copy. nvbandwidth counts the bytes copied once; STREAM counts the read and the write, so
 *       the figure is stored as twice the printed one.</li>
 *   <li>host↔device tests ({@code host_to_device_memcpy_ce}, {@code device_to_host_memcpy_sm}, the
 *       bidirectional ones) become measurements of the CPU–GPU link; the link's bandwidth is taken over
 *       the unidirectional ones.</li>
 *   <li>{@code host_device_latency_sm} (ns) becomes the link's latency.</li>
 *   <li>Other tests (GPU↔GPU, multinode) and tests not Passed are listed as skipped.</li>
 * </ul>
 */
final class NvbandwidthImporter {

    static final String TOOL = "nvbandwidth";
    static final String WHAT = "nvbandwidth output";

    private static final Set<String> UNIDIRECTIONAL = Set.of("host_to_device_memcpy_ce", "device_to_host_memcpy_ce",
            "host_to_device_memcpy_sm", "device_to_host_memcpy_sm");

    private static final Pattern TEXT_VERSION = Pattern.compile("^nvbandwidth Version: (\\S+)");
    private static final Pattern TEXT_GIT = Pattern.compile("^Built from Git version: (\\S+)");
    private static final Pattern TEXT_RUNTIME = Pattern.compile("^CUDA Runtime Version: (\\S+)");
    private static final Pattern TEXT_DRIVER = Pattern.compile("^Driver Version: (\\S+)");
    private static final Pattern TEXT_DEVICE = Pattern.compile("^Device (\\d+): (.+?)\\s*$");
    private static final Pattern TEXT_RUNNING = Pattern.compile("^Running (\\S+)\\.\\s*$");
    private static final Pattern TEXT_STATUS = Pattern.compile("^(Waived|ERROR|Error|Failed)\\b.*");
    private static final Pattern TEXT_SUM = Pattern.compile("^SUM \\S+ \\S+\\s*$");

    /** One test as either output form gives it; {@code at} says where, for errors. */
    private record Testcase(String name, String status, String description, List<List<String>> matrix, String at) {
    }

    /** What the output says about the run, then its tests. */
    private record Run(String version, Map<String, String> settings, Map<Integer, String> devices,
                       List<Testcase> testcases) {
    }

    private NvbandwidthImporter() {
    }

    static ImportedFigures parse(byte[] bytes, String file, int gpuIndex) {
        String text = new String(bytes, StandardCharsets.UTF_8).stripLeading();
        // JSON (what -j prints is an object; anything else JSON is read as JSON and refused as such), else text.
        Run run = text.startsWith("{") || text.startsWith("[") ? json(ProfileJson.readTree(bytes, file, WHAT), file)
                : text(ToolOutput.of(bytes, file, WHAT));
        return figures(run, file, gpuIndex);
    }

    private static Run json(JsonNode root, String file) {
        JsonNode body = root.get("nvbandwidth");
        if (body == null || !body.isObject()) {
            throw new BadInputException(WHAT + " must be nvbandwidth -j JSON with a top-level \"nvbandwidth\" object: "
                    + "file=" + file);
        }
        if (body.hasNonNull("error") && !body.get("error").asText().isBlank()) {
            throw new BadInputException(WHAT + " must not report an error: file=" + file + ", error="
                    + firstLine(body.get("error").asText()));
        }
        JsonNode testcases = body.get("testcases");
        if (testcases == null || !testcases.isArray()) {
            throw new BadInputException(WHAT + " must have a \"testcases\" array: file=" + file);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        putText(settings, "cudaRuntimeVersion", body.get("CUDA Runtime Version"));
        putText(settings, "driverVersion", body.get("Driver Version"));
        putText(settings, "gitVersion", body.get("git_version"));
        List<Testcase> tests = new ArrayList<>();
        for (int t = 0; t < testcases.size(); t++) {
            JsonNode testcase = testcases.get(t);
            String at = "testcases[" + t + "]";
            String name = text(testcase.get("name"));
            if (name == null) {
                throw new BadInputException(WHAT + " testcase must have a name: file=" + file + ", at=" + at);
            }
            tests.add(new Testcase(name, text(testcase.get("status")), text(testcase.get("bandwidth_description")),
                    jsonMatrix(testcase.get("bandwidth_matrix"), file, at), at));
        }
        return new Run(text(body.get("version")), settings, jsonDevices(body.get("GPU Device list")), tests);
    }

    /** The matrix as printed strings; null where the testcase has none. */
    private static List<List<String>> jsonMatrix(JsonNode matrix, String file, String at) {
        if (matrix == null || !matrix.isArray()) {
            return null;
        }
        List<List<String>> rows = new ArrayList<>();
        for (int r = 0; r < matrix.size(); r++) {
            JsonNode row = matrix.get(r);
            List<String> cells = new ArrayList<>();
            for (int c = 0; row != null && row.isArray() && c < row.size(); c++) {
                JsonNode cell = row.get(c);
                if (!cell.isTextual() && !cell.isNumber()) {
                    throw new BadInputException(WHAT + " bandwidth_matrix cells must be numbers or \"N/A\": file="
                            + file + ", at=" + at + ".bandwidth_matrix[" + r + "][" + c + "], value=" + cell);
                }
                cells.add(cell.isTextual() ? cell.textValue() : cell.asText());
            }
            rows.add(row != null && row.isArray() ? cells : null);
        }
        return rows;
    }

    private static Map<Integer, String> jsonDevices(JsonNode list) {
        Map<Integer, String> devices = new TreeMap<>();
        if (list == null || !list.isArray()) {
            return devices;
        }
        for (Iterator<JsonNode> it = list.elements(); it.hasNext(); ) {
            String entry = text(it.next());
            Matcher m = entry == null ? null : Pattern.compile("^(\\d+): (.+)$").matcher(entry);
            if (m != null && m.matches()) {
                String rest = m.group(2);
                int host = rest.lastIndexOf(": (");
                String name = (host > 0 ? rest.substring(0, host) : rest).strip();
                if (!name.isEmpty() && m.group(1).length() < 10) {
                    devices.put(Integer.parseInt(m.group(1)), name);
                }
            }
        }
        return devices;
    }

    /** The text output: a header, then per test {@code Running NAME.}, its description, matrix and SUM line. */
    private static Run text(ToolOutput out) {
        Map<String, String> settings = new LinkedHashMap<>();
        putMatch(out, settings, "gitVersion", TEXT_GIT);
        putMatch(out, settings, "cudaRuntimeVersion", TEXT_RUNTIME);
        putMatch(out, settings, "driverVersion", TEXT_DRIVER);
        settings.put("output", "text");
        Map<Integer, String> devices = new TreeMap<>();
        List<Testcase> tests = new ArrayList<>();
        for (int i = 0; i < out.lines.size(); i++) {
            Matcher device = TEXT_DEVICE.matcher(out.lines.get(i));
            if (device.matches() && device.group(1).length() < 10) {
                devices.putIfAbsent(Integer.parseInt(device.group(1)), device.group(2));
            }
            Matcher running = TEXT_RUNNING.matcher(out.lines.get(i));
            if (running.matches()) {
                tests.add(textTest(out, i, running.group(1)));
            }
        }
        if (tests.isEmpty()) {
            throw out.bad("contain nvbandwidth's test tables (\"Running NAME.\" then its matrix); rerun with -j for "
                    + "its JSON output");
        }
        Matcher version = out.match(TEXT_VERSION);
        return new Run(version == null ? null : version.group(1), settings, devices, tests);
    }

    private static Testcase textTest(ToolOutput out, int running, String name) {
        String at = "line " + (running + 1);
        String description = null;
        String status = null;
        List<List<String>> rows = null;
        int columns = -1;
        for (int i = running + 1; i < out.lines.size(); i++) {
            String line = out.lines.get(i).strip();
            if (TEXT_RUNNING.matcher(line).matches() || TEXT_SUM.matcher(line).matches()) {
                break;
            }
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\s+");
            if (TEXT_STATUS.matcher(line).matches() && rows == null) {
                status = f[0].replace(":", "");
            } else if (rows == null && description == null) {
                description = line;
            } else if (rows == null && Arrays.stream(f).allMatch(x -> x.matches("\\d{1,9}"))) {
                columns = f.length;
                rows = new ArrayList<>();
            } else if (rows != null && f[0].matches("\\d{1,9}") && f.length == columns + 1
                    && Integer.parseInt(f[0]) == rows.size()) {
                rows.add(List.of(Arrays.copyOfRange(f, 1, f.length)));
            } else {
                throw out.bad(i, "have nvbandwidth's matrix rows (row index, then one GB/s figure or N/A per column) "
                        + "after \"Running " + name + ".\"", line);
            }
        }
        if (status == null) {
            status = rows == null ? "not run" : "Passed";
        }
        return new Testcase(name, status, description, rows, at);
    }

    private static ImportedFigures figures(Run run, String file, int gpuIndex) {
        Map<String, String> settings = new LinkedHashMap<>(run.settings());
        settings.put("gpuIndex", Integer.toString(gpuIndex));
        List<ImportedBandwidth> bandwidth = new ArrayList<>();
        List<Link.Measurement> measurements = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<Double> unidirectional = new ArrayList<>();
        Double latencyNanos = null;
        for (Testcase test : run.testcases()) {
            String name = test.name();
            if (!"Passed".equals(test.status())) {
                skipped.add(name + " (status " + test.status() + ")");
                continue;
            }
            if (test.matrix() == null) {
                throw new BadInputException(WHAT + " testcase must have a bandwidth_matrix: file=" + file + ", at="
                        + test.at() + ", name=" + name);
            }
            Map<String, String> testSettings = new LinkedHashMap<>(settings);
            if (test.description() != null && !test.description().isBlank()) {
                testSettings.put("description", firstLine(test.description()));
            }
            boolean known = "device_local_copy".equals(name) || name.startsWith("host_to_device")
                    || name.startsWith("device_to_host") || "host_device_latency_sm".equals(name);
            Double value = known ? cell(test, gpuIndex, file) : null;
            if (!known) {
                skipped.add(name + " (not a single-GPU figure this importer reads)");
            } else if (value == null) {
                skipped.add(name + " (no value for GPU " + gpuIndex + ")");
            } else if ("device_local_copy".equals(name)) {
                testSettings.put("printedGigabytesPerSecond", ToolOutput.format(value));
                bandwidth.add(new ImportedBandwidth("copy", "byte", null, null, Distribution.single(2 * value * 1e9),
                        Provenance.imported(TOOL, run.version(), name, file, testSettings)));
            } else if ("host_device_latency_sm".equals(name)) {
                latencyNanos = value;
            } else {
                measurements.add(new Link.Measurement(name, null, null, null, null, null, value * 1e9, null,
                        Provenance.imported(TOOL, run.version(), name, file, testSettings)));
                if (UNIDIRECTIONAL.contains(name)) {
                    unidirectional.add(value * 1e9);
                }
            }
        }
        if (bandwidth.isEmpty() && measurements.isEmpty()) {
            throw new BadInputException(WHAT + " must contain a Passed device_local_copy or host/device test: file="
                    + file + ", testcases=" + String.join(",", run.testcases().stream().map(Testcase::name).toList()));
        }
        List<Double> forLink = !unidirectional.isEmpty() ? unidirectional
                : measurements.stream().map(Link.Measurement::bytesPerSecond).toList();
        Distribution linkBandwidth = forLink.isEmpty() ? null
                : Distribution.ofSamples(forLink.stream().mapToDouble(Double::doubleValue).toArray());
        return new ImportedFigures(TOOL, run.version(), new TreeMap<>(settings), run.devices().get(gpuIndex), bandwidth,
                measurements, linkBandwidth, latencyNanos, List.of(), skipped, List.of());
    }

    /** The test's figure for GPU {@code gpuIndex} (row 0, its column); null for none or N/A. */
    private static Double cell(Testcase test, int gpuIndex, String file) {
        List<String> row = test.matrix().isEmpty() ? null : test.matrix().get(0);
        String where = test.at() + ".bandwidth_matrix[0][" + gpuIndex + "]";
        if (row == null) {
            throw new BadInputException(WHAT + " bandwidth_matrix must have row 0: file=" + file + ", at=" + test.at()
                    + ", name=" + test.name());
        }
        if (gpuIndex >= row.size() || "N/A".equals(row.get(gpuIndex).strip())) {
            return null;
        }
        String text = row.get(gpuIndex).strip();
        try {
            double value = Double.parseDouble(text);
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new BadInputException(WHAT + " bandwidth must be a positive finite number: file=" + file + ", at="
                        + where + ", value=" + text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new BadInputException(WHAT + " bandwidth must be a number: file=" + file + ", at=" + where
                    + ", value=" + text);
        }
    }

    private static void putMatch(ToolOutput out, Map<String, String> settings, String key, Pattern pattern) {
        Matcher m = out.match(pattern);
        if (m != null) {
            settings.put(key, m.group(1));
        }
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() || node.isContainerNode() ? null : node.asText();
    }

    private static void putText(Map<String, String> settings, String key, JsonNode node) {
        String text = text(node);
        if (text != null && !text.isBlank()) {
            settings.put(key, firstLine(text));
        }
    }

    private static String firstLine(String text) {
        String t = text.strip();
        int newline = t.indexOf('\n');
        return newline < 0 ? t : t.substring(0, newline).strip();
    }
}
