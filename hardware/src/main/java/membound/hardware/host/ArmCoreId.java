package membound.hardware.host;

import java.util.Map;
import java.util.Optional;

import membound.vocabulary.BadInputException;

/**
 * An Arm core's identity from {@code /proc/cpuinfo}: {@code CPU implementer} and {@code CPU part}, the
 * fields of the MIDR register. Names follow the kernel's {@code arch/arm64/include/asm/cputype.h} and
 * util-linux's {@code lscpu-arm.c}.
 */
public record ArmCoreId(int implementer, int part) {

    public static final int ARM = 0x41;
    public static final int APPLE = 0x61;
    public static final int NVIDIA = 0x4e;
    public static final int AMPERE = 0xc0;

    public static final ArmCoreId CORTEX_X925 = new ArmCoreId(ARM, 0xd85);
    public static final ArmCoreId CORTEX_A725 = new ArmCoreId(ARM, 0xd87);
    public static final ArmCoreId NEOVERSE_V2 = new ArmCoreId(ARM, 0xd4f);

    private static final Map<Integer, String> IMPLEMENTERS = Map.of(
            ARM, "ARM",
            0x42, "Broadcom",
            0x46, "Fujitsu",
            0x48, "HiSilicon",
            NVIDIA, "NVIDIA",
            0x51, "Qualcomm",
            APPLE, "Apple",
            AMPERE, "Ampere");

    private static final Map<ArmCoreId, String> PARTS = Map.ofEntries(
            Map.entry(new ArmCoreId(ARM, 0xd03), "Cortex-A53"),
            Map.entry(new ArmCoreId(ARM, 0xd04), "Cortex-A35"),
            Map.entry(new ArmCoreId(ARM, 0xd05), "Cortex-A55"),
            Map.entry(new ArmCoreId(ARM, 0xd07), "Cortex-A57"),
            Map.entry(new ArmCoreId(ARM, 0xd08), "Cortex-A72"),
            Map.entry(new ArmCoreId(ARM, 0xd09), "Cortex-A73"),
            Map.entry(new ArmCoreId(ARM, 0xd0a), "Cortex-A75"),
            Map.entry(new ArmCoreId(ARM, 0xd0b), "Cortex-A76"),
            Map.entry(new ArmCoreId(ARM, 0xd0c), "Neoverse-N1"),
            Map.entry(new ArmCoreId(ARM, 0xd0d), "Cortex-A77"),
            Map.entry(new ArmCoreId(ARM, 0xd40), "Neoverse-V1"),
            Map.entry(new ArmCoreId(ARM, 0xd41), "Cortex-A78"),
            Map.entry(new ArmCoreId(ARM, 0xd44), "Cortex-X1"),
            Map.entry(new ArmCoreId(ARM, 0xd46), "Cortex-A510"),
            Map.entry(new ArmCoreId(ARM, 0xd47), "Cortex-A710"),
            Map.entry(new ArmCoreId(ARM, 0xd48), "Cortex-X2"),
            Map.entry(new ArmCoreId(ARM, 0xd49), "Neoverse-N2"),
            Map.entry(new ArmCoreId(ARM, 0xd4d), "Cortex-A715"),
            Map.entry(new ArmCoreId(ARM, 0xd4e), "Cortex-X3"),
            Map.entry(NEOVERSE_V2, "Neoverse-V2"),
            Map.entry(new ArmCoreId(ARM, 0xd80), "Cortex-A520"),
            Map.entry(new ArmCoreId(ARM, 0xd81), "Cortex-A720"),
            Map.entry(new ArmCoreId(ARM, 0xd82), "Cortex-X4"),
            Map.entry(new ArmCoreId(ARM, 0xd84), "Neoverse-V3"),
            Map.entry(CORTEX_X925, "Cortex-X925"),
            Map.entry(CORTEX_A725, "Cortex-A725"),
            Map.entry(new ArmCoreId(ARM, 0xd8e), "Neoverse-N3"),
            Map.entry(new ArmCoreId(APPLE, 0x022), "Apple M1 Icestorm"),
            Map.entry(new ArmCoreId(APPLE, 0x023), "Apple M1 Firestorm"),
            Map.entry(new ArmCoreId(APPLE, 0x032), "Apple M2 Blizzard"),
            Map.entry(new ArmCoreId(APPLE, 0x033), "Apple M2 Avalanche"),
            Map.entry(new ArmCoreId(AMPERE, 0xac3), "Ampere-1"),
            Map.entry(new ArmCoreId(AMPERE, 0xac4), "Ampere-1a"));

    public ArmCoreId {
        if (implementer < 0 || implementer > 0xff) {
            throw new BadInputException("implementer must be one byte: implementer=" + implementer);
        }
        if (part < 0 || part > 0xfff) {
            throw new BadInputException("part must be 12 bits: part=" + part);
        }
    }

    /** The core's marketing name, such as {@code Cortex-X925}, where the part is known. */
    public Optional<String> knownName() {
        return Optional.ofNullable(PARTS.get(this));
    }

    /** The known name, or {@code ARM part 0xd99} for a part this table does not know. */
    public String name() {
        return knownName().orElse(implementerName() + " part " + String.format("0x%03x", part));
    }

    public String implementerName() {
        return IMPLEMENTERS.getOrDefault(implementer, String.format("implementer 0x%02x", implementer));
    }

    /** {@code 0x41/0xd85}, as {@code lscpu} and cpuinfo print them. */
    @Override
    public String toString() {
        return String.format("0x%02x/0x%03x", implementer, part);
    }
}
