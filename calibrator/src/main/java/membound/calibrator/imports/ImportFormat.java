package membound.calibrator.imports;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import membound.profile.ProfileJson;
import membound.vocabulary.BadInputException;
import membound.vocabulary.files.InputFiles;

/** The tools whose output {@code membound import} reads. */
public enum ImportFormat {
    STREAM("stream", "McCalpin stream.c output", "cpu",
            "STREAM version \\$Revision:|^Function\\s+(?:Best Rate MB/s|Rate \\(MB/s\\))"),
    STREAM_OMP("stream-omp", "scripts/reference/stream-omp output", "cpu", "^tool=stream-omp\\s"),
    BABELSTREAM("babelstream", "BabelStream output", "cpu",
            "^(?:BabelStream|GPU-STREAM)$|^function,num_times,n_elements,sizeof,|^Function\\s+Mi?Bytes/sec\\s+Min \\(sec\\)"),
    LIKWID("likwid", "likwid-bench output", "cpu", "^LIKWID MICRO BENCHMARK$|^Data volume \\(Byte\\):"),
    NVBANDWIDTH("nvbandwidth", "nvbandwidth output", "gpu", "^nvbandwidth Version:|\"nvbandwidth\"\\s*:"),
    NCCL_TESTS("nccl-tests", "nccl-tests output", "gpu",
            "^# nccl-tests version|^rccl-tests: Version|^#?\\s*nThread \\d+ nGpus \\d+|^#.*\\balgbw\\b.*\\bbusbw\\b"),
    JMH("jmh", "JMH result JSON of membound's benchmarks", "cpu", "\"primaryMetric\"\\s*:"),
    /** llm-analysis's GPU file (its {@code GPUConfig}): a machine of its own, not figures to add to a profile. */
    LLM_ANALYSIS("llm-analysis", "llm-analysis GPU file", "gpu",
            "\"(?:hbm_bandwidth_in_GB_per_sec|peak_fp16_TFLOPS|mem_per_GPU_in_GB)\"\\s*:"),
    /** Calculon's system file: a machine of its own. */
    CALCULON("calculon", "Calculon system file", "gpu", "\"(?:gflops_efficiency|MB_efficiency)\"\\s*:");

    private final String formatName;
    private final String what;
    private final String defaultDevice;
    /** Lines only this tool prints: how a file given under the wrong {@code --format} is recognised. */
    private final Pattern signature;

    ImportFormat(String formatName, String what, String defaultDevice, String signature) {
        this.formatName = formatName;
        this.what = what;
        this.defaultDevice = defaultDevice;
        this.signature = Pattern.compile(signature);
    }

    /** The name on the command line. */
    public String formatName() {
        return formatName;
    }

    /** The device figures go to (or a link starts from) unless {@code --device} says otherwise. */
    public String defaultDevice() {
        return defaultDevice;
    }

    /** What the file is, for errors: "llm-analysis GPU file". */
    public String what() {
        return what;
    }

    /** The tool's own name, as its provenance gives it. */
    public String toolName() {
        return switch (this) {
            case LLM_ANALYSIS -> "llm-analysis";
            case CALCULON -> "Calculon";
            default -> formatName;
        };
    }

    /**
     * Whether the file describes a machine of its own (another estimator's hardware file), read by
     * {@link HardwareFileImport} into a profile by itself, rather than figures added to a profile.
     */
    public boolean makesMachine() {
        return this == LLM_ANALYSIS || this == CALCULON;
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
        if (makesMachine()) {
            throw new IllegalStateException(this + " makes a machine of its own: read it with HardwareFileImport");
        }
        return switch (this) {
            case NVBANDWIDTH, JMH -> parse(InputFiles.readBytes(file, what, InputFiles.Kind.TOOL_OUTPUT), file.toString(),
                    gpuIndex);
            default -> parse(ToolOutput.read(file, what));
        };
    }

    /** Reads {@code bytes} (named {@code file} in errors) as this tool's output; for tests and fuzzing. */
    public ImportedFigures parse(byte[] bytes, String file, int gpuIndex) {
        return switch (this) {
            case NVBANDWIDTH -> {
                checkIsThisTool(ToolOutput.lines(new String(bytes, StandardCharsets.UTF_8)), file);
                yield NvbandwidthImporter.parse(bytes, file, gpuIndex);
            }
            case JMH -> {
                checkIsThisTool(ToolOutput.lines(new String(bytes, StandardCharsets.UTF_8)), file);
                yield JmhResultImporter.parse(ProfileJson.readArray(bytes, file, what), file);
            }
            case LLM_ANALYSIS, CALCULON -> throw new IllegalStateException(this + " makes a machine of its own: read "
                    + "it with HardwareFileImport");
            default -> parse(ToolOutput.of(bytes, file, what));
        };
    }

    private ImportedFigures parse(ToolOutput out) {
        checkIsThisTool(out.lines, out.file);
        return switch (this) {
            case STREAM -> StreamCImporter.parse(out);
            case STREAM_OMP -> StreamOmpImporter.parse(out);
            case BABELSTREAM -> BabelStreamImporter.parse(out);
            case LIKWID -> LikwidBenchImporter.parse(out);
            case NCCL_TESTS -> NcclTestsImporter.parse(out);
            default -> throw new IllegalStateException("not a text format: " + this);
        };
    }

    /**
     * A file that shows none of this tool's own lines and another tool's is refused in one line naming the tool
     * it looks like, rather than failing later on a line this tool never prints.
     */
    void checkIsThisTool(List<String> lines, String file) {
        if (lines.stream().anyMatch(line -> signature.matcher(line).find())) {
            return;
        }
        for (ImportFormat other : values()) {
            for (int i = 0; i < lines.size(); i++) {
                if (other != this && other.signature.matcher(lines.get(i)).find()) {
                    String line = lines.get(i).strip();
                    throw new BadInputException("--format " + formatName + " must name the tool whose output the file "
                            + "is: file=" + file + ", line=" + (i + 1) + " looks like " + other.what + " (\""
                            + (line.length() > 80 ? line.substring(0, 77) + "..." : line) + "\"): give --format "
                            + other.formatName);
                }
            }
        }
    }

    @Override
    public String toString() {
        return formatName;
    }
}
