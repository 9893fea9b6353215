package membound.calibrator.imports;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import membound.profile.Host;
import membound.vocabulary.LinkKind;

/**
 * The kind of link a tool's output shows, and what in it shows so. {@code --link-kind} overrides it; where the
 * output shows nothing decisive there is none, and a new link needs {@code --link-kind}.
 *
 * <ul>
 *   <li>nccl-tests: ranks on several hosts crossed the network. On one host (every rank listed), the device
 *       names tell: a PCIe card ({@code A100 80GB PCIe}, {@code V100-PCIE-16GB}) talks over PCIe, an SXM or
 *       NVLink-only part ({@code A100-SXM4-40GB}, {@code H100 80GB HBM3}, H200, B200, GB200) over NVLink.</li>
 *   <li>nvbandwidth: GB10, GH200 and GB200 join CPU and GPU by NVLink-C2C (their datasheets); any other named GPU
 *       is on PCIe. With no device name, the profile's platform decides as for those three.</li>
 * </ul>
 *
 * @param kind the kind
 * @param from what in the output (or the profile) shows it
 */
record InferredLinkKind(LinkKind kind, String from) {

    private static final Pattern C2C_DEVICES = Pattern.compile("\\b(GB10|GH200|GB200)\\b");
    private static final Pattern PCIE_DEVICES = Pattern.compile("pcie", Pattern.CASE_INSENSITIVE);
    private static final Pattern NVLINK_DEVICES = Pattern.compile("SXM|HBM3|\\bH200\\b|\\bB200\\b|\\bGB200\\b");
    private static final Set<String> C2C_PLATFORMS = Set.of("dgx-spark", "gh200", "gb200");

    static Optional<InferredLinkKind> of(ImportedFigures figures, ImportFormat format, Host.Platform platform) {
        return switch (format) {
            case NCCL_TESTS -> collective(figures);
            case NVBANDWIDTH -> hostToDevice(figures.deviceName(), platform);
            default -> Optional.empty();
        };
    }

    private static Optional<InferredLinkKind> collective(ImportedFigures figures) {
        int hosts = figures.hosts().size();
        if (hosts > 1) {
            return Optional.of(new InferredLinkKind(LinkKind.NETWORK, "ranks on " + hosts + " hosts in the rank lines ("
                    + String.join(", ", figures.hosts().subList(0, Math.min(3, hosts))) + (hosts > 3 ? ", ..." : "")
                    + ")"));
        }
        String ranks = figures.settings().get("ranks");
        boolean everyRankListed = ranks != null && ranks.equals(figures.settings().get("rankLines"));
        String device = figures.deviceName();
        if (hosts != 1 || !everyRankListed || device == null) {
            return Optional.empty();
        }
        String where = "all " + ranks + " ranks on one host (" + figures.hosts().get(0) + "), devices " + device;
        if (PCIE_DEVICES.matcher(device).find()) {
            return Optional.of(new InferredLinkKind(LinkKind.PCIE, where + ": a PCIe card"));
        }
        if (NVLINK_DEVICES.matcher(device).find()) {
            return Optional.of(new InferredLinkKind(LinkKind.NVLINK, where + ": an SXM/NVLink part"));
        }
        return Optional.empty();
    }

    private static Optional<InferredLinkKind> hostToDevice(String device, Host.Platform platform) {
        if (device != null) {
            return Optional.of(C2C_DEVICES.matcher(device).find()
                    ? new InferredLinkKind(LinkKind.C2C, "device " + device + ": CPU and GPU joined by NVLink-C2C")
                    : new InferredLinkKind(LinkKind.PCIE, "device " + device + ": not GB10, GH200 or GB200, so PCIe"));
        }
        if (platform != null && C2C_PLATFORMS.contains(platform.id().toLowerCase(Locale.ROOT))) {
            return Optional.of(new InferredLinkKind(LinkKind.C2C, "the profile's platform " + platform.id()
                    + ": CPU and GPU joined by NVLink-C2C"));
        }
        return Optional.empty();
    }
}
