package membound.calibrator.imports;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

import membound.vocabulary.BadInputException;

/** The tools whose output {@code membound import} reads. */
public enum ImportFormat {
    STREAM("stream", "McCalpin stream.c output", "cpu"),
    BABELSTREAM("babelstream", "BabelStream output", "cpu"),
    LIKWID("likwid", "likwid-bench output", "cpu"),
    NVBANDWIDTH("nvbandwidth", "nvbandwidth output", "gpu"),
    NCCL_TESTS("nccl-tests", "nccl-tests output", "gpu"),
    JMH("jmh", "JMH result JSON of membound's benchmarks", "cpu");

    private final String formatName;
    private final String what;
    private final String defaultDevice;

    ImportFormat(String formatName, String what, String defaultDevice) {
        this.formatName = formatName;
        this.what = what;
        this.defaultDevice = defaultDevice;
    }

    /** The name on the command line. */
    public String formatName() {
        return formatName;
    }

    /** The device figures go to (or a link starts from) unless {@code --device} says otherwise. */
    public String defaultDevice() {
        return defaultDevice;
    }

    /** Whether this format's figures describe a link rather than a device's memory. */
    public boolean hasLinks() {
        return this == NVBANDWIDTH || this == NCCL_TESTS;
    }

    public static ImportFormat of(String name) {
        for (ImportFormat format : values()) {
            if (format.formatName.equals(name)) {
                return format;
            }
        }
        throw new BadInputException("--format must be one of " + names() + ": --format=" + name);
    }

    public static String names() {
        return Arrays.stream(values()).map(ImportFormat::formatName).collect(Collectors.joining(", "));
    }

    /** Reads {@code file} as this tool's output. */
    public ImportedFigures parse(Path file, int gpuIndex) {
        return switch (this) {
            case STREAM -> StreamCImporter.parse(ToolOutput.read(file, what));
            case BABELSTREAM -> BabelStreamImporter.parse(ToolOutput.read(file, what));
            case LIKWID -> LikwidBenchImporter.parse(ToolOutput.read(file, what));
            case NVBANDWIDTH -> NvbandwidthImporter.parse(file, gpuIndex);
            case NCCL_TESTS -> NcclTestsImporter.parse(ToolOutput.read(file, what));
            case JMH -> JmhResultImporter.parse(membound.profile.ProfileJson.readArray(
                    membound.vocabulary.files.InputFiles.readBytes(file, what,
                            membound.vocabulary.files.InputFiles.Kind.TOOL_OUTPUT), file.toString(), what), file.toString());
        };
    }

    /** Reads {@code bytes} (named {@code file} in errors) as this tool's output; for tests and fuzzing. */
    public ImportedFigures parse(byte[] bytes, String file, int gpuIndex) {
        return switch (this) {
            case STREAM -> StreamCImporter.parse(ToolOutput.of(bytes, file, what));
            case BABELSTREAM -> BabelStreamImporter.parse(ToolOutput.of(bytes, file, what));
            case LIKWID -> LikwidBenchImporter.parse(ToolOutput.of(bytes, file, what));
            case NVBANDWIDTH -> NvbandwidthImporter.parse(membound.profile.ProfileJson.readTree(bytes, file, what), file, gpuIndex);
            case NCCL_TESTS -> NcclTestsImporter.parse(ToolOutput.of(bytes, file, what));
            case JMH -> JmhResultImporter.parse(membound.profile.ProfileJson.readArray(bytes, file, what), file);
        };
    }

    @Override
    public String toString() {
        return formatName;
    }
}
