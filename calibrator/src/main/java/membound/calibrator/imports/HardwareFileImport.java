package membound.calibrator.imports;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;

import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.Distribution;
import membound.profile.Efficiency;
import membound.profile.Host;
import membound.profile.Link;
import membound.profile.Nominal;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.Provenance;
import membound.profile.ProvenanceKind;
import membound.profile.Quality;
import membound.profile.RunProvenance;
import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;

/**
 * A machine read from another estimator's hardware file (llm-analysis's GPU file, Calculon's system file) as a
 * datasheet-like entry: a profile of its own, whose figures are the file's as that tool reads them, each with a
 * provenance naming the file and the key ({@code imported}: "llm-analysis GPU file, key hbm_bandwidth_in_GB_per_sec
 * = 2039 GB/s"). What a file calls a peak goes to the profile's {@code nominal} block (the datasheet basis); what the
 * tool itself would attain from the file alone (Calculon's efficiency tables) goes to the device's entries as
 * imported figures (the measured basis). Nothing is measured, nothing is guessed: a figure the file does not give is
 * absent, and the profile is flagged {@code estimator-file}.
 *
 * <p>The file is refused in one line, before anything is written, when it is not such a file, has a key the tool
 * does not read, or a figure the tool would stop on or divide by (zero, negative, an efficiency table that breaks
 * the tool's own asserts).
 */
public final class HardwareFileImport {

    /** The quality flag every such profile carries. */
    public static final String FLAG = "estimator-file";

    private HardwareFileImport() {
    }

    /**
     * Where the figures go.
     *
     * @param deviceId   the device the file describes ({@code gpu} unless given; {@code cpu...} makes a CPU)
     * @param deviceName its name, if given (else the file's name for it)
     */
    public record Target(String deviceId, String deviceName) {
    }

    /**
     * What the import ran as.
     *
     * @param file            the file as given
     * @param commandLine     the command
     * @param memboundVersion the version now running
     * @param now             when
     */
    public record RunContext(String file, String commandLine, String memboundVersion, Instant now) {
    }

    /**
     * The new profile and what happened.
     *
     * @param profile  the machine
     * @param read     one line per key read: its value as the tool reads it, and what it became
     * @param skipped  keys (or their absence) that became nothing, and why
     * @param inferred what the import decided that the file does not say (a link's kind), and why
     */
    public record Result(Profile profile, List<String> read, List<String> skipped, List<String> inferred) {
    }

    /** Reads {@code bytes} (named {@code file}) as {@code format}'s hardware file. */
    public static Result read(ImportFormat format, byte[] bytes, Target target, RunContext context) {
        String file = context.file();
        if (ProfileJson.claimsToBeAProfile(bytes)) {
            throw new BadInputException("--format " + format.formatName() + " must name " + format.what() + ", not a "
                    + "membound profile (give that to predict --profile or --compare profile:FILE as it is): file="
                    + file);
        }
        // Another tool's file is named as such before its JSON (or text) is judged.
        format.checkIsThisTool(ToolOutput.lines(new String(bytes, StandardCharsets.UTF_8)), file);
        JsonNode root = ProfileJson.readTree(bytes, file, format.what());
        Builder machine = new Builder(format, target, context);
        return switch (format) {
            case LLM_ANALYSIS -> LlmAnalysisGpuFile.read(root, machine);
            case CALCULON -> CalculonSystemFile.read(root, machine);
            default -> throw new IllegalStateException("not a hardware file format: " + format);
        };
    }

    /** The number at {@code key} of {@code node}, as the file wrote it; refused where it is not a finite number. */
    static BigDecimal number(JsonNode node, String path, String unit, Builder machine) {
        if (node == null || node.isNull() || !node.isNumber()) {
            throw new BadInputException(path + " must be a number" + (unit.isEmpty() ? "" : " of " + unit) + " ("
                    + machine.what() + "): " + path + "=" + shown(node) + ", file=" + machine.file());
        }
        if (node.isDouble() || node.isFloat()) {
            double d = node.doubleValue();
            if (!Double.isFinite(d)) {
                throw new BadInputException(path + " must be a finite number (" + machine.what() + "): " + path + "="
                        + shown(node) + ", file=" + machine.file());
            }
        }
        return node.decimalValue();
    }

    /** A number above zero: a rate, a capacity or a bandwidth the tool multiplies or divides by. */
    static BigDecimal positive(JsonNode node, String path, String unit, Builder machine) {
        BigDecimal value = number(node, path, unit, machine);
        if (value.signum() <= 0) {
            throw new BadInputException(path + " must be a positive number of " + unit + " (" + machine.what()
                    + "; zero or less is no " + unit + " a run can take): " + path + "=" + plain(value) + ", file="
                    + machine.file());
        }
        return value;
    }

    /** A number of zero or more: a latency. */
    static BigDecimal nonNegative(JsonNode node, String path, String unit, Builder machine) {
        BigDecimal value = number(node, path, unit, machine);
        if (value.signum() < 0) {
            throw new BadInputException(path + " must be zero or a positive number of " + unit + " ("
                    + machine.what() + "): " + path + "=" + plain(value) + ", file=" + machine.file());
        }
        return value;
    }

    /** Refuses every key of {@code node} that is not in {@code known}, naming the tool's rule. */
    static void onlyKeys(JsonNode node, String path, Set<String> known, String rule, Builder machine) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                throw new BadInputException((path.isEmpty() ? "" : path + ".") + name + " must be a key "
                        + machine.tool() + " reads (" + String.join(", ", known) + "): " + rule + ": key="
                        + (path.isEmpty() ? "" : path + ".") + name + ", file=" + machine.file());
            }
        }
    }

    /** The object at {@code path}; refused where it is missing or not an object. */
    static JsonNode object(JsonNode parent, String key, String path, Builder machine) {
        JsonNode node = parent.get(key);
        if (node == null || !node.isObject()) {
            throw new BadInputException(path + " must be a JSON object (" + machine.what() + " "
                    + (node == null ? "lacks it" : "has " + shown(node)) + "): file=" + machine.file());
        }
        return node;
    }

    static String shown(JsonNode node) {
        if (node == null) {
            return "<missing>";
        }
        String text = node.toString();
        return text.length() > 40 ? text.substring(0, 37) + "..." : text;
    }

    /** A number as the file wrote it, without an exponent or trailing zeros. */
    static String plain(BigDecimal value) {
        return value.stripTrailingZeros().toPlainString();
    }

    /**
     * The profile being built: the file's device, its nominal figures, its imported entries and links, and the lines
     * that say what each key became.
     */
    static final class Builder {
        private final ImportFormat format;
        private final Target target;
        private final RunContext context;
        private final List<Nominal.MemoryBandwidth> nominalMemory = new ArrayList<>();
        private final List<Nominal.Compute> nominalCompute = new ArrayList<>();
        private final Map<String, Device> devices = new LinkedHashMap<>();
        private final List<Link> links = new ArrayList<>();
        final List<String> read = new ArrayList<>();
        final List<String> skipped = new ArrayList<>();
        final List<String> inferred = new ArrayList<>();

        Builder(ImportFormat format, Target target, RunContext context) {
            this.format = format;
            this.target = target;
            this.context = context;
        }

        String tool() {
            return format.toolName();
        }

        String what() {
            return format.what();
        }

        String file() {
            return context.file();
        }

        /** The id of the device the file describes. */
        String deviceId() {
            return target.deviceId() != null ? target.deviceId() : "gpu";
        }

        /** The provenance of a figure read from {@code keys} (a key, or a product of keys) with its value and unit. */
        Provenance provenance(String keys, Map<String, String> settings) {
            Map<String, String> all = new TreeMap<>(settings);
            all.put("import.format", format.formatName());
            return new Provenance(ProvenanceKind.IMPORTED, what() + ", " + keys, tool(), null, null, file(),
                    new TreeMap<>(all));
        }

        /** A device of the file. */
        Device device(String id, DeviceKind kind, String name, Device.Memory memory) {
            if (devices.containsKey(id)) {
                throw new IllegalStateException("device " + id + " made twice");
            }
            Device device = Device.of(id, kind, name, memory, List.of());
            devices.put(id, device);
            return device;
        }

        /**
         * The device the file describes, named as {@code --device-name} says, else {@code fileName}; its kind by its
         * id as for every import ({@code cpu...} a CPU, {@code gpu...} a GPU, else an accelerator).
         */
        Device mainDevice(String fileName, Device.Memory memory) {
            String id = deviceId();
            DeviceKind kind = id.startsWith("cpu") ? DeviceKind.CPU : id.startsWith("gpu") ? DeviceKind.GPU
                    : DeviceKind.ACCELERATOR;
            return device(id, kind, target.deviceName() != null ? target.deviceName() : fileName, memory);
        }

        void replace(Device device) {
            devices.put(device.id(), device);
        }

        void nominalMemory(String deviceId, double bytesPerSecond, Provenance provenance) {
            nominalMemory.add(Nominal.MemoryBandwidth.known(List.of(deviceId), bytesPerSecond, provenance));
        }

        void nominalCompute(String deviceId, membound.vocabulary.Precision precision, double flopsPerSecond,
                            Provenance provenance) {
            nominalCompute.add(Nominal.Compute.known(deviceId, precision, false, flopsPerSecond, provenance));
        }

        void link(Link link) {
            links.add(link);
        }

        static Distribution single(double value) {
            return Distribution.single(value);
        }

        static ComputeEntry compute(String id, ComputeEntry.Kind kind, membound.vocabulary.Precision precision,
                                    double flopsPerSecond, Provenance provenance) {
            return new ComputeEntry(id, kind, precision, null, null, null, Distribution.single(flopsPerSecond),
                    provenance);
        }

        Result build(String hostname, String platformName) {
            Host host = new Host(hostname, null, List.of(), null, null, null, null, null, null);
            Nominal nominal = new Nominal(null, platformName, nominalMemory, nominalCompute);
            Quality quality = Quality.none().with(new Quality.Flag(FLAG, "every figure is " + what() + " " + file()
                    + "'s, as " + tool() + " reads it: a datasheet-like entry (its peaks on the datasheet basis"
                    + (format == ImportFormat.CALCULON ? ", its efficiency tables' rates on the measured basis"
                    : ", nothing on the measured basis") + "), nothing measured", null, null));
            Map<String, String> settings = new TreeMap<>();
            settings.put("import.format", format.formatName());
            settings.put("import.file", file());
            RunProvenance provenance = RunProvenance.of(context.memboundVersion(), null, settings,
                    context.commandLine(), context.now(), null);
            Profile profile = new Profile(host, nominal,
                    List.copyOf(devices.values()), links, new Efficiency(List.of(), List.of()), quality, provenance)
                    .withDerivedEfficiency();
            return new Result(profile, List.copyOf(read), List.copyOf(skipped), List.copyOf(inferred));
        }
    }

    /** SI figures printed for the read lines: {@code 2.039e+12 B/s}. */
    static String si(double value, String unit) {
        return String.format(Locale.ROOT, "%.6g %s", value, unit);
    }
}
