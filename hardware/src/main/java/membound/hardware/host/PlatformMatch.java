package membound.hardware.host;

/**
 * A known platform recognised on the host.
 *
 * @param catalogId the id of its datasheet entry, such as {@code dgx-spark}
 * @param evidence  what was seen, such as {@code DMI product_name "NVIDIA DGX Spark"}
 */
public record PlatformMatch(String catalogId, String name, String evidence) {

    public PlatformMatch {
        catalogId = CpuInfo.requireText("catalogId", catalogId);
        name = CpuInfo.requireText("name", name);
        evidence = CpuInfo.requireText("evidence", evidence);
    }
}
