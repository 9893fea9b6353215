package membound.calibrator.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import membound.hardware.host.Cache;
import membound.hardware.host.CoreType;
import membound.hardware.host.CpuList;
import membound.hardware.host.Host;
import membound.profile.Host.Cpu;

/** The detected host, as a profile records it. */
public final class HostMapping {

    private HostMapping() {
    }

    public static membound.profile.Host toProfile(Host host) {
        List<membound.profile.Host.CoreType> coreTypes = new ArrayList<>();
        for (CoreType type : host.coreTypes()) {
            coreTypes.add(new membound.profile.Host.CoreType(type.name(), type.cpus().size(), cpuList(type.cpus())));
        }
        List<membound.profile.Host.Cache> caches = new ArrayList<>();
        for (Cache cache : host.caches()) {
            String coreType = null;
            if (host.heterogeneous() && !cache.sharedCpus().isEmpty()) {
                coreType = host.coreTypeOf(cache.sharedCpus().get(0))
                        .filter(type -> type.cpus().containsAll(cache.sharedCpus()))
                        .map(CoreType::name).orElse(null);
            }
            caches.add(new membound.profile.Host.Cache(Math.min(cache.level(), 4),
                    cache.type().name().toLowerCase(Locale.ROOT), cache.sizeBytes(), Math.max(1, cache.instances()),
                    Math.max(1, cache.cpusPerInstance()), coreType, cache.source()));
        }
        membound.profile.Host.Platform platform = host.platform()
                .map(match -> new membound.profile.Host.Platform(match.catalogId(), match.name(),
                        List.of(match.evidence())))
                .orElse(null);
        return new membound.profile.Host(host.hostname(),
                new Cpu(blankToNull(host.cpu().vendor()), blankToNull(host.cpu().modelName()),
                        host.cpu().architecture(), host.logicalCpus(), coreTypes),
                mergeDuplicates(caches), host.memoryBytes() > 0 ? host.memoryBytes() : null, host.numaNodes(),
                host.os(), host.jdk(), host.vectorBitWidth(), platform);
    }

    /** Caches of one level and type that per-core-type lists repeat are recorded once. */
    private static List<membound.profile.Host.Cache> mergeDuplicates(List<membound.profile.Host.Cache> caches) {
        return caches.stream().distinct().toList();
    }

    /** {@code 0-9,12}: the compact form Linux uses; null for no cpus, which the profile leaves out. */
    static String cpuList(List<Integer> cpus) {
        return cpus.isEmpty() ? null : CpuList.format(cpus);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }
}
