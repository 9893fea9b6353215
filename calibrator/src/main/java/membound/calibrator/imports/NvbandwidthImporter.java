package membound.calibrator.imports;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import membound.profile.Distribution;
import membound.profile.Link;
import membound.profile.ProfileJson;
import membound.profile.Provenance;
import membound.vocabulary.BadInputException;

/**
 * nvbandwidth's {@code -j} JSON: {@code {"nvbandwidth": {"version", "testcases": [{"name", "status",
 * "bandwidth_description", "bandwidth_matrix": [["12.3", "N/A"], ...], "sum"}]}}} with GB/s (10^9
 * bytes) as strings in the matrix. Each figure is the median (or, with {@code -m}, the mean) of the
 * tool's test samples: one figure, no spread.
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

    private static final Set<String> UNIDIRECTIONAL = Set.of("host_to_device_memcpy_ce", "device_to_host_memcpy_ce",
            "host_to_device_memcpy_sm", "device_to_host_memcpy_sm");

    private NvbandwidthImporter() {
    }

    static ImportedFigures parse(JsonNode root, String file, int gpuIndex) {
        String what = "nvbandwidth output";
        JsonNode body = root.get("nvbandwidth");
        if (body == null || !body.isObject()) {
            throw new BadInputException(what + " must be nvbandwidth -j JSON with a top-level \"nvbandwidth\" object: file="
                    + file);
        }
        if (body.hasNonNull("error") && !body.get("error").asText().isBlank()) {
            throw new BadInputException(what + " must not report an error: file=" + file + ", error="
                    + firstLine(body.get("error").asText()));
        }
        JsonNode testcases = body.get("testcases");
        if (testcases == null || !testcases.isArray()) {
            throw new BadInputException(what + " must have a \"testcases\" array: file=" + file);
        }
        String version = text(body.get("version"));
        Map<String, String> settings = new LinkedHashMap<>();
        putText(settings, "cudaRuntimeVersion", body.get("CUDA Runtime Version"));
        putText(settings, "driverVersion", body.get("Driver Version"));
        putText(settings, "gitVersion", body.get("git_version"));
        settings.put("gpuIndex", Integer.toString(gpuIndex));
        String deviceName = deviceName(body.get("GPU Device list"), gpuIndex);

        List<ImportedBandwidth> bandwidth = new ArrayList<>();
        List<Link.Measurement> measurements = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<Double> unidirectional = new ArrayList<>();
        Double latencyNanos = null;
        for (int t = 0; t < testcases.size(); t++) {
            JsonNode testcase = testcases.get(t);
            String at = "testcases[" + t + "]";
            String name = text(testcase.get("name"));
            if (name == null) {
                throw new BadInputException(what + " testcase must have a name: file=" + file + ", at=" + at);
            }
            String status = text(testcase.get("status"));
            if (!"Passed".equals(status)) {
                skipped.add(name + " (status " + status + ")");
                continue;
            }
            JsonNode matrix = testcase.get("bandwidth_matrix");
            if (matrix == null || !matrix.isArray()) {
                throw new BadInputException(what + " testcase must have a bandwidth_matrix: file=" + file + ", at=" + at
                        + ", name=" + name);
            }
            Map<String, String> testSettings = new LinkedHashMap<>(settings);
            putText(testSettings, "description", testcase.get("bandwidth_description"));
            if ("device_local_copy".equals(name)) {
                Double gbPerSecond = cell(matrix, 0, gpuIndex, what, file, at, name);
                if (gbPerSecond == null) {
                    skipped.add(name + " (no value for GPU " + gpuIndex + ")");
                    continue;
                }
                testSettings.put("printedGigabytesPerSecond", ToolOutput.format(gbPerSecond));
                bandwidth.add(new ImportedBandwidth("copy", "byte", null, null,
                        Distribution.single(2 * gbPerSecond * 1e9),
                        Provenance.imported(TOOL, version, name, file, testSettings)));
            } else if (name.startsWith("host_to_device") || name.startsWith("device_to_host")) {
                Double gbPerSecond = cell(matrix, 0, gpuIndex, what, file, at, name);
                if (gbPerSecond == null) {
                    skipped.add(name + " (no value for GPU " + gpuIndex + ")");
                    continue;
                }
                measurements.add(new Link.Measurement(name, null, null, null, null, null, gbPerSecond * 1e9, null,
                        Provenance.imported(TOOL, version, name, file, testSettings)));
                if (UNIDIRECTIONAL.contains(name)) {
                    unidirectional.add(gbPerSecond * 1e9);
                }
            } else if ("host_device_latency_sm".equals(name)) {
                latencyNanos = cell(matrix, 0, gpuIndex, what, file, at, name);
            } else {
                skipped.add(name + " (not a single-GPU figure this importer reads)");
            }
        }
        if (bandwidth.isEmpty() && measurements.isEmpty()) {
            throw new BadInputException(what + " must contain a Passed device_local_copy or host/device test: file="
                    + file + ", testcases=" + testcases.size());
        }
        Distribution linkBandwidth = null;
        if (!unidirectional.isEmpty()) {
            linkBandwidth = Distribution.ofSamples(unidirectional.stream().mapToDouble(Double::doubleValue).toArray());
        } else if (!measurements.isEmpty()) {
            linkBandwidth = Distribution.ofSamples(
                    measurements.stream().mapToDouble(Link.Measurement::bytesPerSecond).toArray());
        }
        return new ImportedFigures(TOOL, version, new java.util.TreeMap<>(settings), deviceName, bandwidth,
                measurements, linkBandwidth, latencyNanos, List.of(), skipped);
    }

    static ImportedFigures parse(java.nio.file.Path file, int gpuIndex) {
        return parse(ProfileJson.readTree(file, "nvbandwidth output"), file.toString(), gpuIndex);
    }

    private static Double cell(JsonNode matrix, int row, int column, String what, String file, String at, String name) {
        JsonNode r = matrix.get(row);
        if (r == null || !r.isArray()) {
            throw new BadInputException(what + " bandwidth_matrix must have row " + row + ": file=" + file + ", at=" + at
                    + ", name=" + name);
        }
        JsonNode c = r.get(column);
        if (c == null) {
            return null;
        }
        String text = c.isTextual() ? c.textValue() : c.isNumber() ? c.asText() : null;
        if (text == null) {
            throw new BadInputException(what + " bandwidth_matrix cells must be numbers or \"N/A\": file=" + file
                    + ", at=" + at + ".bandwidth_matrix[" + row + "][" + column + "], value=" + c);
        }
        if ("N/A".equals(text.strip())) {
            return null;
        }
        try {
            double value = Double.parseDouble(text.strip());
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new BadInputException(what + " bandwidth must be a positive finite number: file=" + file + ", at="
                        + at + ".bandwidth_matrix[" + row + "][" + column + "], value=" + text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new BadInputException(what + " bandwidth must be a number: file=" + file + ", at=" + at
                    + ".bandwidth_matrix[" + row + "][" + column + "], value=" + text);
        }
    }

    private static String deviceName(JsonNode list, int gpuIndex) {
        if (list == null || !list.isArray()) {
            return null;
        }
        for (Iterator<JsonNode> it = list.elements(); it.hasNext(); ) {
            String entry = text(it.next());
            if (entry != null && entry.startsWith(gpuIndex + ": ")) {
                String rest = entry.substring((gpuIndex + ": ").length());
                int host = rest.lastIndexOf(": (");
                String name = (host > 0 ? rest.substring(0, host) : rest).strip();
                return name.isEmpty() ? null : name;
            }
        }
        return null;
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
