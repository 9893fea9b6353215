package membound.hardware.host;

import java.util.Set;
import java.util.TreeSet;

import membound.vocabulary.BadInputException;

/**
 * What {@code /proc/cpuinfo} says about the processor.
 *
 * @param vendor       {@code AuthenticAMD}, {@code GenuineIntel}, or an Arm implementer's name such as {@code ARM}
 * @param modelName    the model name, or for Arm the core types (Arm cpuinfo has no model name)
 * @param architecture {@code x86_64} or {@code aarch64} (other values pass through as the JVM names them)
 * @param flags        x86 {@code flags} or Arm {@code Features}, as the kernel spells them
 */
public record CpuInfo(String vendor, String modelName, String architecture, Set<String> flags) {

    public static final String X86_64 = "x86_64";
    public static final String AARCH64 = "aarch64";

    public CpuInfo {
        vendor = requireText("vendor", vendor);
        modelName = requireText("modelName", modelName);
        architecture = requireText("architecture", architecture);
        flags = java.util.Collections.unmodifiableSet(new TreeSet<>(flags));
    }

    public boolean hasFlag(String flag) {
        return flags.contains(flag);
    }

    public boolean isArm() {
        return AARCH64.equals(architecture);
    }

    public boolean isX86() {
        return X86_64.equals(architecture);
    }

    static String requireText(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new BadInputException(name + " must not be blank: " + name + "=" + value);
        }
        return value.trim();
    }
}
