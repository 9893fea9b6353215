package membound.hardware.host;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import membound.vocabulary.BadInputException;

/**
 * What the cpus are, from {@code /proc/cpuinfo} and the JVM: architecture, vendor, model, the flags every
 * cpu has, Arm implementer and part numbers, and from those and {@code sve_default_vector_length} the
 * widest vector register.
 */
final class CpuIdentityReader {

    static final String CPUINFO = "proc/cpuinfo";
    static final String SVE_LENGTH = "proc/sys/abi/sve_default_vector_length";

    private final SystemFiles files;
    private final List<String> warnings;

    /** @param warnings where what could not be read is said, in the order it is found */
    CpuIdentityReader(SystemFiles files, List<String> warnings) {
        this.files = files;
        this.warnings = warnings;
    }

    /** The processor blocks of cpuinfo; none, with a warning, where it cannot be read or lists none. */
    ProcessorBlocks processors() {
        Optional<String> text = files.read(CPUINFO);
        if (text.isEmpty()) {
            warnings.add(CPUINFO + " could not be read: cpu vendor, model and flags unknown");
            return new ProcessorBlocks(List.of());
        }
        List<Map<String, String>> processors = new ArrayList<>();
        Map<String, String> current = null;
        int unreadable = 0;
        for (String line : text.get().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                unreadable++;
                continue;
            }
            String key = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            if (key.equals("processor")) {
                try {
                    Integer.parseInt(value);
                } catch (NumberFormatException e) {
                    throw new BadInputException(CPUINFO + " processor must be a cpu number: processor=" + value);
                }
                current = new LinkedHashMap<>();
                processors.add(current);
            }
            if (current != null) {
                current.putIfAbsent(key, value);
            }
        }
        if (unreadable > 0) {
            warnings.add(CPUINFO + " has " + unreadable + " line(s) that are not 'key: value'; they were skipped");
        }
        if (processors.isEmpty()) {
            warnings.add(CPUINFO + " lists no processor: cpu vendor, model and flags unknown");
        }
        return new ProcessorBlocks(processors);
    }

    /**
     * The architecture the JVM runs on. cpuinfo names it too, but under user-mode emulation (qemu-user on
     * CI) cpuinfo describes the emulating machine; the JVM's {@code os.arch} wins and a warning says so.
     */
    String architecture(ProcessorBlocks processors) {
        String fromCpuinfo = null;
        for (Map<String, String> p : processors.blocks()) {
            if (p.containsKey("CPU implementer")) {
                fromCpuinfo = CpuInfo.AARCH64;
                break;
            }
            if (p.containsKey("vendor_id") || p.containsKey("flags")) {
                fromCpuinfo = CpuInfo.X86_64;
                break;
            }
        }
        String arch = files.java().osArch().toLowerCase(Locale.ROOT);
        String fromJvm = switch (arch) {
            case "amd64", "x86_64" -> CpuInfo.X86_64;
            case "aarch64", "arm64" -> CpuInfo.AARCH64;
            case "unknown" -> null;
            default -> arch;
        };
        if (fromCpuinfo != null && fromJvm != null && !fromCpuinfo.equals(fromJvm)) {
            warnings.add(CPUINFO + " describes an " + fromCpuinfo + " cpu but the JVM runs on " + fromJvm
                    + " (emulation?): cpu model, flags and caches are the emulating machine's");
            return fromJvm;
        }
        return fromCpuinfo != null ? fromCpuinfo : fromJvm != null ? fromJvm : "unknown";
    }

    /** The flags every cpu has: on a mixed-core chip, what code may use wherever it runs. */
    Set<String> commonFlags(ProcessorBlocks processors, String architecture) {
        String key = CpuInfo.AARCH64.equals(architecture) ? "Features" : "flags";
        Set<String> common = null;
        for (Map<String, String> p : processors.blocks()) {
            String value = p.get(key);
            if (value == null) {
                continue;
            }
            Set<String> these = new TreeSet<>(List.of(value.trim().split("\\s+")));
            these.remove("");
            if (common == null) {
                common = these;
            } else {
                common.retainAll(these);
            }
        }
        return common == null ? Set.of() : common;
    }

    /** Each cpu's Arm implementer and part; a cpu whose numbers are not hex is left out, with a warning. */
    Map<Integer, ArmCoreId> armIds(ProcessorBlocks processors) {
        Map<Integer, ArmCoreId> ids = new TreeMap<>();
        List<String> bad = new ArrayList<>();
        for (Map.Entry<Integer, Map<String, String>> e : processors.byCpu().entrySet()) {
            String implementer = e.getValue().get("CPU implementer");
            String part = e.getValue().get("CPU part");
            try {
                ids.put(e.getKey(), new ArmCoreId(parseHex(implementer), parseHex(part)));
            } catch (IllegalArgumentException ex) {
                bad.add("cpu " + e.getKey() + " (CPU implementer=" + implementer + ", CPU part=" + part + ")");
            }
        }
        if (!bad.isEmpty()) {
            warnings.add(CPUINFO + " CPU implementer and CPU part must be hex numbers such as 0x41 and 0xd85: "
                    + String.join("; ", bad.subList(0, Math.min(3, bad.size())))
                    + (bad.size() > 3 ? " and " + (bad.size() - 3) + " more" : "") + "; their core type is unknown");
        }
        return ids;
    }

    private static int parseHex(String text) {
        if (text == null) {
            throw new BadInputException("missing");
        }
        String t = text.trim().toLowerCase(Locale.ROOT);
        return Integer.parseInt(t.startsWith("0x") ? t.substring(2) : t, 16);
    }

    /** The Arm implementers' names joined, else cpuinfo's {@code vendor_id}, else {@code unknown}. */
    String vendor(ProcessorBlocks processors, Map<Integer, ArmCoreId> armIds) {
        if (!armIds.isEmpty()) {
            return String.join(" + ", armIds.values().stream().map(ArmCoreId::implementerName)
                    .collect(Collectors.toCollection(LinkedHashSet::new)));
        }
        return processors.blocks().stream().map(p -> p.get("vendor_id")).filter(v -> v != null && !v.isBlank())
                .findFirst().orElse("unknown");
    }

    String modelName(ProcessorBlocks processors, List<CoreType> coreTypes) {
        Optional<String> model = processors.blocks().stream().map(p -> p.get("model name"))
                .filter(v -> v != null && !v.isBlank()).findFirst();
        if (model.isPresent() && coreTypes.stream().allMatch(t -> t.armId().isEmpty())) {
            return model.get();
        }
        // Arm cpuinfo has no model name; the core types are the most specific name there is.
        String types = String.join(" + ", coreTypes.stream()
                .map(t -> t.cpus().size() + "x " + t.name()).toList());
        return types.isBlank() ? model.orElse("unknown") : types;
    }

    int vectorBitWidth(CpuInfo cpu) {
        if (cpu.isX86()) {
            if (cpu.hasFlag("avx512f")) {
                return 512;
            }
            if (cpu.hasFlag("avx2")) {
                return 256;
            }
            if (cpu.hasFlag("sse2")) {
                return 128;
            }
        } else if (cpu.isArm()) {
            if (cpu.hasFlag("sve") || cpu.hasFlag("sve2")) {
                Optional<String> text = files.readTrimmed(SVE_LENGTH);
                Optional<Integer> bytes = text.flatMap(FileNumbers::parseInt)
                        .filter(b -> b >= 16 && b <= 256 && b % 16 == 0);
                if (bytes.isPresent() && Integer.bitCount(bytes.get()) == 1) {
                    return bytes.get() * 8;
                }
                warnings.add("SVE present but " + SVE_LENGTH + " must be a power-of-two byte count from 16 to "
                        + "256: sve_default_vector_length=" + text.orElse("absent") + "; using Advanced SIMD's 128 bits");
                return 128;
            }
            if (!cpu.hasFlag("asimd")) {
                warnings.add("no Advanced SIMD flag in " + CPUINFO + "; vectorBitWidth taken as 128, which "
                        + "every Armv8-A cpu has");
            }
            return 128;
        }
        warnings.add("no SIMD flags known for architecture " + cpu.architecture() + ": vectorBitWidth taken as 64");
        return 64;
    }
}
