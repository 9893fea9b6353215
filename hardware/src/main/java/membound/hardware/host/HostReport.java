package membound.hardware.host;

import java.util.ArrayList;
import java.util.List;

import membound.vocabulary.units.Units;

/** The detected host as lines for people, in the order a reader checks them. */
public final class HostReport {

    private HostReport() {
    }

    public static List<String> lines(Host host) {
        List<String> lines = new ArrayList<>();
        CpuInfo cpu = host.cpu();
        lines.add("host       " + host.hostname() + " (" + host.os() + ", JDK " + host.jdk() + ")");
        lines.add("cpu        " + cpu.modelName() + " [" + cpu.vendor() + ", " + cpu.architecture() + "], "
                + host.logicalCpus() + " logical cpus, " + host.vectorBitWidth() + "-bit vectors");
        for (CoreType type : host.coreTypes()) {
            lines.add("core type  " + type.name() + type.armId().map(id -> " (" + id + ")").orElse("") + ": cpus "
                    + CpuList.format(type.cpus()) + (type.caches().isEmpty() ? "" : ", per core "
                    + String.join(", ", type.caches().stream().map(HostReport::shortCache).toList())));
        }
        for (CpuCluster cluster : host.clusters()) {
            lines.add("cluster    " + cluster.id() + ": cpus " + CpuList.format(cluster.cpus())
                    + (cluster.caches().isEmpty() ? "" : ", shared "
                    + String.join(", ", cluster.caches().stream().map(HostReport::shortCache).toList()))
                    + " (by " + cluster.basis() + ")");
        }
        for (Cache cache : host.caches()) {
            lines.add("cache      " + cache);
        }
        lines.add("memory     " + (host.memoryBytes() > 0 ? Units.formatBytes(host.memoryBytes()) : "unknown")
                + ", " + host.numaNodes() + " NUMA node" + (host.numaNodes() == 1 ? "" : "s")
                + ", transparent huge pages " + host.transparentHugePages());
        lines.add("platform   " + host.platform().map(p -> p.catalogId() + " (" + p.name() + "; " + p.evidence() + ")")
                .orElse("not recognised"));
        for (String warning : host.warnings()) {
            lines.add("warning    " + warning);
        }
        return lines;
    }

    private static String shortCache(Cache cache) {
        return "L" + cache.level() + (cache.type() == CacheType.DATA ? "d" : cache.type() == CacheType.INSTRUCTION
                ? "i" : "") + " " + Units.formatBytes(cache.sizeBytes());
    }
}
