package membound.hardware.host;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Recognises known platforms from the firmware's name and the cpu identifiers, DGX Spark first. The ids
 * it returns are ids of the datasheet catalog ({@code membound.hardware.catalog.Catalog}); a test keeps
 * the two in step.
 */
final class PlatformRecognizer {

    static final String DGX_SPARK = "dgx-spark";
    static final String GH200 = "gh200";
    static final String GRACE_SUPERCHIP = "grace-superchip";

    // GB10 has 10 Cortex-X925 and 10 Cortex-A725; a Grace socket has 72 Neoverse-V2 cores.
    private static final int GB10_CORES_PER_TYPE = 10;
    private static final int GRACE_CORES_PER_SOCKET = 72;

    private PlatformRecognizer() {
    }

    static Optional<PlatformMatch> recognize(Dmi dmi, List<CoreType> coreTypes, Map<Integer, Integer> packages) {
        // The Spark's firmware writes "NVIDIA_DGX_Spark"; compare with separators as spaces.
        String product = dmi.productName().toLowerCase(Locale.ROOT).replace('_', ' ').replace('-', ' ');
        if (product.contains("dgx spark")) {
            return Optional.of(new PlatformMatch(DGX_SPARK, "NVIDIA DGX Spark",
                    "DMI product_name \"" + dmi.productName() + "\""));
        }
        if (product.contains("gh200")) {
            return Optional.of(new PlatformMatch(GH200, "NVIDIA GH200 Grace Hopper Superchip",
                    "DMI product_name \"" + dmi.productName() + "\""));
        }
        int x925 = count(coreTypes, ArmCoreId.CORTEX_X925);
        int a725 = count(coreTypes, ArmCoreId.CORTEX_A725);
        if (x925 == GB10_CORES_PER_TYPE && a725 == GB10_CORES_PER_TYPE && coreTypes.size() == 2) {
            return Optional.of(new PlatformMatch(DGX_SPARK, "NVIDIA GB10 (DGX Spark or a GB10 system of another maker)",
                    "CPU parts 10x" + hex(ArmCoreId.CORTEX_X925) + " Cortex-X925 + 10x" + hex(ArmCoreId.CORTEX_A725)
                            + " Cortex-A725" + dmiNote(dmi)));
        }
        int v2 = count(coreTypes, ArmCoreId.NEOVERSE_V2);
        if (v2 > 0 && coreTypes.size() == 1) {
            Map<Integer, Integer> perSocket = new TreeMap<>();
            packages.values().forEach(p -> perSocket.merge(p, 1, Integer::sum));
            boolean graceSockets = perSocket.values().stream().allMatch(n -> n == GRACE_CORES_PER_SOCKET);
            String evidence = "CPU part " + v2 + "x" + hex(ArmCoreId.NEOVERSE_V2) + " Neoverse-V2 in "
                    + perSocket.size() + " package(s) of " + GRACE_CORES_PER_SOCKET + " cores" + dmiNote(dmi);
            if (graceSockets && perSocket.size() == 1) {
                return Optional.of(new PlatformMatch(GH200, "NVIDIA Grace (one socket, as in GH200)",
                        evidence + "; the GPU is not visible from the cpu side"));
            }
            if (graceSockets && perSocket.size() == 2) {
                return Optional.of(new PlatformMatch(GRACE_SUPERCHIP, "NVIDIA Grace CPU Superchip",
                        evidence + "; two GH200 or a GB200 board look the same from the cpu side, use --platform"));
            }
        }
        return Optional.empty();
    }

    private static int count(List<CoreType> coreTypes, ArmCoreId id) {
        return coreTypes.stream().filter(t -> t.armId().filter(id::equals).isPresent())
                .mapToInt(t -> t.cpus().size()).sum();
    }

    private static String hex(ArmCoreId id) {
        return String.format("0x%03x", id.part());
    }

    private static String dmiNote(Dmi dmi) {
        return dmi.productName().isEmpty() ? "" : " (DMI product_name \"" + dmi.productName() + "\")";
    }
}
