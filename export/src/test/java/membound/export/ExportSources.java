package membound.export;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The machines the export is tested on, each named by a path relative to the repository root so that the sources
 * written into golden files do not depend on where the repository is: the GB10 fixture made from published
 * measurements (a GPU, no links), the DGX Spark catalog entry, a real CPU-only profile of the development machine
 * (no GPU, no link, no platform), and the example Spark profile's CPU (measured links to the GPU and a second Spark).
 */
final class ExportSources {

    static final String GB10 = "results/profiles/examples/dgx-spark-gpu-published.json";
    static final String CPU = "docs/records/profiles/vm-20261130T001543Z.json";
    static final String SPARK_EXAMPLE = "results/profiles/examples/dgx-spark-example.json";

    private ExportSources() {
    }

    static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(".ci")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("tests must run inside the repository");
    }

    static ExportInput profile(String relative, String device) {
        return ExportInput.profile(root().resolve(relative), relative, device, false);
    }

    /** Source name (as golden files are named) to the input. */
    static Map<String, Supplier<ExportInput>> all() {
        Map<String, Supplier<ExportInput>> sources = new LinkedHashMap<>();
        sources.put("gb10", () -> profile(GB10, null));
        sources.put("spark-datasheet", () -> ExportInput.catalog("dgx-spark"));
        sources.put("cpu", () -> profile(CPU, null));
        sources.put("spark-cpu", () -> profile(SPARK_EXAMPLE, "cpu"));
        return sources;
    }

    /** The file (or directory) name an export of {@code source} for {@code tool} is written under. */
    static String name(String source, ExportTool tool) {
        return source + "." + tool.label() + (tool.directory() ? "" : ".json");
    }
}
