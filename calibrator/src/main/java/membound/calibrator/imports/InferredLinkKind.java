package membound.calibrator.imports;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import membound.profile.Host;
import membound.vocabulary.LinkKind;

/**
 * The kind of link a tool's output shows, and what in it shows so. {@code --link-kind} overrides it; where the
 * output shows nothing decisive there is none, and a new link is imported with kind {@code unknown} and a flag.
 *
 * <ul>
 *   <li>nccl-tests: ranks on several hosts, or NCCL's transport lines ({@code via NET/IB}), show the network. On one
 *       host (every rank listed), the device
 *       names tell: a PCIe card ({@code A100 80GB PCIe}, {@code V100-PCIE-16GB}) talks over PCIe, an SXM or
 *       NVLink-only part ({@code A100-SXM4-40GB}, {@code H100 80GB HBM3}, H200, B200, GB200) over NVLink. Else a
 *       bus bandwidth beyond any network port a GPU has, over ranks that fit one NVLink domain, shows NVLink.</li>
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
        String net = figures.settings().get("ncclTransportNet");
        String peer = figures.settings().get("ncclTransportPeer");
        if (net != null) {
            return Optional.of(new InferredLinkKind(LinkKind.NETWORK, "NCCL's transport lines (via " + net + ")"));
        }
        String ranks = figures.settings().get("ranks");
        boolean everyRankListed = ranks != null && ranks.equals(figures.settings().get("rankLines"));
        String device = figures.deviceName();
        if (hosts != 1 || !everyRankListed || device == null) {
            return beyondAnyNetwork(figures, ranks, peer);
        }
        String where = "all " + ranks + " ranks on one host (" + figures.hosts().get(0) + "), devices " + device;
        if (PCIE_DEVICES.matcher(device).find()) {
            return Optional.of(new InferredLinkKind(LinkKind.PCIE, where + ": a PCIe card"));
        }
        if (NVLINK_DEVICES.matcher(device).find()) {
            return Optional.of(new InferredLinkKind(LinkKind.NVLINK, where + ": an SXM/NVLink part"));
        }
        return beyondAnyNetwork(figures, ranks, peer);
    }

    /**
     * The most a network gives one GPU: two 400 Gb/s ports, 100 GB/s per direction (NDR InfiniBand and 400 GbE as
     * HGX and GB200 systems have them, one or two per GPU).
     */
    static final double NETWORK_CEILING_BYTES_PER_SECOND = 100e9;
    /** The most GPUs one NVLink domain joins: NVL72 (GB200/GB300 NVL72 racks). */
    static final int NVLINK_DOMAIN_RANKS = 72;

    /**
     * A bus bandwidth above what any network port gives one GPU can only have crossed NVLink, where the ranks fit
     * one NVLink domain (a single NVL72 rack, or fewer GPUs in one box); with more ranks the collective crossed
     * NVLink and a network, and no one kind carried it.
     */
    private static Optional<InferredLinkKind> beyondAnyNetwork(ImportedFigures figures, String ranks, String peer) {
        if (figures.linkBandwidth() == null || ranks == null) {
            return Optional.empty();
        }
        double busbw = figures.linkBandwidth().typical();
        int n = Integer.parseInt(ranks);
        if (busbw > NETWORK_CEILING_BYTES_PER_SECOND && n <= NVLINK_DOMAIN_RANKS) {
            return Optional.of(new InferredLinkKind(LinkKind.NVLINK, String.format(Locale.ROOT, "bus bandwidth "
                    + "%.0f GB/s over %d ranks: beyond any network port a GPU has (%.0f GB/s), within one NVLink "
                    + "domain (%d GPUs)%s", busbw / 1e9, n, NETWORK_CEILING_BYTES_PER_SECOND / 1e9,
                    NVLINK_DOMAIN_RANKS, peer != null ? "; NCCL's transport lines show " + peer : "")));
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
