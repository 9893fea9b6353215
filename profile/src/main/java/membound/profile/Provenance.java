package membound.profile;

import java.util.Map;
import java.util.SortedMap;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Where one figure came from. Every figure in a profile carries one.
 *
 * @param kind     measured, imported, datasheet, user or example
 * @param source   what a reader would look up: "membound benchmarks", "NVIDIA DGX Spark datasheet",
 *                 "BabelStream 5.0 output"
 * @param tool     the program that produced the number ("membound", "BabelStream", "nvbandwidth"), if any
 * @param toolVersion the tool's version as it printed it, if it did
 * @param kernel   the benchmark or test that produced it ("StreamBenchmark.triad", "Triad",
 *                 "host_to_device_memcpy_ce"), if any
 * @param file     the file it was read from (a raw JMH result beside the profile, an imported output), if any
 * @param settings how it was run (JMH forks and iterations, array sizes, thread counts), written sorted by key
 */
public record Provenance(
        ProvenanceKind kind,
        String source,
        String tool,
        String toolVersion,
        String kernel,
        String file,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) SortedMap<String, String> settings) {

    public Provenance {
        Checks.present("provenance.kind", kind);
        Checks.text("provenance.source", source);
        Checks.optionalText("provenance.tool", tool);
        Checks.optionalText("provenance.toolVersion", toolVersion);
        Checks.optionalText("provenance.kernel", kernel);
        Checks.optionalText("provenance.file", file);
        settings = Checks.map("provenance.settings", settings);
    }

    /** Measured by membound's own benchmark {@code kernel} with the given settings. */
    public static Provenance measured(String kernel, String file, Map<String, String> settings) {
        return new Provenance(ProvenanceKind.MEASURED, "membound benchmarks", "membound", null, kernel, file,
                Checks.map("settings", settings));
    }

    /** Read from the output of another tool. */
    public static Provenance imported(String tool, String toolVersion, String kernel, String file,
                                      Map<String, String> settings) {
        String source = tool + (toolVersion != null ? " " + toolVersion : "") + " output";
        return new Provenance(ProvenanceKind.IMPORTED, source, tool, toolVersion, kernel, file,
                Checks.map("settings", settings));
    }

    /** Taken from a datasheet or another published source, named in {@code source}. */
    public static Provenance datasheet(String source) {
        return new Provenance(ProvenanceKind.DATASHEET, source, null, null, null, null, null);
    }

    /** Given by the user, for example with {@code --nominal-bandwidth}; {@code source} names the flag. */
    public static Provenance user(String source) {
        return new Provenance(ProvenanceKind.USER, source, null, null, null, null, null);
    }

    /** Made up for an example profile: never a measurement. */
    public static Provenance example(String source) {
        return new Provenance(ProvenanceKind.EXAMPLE, source, null, null, null, null, null);
    }
}
